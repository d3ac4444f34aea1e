/**
 * The end-to-end suite's reader of what the model was sent (tests/e2e/requests.ts), on request
 * bodies shaped as Claude Code 2.1.197 and 2.1.332 send them (observed with the real CLIs).
 */
import assert from "node:assert/strict";
import {
  deniedReason,
  hookContexts,
  occurrences,
  stopFeedback,
  toolSteps,
} from "./e2e/requests.ts";

const READ = { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/p/a.ts" } };
const RESULT = { type: "tool_result", tool_use_id: "t1", content: "1\tconst a = 1;" };
const CONTEXT = "PreToolUse:Read hook additional context: [Librarian] notes for a.ts";

Deno.test("a tool step's context: a reminder after its result (2.1.197) or the system message after it (2.1.332)", () => {
  const old = {
    messages: [
      { role: "user", content: "Look." },
      { role: "assistant", content: [READ] },
      {
        role: "user",
        content: [RESULT, {
          type: "text",
          text: `<system-reminder>\n${CONTEXT}\n</system-reminder>`,
        }],
      },
    ],
  };
  const current = {
    messages: [
      { role: "user", content: "Look." },
      { role: "assistant", content: [READ] },
      { role: "user", content: [RESULT] },
      { role: "system", content: CONTEXT },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      { role: "user", content: "Next." },
    ],
  };
  for (const body of [old, current]) {
    const [step] = toolSteps(body);
    assert.deepEqual(step!.contexts, [
      { event: "PreToolUse", tool: "Read", text: "[Librarian] notes for a.ts" },
    ]);
    assert.equal(hookContexts(body).length, 1);
  }
});

Deno.test("a denied call's reason, with or without 2.1.332's hook error prefix", () => {
  assert.equal(deniedReason("PreToolUse:Write hook error: [Librarian] Read"), "[Librarian] Read");
  assert.equal(deniedReason("[Librarian] Read"), "[Librarian] Read");
});

Deno.test("Stop continuations are listed once per delivery: a block's reason twice on 2.1.332, a Stop context once", () => {
  const blocked = {
    messages: [
      {
        role: "user",
        content:
          "<system-reminder>\nThe text below is the output of a hook …\nStop hook feedback:\nNUDGE\n</system-reminder>",
      },
      {
        role: "system",
        content: [{
          type: "text",
          text: 'Stop hook blocking error from command: "sh \\"/x/librarian\\" stop": NUDGE',
        }],
      },
    ],
  };
  assert.deepEqual(stopFeedback(blocked), ["NUDGE", "NUDGE"]);
  assert.equal(occurrences(blocked, "NUDGE"), 2);
  const old = { messages: [{ role: "user", content: "Stop hook feedback:\nNUDGE" }] };
  assert.deepEqual(stopFeedback(old), ["NUDGE"]);
  const context = {
    messages: [{
      role: "user",
      content: [{
        type: "text",
        text: "<system-reminder>\nStop hook additional context: NUDGE\n</system-reminder>",
      }],
    }],
  };
  assert.deepEqual(stopFeedback(context), ["NUDGE"]);
  assert.equal(occurrences(context, "NUDGE"), 1);
});
