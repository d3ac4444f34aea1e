/**
 * What `deno run` loads before a hook's first line runs: the module graph Deno builds from the
 * entry module, which follows static imports and every *literal* dynamic `import("./x.ts")`. Rare
 * branches and other commands load through `loadLater` (src/core/load_later.ts) so a hook run
 * reads only its own modules (docs/benchmarks.md: 117 → 24 modules for inject). These tests fail
 * when a literal import pulls commands, export, the shell parser (for file tools), a `node:` module
 * or an npm package back into that graph, or the filing code into an idle Stop turn. They name
 * modules, never count them: a module split by its job costs nothing in a bundle.
 */
import assert from "node:assert/strict";
import { startupGraph } from "../scripts/bundle_hooks.ts";

Deno.test("the program's entry loads no command, no npm package and no node: module at start", async () => {
  const graph = await startupGraph("src/main.ts");
  assert.deepEqual(graph.filter((m) => /^(npm:|node:|commands\/|export\/)/.test(m)), []);
});

Deno.test("the inject hook loads neither the shell parser nor the session-start handlers at start", async () => {
  const graph = await startupGraph("src/entry/inject.ts");
  assert.deepEqual(
    graph.filter((m) =>
      /^(npm:|node:|main\.ts|command_table|commands\/|export\/|filing\/|automemory\/|inject\/(shell_|bash_|start|command_context)|shell\/)/
        .test(m)
    ),
    [],
  );
  // the edit hint suggests a valid tag with the tag grammar the Stop hook files by
  assert.ok(graph.includes("format/tag_rules.ts"));
});

Deno.test("the stop hook loads no npm package, no export code and no routing at start", async () => {
  const graph = await startupGraph("src/entry/stop.ts");
  assert.deepEqual(
    graph.filter((m) =>
      /^(npm:|node:|main\.ts|command_table|commands\/|export\/|inject\/|shell\/|filing\/(route|plan|append)\.ts)/
        .test(m)
    ),
    [],
  );
});

Deno.test("the stop hook's idle turn loads only the checks: no sync, lock, summary or tag rules", async () => {
  // An idle turn (nothing in scratch, no changed auto memory) runs only these checks, and its
  // bundle is read and deserialised whole on every turn (docs/benchmarks.md); the filing code is
  // loaded once there is something to file, the nudge's reason once a nudge is sent.
  const graph = await startupGraph("src/entry/stop.ts");
  assert.deepEqual(
    graph.filter((m) =>
      /^(automemory\/(sync|parse|review|report|record_store|scratch_append)|core\/(atomic|lock|words|fault|boundary|boundary_rules)|filing\/(carry_over|coordination|lock|stop_summary|nudge_reason|route|plan|journal))\.ts$|^format\//
        .test(m)
    ),
    [],
  );
  assert.ok(graph.includes("stop/stop_hook.ts") && graph.includes("automemory/scan.ts"));
});

Deno.test("the inject bundle leaves the shell parser to the shell bundle (hooks.json: `inject --shell`)", async () => {
  // Every kilobyte of a bundle is read and deserialised on each run: the file tools, prompts and
  // session starts must not pay for the shell parser, which is almost half of the hook.
  const shellParser = /^(inject\/(bash_|command_context)|shell\/)/;
  const lean = await startupGraph("src/entry/bundle_inject.ts");
  assert.deepEqual(lean.filter((m) => shellParser.test(m)), []);
  assert.ok(lean.includes("inject/start.ts"), "the session-start handlers are carried");
  const shell = await startupGraph("src/entry/bundle_inject_shell.ts");
  assert.ok(shell.includes("inject/command_context.ts"), "the shell bundle carries the parser");
  assert.deepEqual(lean.filter((m) => !shell.includes(m)), ["entry/bundle_inject.ts"]);
});
