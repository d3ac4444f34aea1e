/**
 * `librarian inject`: the PreToolUse / PostToolUse / UserPromptSubmit / SessionStart /
 * SubagentStart / InstructionsLoaded hook.
 *
 * - PreToolUse (Read, Edit, Write, MultiEdit, NotebookEdit): the library files for the touched
 *   file's folder and its ancestors, most specific first, each sent once per context window.
 *   Bash, Grep, Glob: the same for every project path the command or search names, merged
 *   (`command_context.ts`, loaded only for these tools).
 * - PostToolUse (Bash, a lone `grep` / `rg` only): what the PreToolUse left to the client, which
 *   loads nothing after a search that matched nothing (`after_shell_read.ts`).
 * - InstructionsLoaded: what the client loaded by itself, recorded (`instructions_loaded.ts`).
 * - UserPromptSubmit: a short tagging reminder, once per session and again after compaction.
 * - SessionStart: the library root's files, once per context window (`start.ts`).
 * - SubagentStart: a subagent's reminder and root files, for its own context window (`start.ts`).
 *
 * A file tool's touch that finds nothing changed since the last touch of the same event that sent
 * nothing is answered from that touch's record (`quiet_repeat.ts`, `observed_run.ts`).
 *
 * Every decision that sends something is serialised per context window (`window.ts`), so parallel
 * tool calls and hooks wired twice send each file version once. The first write into a folder
 * whose library files this window has never been sent is held once (`hold.ts`): denied with the
 * context as its reason, the only permission decision ever made (never `allow` or `ask`). Never
 * prints anything but one hook JSON object, always exits 0.
 *
 * @module
 */

import { loadLater } from "../core/load_later.ts";
import {
  isLibrary,
  type Library,
  lookUpLibraryForSession,
  type RefusedLibrary,
  scratchPathOf,
} from "../core/discover.ts";
import {
  type EnvReader,
  logFile,
  processEnv,
  readBudget,
  refusalMessage,
  refusedSettings,
  stateDir,
} from "../core/env.ts";
import { type FileLocation, locateFileContext, touchContext } from "./file_context.ts";
import { openWalkMemo, type WalkMemo } from "./walk_memo.ts";
import {
  type HookEvent,
  HookInputError,
  parseHookEvent,
  readStdinTextSync,
} from "../core/hook_io.ts";
import { appendLog, elapsedMs } from "../core/log.ts";
import { LOADED_AT_MS } from "../core/load_clock.ts";
import { taggingReminder } from "./reminder.ts";
import { HINT_TOOLS, hintTarget } from "./hint.ts";
import { holdEnabled, WRITE_TOOLS } from "./hold.ts";
import { decideTouch, type Touch } from "./touch.ts";
import { foldersOfTouches, touchedRecently } from "./recent.ts";
import { dirnameOf, joinPath, relativeInside } from "../core/paths.ts";
import type { Ledger } from "./ledger_format.ts";
import { loadLedger } from "./ledger.ts";
import { findForkParent, inheritedLedger, isUntouched } from "./fork_parent.ts";
import { decideOnce, type Decision, ledgerKeyOf, type Outcome, windowStateDir } from "./window.ts";
import { canHold } from "../core/agent_event.ts";
import { fingerprintsOf, withoutClientsOwnRules } from "./native_sources.ts";
import { onInstructionsLoaded } from "./instructions_loaded.ts";
import { clientLoadedRootAgents, ROOT_AGENTS } from "./root_agents.ts";
import { claudeRuleExports, generatedRootAgents, heldByExports } from "./loaded_exports.ts";
import { exportedClaudeRules } from "./rule_files.ts";
import { clearTurn, noteTurnTool } from "../core/turn_record.ts";
import { observeRun } from "./observed_run.ts";
import { keepQuietRun, markSeen, quietPlaceOf, replayQuietRun } from "./quiet_repeat.ts";

export { taggingReminder } from "./reminder.ts";

/** The SessionStart and SubagentStart handlers (rare events: not in the start-up graph). */
function loadStart(): Promise<typeof import("./start.ts")> {
  return loadLater("inject/start.ts");
}

/** The file tools after which every Claude Code version loads a folder's CLAUDE.md and rules. */
const CLIENT_LOADS_ON = new Set(["Read", "Edit", "MultiEdit"]);

/** The tools whose target file gets library context, and the input key that names the file. */
export const FILE_TOOLS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/**
 * The tools whose command line, patch or search folder names the paths touched
 * (`command_context.ts`): `apply_patch` is Codex's and Copilot's edit.
 */
