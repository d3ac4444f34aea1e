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
import {
  CARRIED as INJECT_SHELL_CARRIED,
  LOADED_FROM_SOURCE as INJECT_SHELL_FROM_SOURCE,
} from "../src/entry/bundle_inject_shell.ts";
import {
  CARRIED as STOP_CARRIED,
  CHUNKED as STOP_CHUNKED,
  LOADED_FROM_SOURCE,
} from "../src/entry/bundle_stop.ts";
import { MODULES as STOP_FILING_CHUNK } from "../src/entry/bundle_stop_filing.ts";
import { PERMISSION_FLAGS, V8_FLAGS } from "../src/permissions.ts";
import { denoDir, REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { listFiles, makeProject, stopEvent } from "./stop_fixtures.ts";
import { type ImportGraph, moduleState, reachable, readImportGraph } from "./import_graph.ts";

/** What each bundle carries, what its chunk holds, and what its hook loads from `src/` by design. */
const PLAN: Record<
  string,
  { carried: readonly string[]; chunked: readonly string[]; fromSource: readonly string[] }
> = {
  inject: { carried: Object.keys(INJECT_CARRIED), chunked: [], fromSource: INJECT_FROM_SOURCE },
  "inject --shell": {
    carried: Object.keys(INJECT_SHELL_CARRIED),
    chunked: [],
    fromSource: INJECT_SHELL_FROM_SOURCE,
  },
  stop: {
    carried: Object.keys(STOP_CARRIED),
    chunked: STOP_CHUNKED,
    fromSource: LOADED_FROM_SOURCE,
  },
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
      [...plan.carried, ...plan.chunked, ...plan.fromSource].sort(),
      [...loaded].sort(),
      bundle.entry,
    );
  }
});

