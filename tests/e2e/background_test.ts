/**
 * End-to-end scenario for a subagent's writes (issue 32): they count for the stop nudge once,
 * whether the subagent runs in the foreground (2.1.197) or in the background (2.1.332's default:
 * its parent's Stop comes before its writes, and its result arrives as a `<task-notification>`
 * prompt whose turn ends with another Stop). SubagentStop notes the files it changed; the
 * session's next Stop counts them (src/filing/subagent_changes.ts). Runs with `LIBRARIAN_E2E=1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { text, toolUse } from "./model_server.ts";
import { occurrences, stopFeedback, textsOf } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- ROOT-TECH: builds run on Deno 2.\n",
  "_memory_library/src/api/edge.md": "# edge\n- API-EDGE: handlers return results.\n",
  "src/api/x.ts": "export const X = 1;\n",
};

const NUDGE = "[Librarian] This turn changed code in src/api but recorded no learning.";

scenario(
  "a subagent's Write (in the background on 2.1.332, in the foreground on 2.1.197) gets its session nudged once",
  async (open) => {
    const project = await open(PROJECT);
    const marker = "SUBAGENT-WRITE-4b2: add src/api/sub.ts";
    const isSubagent = (body: Record<string, unknown> | null) => {
      const texts = textsOf(body);
      return texts.some((t) => t.includes(marker)) &&
        !texts.some((t) => t.includes("<task-notification>"));
    };
    project.server.route(isSubagent, [
      [toolUse("Write", {
        file_path: project.path("src/api/sub.ts"),
        content: "export const SUB = 1;\n",
      })],
      [text("Sub done.")],
    ]);
    const run = await project.run("Delegate the new file.", [
      [toolUse("Agent", {
        description: "add sub",
        prompt: marker,
        subagent_type: "general-purpose",
      })],
      [text("Delegated.")],
      [text("The subagent added it.")],
      [text("Nothing worth recording this time.")],
    ], { env: { LIBRARIAN_NUDGE: "session", LIBRARIAN_HOLD: "off" }, timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await project.read("src/api/sub.ts"), "export const SUB = 1;\n");

    const main = run.turns.filter((t) => !isSubagent(t.body));
    const last = main.at(-1)!.body;
    assert.equal(occurrences(last, NUDGE), 1, "the nudge reached the model once");
    assert.equal(stopFeedback(last).length, 1);
    assert.ok(stopFeedback(last)[0]!.includes("## [TAG: src/api, type: edge]"));

    const stops = (await project.log()).filter((r) => r.command === "stop");
    const subagentStops = stops.filter((r) => r.fields.subagent !== undefined);
    assert.deepEqual(subagentStops.map((r) => r.fields.subagent), ["noted"]);
    const sent = stops.filter((r) => r.fields.nudge === "sent");
    assert.equal(sent.length, 1, JSON.stringify(stops.map((r) => r.fields)));
    assert.equal(sent[0]!.fields.subagent_changed, "1");
  },
);
