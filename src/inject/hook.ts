/**
 * `librarian inject`: the PreToolUse / UserPromptSubmit / SessionStart hook.
 *
 * - PreToolUse (Read, Edit, Write, MultiEdit, NotebookEdit): the library files for the touched
 *   file's folder and its ancestors, most specific first, each sent once per context window.
 * - UserPromptSubmit: a short tagging reminder, once per session and again after compaction.
 * - SessionStart `compact` / `clear`: forget what the session was sent; prune old ledgers.
 *
 * Never prints anything but one hook JSON object, never a permission decision, always exits 0.
 *
 * @module
 */

import { findLibraryForSession, scratchPathOf } from "../core/discover.ts";
import { type EnvReader, logFile, processEnv, readBudget, stateDir } from "../core/env.ts";
import { buildFileContext } from "./file_context.ts";
import {
  type HookEvent,
  HookInputError,
  parseHookEvent,
  readStdinTextSync,
  writeAdditionalContext,
} from "../core/hook_io.ts";
import {
  clearSessionLedgers,
  type LedgerKey,
  loadLedger,
  pruneLedgers,
  recordInLedger,
} from "./ledger.ts";
import { appendLog, elapsedMs, type LogValue } from "../core/log.ts";
import { messageOf } from "../core/errors.ts";

/** The tools whose target file gets library context, and the input key that names the file. */
export const FILE_TOOLS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/** What one inject run did, for the log. */
type Outcome = Record<string, LogValue>;

function ledgerKeyOf(event: HookEvent): LedgerKey | undefined {
  if (!event.session_id) return undefined;
  return { sessionId: event.session_id, agentId: event.agent_id };
}

function onPreToolUse(event: HookEvent, env: EnvReader): Outcome {
  const tool = event.tool_name ?? "";
  const key = FILE_TOOLS[tool];
  if (!key) return { tool, result: "tool-not-served" };
  const rawPath = event.tool_input?.[key];
  if (typeof rawPath !== "string" || rawPath.trim() === "") {
    return { tool, result: "no-file-path" };
  }
  const { budget, warning } = readBudget(env);
  const state = stateDir(env);
  const ledgerKey = ledgerKeyOf(event);
  const ledger = state && ledgerKey ? loadLedger(state, ledgerKey) : undefined;
  const context = buildFileContext(rawPath, {
    env,
    budget,
    alreadySent: ledger?.files ?? {},
    cwd: event.cwd,
  });
  const base: Outcome = { tool, file: context.relPath ?? rawPath, warning };
  if (context.kind === "none") {
    if (state && ledgerKey && context.refreshed && Object.keys(context.refreshed).length > 0) {
      try {
        recordInLedger(state, ledgerKey, context.refreshed);
      } catch {
        // only an optimisation: the files are re-read next time
      }
    }
    return { ...base, result: context.reason, hits: context.hits };
  }
  writeAdditionalContext("PreToolUse", context.rendered.text);
  if (state && ledgerKey) {
    try {
      recordInLedger(state, ledgerKey, context.delivered);
    } catch (error) {
      base.ledger_error = messageOf(error);
    }
  }
  const { shown, cut, left, skipped } = context.rendered;
  return {
    ...base,
    result: "injected",
    sent: [...shown, ...cut].join(",") || undefined,
    cut: cut.join(",") || undefined,
    left_out: left.join(",") || undefined,
    skipped: skipped.join(",") || undefined,
    chars: context.rendered.text.length,
    hits: context.hits,
    ledger: ledger ? "on" : "off",
  };
}

/** The reminder the model gets at the start of a session. */
export function taggingReminder(scratchPath: string, libraryRoot: string): string {
  return [
    `[Librarian] This project keeps a memory library. To record a learning for the team, append`,
    `a block to ${scratchPath}:`,
    `## [TAG: <code folder, e.g. src/api, or global>, type: <file name, e.g. patterns, tech, edge>]`,
    `- <one learning per bullet>`,
    `Capture why, not what: gotchas, constraints, decisions and their reasons. At the end of the`,
    `turn each block is filed into ${libraryRoot}/<folder>/<type>.md.`,
  ].join("\n");
}

function onUserPromptSubmit(event: HookEvent, env: EnvReader): Outcome {
  const library = findLibraryForSession(event.cwd, env);
  if (!library) return { result: "no-library" };
  const state = stateDir(env);
  const ledgerKey = ledgerKeyOf(event);
  if (state && ledgerKey) {
    const ledger = loadLedger(state, { sessionId: ledgerKey.sessionId });
    if (ledger.reminded) return { result: "already-reminded" };
  }
  const text = taggingReminder(scratchPathOf(library), library.root);
  writeAdditionalContext("UserPromptSubmit", text);
  if (state && ledgerKey) {
    try {
      recordInLedger(state, { sessionId: ledgerKey.sessionId }, {}, true);
    } catch {
      // the reminder may come again; never fail the prompt for it
    }
  }
  return { result: "reminded", chars: text.length };
}

async function onSessionStart(event: HookEvent, env: EnvReader): Promise<Outcome> {
  const state = stateDir(env);
  if (!state) return { source: event.source, result: "no-state-dir" };
  let result = "kept";
  if (event.session_id && (event.source === "compact" || event.source === "clear")) {
    await clearSessionLedgers(state, event.session_id);
    result = "ledger-cleared";
  }
  const pruned = await pruneLedgers(state);
  return { source: event.source, result, pruned: pruned || undefined };
}

/** Runs the inject hook on the event read from stdin. Always resolves to exit code 0. */
export async function run(_args: string[], env: EnvReader = processEnv()): Promise<number> {
  const log = logFile(env);
  let outcome: Outcome;
  let eventName = "unknown";
  try {
    const event = parseHookEvent(readStdinTextSync());
    eventName = event.hook_event_name;
    switch (eventName) {
      case "PreToolUse":
        outcome = onPreToolUse(event, env);
        break;
      case "UserPromptSubmit":
        outcome = onUserPromptSubmit(event, env);
        break;
      case "SessionStart":
        outcome = await onSessionStart(event, env);
        break;
      default:
        outcome = { result: "event-not-served" };
    }
    outcome.session = event.session_id?.slice(0, 8);
    // whose run this was, so `librarian status`/`doctor` can show only their project's runs
    outcome.project = env("CLAUDE_PROJECT_DIR") || event.cwd;
    if (event.agent_id) outcome.agent = event.agent_id.slice(0, 12);
  } catch (error) {
    const message = error instanceof HookInputError
      ? error.message
      : `${error instanceof Error ? error.name : "Error"}: ${
        error instanceof Error ? error.message : error
      }`;
    outcome = { result: error instanceof HookInputError ? "bad-input" : "error", detail: message };
    outcome.project = env("CLAUDE_PROJECT_DIR");
  }
  appendLog(log, "inject", { event: eventName, ...outcome, ms: elapsedMs() });
  return 0;
}
