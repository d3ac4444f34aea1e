/**
 * The layers of `src/`, checked on the real import graph (tests/import_graph.ts): every module
 * imports downwards only (static and dynamic imports, `typeof import()` and `loadLater("x/y.ts")`
 * alike), never a sibling of its own layer, and no modules import each other in a cycle.
 * `docs/architecture.md` draws exactly these layers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  cycles,
  type ImportGraph,
  type Layers,
  layerViolations,
  moduleEdges,
  readImportGraph,
} from "./import_graph.ts";
import { REPO_ROOT, tempDir } from "./helpers.ts";

/** The layers, lowest first; units of one layer do not import each other. */
const LAYERS: Layers = [
  ["version.ts", "permissions.ts"],
  ["core/"],
  ["format/"],
  ["git/", "cli/", "shell/"],
  ["automemory/"],
  ["filing/", "inject/"],
  ["stop/"],
  ["commands/"],
  ["export/"],
  ["import/", "setup/"],
  ["command_table.ts"],
  ["main.ts"],
  ["entry/"],
];

/** The only call allowed to name its target at run time: the loader itself. */
const COMPUTED_TARGETS = [
  "core/load_later.ts: import() with a target that is not a string literal",
];

const SRC = join(REPO_ROOT, "src");

/**
 * The products beside the core, each a folder of its own: `import`, `export` (the command, the
 * formats, and the re-export after filing) and install/setup (`setup-hooks`, `setup-gemini`,
 * `install-cli`). Only the program (the command table, `main.ts`, the entry modules) loads them.
 */
const PRODUCTS = ["import/", "export/", "setup/"];

/** The program's top, above the core and the products: it reaches every command. */
const PROGRAM = /^(entry\/|main\.ts$|command_table\.ts$)/;

/**
 * The only edges from the core into a product (`from → to`, any kind), each for a reason; they are
 * also the only edges allowed to go up a layer.
 */
const PRODUCT_EDGES: readonly string[] = [
  // re-export after filing is a Stop step, loaded only when due; `route` files the same way
  "stop/steps/re_export_step.ts → export/after_filing.ts",
  "commands/route_command.ts → export/mod.ts",
  // `init --export` checks and records the formats the Stop hook re-exports; `lint` leaves the
  // export record alone (acted on, not stray)
  "commands/init.ts → export/mod.ts",
  "commands/lint/lint.ts → export/mod.ts",
  // `doctor` and `status` read the hook wiring and the installation that setup writes; `doctor`
  // and `lint` quote their fixes as setup quotes hook commands
  "commands/doctor/doctor_checks.ts → setup/mod.ts",
  "commands/lint/lint.ts → setup/mod.ts",
  "commands/status/status.ts → setup/mod.ts",
  // `lint` and `doctor` name the native memory files the library doubles (what import reads), and
  // `lint` holds back secret lines as import does
  "commands/doctor/native_check.ts → import/mod.ts",
  "commands/lint/lint.ts → import/mod.ts",
  "commands/lint/lint_checks.ts → import/mod.ts",
];

function withoutComputed(problems: string[]): string[] {
  return problems.filter((problem) => !COMPUTED_TARGETS.includes(problem));
}

/**
 * A copy of src/'s modules under `parent`, and a way to put a line at the top of one of them (for
 * tests that show the checks fail on an import planted in the copy).
 */
async function copyOfSrc(parent: string) {
  const copy = join(parent, "src");
  for (const module of (await readImportGraph(SRC)).modules) {
    await Deno.mkdir(join(copy, module, ".."), { recursive: true });
    await Deno.copyFile(join(SRC, module), join(copy, module));
  }
  const inject = async (module: string, line: string) => {
    const path = join(copy, module);
    await Deno.writeTextFile(path, `${line}\n${await Deno.readTextFile(path)}`);
  };
  return { copy, inject };
}

