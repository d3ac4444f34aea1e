/**
 * What the Stop hook remembers per session, as empty files in the state folder (core/env.ts
 * `stateDir`: one folder whichever way the hooks were wired, so the plugin's hook and a settings
 * hook see the same records):
 *
 * - `nudged/<session>`: the session was nudged (created exclusively, so two Stop hooks running at
 *   once nudge once between them);
 * - `no-transcript/<session>`: the session's transcript never appeared within the wait;
 * - `stops/<session>/<event>`: a Stop event being handled ({@link claimStopEvent}), so the same
 *   event delivered twice (hooks wired by the plugin and in settings) is handled once.
 *
 * Records older than {@link SESSION_RECORD_MAX_AGE_MS} are pruned when a new one is written.
 *
 * @module
 */

import { hashUtf8, safeId } from "../core/hash.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { joinPath } from "../core/paths.ts";

/** Session records older than this are pruned. */
export const SESSION_RECORD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Two deliveries of one Stop event come at the same moment; the same event key this much later
 * is another Stop (a turn ending with the same words).
 */
export const SAME_STOP_MS = 30_000;

/** What a per-session record remembers. */
export type SessionRecordKind = "nudged" | "no-transcript";

function recordPath(state: string, kind: SessionRecordKind, sessionId: string): string {
  return joinPath(state, kind, safeId(sessionId));
}

/**
 * Whether the session's record of `kind` exists.
 *
 * @example Usage
 * ```ts
 * import { createRecord, hasRecord } from "./session_records.ts";
 * import assert from "node:assert/strict";
 * const state = Deno.makeTempDirSync();
 * assert.equal(hasRecord(state, "nudged", "s1"), false);
 * assert.equal(createRecord(state, "nudged", "s1", Date.now()), true);
 * assert.equal(hasRecord(state, "nudged", "s1"), true);
 * ```
 */
export function hasRecord(state: string, kind: SessionRecordKind, sessionId: string): boolean {
  try {
    Deno.statSync(recordPath(state, kind, sessionId));
    return true;
  } catch {
    return false;
  }
}

function modifiedAt(path: string, fallback: number): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? fallback;
  } catch {
    return fallback;
  }
}

/** Removes the entries of `dir` (but `keep`) last modified more than `maxAgeMs` before `now`. */
function prune(dir: string, now: number, maxAgeMs: number, keep?: string): void {
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === keep) continue;
      const old = joinPath(dir, entry.name);
      if (now - modifiedAt(old, now) > maxAgeMs) Deno.removeSync(old, { recursive: true });
    }
  } catch {
    // pruning is housekeeping only
  }
}

/**
 * Creates the session's record of `kind` exclusively; false when it already exists or cannot be
 * written. Prunes the kind's records older than {@link SESSION_RECORD_MAX_AGE_MS}.
 *
 * @example Usage
 * ```ts
 * import { createRecord } from "./session_records.ts";
 * import assert from "node:assert/strict";
 * const state = Deno.makeTempDirSync();
 * assert.equal(createRecord(state, "nudged", "s1", Date.now()), true);
 * assert.equal(createRecord(state, "nudged", "s1", Date.now()), false, "taken already");
 * ```
 */
export function createRecord(
  state: string,
  kind: SessionRecordKind,
  sessionId: string,
  now: number,
): boolean {
  const path = recordPath(state, kind, sessionId);
  try {
    Deno.mkdirSync(joinPath(state, kind), { recursive: true });
    Deno.writeTextFileSync(path, "", { createNew: true });
  } catch {
    return false; // taken already, or cannot be remembered
  }
  prune(joinPath(state, kind), now, SESSION_RECORD_MAX_AGE_MS);
  return true;
}

