/**
 * The bundled hooks that the launcher runs in source mode (`bundles/inject.js`,
 * `bundles/inject-shell.js`, `bundles/stop.js` in a checkout; `hooks/*.js` in the release tree):
 * each is byte for byte a fresh build of the current sources, carries every module its hook loads
 * later or loads it from `src/` by design, and runs a hook event the same way as the hook's
 * TypeScript entry module. When the launcher runs one: tests/launcher_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bundleDifferences,
  HOOK_BUNDLES,
  startupGraph,
  writeBundles,
} from "../scripts/bundle_hooks.ts";
import {
  CARRIED as INJECT_CARRIED,
  LOADED_FROM_SOURCE as INJECT_FROM_SOURCE,
} from "../src/entry/bundle_inject.ts";
import { CARRIED as INJECT_SHELL_CARRIED } from "../src/entry/bundle_inject_shell.ts";
import { CARRIED as STOP_CARRIED, LOADED_FROM_SOURCE } from "../src/entry/bundle_stop.ts";
import { REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";

/** What each bundle carries, and what its hook loads from `src/` by design. */
const PLAN: Record<string, { carried: readonly string[]; fromSource: readonly string[] }> = {
  inject: { carried: Object.keys(INJECT_CARRIED), fromSource: INJECT_FROM_SOURCE },
  "inject --shell": { carried: Object.keys(INJECT_SHELL_CARRIED), fromSource: [] },
  stop: { carried: Object.keys(STOP_CARRIED), fromSource: LOADED_FROM_SOURCE },
};

/** `loadLater("x/y.ts")` calls (with or without a type argument) in a module's source. */
const LOAD_LATER_CALL = /loadLater(?:<typeof import\("[^"]+"\)>)?\(\s*"([^"]+)"/g;

Deno.test("every bundle in bundles/ is byte for byte a fresh build of the current sources (else: deno task bundle)", async () => {
  assert.deepEqual(await bundleDifferences(), []);
});

Deno.test("a bundle whose body differs from a fresh build by one string is reported", async () => {
  await using dir = await tempDir();
  await writeBundles(dir.path);
  assert.deepEqual(await bundleDifferences(dir.path), []);
  const stop = join(dir.path, "stop.js");
  const text = await Deno.readTextFile(stop);
  // one string of the auto-memory reader, deep in the body, far from the header
  const from = '"it belongs to another memory folder"';
  assert.ok(text.indexOf(from) > text.length / 3, "the string sits in the bundle's body");
  await Deno.writeTextFile(stop, text.replace(from, '"it belongs to another memory-folder"'));
  assert.deepEqual(await bundleDifferences(dir.path), [
    `${stop} differs from a fresh build of the current sources: run deno task bundle`,
  ]);
  await Deno.remove(join(dir.path, "inject.js"));
  assert.deepEqual((await bundleDifferences(dir.path)).sort(), [
    `${join(dir.path, "inject.js")} is missing: run deno task bundle`,
    `${stop} differs from a fresh build of the current sources: run deno task bundle`,
  ]);
});

Deno.test("every module a bundled hook loads later is carried or loaded from src/ by design", async () => {
  for (const bundle of HOOK_BUNDLES) {
    const loaded = new Set<string>();
    for (const module of await startupGraph(bundle.entry)) {
      if (!module.endsWith(".ts")) continue;
      const text = await Deno.readTextFile(join(REPO_ROOT, "src", module));
      const code = text.replace(/\/\*[\s\S]*?\*\//g, ""); // not the doc examples
      for (const match of code.matchAll(LOAD_LATER_CALL)) loaded.add(match[1]!);
    }
    // main.ts answers a person at a terminal or with options; no hook event needs it
    loaded.delete("main.ts");
    const plan = PLAN[bundle.name]!;
    assert.deepEqual(
      [...plan.carried, ...plan.fromSource].sort(),
      [...loaded].sort(),
      bundle.entry,
    );
  }
});

Deno.test("each inject bundle and the hook's TypeScript entry answer an event alike", async () => {
  await using dir = await tempDir();
  const project = dir.path;
  await Deno.mkdir(join(project, "_memory_library", "src"), { recursive: true });
  await Deno.writeTextFile(join(project, "_memory_library", "src", "patterns.md"), "- use X\n");
  const events = {
    Bash: { tool_name: "Bash", tool_input: { command: "sed -i s/a/b/ src/app.ts" } },
    Edit: { tool_name: "Edit", tool_input: { file_path: join(project, "src", "app.ts") } },
  };
  // hooks/inject.js (a Bash event loads the shell-command reader from src/), the bundle that
  // carries the reader (`inject --shell`, how hooks.json wires Bash), and the TypeScript entry
  const runs: [string, string[], string][] = [
    ["bundle", ["inject"], "0"],
    ["shell bundle", ["inject", "--shell"], "0"],
    ["TypeScript entry", ["inject"], "1"],
  ];
  for (const [tool, fields] of Object.entries(events)) {
    const outputs: string[] = [];
    for (const [name, command, unbundled] of runs) {
      const event = JSON.stringify({
        session_id: `bundle-${tool}-${name}`,
        hook_event_name: "PreToolUse",
        ...fields,
        cwd: project,
      });
      const result = await runLibrarian(command, {
        mode: "source",
        stdin: event,
        cwd: project,
        home: project,
        env: { LIBRARIAN_UNBUNDLED: unbundled },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, "", `${tool}, ${name}`);
      outputs.push(result.stdout);
    }
    assert.match(outputs[0]!, /use X/, tool);
    assert.equal(outputs[1], outputs[0], `${tool}: the shell bundle`);
    assert.equal(outputs[2], outputs[0], `${tool}: the TypeScript entry`);
  }
});
