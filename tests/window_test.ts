/**
 * The inject side's context window bookkeeping (`src/inject/window.ts`), in process: which ledger
 * an event belongs to, when two runs are the same event (handled once), and when a decision needs
 * the window's lock.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { loadLedger, openLedger } from "../src/inject/ledger.ts";
import type { Ledger } from "../src/inject/ledger_format.ts";
import {
  decideOnce,
  eventIdOf,
  isHandled,
  ledgerKeyOf,
  lockTimeoutOf,
  SAME_EVENT_MS,
  windowStateDir,
} from "../src/inject/window.ts";
import { tempDir } from "./helpers.ts";

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
  assert.equal(lockTimeoutOf(envFrom({ LIBRARIAN_LOCK_TIMEOUT_MS: "75" })), 75);
  assert.equal(
    lockTimeoutOf(envFrom({ LIBRARIAN_LOCK_TIMEOUT_MS: "-5" })),
    lockTimeoutOf(envFrom({})),
  );
});

Deno.test("a decision that sends and records nothing is made without the window's lock", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  const env = envFrom({ LIBRARIAN_LOCK_TIMEOUT_MS: "30" });
  const event = { hook_event_name: "PreToolUse", session_id: "s", tool_use_id: "t2" };
  using _held = openLedger(dir.path, key)!; // another run holds the lock for as long as it likes
  const nothingNew = () => ({ outcome: { result: "all-sent" } });
  assert.equal(decideOnce(event, env, dir.path, key, nothingNew).result, "all-sent");
  // anything to record waits for the lock, and gives up rather than risk sending twice
  const somethingNew = () => ({ outcome: { result: "injected" }, record: { reminded: true } });
  assert.equal(decideOnce(event, env, dir.path, key, somethingNew).result, "lock-timeout");
});

Deno.test("a decision read before the lock stands only if the ledger did not change meanwhile", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  const env = envFrom({});
  const file = "/repo/_memory_library/tech.md";
  let calls = 0;
  // sends tech.md unless the window has it; `concurrently` runs once, after the first look
  const decide = (concurrently?: () => void) => (ledger: Ledger) => {
    calls++;
    if (calls === 1) concurrently?.();
    return ledger.files[file]
      ? { outcome: { result: "all-sent" } }
      : { outcome: { result: "injected" }, record: { files: { [file]: "1:1:abc" } } };
  };
  const first = { hook_event_name: "PreToolUse", session_id: "s", tool_use_id: "t1" };
  assert.equal(decideOnce(first, env, dir.path, key, decide()).result, "injected");
  assert.equal(calls, 1, "the ledger did not change: the first decision stood");

  // another run records tech.md between this run's first look and its lock
  await using other = await tempDir();
  calls = 0;
  const otherRun = () => {
    using held = openLedger(other.path, key)!;
    held.record({ files: { [file]: "1:1:abc" } });
  };
  const second = { hook_event_name: "PreToolUse", session_id: "s", tool_use_id: "t2" };
  assert.equal(decideOnce(second, env, other.path, key, decide(otherRun)).result, "all-sent");
  assert.equal(calls, 2, "decided again on the ledger as it was under the lock");
  assert.deepEqual(loadLedger(other.path, key).ledger.events, [], "nothing was recorded twice");
});

Deno.test("an event already in the ledger is a duplicate without taking the lock", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  const event = { hook_event_name: "PreToolUse", session_id: "s", tool_use_id: "t1" };
  const decide = () => ({ outcome: { result: "injected" }, record: { reminded: true } });
  assert.equal(decideOnce(event, envFrom({}), dir.path, key, decide).result, "injected");
  using _held = openLedger(dir.path, key)!;
  const env = envFrom({ LIBRARIAN_LOCK_TIMEOUT_MS: "30" });
  assert.equal(decideOnce(event, env, dir.path, key, decide).result, "duplicate-event");
});