/**
 * The identity of a Stop event, the same for every delivery of it (pure): the prompt it ends, the
 * words it ends with and whether a Stop hook continued the turn. `undefined` without a session
 * or a prompt id (an older Claude Code sends none): such an event cannot be told from the next.
 *
 * @example Usage
 * ```ts
 * import { stopEventKey } from "./session_records.ts";
 * import assert from "node:assert/strict";
 * const stop = { hook_event_name: "Stop", session_id: "s", prompt_id: "p", last_assistant_message: "Done." };
 * assert.equal(stopEventKey(stop), stopEventKey({ ...stop }));
 * assert.notEqual(stopEventKey(stop), stopEventKey({ ...stop, stop_hook_active: true }));
 * assert.notEqual(stopEventKey(stop), stopEventKey({ ...stop, prompt_id: "q" }));
 * assert.equal(stopEventKey({ ...stop, prompt_id: undefined }), undefined);
 * ```
 */
export function stopEventKey(event: HookEvent): string | undefined {
  const { session_id: session, prompt_id: prompt } = event;
  if (typeof session !== "string" || session === "") return undefined;
  if (typeof prompt !== "string" || prompt === "") return undefined;
  const said = typeof event.last_assistant_message === "string" ? event.last_assistant_message : "";
  const key = [prompt, event.stop_hook_active === true, said];
  // a SubagentStop shares its prompt id with its parent's Stop: its agent tells them apart
  if (typeof event.agent_id === "string" && event.agent_id !== "") key.push(event.agent_id);
  return hashUtf8(JSON.stringify(key));
}

/** Whether this run handles the Stop event: `first`, `duplicate`, or `unknown` (not claimed). */
export type StopClaim = "first" | "duplicate" | "unknown";

function createNew(path: string): boolean {
  try {
    Deno.writeTextFileSync(path, "", { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

/**
 * Claims a Stop event for this run by creating `<state>/stops/<session>/<event key>`
 * exclusively: the first run to create it handles the event, any other delivery of it within
 * {@link SAME_STOP_MS} is a `duplicate` and does nothing. An event without a key, without a state
 * folder, or whose record cannot be written is `unknown`: it is handled (as before this record
 * existed), since a turn filed twice is safe and a turn never filed is not. The session's older
 * event records, and sessions idle for {@link SESSION_RECORD_MAX_AGE_MS}, are pruned.
 *
 * @example Usage
 * ```ts
 * import { claimStopEvent } from "./session_records.ts";
 * import assert from "node:assert/strict";
 * const state = Deno.makeTempDirSync();
 * const stop = { hook_event_name: "Stop", session_id: "s", prompt_id: "p", last_assistant_message: "Done." };
 * assert.equal(claimStopEvent(state, stop, Date.now()), "first");
 * assert.equal(claimStopEvent(state, stop, Date.now()), "duplicate");
 * assert.equal(claimStopEvent(state, { ...stop, prompt_id: "p2" }, Date.now()), "first");
 * assert.equal(claimStopEvent(undefined, stop, Date.now()), "unknown");
 * ```
 */
export function claimStopEvent(
  state: string | undefined,
  event: HookEvent,
  now: number,
): StopClaim {
  const key = stopEventKey(event);
  if (state === undefined || key === undefined) return "unknown";
  const stops = joinPath(state, "stops");
  const dir = joinPath(stops, safeId(event.session_id!));
  const path = joinPath(dir, key);
  try {
    let newSession = false;
    try {
      Deno.mkdirSync(dir);
      newSession = true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        Deno.mkdirSync(dir, { recursive: true });
        newSession = true;
      } else if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (newSession) prune(stops, now, SESSION_RECORD_MAX_AGE_MS, safeId(event.session_id!));
    if (!createNew(path)) {
      if (now - modifiedAt(path, now) < SAME_STOP_MS) return "duplicate";
      // The same key long ago: another Stop that ended the same way. (Two deliveries of it that
      // both find the old record could both go on: the rare case of today's behaviour.)
      Deno.removeSync(path);
      if (!createNew(path)) return "duplicate";
    }
  } catch {
    return "unknown";
  }
  prune(dir, now, SAME_STOP_MS, key);
  return "first";
}