Deno.test("src/ imports downwards only, never a sibling layer, with no cycle", async () => {
  const graph = await readImportGraph(SRC);
  assert.ok(graph.edges.length > 500, "the whole graph was read");
  assert.ok(graph.edges.some((e) => e.kind === "loadLater" && e.to === "filing/route.ts"));
  assert.deepEqual(withoutComputed(layerViolations(graph, LAYERS, PRODUCT_EDGES)), []);
});

/** Each edge from a core module into a product that is not listed, as `a → b (kind)`. */
function coreImportingProducts(graph: ImportGraph): string[] {
  const product = (module: string) => PRODUCTS.find((folder) => module.startsWith(folder));
  return graph.edges
    .filter((e) => e.local && product(e.to) && !product(e.from) && !PROGRAM.test(e.from))
    .filter((e) => !PRODUCT_EDGES.includes(`${e.from} → ${e.to}`))
    .map((e) => `${e.from} → ${e.to} (${e.kind})`);
}

Deno.test("the core imports neither import/, export/ nor setup/, except the listed edges", async () => {
  const graph = await readImportGraph(SRC);
  for (const folder of PRODUCTS) {
    assert.ok(graph.modules.some((m) => m.startsWith(folder)), `${folder} is read`);
  }
  for (const edge of PRODUCT_EDGES) {
    const [from, to] = edge.split(" → ");
    assert.ok(graph.edges.some((e) => e.from === from && e.to === to), `${edge} still exists`);
  }
  assert.deepEqual(coreImportingProducts(graph), []);
});

Deno.test("a core module that imports a product, whatever the kind, fails the check", async () => {
  await using dir = await tempDir();
  const { copy, inject } = await copyOfSrc(dir.path);
  await inject("filing/route.ts", 'import { runExport } from "../export/export_run.ts";');
  await inject("stop/pipeline.ts", 'import type { ExportReport } from "../export/export_run.ts";');
  await inject(
    "inject/hint.ts",
    'const later = () => loadLater<typeof import("../setup/hook_merge.ts")>("setup/hook_merge.ts");',
  );
  await inject("commands/status/status.ts", 'const i = () => import("../../import/import.ts");');
  const graph = await readImportGraph(copy);
  assert.deepEqual(coreImportingProducts(graph).sort(), [
    "commands/status/status.ts → import/import.ts (dynamic)",
    "filing/route.ts → export/export_run.ts (static)",
    "inject/hint.ts → setup/hook_merge.ts (loadLater)",
    "inject/hint.ts → setup/hook_merge.ts (type)",
    "stop/pipeline.ts → export/export_run.ts (type)",
  ]);
  // the layer check names them too: a product sits above the core
  const problems = layerViolations(graph, LAYERS, PRODUCT_EDGES);
  assert.ok(
    problems.includes(
      "filing/route.ts → export/export_run.ts (static): filing/ imports export/, a higher layer",
    ),
    problems.join("\n"),
  );
});

/** The folder (`core/`) a module is in, or `null` for a module at the top of `src/`. */
function folderOf(module: string): string | null {
  const slash = module.indexOf("/");
  return slash === -1 ? null : module.slice(0, slash + 1);
}

/**
 * The modules a hook may load: what the entry modules reach through any code edge (static,
 * dynamic, `loadLater`), short of `main.ts` (a hook run by hand). They import the modules inside
 * a folder directly: a door loads its whole folder, so in source mode a hook would load modules it
 * does not run (tests/hook_module_graph_test.ts names what each hook must not load).
 */
function hookModules(graph: ImportGraph): Set<string> {
  const entries = graph.modules.filter((m) => m.startsWith("entry/"));
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (!edge.local || edge.kind === "type" || edge.to === "main.ts") continue;
    next.set(edge.from, [...next.get(edge.from) ?? [], edge.to]);
  }
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const module = todo.pop()!;
    if (seen.has(module)) continue;
    seen.add(module);
    todo.push(...next.get(module) ?? []);
  }
  return seen;
}