const COMMAND_TOOLS = new Set(["Bash", "Grep", "Glob", "apply_patch"]);

/**
 * Where a tool's context comes from: its file, or the paths its command names; or, when there is
 * none, the log line that says why.
 */
async function locate(
  event: HookEvent,
  env: EnvReader,
  memos: WalkMemo[] = [],
): Promise<{ location: FileLocation; base: Outcome } | { none: Outcome }> {
  const tool = event.tool_name ?? "";
  const key = FILE_TOOLS[tool];
  if (key) {
    const rawPath = event.tool_input?.[key];
    if (typeof rawPath !== "string" || rawPath.trim() === "") {
      return { none: { tool, result: "no-file-path" } };
    }
    const state = windowStateDir(env);
    const location = locateFileContext(rawPath, {
      env,
      cwd: event.cwd,
      tool,
      ...(event.agent === undefined ? {} : { agent: event.agent }),
      // big folders' listings and big files' hashes, kept between runs (walk_memo.ts)
      ...(state === undefined ? {} : {
        memoFor: (library: Library, folder: string) => {
          const memo = openWalkMemo(state, { root: library.root, folder });
          memos.push(memo);
          return memo;
        },
      }),
    });
    const base = { tool, file: location.relPath ?? rawPath };
    // A folder without library files still gets an edit's tagging hint (hint.ts).
    const hintable = HINT_TOOLS.has(tool) && location.kind === "none" &&
      location.reason === "no-library-files";
    // the client loads a folder's CLAUDE.md or rule by itself: recorded (native_sources.ts)
    const loaded = location.kind === "none" && location.clientLoaded !== undefined;
    return location.kind === "none" && !hintable && !loaded
      ? { none: { ...base, result: location.reason, refused: location.refused?.refused } }
      : { location, base };
  }
  if (!COMMAND_TOOLS.has(tool)) return { none: { tool, result: "tool-not-served" } };
  // the shell tokenizer and its rules load only for these tools
  const { locateCommandContext } = await loadLater<typeof import("./command_context.ts")>(
    "inject/command_context.ts",
  );
  const found = locateCommandContext(tool, event.tool_input, event.cwd, env);
  const truncated = found.truncated || undefined;
  if (found.kind === "none") {
    return { none: { tool, result: found.reason, detail: found.detail, truncated } };
  }
  const elsewhere = found.elsewhere > 0 ? found.elsewhere : undefined;
  return { location: found, base: { tool, file: found.touched.join(","), truncated, elsewhere } };
}

/** The project folders a call writes into, when it is one a hold applies to. */
function writtenFolders(tool: string, location: FileLocation): string[] {
  if (location.kind !== "located") return [];
  if (WRITE_TOOLS.has(tool)) return [dirnameOf(location.relPath)];
  return "written" in location && Array.isArray(location.written) ? location.written : [];
}

async function onPreToolUse(event: HookEvent, env: EnvReader): Promise<Outcome> {
  const memos: WalkMemo[] = [];
  const outcome = await decidePreToolUse(event, env, memos);
  return { ...outcome, ...keptBetweenRuns(memos) };
}

/**
 * Writes what the run's memos learned (before the answer is written: a write only when a memo
 * learned something), and says what they gave, for the log: `memo_recalled` folders, hashes,
 * texts and digests taken from them, `memo_kept` newly kept.
 */
function keptBetweenRuns(memos: readonly WalkMemo[]): Outcome {
  let recalled = 0;
  let kept = 0;
  for (const memo of memos) {
    memo.flush();
    recalled += memo.counts.recalled;
    kept += memo.counts.kept;
  }
  return {
    ...(recalled > 0 ? { memo_recalled: recalled } : {}),
    ...(kept > 0 ? { memo_kept: kept } : {}),
  };
}

