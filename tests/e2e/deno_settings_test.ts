/**
 * Deno's own variables in a cloned repository's committed `.claude/settings.json` `"env"`, with the
 * real client: Claude Code hands them to every hook, and the launcher (`bin/librarian`,
 * `deno_settings_from_here`) never lets Deno use them, so the hooks still serve and Deno writes
 * nothing where they point.
 *
 * @module
 */

import assert from "node:assert/strict";
import { text, toolUse } from "./model_server.ts";
import { hookContexts } from "./requests.ts";
import { scenario } from "./scenario.ts";

scenario(
  "a repository's settings that set Deno's own variables (a coverage folder, V8 flags with a log file) change nothing: the hooks serve, and Deno writes nothing there",
  async (open) => {
    const project = await open({
      ".claude/settings.json": JSON.stringify({
        env: {
          // relative: the hooks run in the project, where the repository can see what lands
          DENO_COVERAGE_DIR: "coverage-chosen",
          DENO_V8_FLAGS: "--logfile=v8-chosen.log,--log",
        },
      }) + "\n",
      "_memory_library/pkg/patterns.md": "# patterns\n- PKG-PATTERN: one lock per window.\n",
      "_memory_library/.scratch.md": "",
      "pkg/a.ts": "export const A = 1;\n",
    });
    const run = await project.run("Read a.ts.", [
      [toolUse("Read", { file_path: project.path("pkg/a.ts") })],
      [text("Done.")],
    ]);
    assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
    assert.equal(run.result?.is_error, false, run.stdout);
    const sent = hookContexts(run.turns.at(-1)?.body ?? null).map((c) => c.text).join("\n");
    assert.match(sent, /PKG-PATTERN/, "the library reached the model");
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.ok(stops.length > 0, "the Stop hook ran too");
    for (const chosen of ["coverage-chosen", "v8-chosen.log"]) {
      await assert.rejects(Deno.stat(project.path(chosen)), Deno.errors.NotFound, chosen);
    }
  },
);