/**
 * Each edge into a folder from outside it that does not go through the folder's door, its
 * `mod.ts`, as `a → b (kind)`. Exempt: the program (entry modules, `main.ts`, the command table),
 * the modules a hook may load ({@link hookModules}), and a module loaded later (`loadLater`, with
 * the `typeof import()` that types it), which is a door of its own: loading it loads only its graph.
 */
function doorViolations(graph: ImportGraph): string[] {
  const hooks = hookModules(graph);
  const later = new Set(
    graph.edges.filter((e) => e.kind === "loadLater").map((e) => `${e.from} → ${e.to}`),
  );
  return graph.edges.filter((edge) => {
    const folder = folderOf(edge.to);
    if (!edge.local || folder === null || edge.from.startsWith(folder)) return false;
    if (edge.to === `${folder}mod.ts` || PROGRAM.test(edge.from) || hooks.has(edge.from)) {
      return false;
    }
    const lazy = edge.kind === "loadLater" || edge.kind === "type";
    return !(lazy && later.has(`${edge.from} → ${edge.to}`));
  }).map((e) => `${e.from} → ${e.to} (${e.kind})`);
}

/**
 * The folders with a door (`mod.ts`: only re-exports of what other folders use). The others are
 * used from outside only by the program, the hooks and `loadLater`: `commands/`, `entry/`,
 * `shell/`, `stop/`.
 */
const DOORS = [
  "automemory/",
  "cli/",
  "core/",
  "export/",
  "filing/",
  "format/",
  "git/",
  "import/",
  "inject/",
  "setup/",
];

Deno.test("a module outside a folder imports only its mod.ts (the hooks and loadLater aside)", async () => {
  const graph = await readImportGraph(SRC);
  const doors = graph.modules.filter((m) => m.endsWith("/mod.ts")).map((m) => folderOf(m)!);
  assert.deepEqual(doors, DOORS);
  for (const folder of DOORS) {
    const door = `${folder}mod.ts`;
    const text = await Deno.readTextFile(join(SRC, door));
    const code = text.replace(/\/\*\*[\s\S]*?\*\//g, "").replace(
      /export \{[^}]*\} from "\.\/[\w.]+";/g,
      "",
    );
    assert.equal(code.trim(), "", `${door} holds only re-exports of its own folder's modules`);
    assert.ok(graph.edges.some((e) => e.to === door), `${door} is used`);
  }
  assert.deepEqual(doorViolations(graph), []);
});

Deno.test("a module that reaches past a folder's door, whatever the kind, fails the check", async () => {
  await using dir = await tempDir();
  const { copy, inject } = await copyOfSrc(dir.path);
  await inject("commands/lint/lint.ts", 'import { parseScratch } from "../../format/scratch.ts";');
  await inject("setup/hook_merge.ts", 'import type { Json } from "../core/json.ts";');
  await inject("import/suggest.ts", 'const run = () => import("../export/export_run.ts");');
  // loaded later: a door of its own
  await inject(
    "commands/tidy/tidy.ts",
    'const make = () => loadLater<typeof import("../../git/stale_make.ts")>("git/stale_make.ts");',
  );
  const graph = await readImportGraph(copy);
  assert.ok(hookModules(graph).has("inject/inject_hook.ts"), "the hooks' modules are exempt");
  assert.deepEqual(doorViolations(graph).sort(), [
    "commands/lint/lint.ts → format/scratch.ts (static)",
    "import/suggest.ts → export/export_run.ts (dynamic)",
    "setup/hook_merge.ts → core/json.ts (type)",
  ]);
});

