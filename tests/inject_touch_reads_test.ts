/**
 * A touch's attempts share one read of its library files (`src/inject/file_context.ts`
 * `touchContext`), in process: a held first write stats and reads each library file once, however
 * many times its context is rendered (the hold's, without the hint, the decision without the
 * hold), and decides exactly what rendering a fresh read for every attempt decides.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import {
  decideFileContext,
  type FileLocation,
  locateFileContext,
  touchContext,
} from "../src/inject/file_context.ts";
import { emptyLedger, type Ledger } from "../src/inject/ledger_format.ts";
import { decideTouch, type Touch } from "../src/inject/touch.ts";
import type { Decision } from "../src/inject/window.ts";
import { tempProject } from "./helpers.ts";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: deno 2\n",
  "proj/_memory_library/src/edge.md": "# Src\n- SRC-EDGE: results, never throws.\n",
  "proj/_memory_library/src/api/patterns.md": "# API\n- API-PATTERNS: handlers return results.\n"
    .repeat(20),
  "proj/src/api/x.ts": "export const X = 1;\n",
};

/** A Write into src/api (the tagging hint due), its context made by `contextFor`. */
function writeTouch(
  location: FileLocation,
  contextFor: Touch["contextFor"],
): Touch {
  return {
    tool: "Write",
    location,
    target: { folder: "src/api", tag: () => "src/api", scratchPath: "_memory_library/.scratch.md" },
    written: ["src/api"],
    ledgerOn: true,
    contextFor,
  };
}

function located(root: string): FileLocation & { kind: "located" } {
  const location = locateFileContext(`${root}/src/api/x.ts`, { env: envFrom({}), tool: "Write" });
  assert.ok(location.kind === "located");
  return location;
}

/** How often each path under `folder` is stat'ed, opened or read while `run` runs. */
function fileCalls(folder: string, run: () => void): Map<string, number> {
  const calls = new Map<string, number>();
  const count = (path: string | URL) => {
    const name = String(path);
    if (name.startsWith(folder)) calls.set(name, (calls.get(name) ?? 0) + 1);
  };
  const { statSync, lstatSync, readFileSync, openSync } = Deno;
  Deno.statSync = (path) => (count(path), statSync(path));
  Deno.lstatSync = (path) => (count(path), lstatSync(path));
  Deno.readFileSync = (path) => (count(path), readFileSync(path));
  Deno.openSync = (path, options) => (count(path), openSync(path, options));
  try {
    run();
  } finally {
    Object.assign(Deno, { statSync, lstatSync, readFileSync, openSync });
  }
  return calls;
}

/** A decision with the one without its hold made, to compare whole. */
function made(decision: Decision): unknown {
  return { ...decision, unheld: decision.unheld?.() };
}

function ledger(update: Partial<Ledger> = {}): Ledger {
  return { ...emptyLedger(), files: {}, ...update };
}

Deno.test("a held first write stats and reads each library file once, whatever its attempts render", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const location = located(p.root);
  const library = `${location.library.root}/`;
  const paths = location.files.map((f) => f.absPath).sort();
  assert.equal(paths.length, 3);
  // roomy: held with the hint, then the decision without the hold asked for too
  const roomy = fileCalls(library, () => {
    const held = decideTouch(writeTouch(location, touchContext(location, 9000)), ledger(), true);
    assert.equal(held.outcome.result, "held");
    assert.equal(held.unheld?.().outcome.result, "injected");
  });
  assert.deepEqual([...roomy.keys()].sort(), paths);
  for (const [path, n] of roomy) assert.equal(n, 2, `${path}: one stat and one read`);
  // every budget from tiny to roomy: held with the hint, held without it, or through
  const seen = new Set<string>();
  for (let budget = 200; budget <= 3000; budget += 25) {
    const calls = fileCalls(library, () => {
      const decision = decideTouch(
        writeTouch(location, touchContext(location, budget)),
        ledger(),
        true,
      );
      decision.unheld?.();
      seen.add(`${decision.outcome.result}:${decision.outcome.hint ?? "-"}`);
    });
    for (const [path, n] of calls) assert.ok(n <= 2, `budget ${budget}, ${path}: ${n} calls`);
  }
  assert.ok(
    seen.has("held:src/api") && seen.has("held:-") && seen.has("injected:src/api"),
    [
      ...seen,
    ].join(" "),
  );
});

Deno.test("a touch's shared read decides what a fresh read for every attempt decides", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const location = located(p.root);
  const fresh = (budget: number): Touch["contextFor"] => (sent, ending, reserved) =>
    decideFileContext(location, budget, sent, { ending, reserved });
  const first = decideTouch(writeTouch(location, fresh(9000)), ledger(), true);
  const sentOnce = ledger({ files: first.record?.files ?? {} });
  const apiOnly = ledger({
    files: Object.fromEntries(
      Object.entries(first.record?.files ?? {}).filter(([path]) => !path.includes("/src/api/")),
    ),
  });
  for (let budget = 200; budget <= 3000; budget += 25) {
    for (
      const [name, window, recorded] of [
        ["first write", ledger(), true],
        ["hold not recordable", ledger(), false],
        ["all sent", sentOnce, true],
        ["only the folder's notes new", apiOnly, true],
        ["hinted before", ledger({ hinted: ["src/api"] }), true],
      ] as const
    ) {
      const shared = decideTouch(
        writeTouch(location, touchContext(location, budget)),
        window,
        recorded,
      );
      const each = decideTouch(writeTouch(location, fresh(budget)), window, recorded);
      assert.deepEqual(made(shared), made(each), `${name}, budget ${budget}`);
    }
  }
});
