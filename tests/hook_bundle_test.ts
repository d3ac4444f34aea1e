/**
 * The bundled hooks (`hooks/inject.js`, `hooks/inject-shell.js`, `hooks/stop.js`) that the
 * launcher runs in source mode: each is built from the current sources, carries every module its
 * hook loads later or loads it from `src/` by design, and runs a hook event the same way as the
 * hook's TypeScript entry module.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOOK_BUNDLES, staleness, startupGraph } from "../scripts/bundle_hooks.ts";
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

Deno.test("every hook bundle was built from the current sources (else: deno task bundle)", async () => {
  for (const bundle of HOOK_BUNDLES) {
    assert.equal(await staleness(bundle), null);
  }
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