async function decidePreToolUse(
  event: HookEvent,
  env: EnvReader,
  memos: WalkMemo[],
): Promise<Outcome> {
  const located = await locate(event, env, memos);
  if ("none" in located) return located.none;
  // an agent's own rules are its to load (Copilot CLI: its instructions files)
  const location = located.location.kind === "located"
    ? { ...located.location, files: withoutClientsOwnRules(located.location.files, event.agent) }
    : located.location;
  const { budget, warning } = readBudget(env);
  const base: Outcome = { ...located.base, warning };
  // An edit's first touch of a folder in a context window gets the tagging hint (hint.ts).
  const tool = event.tool_name ?? "";
  const target = hintTarget(tool, location, env);
  if (location.kind === "none" && !target && !location.clientLoaded) {
    return { ...base, result: location.reason };
  }
  // a Read (and an Edit, which needs one) loads them on every client version; a Write only on
  // some, which report it (InstructionsLoaded)
  const byClaude = event.agent === undefined || event.agent === "claude"; // others load none
  const clientLoaded = location.clientLoaded && byClaude && CLIENT_LOADS_ON.has(tool)
    ? fingerprintsOf(location.clientLoaded)
    : {};
  const state = windowStateDir(env);
  const ledgerKey = ledgerKeyOf(event);
  const written = holdEnabled(env) && canHold(event) ? writtenFolders(tool, location) : [];
  const recentFolders = recentFoldersOf(location);
  // one per decision: its attempts (the hold's, the one without it) read each library file once
  const touchOf = (where: FileLocation): Touch => ({
    tool,
    location: where,
    target,
    written,
    ledgerOn: Boolean(state && ledgerKey),
    contextFor: where.kind === "located"
      ? touchContext(where, budget)
      : () => ({ kind: "none", reason: where.reason, hits: 0, refreshed: {} }),
  });
  const outcome = decideOnce(
    event,
    env,
    state,
    ledgerKey,
    (ledger, recorded) => {
      // the root AGENTS.md: left out where the client loaded it (recorded so), or another agent
      const root = rootAgentsDue(location, ledger, event, env, byClaude);
      // the library's root files an export of the root the client loaded holds
      const exported = rootExportsDue(root.location, ledger, event, env, byClaude);
      return withClientLoaded(
        withRecent(
          decideTouch(touchOf(exported.location), ledger, recorded),
          touchedRecently(ledger.recent, recentFolders),
        ),
        { ...newIn(ledger, clientLoaded), ...root.loaded, ...exported.loaded },
      );
    },
  );
  return { ...base, ...outcome };
}

/**
 * PostToolUse (Bash): after a lone search that matched nothing, what the PreToolUse left to the
 * client, which then loaded nothing (`after_shell_read.ts`); once, through the window's ledger.
 */
async function onPostToolUse(event: HookEvent, env: EnvReader): Promise<Outcome> {
  const tool = event.tool_name ?? "";
  const { locateUnmatchedSearch } = await loadLater<typeof import("./after_shell_read.ts")>(
    "inject/after_shell_read.ts",
  );
  const location = locateUnmatchedSearch(event, env);
  if (location.kind === "none") return { tool, result: location.result };
  const { budget, warning } = readBudget(env);
  const state = windowStateDir(env);
  const ledgerKey = ledgerKeyOf(event);
  const touch: Touch = {
    tool,
    location,
    target: undefined,
    written: [],
    ledgerOn: Boolean(state && ledgerKey),
    contextFor: touchContext(location, budget),
  };
  const outcome = decideOnce(event, env, state, ledgerKey, (ledger) => {
    const decision = decideTouch(touch, ledger, false); // nothing to hold: the command ran
    return decision.output
      ? { ...decision, output: { ...decision.output, event: "PostToolUse" } }
      : decision;
  });
  return { tool, file: location.touched.join(","), warning, unmatched: true, ...outcome };
}

/**
 * The code folders (absolute) a touch is remembered by for a compaction (`recent.ts`): those it
 * touched, when their library files include one beyond the root's.
 */
function recentFoldersOf(location: FileLocation): string[] {
  if (location.kind !== "located") return [];
  if (!location.files.some((f) => dirnameOf(f.relPath) !== "")) return [];
  const touched = "touched" in location && Array.isArray(location.touched)
    ? location.touched
    : [location.relPath];
  const root = location.library.projectRoot;
  return foldersOfTouches(touched).map((folder) => joinPath(root, folder));
}

/** A decision that also records the recent folders, when they changed. */
function withRecent(decision: Decision, recent: string[] | undefined): Decision {
  if (recent === undefined) return decision;
  const note = (d: Decision): Decision => ({ ...d, record: { ...d.record, recent } });
  return withEach(decision, note);
}

/**
 * The location without the project's root `AGENTS.md` where this window has it from the client
 * (`root_agents.ts`), with its fingerprint to record; another agent reads it itself: left out.
 */
