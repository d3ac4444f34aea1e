/**
 * End-to-end: the Stop hook's crash journal, with the real Claude Code CLI. A journal damaged on
 * disk (valid JSON of the wrong shape) is set aside, the learning the model tags is still filed,
 * and the user is told in the turn's one systemMessage.
 *
 * @module
 */

import assert from "node:assert/strict";
import { envFrom } from "../../src/core/env.ts";
import { coordinationPaths } from "../../src/filing/coordination_paths.ts";
import { text, toolUse } from "./model_server.ts";
import { scenario } from "./scenario.ts";
import { systemMessages } from "./transcript.ts";

scenario(
  "a damaged journal is set aside and the user is told; the learning is still filed",
  async (open) => {
    const project = await open({
      "_memory_library/.scratch.md": "",
      "src/api/handler.ts": "export const H = 1;\n",
    });
    const library = {
      root: project.path("_memory_library"),
      projectRoot: project.root,
      foundBy: "cwd" as const,
    };
    const { journal } = coordinationPaths(library, envFrom({ HOME: project.home }))!;
    await Deno.mkdir(journal.slice(0, journal.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(journal, '{"version":3,"filed":[1]}');
    const scratch = project.path("_memory_library/.scratch.md");
    const run = await project.run("Note what you learned about the API.", [
      [toolUse("Read", { file_path: scratch })],
      [toolUse("Write", {
        file_path: scratch,
        content: "## [TAG: src/api, type: edge]\n- JOURNAL-MARKER: 429s carry Retry-After.\n",
      })],
      [text("Done.")],
    ], { env: { LIBRARIAN_NUDGE: "off" } });
    assert.equal(run.code, 0, run.stderr);

    assert.match(await project.read("_memory_library/src/api/edge.md") ?? "", /JOURNAL-MARKER/);
    const told = systemMessages(await project.transcripts(), "Stop");
    assert.ok(
      told.some((m) => /journal was damaged \(an entry of 'filed' is not a pair\)/.test(m)),
      `the user was not told: ${JSON.stringify(told)}`,
    );
    const kept = [...Deno.readDirSync(journal.slice(0, journal.lastIndexOf("/")))]
      .filter((e) => e.name.includes(".damaged-"));
    assert.equal(kept.length, 1, "the damaged journal was not kept aside");
  },
);
