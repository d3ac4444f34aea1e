/**
 * One context window's decision, serialised: every inject handler that sends something runs it
 * through {@link decideOnce}, which locks the window's ledger, skips an event already handled,
 * lets the handler choose and print, and records what it sent before releasing the lock.
 *
 * @module
 */

import { type EnvReader, millisecondsFrom, stateDir } from "../core/env.ts";
import { type HookEvent, writeHookOutput, writeToolDenial } from "../core/hook_io.ts";
import { hashUtf8 } from "../core/hash.ts";
import type { LogValue } from "../core/log.ts";
import { messageOf } from "../core/errors.ts";
import { INJECT_LOCK_TIMEOUT_MS, type LedgerUpdate, loadLedger, openLedger } from "./ledger.ts";
import { emptyLedger, type Ledger } from "./ledger_format.ts";
import { type LedgerKey, ledgerPath } from "./ledger_paths.ts";

/** What one inject run did, for the log. */
export type Outcome = Record<string, LogValue>;

/**
 * Where the context windows' ledgers live: the one state folder whichever way the hooks were
 * wired (core/env.ts `stateDir`: `CLAUDE_PLUGIN_DATA` only without a home folder, so that a doubly
 * wired session has one ledger, and every file once).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { windowStateDir } from "./window.ts";
 * const plugin = envFrom({ HOME: "/h", CLAUDE_PLUGIN_DATA: "/data" });
 * assert.equal(windowStateDir(plugin), windowStateDir(envFrom({ HOME: "/h" })));
 * assert.equal(windowStateDir(envFrom({ CLAUDE_PLUGIN_DATA: "/data" })), "/data");
 * ```
 */
export function windowStateDir(env: EnvReader): string | undefined {
  return stateDir(env);
}

/** The context window an event belongs to: the session, and the subagent when inside one. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerKeyOf } from "./window.ts";
 * assert.deepEqual(ledgerKeyOf({ hook_event_name: "PreToolUse", session_id: "s", agent_id: "a" }), { sessionId: "s", agentId: "a" });
 * assert.equal(ledgerKeyOf({ hook_event_name: "PreToolUse" }), undefined);
 * ```
 */
export function ledgerKeyOf(event: HookEvent): LedgerKey | undefined {
  if (!event.session_id) return undefined;
  return { sessionId: event.session_id, agentId: event.agent_id };
}

/** Two runs of an event that has no id of its own, this close together, are one event. */
export const SAME_EVENT_MS = 30_000;

function idPart(value: string): string {
  return value.length <= 200 && /^[!-~]+$/.test(value) ? value : hashUtf8(value);
}

/**
 * The identity of an event, so that the same event handled twice (hooks wired both by the plugin
 * and in settings run at once) sends nothing the second time: the tool use id of a tool call, the
 * prompt id of a prompt (a call's PostToolUse is named apart from its PreToolUse). A prompt without an id is named by its text and the time
 * (`prompt:<hash>@<ms>`): the same text within {@link SAME_EVENT_MS} is the same event.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventIdOf } from "./window.ts";
 * assert.equal(eventIdOf({ hook_event_name: "PreToolUse", tool_use_id: "toolu_1" }), "tool:toolu_1");
 * assert.equal(eventIdOf({ hook_event_name: "PostToolUse", tool_use_id: "toolu_1" }), "after:toolu_1");
 * assert.equal(eventIdOf({ hook_event_name: "UserPromptSubmit", prompt_id: "p1" }), "prompt:p1");
 * assert.equal(eventIdOf({ hook_event_name: "Stop" }), undefined);
 * ```
 */
export function eventIdOf(event: HookEvent, now: number = Date.now()): string | undefined {
  const toolUseId = event.tool_use_id;
  if (typeof toolUseId === "string" && toolUseId !== "") {
    // the PostToolUse of a call is an event of its own (after_shell_read.ts)
    const kind = event.hook_event_name === "PostToolUse" ? "after" : "tool";
    return `${kind}:${idPart(toolUseId)}`;
  }
  if (event.hook_event_name !== "UserPromptSubmit") return undefined;
  if (typeof event.prompt_id === "string" && event.prompt_id !== "") {
    return `prompt:${idPart(event.prompt_id)}`;
  }
  if (typeof event.prompt !== "string") return undefined;
  return `prompt:${hashUtf8(event.prompt)}@${now}`;
}