function rootAgentsDue(
  location: FileLocation,
  ledger: Ledger,
  event: HookEvent,
  env: EnvReader,
  byClaude: boolean,
): { location: FileLocation; loaded: Record<string, string> } {
  if (location.kind !== "located") return { location, loaded: {} };
  const own = joinPath(location.library.projectRoot, ROOT_AGENTS);
  const file = location.files.find((f) => f.absPath === own);
  if (!file || (byClaude && ledger.files[own] !== undefined)) return { location, loaded: {} };
  const client = !byClaude ||
    clientLoadedRootAgents(location.library.projectRoot, event.transcript_path, env, "touch");
  if (!client) return { location, loaded: {} };
  const files = location.files.filter((f) => f !== file);
  return { location: { ...location, files }, loaded: byClaude ? fingerprintsOf([file]) : {} };
}

/**
 * The location without the library's root files that an export of the root Claude Code loaded
 * holds (a `claude-rules` rule without `paths:`, a generated root `AGENTS.md` where the client
 * loaded the root `AGENTS.md`: `loaded_exports.ts`), with their fingerprints to record. Only
 * asked while a root file is not in the window yet (a start that left them to the client, or none).
 */
function rootExportsDue(
  location: FileLocation,
  ledger: Ledger,
  event: HookEvent,
  env: EnvReader,
  byClaude: boolean,
): { location: FileLocation; loaded: Record<string, string> } {
  if (location.kind !== "located" || !byClaude) return { location, loaded: {} };
  const rootFiles = location.files.filter((f) =>
    !("native" in f) && f.outside === undefined && !f.relPath.includes("/") &&
    relativeInside(f.absPath, location.library.root) !== null &&
    ledger.files[f.absPath] === undefined
  );
  if (rootFiles.length === 0) return { location, loaded: {} };
  const projectRoot = location.library.projectRoot;
  // the rules the locate step read, else the touch's folder listings spare the probes of a
  // `.claude` or `AGENTS.md` the root lacks
  const listings = location.listings;
  const exported = location.exportedRules ?? exportedClaudeRules(projectRoot, listings);
  const agents = generatedRootAgents(projectRoot, listings);
  const exports = [
    ...claudeRuleExports(projectRoot, undefined, exported),
    ...(agents !== null &&
        clientLoadedRootAgents(projectRoot, event.transcript_path, env, "touch") === true
      ? [agents]
      : []),
  ];
  const held = heldByExports(rootFiles, exports);
  if (held.length === 0) return { location, loaded: {} };
  const away = new Set(held.map((f) => f.absPath));
  const files = location.files.filter((f) => !away.has(f.absPath));
  return { location: { ...location, files }, loaded: fingerprintsOf(held) };
}

/** The fingerprints of `files` the ledger does not hold as they are. */
function newIn(ledger: Ledger, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).filter(([path, fp]) => ledger.files[path] !== fp),
  );
}

/**
 * A decision that also records the project's memory files the client loaded by itself on this
 * touch, so a later command's touch does not send them again (`native_sources.ts`).
 */
function withClientLoaded(decision: Decision, loaded: Record<string, string>): Decision {
  const count = Object.keys(loaded).length;
  if (count === 0) return decision;
  const note = (d: Decision): Decision => ({
    ...d,
    outcome: { ...d.outcome, client_loaded: count },
    record: { ...d.record, files: { ...d.record?.files, ...loaded } },
  });
  return withEach(decision, note);
}

/** `note` applied to a decision and to the one without its hold, when that is made. */
function withEach(decision: Decision, note: (d: Decision) => Decision): Decision {
  const unheld = decision.unheld;
  return unheld ? { ...note(decision), unheld: () => note(unheld()) } : note(decision);
}

/** The log line of an event whose library was refused (another user's), or that has none. */
export function refusedOrNone(found: RefusedLibrary | null): Outcome {
  return found === null
    ? { result: "no-library" }
    : { result: "library-refused", refused: found.refused, why: found.reason };
}

/**
 * UserPromptSubmit: the tagging reminder, once per context window. A session whose first hook
 * this is (no start of its own: Claude Code 2.1.197 starts a fork as `resume` under its parent's
 * id) inherits the window of the session it was forked from, when one can be told
 * (`fork_parent.ts`).
 */
function onUserPromptSubmit(event: HookEvent, env: EnvReader): Outcome {
  const library = lookUpLibraryForSession(event.cwd, env);
  if (!isLibrary(library)) return refusedOrNone(library);
  const key = event.session_id ? { sessionId: event.session_id } : undefined;
  const state = windowStateDir(env);
  let parent: string | undefined;
  const firstHook = state !== undefined && key !== undefined &&
    isUntouched(loadLedger(state, key).ledger);
  const seed = (ledger: Ledger): Ledger => {
    if (!state || !isUntouched(ledger)) return ledger;
    parent = findForkParent(event, state);
    if (!parent) return ledger;
    // (a 2.1.197 fork: its conversation kept the parent's root files and reminder, not the rest)
    return inheritedLedger(loadLedger(state, { sessionId: parent }).ledger, library.root);
  };
  const outcome = decideOnce(event, env, state, key, (ledger) => {
    if (ledger.reminded) return { outcome: { result: "already-reminded" } };
    const text = taggingReminder(scratchPathOf(library), library.root);
    return {
      outcome: { result: "reminded", chars: text.length },
      output: { event: "UserPromptSubmit", text },
      record: { reminded: true },
    };
  }, firstHook ? { seed } : {});
  return parent ? { ...outcome, parent: parent.slice(0, 8) } : outcome;
}