Deno.test("src/ imports no npm package: every module it reaches outside src/ is a node: built-in", async () => {
  // In source mode an npm package is a download the first time it is loaded (issue 31: `import`
  // fetched `yaml` and failed offline). A bare name ("yaml") is an npm package by deno.json.
  const graph = await readImportGraph(SRC);
  const outside = graph.edges.filter((edge) => !edge.local && !edge.to.startsWith("node:"));
  assert.deepEqual(outside.map((edge) => `${edge.from} → ${edge.to} (${edge.kind})`), []);
  assert.ok(graph.edges.some((edge) => edge.to === "node:util"), "outside edges are read");
});

/**
 * The filing core: routing, its plan, the journal, the lock and the scratch rewrite. `librarian
 * route`, `import` and the Stop hook's routing step all run it.
 */
const FILING_CORE = [
  "filing/route.ts",
  "filing/route_plan.ts",
  "filing/journal.ts",
  "filing/library_lock.ts",
  "filing/scratch_rewrite.ts",
];

/** The Stop hook's optional steps (src/stop/steps/) and the code only they run. */
const OPTIONAL_STEP =
  /^(stop\/|automemory\/sync\.ts$|git\/stale_(check|extend|refresh)\.ts$|export\/after_filing\.ts$|filing\/(over_share|nested|stop_nudge|nudge|nudge_reason|subagent_changes|subagent_note)\.ts$)/;

/** Each way a filing-core module reaches an optional step, through any edge, as `a → b → c`. */
function coreReachingSteps(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const core of FILING_CORE) {
    const via = new Map<string, string>([[core, core]]);
    const todo = [core];
    while (todo.length > 0) {
      const from = todo.shift()!;
      for (const edge of graph.edges) {
        if (edge.from !== from || !edge.local || via.has(edge.to)) continue;
        via.set(edge.to, `${via.get(from)} → ${edge.to}`);
        if (OPTIONAL_STEP.test(edge.to)) found.push(via.get(edge.to)!);
        else todo.push(edge.to);
      }
    }
  }
  return found;
}

Deno.test("the filing core reaches none of the Stop hook's optional steps", async () => {
  const graph = await readImportGraph(SRC);
  for (const core of FILING_CORE) assert.ok(graph.modules.includes(core), core);
  assert.ok(graph.modules.some((m) => m.startsWith("stop/steps/")), "the steps are read");
  assert.deepEqual(coreReachingSteps(graph), []);
});

Deno.test("a filing-core module that imports an optional step, even through another, fails the check", async () => {
  await using dir = await tempDir();
  const { copy, inject } = await copyOfSrc(dir.path);
  await inject("filing/route_plan.ts", 'import type { NUDGE } from "../stop/steps/nudge_step.ts";');
  await inject(
    "filing/journal.ts",
    'const later = () => loadLater<typeof import("./over_share.ts")>("filing/over_share.ts");',
  );
  const found = coreReachingSteps(await readImportGraph(copy));
  assert.ok(found.includes("filing/route_plan.ts → stop/steps/nudge_step.ts"), found.join("\n"));
  assert.ok(found.includes("filing/journal.ts → filing/over_share.ts"), found.join("\n"));
  // route.ts imports route_plan.ts: the step is reached through it
  assert.ok(
    found.includes("filing/route.ts → filing/route_plan.ts → stop/steps/nudge_step.ts"),
    found.join("\n"),
  );
});

Deno.test("every edge a module writes is read: imports, re-exports, import(), typeof import(), loadLater()", () => {
  const text = [
    "/** @example",
    ' * import { notAnEdge } from "../commands/x.ts";',
    " */",
    'import { a } from "./a.ts";',
    'import type { B } from "../format/b.ts";',
    'export { c } from "./c.ts";',
    'export * from "../git/d.ts";',
    'const e = await import("./e.ts");',
    'const f = await loadLater<typeof import("../filing/f.ts")>("filing/f.ts");',
    'const g = await import(`./${"g"}.ts`);',
    'import { join } from "node:path";',
    'import json from "../../hooks/hooks.json" with { type: "json" };',
    "const s = \"import('./not-an-edge.ts')\";",
  ].join("\n");
  const { edges, hidden } = moduleEdges("core/x.ts", text);
  assert.deepEqual(
    edges.map((e) => `${e.kind} ${e.to}${e.local ? "" : " (external)"}`),
    [
      "static core/a.ts",
      "type format/b.ts",
      "static core/c.ts",
      "static git/d.ts",
      "dynamic core/e.ts",
      "loadLater filing/f.ts",
      "type filing/f.ts",
      "static node:path (external)",
    ],
  );
  assert.deepEqual(hidden, ["core/x.ts: import() with a target that is not a string literal"]);
});

