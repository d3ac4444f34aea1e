/**
 * The Stop hook's steps, in their order, over one Stop event in the session's library:
 *
 * 1. `filing`: the session library's learnings are filed (`file_library.ts`: auto memory sync,
 *    routing, over-share, re-export, under the library's lock).
 * 2. `nested-libraries` (optional): the scratch of each nested library the turn worked in.
 * 3. `nudge` (optional): a turn that changed code but recorded nothing may be continued once;
 *    `subagent-note` instead for a SubagentStop: the subagent's changed files wait for its
 *    session's next Stop.
 * 4. `turn-end`: another agent's turn record ends; how the turn was read is logged.
 * 5. `stale-record` (optional): the record the inject hook marks stale learnings from is kept.
 *
 * Before the steps: the library is looked up (none, or another user's: nothing is done), and the
 * same Stop delivered twice (hooks wired by the plugin and in settings) is handled by the first
 * run only (`filing/session_records.ts`).
 *
 * @module
 */

import { isLibrary, lookUpLibraryForSession } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import type { LogValue } from "../core/log.ts";
import { claimStopEvent } from "../filing/session_records.ts";
import { turnSource } from "../filing/stop_nudge.ts";
import type { StopContext } from "./stop_context.ts";
import { runSteps, type Step } from "./step.ts";
import { FILING } from "./steps/filing_step.ts";
import { NESTED_LIBRARIES } from "./steps/nested_libraries_step.ts";
import { NUDGE } from "./steps/nudge_step.ts";
import { SUBAGENT_NOTE } from "./steps/subagent_note_step.ts";
import { TURN_END } from "./steps/turn_end_step.ts";
import { STALE_RECORD } from "./steps/stale_record_step.ts";

/** The Stop hook's steps, in the order they run. */
export const STOP_STEPS: readonly Step<StopContext>[] = [
  FILING,
  NESTED_LIBRARIES,
  NUDGE,
  SUBAGENT_NOTE,
  TURN_END,
  STALE_RECORD,
];

/** What one Stop did: log fields, the user's message, and the nudge's reason if it nudges. */
export interface StopOutcome {
  fields: Record<string, LogValue>;
  message: string;
  nudge?: string;
}

/**
 * Runs the Stop's steps for `event`, when it has a library of this user's and is not a repeat.
 *
 * @example A Stop outside any library does nothing
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStop } from "./pipeline.ts";
 *
 * const cwd = Deno.makeTempDirSync();
 * const event = { hook_event_name: "Stop", session_id: "s1", cwd };
 * const outcome = await runStop(event, () => undefined);
 * assert.deepEqual(outcome, { fields: { result: "no-library" }, message: "" });
 * ```
 */
export async function runStop(event: HookEvent, env: EnvReader): Promise<StopOutcome> {
  const library = lookUpLibraryForSession(event.cwd, env);
  if (library === null) return { fields: { result: "no-library" }, message: "" };
  // another user's library: neither filed into nor read (SessionStart warned the user)
  if (!isLibrary(library)) {
    return { fields: { result: "library-refused", refused: library.refused }, message: "" };
  }
  // Hooks wired twice (the plugin and settings) deliver each Stop twice, at once: one handles it.
  if (claimStopEvent(stateDir(env), event, Date.now()) === "duplicate") {
    return { fields: { result: "duplicate-event" }, message: "" };
  }
  const context: StopContext = {
    event,
    env,
    library,
    turn: turnSource(event, library, env),
    fields: {},
    messages: [],
    tagged: false,
    written: [],
  };
  const { fields, messages, nudge } = await runSteps(STOP_STEPS, context);
  const message = messages.filter((m) => m !== "").join("\n");
  return nudge === undefined ? { fields, message } : { fields, message, nudge };
}
