/**
 * `librarian stop`: the Stop hook, run at the end of every assistant turn.
 *
 * Its work is a pipeline of named steps (`pipeline.ts`, `steps/`), each due or not for this Stop:
 *
 * 1. Auto-memory sync: new or edited Claude Code memories (not `user`) become scratch blocks.
 * 2. Routing: every tagged scratch block is filed into `_memory_library/<path>/<type>.md`.
 * 3. Provenance: each filed block gets a comment naming the day, `HEAD` and the code files the
 *    turn changed (from the transcript).
 * 4. The nudge: a turn that changed code but recorded no learning may be continued once with
 *    a reason naming the folders and their tag lines (the Stop's `additionalContext` for Claude
 *    Code, `{"decision": "block", "reason": ...}` for the other agents: `nudgeOutput`; see
 *    `filing/nudge.ts` for the rules; `LIBRARIAN_NUDGE=session|turn|off`). This is the one time the
 *    Librarian keeps the model working; it never does so when `stop_hook_active` is set.
 *
 * Cheap when there is nothing to do (no scratch content, no changed memory file: a few `stat`
 * calls, no YAML parser, no lock; the transcript is read only when a nudge could be due).
 * Safe when several run at once (one lock per library), and once per event: the same Stop
 * delivered twice (hooks wired by the plugin and in settings) is handled by the first run only
 * (filing/session_records.ts). Prints at most one JSON object (a
 * `systemMessage` for the user, and the nudge's decision), and always exits 0.
 *
 * @module
 */

import { loadLater } from "../core/load_later.ts";
import {
  type EnvReader,
  logFile,
  processEnv,
  refusalMessage,
  refusedSettings,
} from "../core/env.ts";
import {
  HookInputError,
  parseHookEvent,
  readStdinTextSync,
  writeJsonLine,
  writeSystemMessage,
} from "../core/hook_io.ts";
import { appendLog, elapsedMs, type LogValue } from "../core/log.ts";
import { LOADED_AT_MS } from "../core/load_clock.ts";
import { nudgeOutput } from "../filing/nudge.ts";
import { runStop } from "./pipeline.ts";
import { errorText } from "./step.ts";

/** What the user is told when a Stop fails (loaded only then). */
function loadStopSummary(): Promise<typeof import("../filing/stop_summary.ts")> {
  return loadLater("filing/stop_summary.ts");
}

/** Runs the stop hook on the event read from stdin. Always resolves to exit code 0. */
export async function run(_args: string[], env: EnvReader = processEnv()): Promise<number> {
  let fields: Record<string, LogValue>;
  let session: string | undefined;
  let project: string | undefined;
  let active: boolean | undefined;
  let client: string | undefined;
  let told = false;
  try {
    const event = parseHookEvent(readStdinTextSync(), env);
    session = event.session_id?.slice(0, 8);
    if (event.agent !== undefined && event.agent !== "claude") client = event.agent;
    project = env("CLAUDE_PROJECT_DIR") || event.cwd; // for `librarian status` and `doctor`
    // Routing is idempotent, so a turn continued by a Stop hook is handled like any other; the
    // nudge never continues a turn that is already continuing (stop_hook_active).
    active = event.stop_hook_active === true || undefined;
    const outcome = await runStop(event, env);
    fields = outcome.fields;
    told = true;
    const output: Record<string, unknown> = outcome.nudge === undefined
      ? {}
      : nudgeOutput(outcome.nudge, event.agent);
    if (outcome.message) output.systemMessage = outcome.message;
    if (Object.keys(output).length > 0) writeJsonLine(output);
  } catch (error) {
    const badInput = error instanceof HookInputError;
    const detail = badInput ? error.message : errorText(error);
    fields = { result: badInput ? "bad-input" : "error", detail };
    project ??= env("CLAUDE_PROJECT_DIR");
    // A failure to file is never silent; what was not filed stays in scratch for the next turn.
    if (!badInput && !told) {
      try {
        writeSystemMessage((await loadStopSummary()).failedMessage(detail));
      } catch {
        // stdout is gone: the log line below still records it
      }
    }
  }
  appendLog(logFile(env), "stop", {
    ...fields,
    session,
    project,
    stop_hook_active: active,
    client,
    plugin: env("CLAUDE_PLUGIN_ROOT") || undefined, // from a plugin, not from settings
    refused_settings: refusalMessage(refusedSettings({ inProcess: true })), // locations the project's settings chose, unused
    load_ms: LOADED_AT_MS, // how long Deno took to load the hook (core/load_clock.ts)
    ms: elapsedMs(),
  });
  return 0;
}