/**
 * Whether `events` already hold `id`: the same id, or for a timed id (`<name>@<ms>`) the same
 * name within {@link SAME_EVENT_MS}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isHandled } from "./window.ts";
 * assert.ok(isHandled(["tool:a"], "tool:a"));
 * assert.ok(isHandled(["start:compact@1000"], "start:compact@2000"));
 * assert.ok(!isHandled(["start:compact@1000"], "start:compact@99000"));
 * ```
 */
export function isHandled(events: readonly string[], id: string): boolean {
  const at = id.lastIndexOf("@");
  const time = at < 0 ? NaN : Number(id.slice(at + 1));
  if (Number.isNaN(time)) return events.includes(id);
  const prefix = id.slice(0, at + 1);
  return events.some((e) =>
    e.startsWith(prefix) && Math.abs(Number(e.slice(prefix.length)) - time) < SAME_EVENT_MS
  );
}

/**
 * How long to wait for a context window's lock: `LIBRARIAN_LOCK_TIMEOUT_MS` (a test-only knob),
 * else 2 s.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { lockTimeoutOf } from "./window.ts";
 * assert.equal(lockTimeoutOf(envFrom({ LIBRARIAN_LOCK_TIMEOUT_MS: "150" })), 150);
 * assert.equal(lockTimeoutOf(envFrom({})), 2000);
 * ```
 */
export function lockTimeoutOf(env: EnvReader): number {
  return millisecondsFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"), INJECT_LOCK_TIMEOUT_MS);
}

/** What a handler decided: the log fields, what to hand the model, and what to record. */
export interface Decision {
  outcome: Outcome;
  /**
   * The context for the model (`text`) and a warning for the user (`warning`, Claude Code's
   * `systemMessage`); {@link decideOnce} writes them once the decision stands. With `deny`, the
   * tool call is held instead (`hold.ts`): denied, with `text` as the reason.
   */
  output?: { event: string; text?: string; warning?: string; deny?: boolean };
  /** What to record in the ledger (nothing when the handler sent and learnt nothing). */
  record?: LedgerUpdate;
  /**
   * For a hold: the decision without it, taken instead whenever the hold cannot first be
   * recorded (no ledger, a ledger read as damaged, a failed write), so the call goes through.
   * Made only when it is taken (it renders the context once more).
   */
  unheld?: () => Decision;
}

/** Options for {@link decideOnce}. */
export interface DecideOptions {
  /** The event's identity, recorded with what it sent (default {@link eventIdOf}). */
  eventId?: string;
  /** Replaces the ledger before deciding (a fork's seed, a reset after compaction). */
  seed?: (ledger: Ledger) => Ledger;
}

function emit(decision: Decision, event: HookEvent): void {
  const output = decision.output;
  if (!output) return;
  if (output.deny) writeToolDenial(output.text ?? "");
  else writeHookOutput(output.event, output.text, output.warning, event);
}

/** The decision to carry out when a hold cannot be recorded first: the one without it. */
function withoutHold(decision: Decision): Decision {
  return decision.unheld?.() ?? decision;
}

/**
 * Runs `decide` for one context window, once, and writes what it decided to send. `decide` must
 * only read: it returns the text for the model and what to record, and this function writes
 * both. Its second argument says whether what it decides will be recorded (a ledger that can be
 * kept), the condition of a hold.
 *
 * - First without the lock, on the ledger as it is on disk (written atomically, so whole). An
 *   event already handled sends nothing (`duplicate-event`). A decision that sends nothing and
 *   records nothing (a repeat touch: everything is in the window already) stands as it is: what
 *   another run records meanwhile only adds to the ledger (or, after a compaction, starts the
 *   window afresh, which this run then simply came before).
 * - Anything else is decided under the window's lock: when the ledger is still the one the first
 *   decision read, that decision stands, else `decide` runs again on the ledger as it now is. It
 *   is written, recorded, and the lock released.
 *
 * When there is no state folder or no session, `decide` runs on an empty ledger and nothing is
 * recorded. When the lock cannot be had in time, nothing is sent (`lock-timeout`): a file missed
 * now comes with the next touch, while a file sent twice cannot be taken back. When the lock file
 * cannot even be created (a read-only state folder), the decision runs unserialised.
 *
 * A hold (a decision with `unheld`) is recorded before it is answered, so the call made again
 * passes; whenever that cannot be done (no ledger, none that could be locked, one read as
 * damaged, a failed write) the decision without the hold is carried out instead.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { decideOnce } from "./window.ts";
 * const state = Deno.makeTempDirSync();
 * const event = { hook_event_name: "PreToolUse", session_id: "s", tool_use_id: "t1" };
 * const decide = () => ({ outcome: { result: "injected" }, record: { reminded: true } });
 * const key = { sessionId: "s" };
 * assert.equal(decideOnce(event, envFrom({}), state, key, decide).result, "injected");
 * assert.equal(decideOnce(event, envFrom({}), state, key, decide).result, "duplicate-event");
 * ```
 */