Deno.test("the stop hook's filing chunk holds exactly the modules its bundle names to loadLater as chunked", () => {
  assert.deepEqual(Object.keys(STOP_FILING_CHUNK).sort(), [...STOP_CHUNKED].sort());
  for (const [srcPath, module] of Object.entries(STOP_FILING_CHUNK)) {
    assert.ok(Object.keys(module as object).length > 0, `${srcPath} exports something`);
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

Deno.test({
  name:
    "a filing turn files alike through the stop bundle's chunk (no src/ beside it), the bundle alone (src/ beside it), and the TypeScript entry",
  // the bundle alone finds src/ through a folder link
  ignore: skipOnWindows("links a folder"),
}, async () => {
  await using dir = await tempDir();
  const copyBundle = async (tree: string, files: string[]) => {
    await Deno.mkdir(join(tree, "hooks"), { recursive: true });
    for (const file of files) {
      await Deno.copyFile(join(REPO_ROOT, "bundles", file), join(tree, "hooks", file));
    }
    return join(tree, "hooks", "stop.js");
  };
  // with its chunk and no src/: the filing code can only come from the chunk
  const chunked = await copyBundle(join(dir.path, "chunked"), ["stop.js", "stop-filing.js"]);
  // without its chunk: the bundle loads the filing modules from src/ instead
  const alone = await copyBundle(join(dir.path, "alone"), ["stop.js"]);
  await Deno.symlink(join(REPO_ROOT, "src"), join(dir.path, "alone", "src"), { type: "dir" });
  const scratch = "## [TAG: src/api, type: patterns]\n- retry with jitter\n" +
    "## [TAG: global, type: tech]\n- use deno\n- keep hooks fast\n";
  const outcomes: { files: string[]; texts: string[] }[] = [];
  for (const [way, bundle] of [["chunk", chunked], ["alone", alone], ["entry", ""]] as const) {
    const p = await makeProject(join(dir.path, way), { "_memory_library/.scratch.md": scratch });
    const result = bundle ? await runBundle(bundle, p.root, p.home) : await runLibrarian(["stop"], {
      mode: "source",
      stdin: stopEvent(p.root),
      cwd: p.root,
      home: p.home,
      env: { LIBRARIAN_UNBUNDLED: "1" },
    });
    assert.equal(result.code, 0, `${way}: ${result.stderr}`);
    assert.equal(result.stderr, "", way);
    const files = await listFiles(p.lib);
    const texts = await Promise.all(files.map((f) => Deno.readTextFile(join(p.lib, f))));
    outcomes.push({ files, texts });
  }
  assert.deepEqual(outcomes[0]!.files, [".scratch.md", "src/api/patterns.md", "tech.md"]);
  assert.match(outcomes[0]!.texts[1]!, /retry with jitter/);
  assert.deepEqual(outcomes[1], outcomes[0], "the bundle alone");
  assert.deepEqual(outcomes[2], outcomes[0], "the TypeScript entry");
});

/** Runs a copy of the stop bundle as the launcher does (its permissions and V8 flags). */
async function runBundle(
  bundle: string,
  cwd: string,
  home: string,
): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", ...PERMISSION_FLAGS, ...V8_FLAGS, bundle],
    cwd,
    // as runLibrarian: a clean environment, this suite's Deno cache
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, DENO_DIR: await denoDir() },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stopEvent(cwd)));
  await writer.close();
  const out = await child.output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * What goes wrong when a bundle and the modules its hook loads from `src/` each hold a copy of a
 * module: the copies share no state, and a class of one is not the class of the other. For the
 * modules in `held` (a bundle's) whose copies `graph` says are loaded from `src/` too, one sentence
 * per top-level state and per class some module of either side checks with `instanceof`.
 */
function copiesThatDiffer(
  graph: ImportGraph,
  held: ReadonlySet<string>,
  text: (module: string) => string,
): { shared: string[]; problems: string[] } {
  // loaded later and not carried: from src/; main.ts runs only by hand, everything then from src/
  const roots = graph.edges
    .filter((e) => e.kind === "loadLater" && held.has(e.from) && !held.has(e.to))
    .map((e) => e.to)
    .filter((module) => module !== "main.ts");
  const fromSource = reachable(graph, roots);
  const shared = [...held].filter((module) => fromSource.has(module)).sort();
  const checked = new Set(
    [...held, ...fromSource].flatMap((module) => moduleState(module, text(module)).instanceOf),
  );
  const problems: string[] = [];
  for (const module of shared) {
    const { state, classes } = moduleState(module, text(module));
    for (const what of state) problems.push(`${module}: ${what}, one in each copy`);
    for (const name of classes.filter((c) => checked.has(c))) {
      problems.push(`${module}: class ${name}, checked with instanceof, one in each copy`);
    }
  }
  return { shared, problems };
}

Deno.test("a module both a bundle and what its hook loads from src/ hold keeps no state and no checked class", async () => {
  const src = join(REPO_ROOT, "src");
  const graph = await readImportGraph(src);
  const texts = new Map<string, string>();
  const text = (module: string) => texts.get(module)!;
  for (const module of graph.modules) {
    texts.set(module, await Deno.readTextFile(join(src, module)));
  }
  for (const bundle of HOOK_BUNDLES) {
    const held = new Set((await startupGraph(bundle.entry)).filter((m) => m.endsWith(".ts")));
    const { shared, problems } = copiesThatDiffer(graph, held, text);
    assert.deepEqual(problems, [], `${bundle.file}: keep this state out of ${shared.join(", ")}`);
    if (bundle.name === "stop") assert.ok(shared.includes("core/errors.ts"), shared.join(", "));
  }
});

Deno.test("a shared module with a top-level let, a container or a checked class is reported", () => {
  const graph: ImportGraph = {
    modules: ["entry/b.ts", "core/x.ts", "core/y.ts", "filing/later.ts"],
    edges: [
      { from: "entry/b.ts", to: "core/x.ts", kind: "static", local: true },
      { from: "entry/b.ts", to: "core/y.ts", kind: "static", local: true },
      { from: "entry/b.ts", to: "filing/later.ts", kind: "loadLater", local: true },
      { from: "filing/later.ts", to: "core/x.ts", kind: "static", local: true },
    ],
    hidden: [],
  };
  const texts: Record<string, string> = {
    "entry/b.ts": "",
    "core/x.ts": [
      "let warned = false;",
      "export const seen = new Map();",
      "const RULES = Object.freeze([1, 2]);",
      "export class Busy extends Error {}",
      "export class Plain {}",
    ].join("\n"),
    "core/y.ts": "let alone = 0;",
    "filing/later.ts": "if (e instanceof Busy) {}",
  };
  const held = new Set(["entry/b.ts", "core/x.ts", "core/y.ts"]);
  assert.deepEqual(copiesThatDiffer(graph, held, (m) => texts[m]!), {
    shared: ["core/x.ts"],
    problems: [
      "core/x.ts: let warned, one in each copy",
      "core/x.ts: const seen (a container), one in each copy",
      "core/x.ts: class Busy, checked with instanceof, one in each copy",
    ],
  });
});