Deno.test("an upward import injected into a copy of src/ fails the check, whatever its kind", async () => {
  await using dir = await tempDir();
  const { copy, inject } = await copyOfSrc(dir.path);
  await inject("core/paths.ts", 'import { COMMANDS } from "../command_table.ts";');
  await inject(
    "format/tag_line.ts",
    'const later = () => loadLater<typeof import("../filing/route.ts")>("filing/route.ts");',
  );
  await inject("inject/hint.ts", 'const filing = () => import("../filing/route.ts");');
  const graph = await readImportGraph(copy);
  const problems = withoutComputed(layerViolations(graph, LAYERS, PRODUCT_EDGES));
  assert.deepEqual(problems.filter((p) => !p.startsWith("import cycle")).sort(), [
    "core/paths.ts → command_table.ts (static): core/ imports command_table.ts, a higher layer",
    "format/tag_line.ts → filing/route.ts (loadLater): format/ imports filing/, a higher layer",
    "format/tag_line.ts → filing/route.ts (type): format/ imports filing/, a higher layer",
    "inject/hint.ts → filing/route.ts (dynamic): inject/ imports filing/, its sibling",
  ]);
  // command_table.ts reaches core/paths.ts through the commands: the upward edge closes a cycle
  const cycle = problems.filter((p) => p.startsWith("import cycle"));
  assert.equal(cycle.length, 1, cycle.join("\n"));
  assert.match(cycle[0]!, /command_table\.ts, .*core\/paths\.ts/);
});

Deno.test("the checker names modules in no layer, missing targets, computed targets and cycles", () => {
  const graph: ImportGraph = {
    modules: ["core/a.ts", "core/b.ts", "core/c.ts", "stray.ts"],
    edges: [
      { from: "core/a.ts", to: "core/b.ts", kind: "static", local: true },
      { from: "core/b.ts", to: "core/c.ts", kind: "type", local: true },
      { from: "core/c.ts", to: "core/a.ts", kind: "loadLater", local: true },
      { from: "core/a.ts", to: "core/gone.ts", kind: "loadLater", local: true },
      { from: "core/a.ts", to: "node:path", kind: "static", local: false },
    ],
    hidden: ["core/a.ts: import() with a target that is not a string literal"],
  };
  assert.deepEqual(cycles(graph), [["core/a.ts", "core/b.ts", "core/c.ts"]]);
  assert.deepEqual(layerViolations(graph, [["core/"]]), [
    "core/a.ts: import() with a target that is not a string literal",
    "stray.ts is in no layer",
    "core/a.ts → core/gone.ts (loadLater): no such module under src/",
    "import cycle among core/a.ts, core/b.ts, core/c.ts",
  ]);
});

Deno.test("docs/architecture.md draws exactly the layers this test enforces", async () => {
  const doc = await Deno.readTextFile(join(REPO_ROOT, "docs", "architecture.md"));
  const block = doc.split("<!-- layers: tests/layers_test.ts -->\n")[1]?.split("```")[1];
  assert.ok(block, "architecture.md has the layers block");
  const drawn = block.split("\n").slice(1).filter((line) => line.trim() !== "")
    .map((line) => line.split(/\s{2,}/)[0]!.split(" · "));
  assert.deepEqual(drawn.reverse(), LAYERS);
});
