/**
 * End-to-end scenarios for how the stop nudge reaches the model (issue 32): once, as what it is,
 * on every supported Claude Code version. Counted in the requests the scripted model received.
 *
 * A Stop's `{"decision": "block", "reason"}` reaches the model once on 2.1.197 but twice on
 * 2.1.332 (a `<system-reminder>` "Stop hook feedback" and a system message "Stop hook blocking
 * error from command …"); the Stop's `hookSpecificOutput.additionalContext` continues the turn on
 * both, reaches the model once (`Stop hook additional context: …`), and the next Stop has
 * `stop_hook_active`. The Librarian nudges with the latter (`nudgeOutput`, src/filing/nudge.ts).
 * Runs with `LIBRARIAN_E2E=1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { text, toolUse } from "./model_server.ts";
import { occurrences, stopFeedback } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "_memory_library/src/api/edge.md": "# edge\n- API-EDGE: handlers return results.\n",
  "src/api/x.ts": "export const X = 1;\n",
};

const NUDGE_OPENING = "[Librarian] This turn changed code in src/api but recorded no learning.";

scenario(
  "the stop nudge reaches the model exactly once, as the Stop's context, and the turn goes on once",
  async (open) => {
    const project = await open(PROJECT);
    const run = await project.run("Change x.", [
      [toolUse("Read", { file_path: project.path("src/api/x.ts") })],
      [toolUse("Write", {
        file_path: project.path("src/api/x.ts"),
        content: "export const X = 2;\n",
      })],
      [text("Changed x.")],
      [text("Nothing worth recording this time.")],
    ], { env: { LIBRARIAN_NUDGE: "session" } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
    assert.equal(run.turns.length, 4, "the nudge continued the turn once");
    const last = run.turns.at(-1)!.body;
    assert.equal(occurrences(last, NUDGE_OPENING), 1, "the nudge reached the model once");
    const feedback = stopFeedback(last);
    assert.equal(feedback.length, 1, JSON.stringify(feedback));
    assert.ok(feedback[0]!.startsWith(NUDGE_OPENING), feedback[0]);
    assert.ok(feedback[0]!.includes("## [TAG: src/api, type: edge]"), feedback[0]);
    // framed as context, never as a hook error
    assert.equal(occurrences(last, "Stop hook blocking error"), 0);
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.deepEqual(stops.map((r) => r.fields.nudge), ["sent", "stop-hook-active"]);
  },
);
