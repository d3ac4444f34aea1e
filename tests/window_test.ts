/**
 * The inject side's context window bookkeeping (`src/inject/window.ts`), in process: which ledger
 * an event belongs to, and when two runs are the same event (handled once).
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import {
  eventIdOf,
  isHandled,
  ledgerKeyOf,
  lockTimeoutOf,
  SAME_EVENT_MS,
  windowStateDir,
} from "../src/inject/window.ts";

Deno.test("the window is the session, and the subagent inside it; no session, no window", () => {
  assert.deepEqual(ledgerKeyOf({ hook_event_name: "PreToolUse", session_id: "s" }), {
    sessionId: "s",
    agentId: undefined,
  });
  assert.deepEqual(ledgerKeyOf({ hook_event_name: "PreToolUse", session_id: "s", agent_id: "a" }), {
    sessionId: "s",
    agentId: "a",
  });
  assert.equal(ledgerKeyOf({ hook_event_name: "PreToolUse" }), undefined);
});

Deno.test("an event's id: its tool_use_id, its prompt_id, else the prompt's hash at the time", () => {
  assert.equal(
    eventIdOf({ hook_event_name: "PreToolUse", tool_use_id: "toolu_1" }),
    "tool:toolu_1",
  );
  assert.equal(eventIdOf({ hook_event_name: "PreToolUse" }), undefined);
  assert.equal(eventIdOf({ hook_event_name: "UserPromptSubmit", prompt_id: "p1" }), "prompt:p1");
  const id = eventIdOf({ hook_event_name: "UserPromptSubmit", prompt: "hi" }, 1000);
  assert.match(id!, /^prompt:[0-9a-f]+@1000$/);
  const odd = eventIdOf({ hook_event_name: "PreToolUse", tool_use_id: "has space" })!;
  assert.ok(!odd.includes(" "), "ids with odd characters are hashed");
});

Deno.test("the same prompt within SAME_EVENT_MS is one event; ids without a time match exactly", () => {
  const at = (t: number) => eventIdOf({ hook_event_name: "UserPromptSubmit", prompt: "hi" }, t)!;
  const seen = [at(1000), "tool:toolu_1"];
  assert.ok(isHandled(seen, at(1000 + SAME_EVENT_MS - 1)));
  assert.ok(!isHandled(seen, at(1000 + SAME_EVENT_MS)));
  assert.ok(isHandled(seen, "tool:toolu_1"));
  assert.ok(!isHandled(seen, "tool:toolu_2"));
});

Deno.test("state folder and lock wait come from the environment", () => {
  assert.equal(windowStateDir(envFrom({ HOME: "/home/me" })), "/home/me/.claude/librarian");
  assert.equal(
    windowStateDir(envFrom({ HOME: "/home/me", CLAUDE_PLUGIN_DATA: "/data" })),
    "/home/me/.claude/librarian",
    "ledgers stay out of the plugin data folder while a home folder is known",
  );
  assert.equal(windowStateDir(envFrom({ CLAUDE_PLUGIN_DATA: "/data" })), "/data");
  assert.equal(lockTimeoutOf(envFrom({ LIBRARIAN_INJECT_LOCK_MS: "75" })), 75);
  assert.equal(
    lockTimeoutOf(envFrom({ LIBRARIAN_INJECT_LOCK_MS: "-5" })),
    lockTimeoutOf(envFrom({})),
  );
});