/** The outcome of one event, decided (and its output written) as {@link run} logs it. */
async function onEvent(event: HookEvent, env: EnvReader): Promise<Outcome> {
  const eventName = event.hook_event_name;
  let outcome: Outcome;
  // another agent's turn is known from what its tool events showed here (turn_record.ts)
  if (event.agent !== undefined && event.agent !== "claude") {
    if (eventName === "PreToolUse") noteTurnTool(stateDir(env), event);
    else if (eventName === "UserPromptSubmit") clearTurn(stateDir(env), event.session_id);
  }
  switch (eventName) {
    case "PreToolUse":
      outcome = await onPreToolUse(event, env);
      break;
    case "UserPromptSubmit":
      outcome = onUserPromptSubmit(event, env);
      break;
    case "SessionStart": // start handlers load only for these events
      outcome = await (await loadStart()).onSessionStart(event, env);
      break;
    case "SubagentStart":
      outcome = (await loadStart()).onSubagentStart(event, env);
      break;
    case "PostToolUse": // a search that matched nothing: what the client then did not load
      outcome = await onPostToolUse(event, env);
      break;
    case "InstructionsLoaded": // what the client loaded by itself: never sent again
      outcome = onInstructionsLoaded(event, env);
      break;
    default:
      outcome = { result: "event-not-served" };
  }
  outcome.session = event.session_id?.slice(0, 8);
  // whose run this was, so `librarian status`/`doctor` can show only their project's runs
  outcome.project = env("CLAUDE_PROJECT_DIR") || event.cwd;
  if (event.agent_id) outcome.agent = event.agent_id.slice(0, 12);
  if (event.agent !== undefined && event.agent !== "claude") outcome.client = event.agent;
  return outcome;
}

/** Runs the inject hook on the event read from stdin. Always resolves to exit code 0. */
export async function run(_args: string[], env: EnvReader = processEnv()): Promise<number> {
  const log = logFile(env);
  let outcome: Outcome;
  let eventName = "unknown";
  try {
    const event = parseHookEvent(readStdinTextSync(), env);
    eventName = event.hook_event_name;
    // a touch that decided nothing before, with nothing it read changed since (quiet_repeat.ts)
    const fileTool = Object.hasOwn(FILE_TOOLS, event.tool_name ?? "");
    const quiet = quietPlaceOf(event, fileTool, windowStateDir(env));
    const replay = quiet && replayQuietRun(quiet, env);
    if (replay && replay.kind === "replayed") {
      outcome = { ...replay.outcome, replayed: true };
    } else if (replay && replay.kind === "stale") {
      const watched = await observeRun(env, (seen) => onEvent(event, seen));
      outcome = watched.value;
      keepQuietRun(quiet, watched);
    } else {
      outcome = await onEvent(event, env);
      if (quiet) markSeen(quiet); // its next touch is watched
    }
  } catch (error) {
    const message = error instanceof HookInputError
      ? error.message
      : `${error instanceof Error ? error.name : "Error"}: ${
        error instanceof Error ? error.message : error
      }`;
    outcome = { result: error instanceof HookInputError ? "bad-input" : "error", detail: message };
    outcome.project = env("CLAUDE_PROJECT_DIR");
  }
  // Where the hook came from: a plugin (installed or loaded with --plugin-dir) sets
  // CLAUDE_PLUGIN_ROOT; a hook from settings does not (doctor and status read it back).
  const plugin = env("CLAUDE_PLUGIN_ROOT") || undefined;
  // a location the project's settings chose, not used: said on every run's line (and by doctor)
  const refused = refusalMessage(refusedSettings({ inProcess: true }));
  appendLog(log, "inject", {
    event: eventName,
    ...outcome,
    plugin,
    refused_settings: refused,
    load_ms: LOADED_AT_MS, // how long Deno took to load the hook (core/load_clock.ts)
    ms: elapsedMs(),
  });
  return 0;
}
