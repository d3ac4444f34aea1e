/**
 * End-to-end scenario for a forked session (`--resume <id> --fork-session`, issue 32): the fork
 * inherits its parent's conversation, so nothing the parent was sent (the tagging reminder, the
 * root files, a folder's files) is sent again. Claude Code 2.1.332 starts it as SessionStart
 * `source: "fork"` with a new session id; 2.1.197 as `resume`. Runs with `LIBRARIAN_E2E=1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { text, toolUse } from "./model_server.ts";
import { occurrences } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- ROOT-TECH-5e1: builds run on Deno 2.\n",
  "_memory_library/src/a/edge.md": "# edge\n- A-EDGE-77d: a rounds half to even.\n",
  "_memory_library/src/b/edge.md": "# edge\n- B-EDGE-0c4: b retries twice.\n",
  "src/a/x.ts": "export const A = 1;\n",
  "src/b/y.ts": "export const B = 1;\n",
};

const REMINDER = "[Librarian] This project keeps a memory library.";

scenario(
  "a forked session is not sent again what its parent had: reminder, root files, a folder's files; a new folder's files come once",
  async (open) => {
    const project = await open(PROJECT);
    const parent = await project.run("Look at a.", [
      [toolUse("Read", { file_path: project.path("src/a/x.ts") })],
      [text("Looked.")],
    ]);
    assert.equal(parent.code, 0, parent.stderr);
    const parentId = parent.result?.session_id;
    assert.ok(parentId, parent.stdout);
    const parentBody = parent.turns.at(-1)!.body;
    assert.equal(occurrences(parentBody, "A-EDGE-77d"), 1, "the parent got a's notes");
    assert.equal(occurrences(parentBody, "ROOT-TECH-5e1"), 1, "the parent got the root files");

    const fork = await project.run("Look at a again, then b.", [
      [toolUse("Read", { file_path: project.path("src/a/x.ts") })],
      [toolUse("Read", { file_path: project.path("src/b/y.ts") })],
      [text("Looked again.")],
    ], { resume: parentId, forkSession: true });
    assert.equal(fork.code, 0, fork.stderr);
    assert.equal(fork.unscripted, 0, "the model was asked for more turns than scripted");
    const body = fork.turns.at(-1)!.body;
    assert.equal(occurrences(body, REMINDER), 1, "the tagging reminder, once");
    assert.equal(occurrences(body, "ROOT-TECH-5e1"), 1, "the root files, once");
    assert.equal(occurrences(body, "A-EDGE-77d"), 1, "a's notes, once");
    assert.equal(occurrences(body, "B-EDGE-0c4"), 1, "b's notes, new to both, once");

    const starts = (await project.log()).filter((r) =>
      r.command === "inject" && r.fields.event === "SessionStart"
    );
    assert.equal(starts.length, 2, JSON.stringify(starts.map((r) => r.fields)));
  },
);