export function decideOnce(
  event: HookEvent,
  env: EnvReader,
  state: string | undefined,
  key: LedgerKey | undefined,
  decide: (ledger: Ledger, recorded: boolean) => Decision,
  options: DecideOptions = {},
): Outcome {
  const eventId = options.eventId ?? eventIdOf(event);
  if (!state || !key) {
    const decision = withoutHold(decide(emptyLedger(), false));
    emit(decision, event);
    return decision.outcome;
  }
  // without the lock: a repeat touch ends here (a seed always writes, so it takes the lock)
  const snapshot = options.seed ? undefined : loadLedger(state, key);
  let early: Decision | undefined;
  if (snapshot) {
    const discarded = snapshot.discarded ? { ledger_discarded: snapshot.discarded } : {};
    if (eventId !== undefined && isHandled(snapshot.ledger.events, eventId)) {
      return { result: "duplicate-event", ...discarded };
    }
    early = decide(snapshot.ledger, !snapshot.discarded);
    if (!early.output && !early.record) return { ...early.outcome, ...discarded };
  }
  const timeoutMs = lockTimeoutOf(env);
  let open;
  try {
    open = openLedger(state, key, timeoutMs);
  } catch (error) {
    if (isDiskFull(error)) return stateFull(state, key, event, error);
    const decision = withoutHold(early ?? decide(loadLedger(state, key).ledger, false));
    emit(decision, event);
    return { ...decision.outcome, ledger_error: messageOf(error) };
  }
  if (open === null) return { result: "lock-timeout", lock_ms: timeoutMs };
  using held = open;
  const extra: Outcome = {};
  if (held.waitedMs >= 1) extra.lock_ms = held.waitedMs;
  if (held.discarded) extra.ledger_discarded = held.discarded;
  if (eventId !== undefined && isHandled(held.ledger.events, eventId)) {
    return { result: "duplicate-event", ...extra };
  }
  const ledger = options.seed ? options.seed(held.ledger) : held.ledger;
  let decision = early && snapshot?.source === held.source && !held.discarded
    ? early
    : decide(ledger, !held.discarded);
  if (decision.unheld && held.discarded) decision = decision.unheld(); // bad state: no hold
  const write = () => {
    if (ledger !== held.ledger) held.replace(ledger);
    if (decision.record) {
      held.record(eventId === undefined ? decision.record : { ...decision.record, event: eventId });
    }
  };
  if (decision.unheld) {
    // a hold is recorded before it is answered; if it cannot be, the call goes through
    try {
      write();
    } catch (error) {
      const unheld = decision.unheld();
      emit(unheld, event);
      return { ...unheld.outcome, ...extra, hold: "not-recorded", ledger_error: messageOf(error) };
    }
    emit(decision, event);
    return { ...decision.outcome, ...extra };
  }
  // Recorded before it is sent: a ledger that cannot be written because the state folder's disk
  // is full would otherwise have every touch send every file again.
  try {
    write();
  } catch (error) {
    if (isDiskFull(error)) return { ...stateFull(state, key, event, error), ...extra };
    extra.ledger_error = messageOf(error);
  }
  emit(decision, event);
  return { ...decision.outcome, ...extra };
}

/** True when `error` is the system saying the disk (or a quota) is full. */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  return /No space left on device|Disk quota exceeded|os error 28\b/.test(messageOf(error));
}

/**
 * The state folder's disk is full, so nothing sent can be remembered: send nothing (never every
 * file at every touch), and tell the user once per context window. "Once" is an empty marker
 * file beside the ledger (it takes no data blocks, so it can usually be made on a full disk);
 * when even that fails, nothing is said rather than the same warning at every touch.
 */
function stateFull(state: string, key: LedgerKey, event: HookEvent, error: unknown): Outcome {
  const outcome: Outcome = { result: "state-full", ledger_error: messageOf(error) };
  try {
    Deno.openSync(`${ledgerPath(state, key)}.full`, { write: true, createNew: true }).close();
  } catch {
    return outcome; // told before in this window, or nothing can be created at all
  }
  const warning = `Librarian: the state folder ${state} is full, so the library's notes are ` +
    "not sent until there is space again (they would be sent again at every touch)";
  writeHookOutput(event.hook_event_name ?? "PreToolUse", undefined, warning);
  return { ...outcome, told: "state-full" };
}
