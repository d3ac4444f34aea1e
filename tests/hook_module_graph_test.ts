/**
 * What `deno run` loads before a hook's first line runs: the module graph Deno builds from the
 * entry module, which follows static imports and every *literal* dynamic `import("./x.ts")`. Rare
 * branches and other commands load through `loadLater` (src/core/load_later.ts) so a hook run
 * reads only its own modules (docs/benchmarks.md: 117 → 24 modules for inject). These tests fail
 * when a literal import pulls commands, the shell parser or an npm package back into that graph.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./helpers.ts";

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string } }>;
  npmPackage?: string;
}

/**
 * The modules Deno loads to run `entry`: its graph from `deno info --json`, following code
 * imports only (a type-only `typeof import("./x.ts")` costs nothing at run time), as paths under
 * `src/` or as `npm:`/`node:` specifiers.
 */
async function startupGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(REPO_ROOT, "deno.json"), join(REPO_ROOT, entry)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const queue = [...info.roots];
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code) queue.push(dep.code.specifier);
    }
  }
  const src = new URL("../src/", import.meta.url).href;
  return [...seen].map((m) => m.startsWith(src) ? m.slice(src.length) : m).sort();
}

Deno.test("the program's entry loads no command, no npm package and no node: module at start", async () => {
  const graph = await startupGraph("src/main.ts");
  assert.deepEqual(graph.filter((m) => /^(npm:|node:|commands\/|export\/)/.test(m)), []);
  assert.ok(graph.length <= 9, `main.ts start-up graph: ${graph.join(", ")}`);
});

Deno.test("the inject hook loads neither the shell parser nor the session-start handlers at start", async () => {
  const graph = await startupGraph("src/entry/inject.ts");
  // the edit hint suggests a valid tag: the tag grammar is the one part of filing/ it needs
  const tagGrammar = /^filing\/(tag_rules|tag_folder|confusables)\.ts$/;
  assert.deepEqual(
    graph.filter((m) =>
      !tagGrammar.test(m) &&
      /^(npm:|node:|main\.ts|command_table|commands\/|filing\/|automemory\/|inject\/(shell_|bash_|start|command_context))/
        .test(m)
    ),
    [],
  );
});

Deno.test("the stop hook loads no npm package, no export code and no routing at start", async () => {
  const graph = await startupGraph("src/entry/stop.ts");
  assert.deepEqual(
    graph.filter((m) =>
      /^(npm:|node:|main\.ts|command_table|commands\/|export\/|inject\/|filing\/(route|plan|append)\.ts)/
        .test(m)
    ),
    [],
  );
});

Deno.test("the stop hook's idle turn loads only the checks: no sync, lock, summary or tag rules", async () => {
  // An idle turn (nothing in scratch, no changed auto memory) runs only these checks, and every
  // module in the start-up graph costs it about 0.2 ms (docs/benchmarks.md); the filing code is
  // loaded once there is something to file, the nudge's reason once a nudge is sent.
  const graph = await startupGraph("src/entry/stop.ts");
  assert.deepEqual(
    graph.filter((m) =>
      /^(automemory\/(sync|parse|review|report|record_store|scratch_append)|core\/(atomic|provenance|lock_file|words)|filing\/(carry_over|coordination|lock|fault|stop_summary|nudge_reason|tag_folder|tag_rules|scratch|tag_line|markers))\.ts$/
        .test(m)
    ),
    [],
  );
  assert.ok(graph.length <= 24, `stop hook start-up graph (${graph.length}): ${graph.join(", ")}`);
});
