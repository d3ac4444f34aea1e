/**
 * `librarian stop`: the Stop hook, run at the end of every assistant turn.
 *
 * 1. Auto-memory sync: new or edited Claude Code memories (not `user`) become scratch blocks.
 * 2. Routing: every tagged scratch block is filed into `_memory_library/<path>/<type>.md`.
 *
 * 3. Provenance: each filed block gets a comment naming the day, `HEAD` and the code files the
 *    turn changed (from the transcript).
 * 4. The nudge: a turn that changed code but recorded no learning may be continued once with
 *    a reason naming the folders and their tag lines (the Stop's `additionalContext` for Claude
 *    Code, `{"decision": "block", "reason": ...}` for the other agents: `nudgeOutput`; see
 *    `nudge.ts` for the rules; `LIBRARIAN_NUDGE=session|turn|off`). This is the one time the
 *    Librarian keeps the model working; it never does so when `stop_hook_active` is set.
 *
 * Cheap when there is nothing to do (no scratch content, no changed memory file: a few `stat`
 * calls, no YAML parser, no lock; the transcript is read only when a nudge could be due).
 * Safe when several run at once (one lock per library), and once per event: the same Stop
 * delivered twice (hooks wired by the plugin and in settings) is handled by the first run only
 * (session_records.ts). Prints at most one JSON object (a
 * `systemMessage` for the user, and the nudge's decision), and always exits 0.
 *
 * @module
 */

import { loadLater } from "../core/load_later.ts";
import {
  isLibrary,
  type Library,
  lookUpLibraryForSession,
  scratchPathOf,
} from "../core/discover.ts";
import {
  type EnvReader,
  logFile,
  nowFrom,
  processEnv,
  readBudget,
  refusalMessage,
  refusedSettings,
  stateDir,
} from "../core/env.ts";
import {
  type HookEvent,
  HookInputError,
  parseHookEvent,
  readStdinTextSync,
  writeJsonLine,
  writeSystemMessage,
} from "../core/hook_io.ts";
import { isFile, readFileBounded } from "../core/fs_probe.ts";
import { appendLog, elapsedMs, type LogValue } from "../core/log.ts";
import { scanAutoMemory, scanLogFields } from "../automemory/scan.ts";
import { hasPendingCarryOver, isKeptScratchName } from "./carry_kept.ts";
import {
  carryPlaceOf,
  coordinationDir,
  coordinationPaths,
  EXPORT_PENDING_SUFFIX,
} from "./coordination_paths.ts";
import type { SyncOutcome } from "./stop_summary.ts";
import { decideStopNudge, type TurnSource, turnSource } from "./stop_nudge.ts";
import { nudgeOutput } from "./nudge.ts";
import { noteSubagentChanges } from "./subagent_changes.ts";
import { claimStopEvent } from "./session_records.ts";
import { clearTurn } from "../core/turn_record.ts";
import { staleRecordNeed } from "../git/stale_check.ts";
import { fileDigest } from "../core/file_digest.ts";
import { joinPath } from "../core/paths.ts";

/**
 * The largest scratch one turn files (a larger one is left for `librarian route`), so a turn
 * stays well inside the hook's timeout in hooks/hooks.json.
 */
export const MAX_SCRATCH_BYTES = 4_000_000;
/** The most target files one turn writes; blocks for further files wait for the next turn. */
export const MAX_TARGETS_PER_TURN = 500;

/**
 * True when scratch exists and holds more than whitespace (read only when it is small).
 *
 * @example Usage
 * ```ts
 * import { scratchHasContent } from "./hook.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * const library = { root, projectRoot: "/", foundBy: "cwd" as const };
 * assert.equal(scratchHasContent(library), false);
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "  \n\n");
 * assert.equal(scratchHasContent(library), false);
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "## [TAG: global, type: tech]\n- x\n");
 * assert.equal(scratchHasContent(library), true);
 * ```
 */
export function scratchHasContent(library: Library): boolean {
  const path = scratchPathOf(library);
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch {
    return false;
  }
  if (size === 0) return false;
  if (size > 4096) return true;
  const read = readFileBounded(path, 4096);
  if (read.kind !== "bytes") return read.kind !== "missing"; // the routing pass reports it
  return new TextDecoder().decode(read.bytes).replace(/^\uFEFF/, "").trim() !== "";
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
}

/** What the user is told and what is logged after filing (loaded only when something is filed). */
function loadStopSummary(): Promise<typeof import("./stop_summary.ts")> {
  return loadLater("filing/stop_summary.ts");
}

/** What an earlier run left for this one to finish. */
interface LeftOver {
  /** Appends to a replaced scratch wait to be carried over (see carry_over.ts). */
  carry: boolean;
  /** A re-export after filing was killed or failed part way (export/after_filing.ts). */
  exportDue: boolean;
}

/**
 * What an earlier run left for this library: a stat of the scratch's kept place and one listing
 * of the coordination folder. The files there are named by the library's key (a real path and a
 * hash), worked out only when the folder holds a kept scratch or an export left due at all,
 * which it almost never does.
 */
function leftOverOf(library: Library, env: EnvReader): LeftOver {
  const carryHere = hasPendingCarryOver([scratchPathOf(library)]);
  const dir = coordinationDir(env);
  let kept = false;
  let due = false;
  if (dir !== null) {
    try {
      for (const entry of Deno.readDirSync(dir)) {
        kept ||= isKeptScratchName(entry.name);
        due ||= entry.name.endsWith(EXPORT_PENDING_SUFFIX);
      }
    } catch {
      // no folder: nothing left there
    }
  }
  const paths = kept || due ? coordinationPaths(library, env) : null;
  return {
    carry: carryHere ||
      (kept && paths !== null && hasPendingCarryOver([carryPlaceOf(paths.journal)])),
    exportDue: due && paths !== null && isFile(paths.exportPending),
  };
}

/** What one Stop did: log fields, the user's message, and the nudge's reason if it nudges. */
interface StopOutcome {
  fields: Record<string, LogValue>;
  message: string;
  nudge?: string;
}

async function onStop(event: HookEvent, env: EnvReader): Promise<StopOutcome> {
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
  const turn = turnSource(event, library, env);
  const filed = await fileLearnings(library, env, turn);
  const nested = await fileNestedLibraries(event, library, env, turn);
  const tagged = (filed.tagged ?? false) || nested.tagged;
  const nudge = event.hook_event_name === "SubagentStop"
    ? await noteForParent(event, env, tagged, turn)
    : await decideStopNudge(event, library, env, tagged, turn);
  // another agent's turn record (core/turn_record.ts) ends with its turn (not a subagent's stop)
  if (
    event.agent !== undefined && event.agent !== "claude" &&
    event.hook_event_name !== "SubagentStop"
  ) {
    clearTurn(stateDir(env), event.session_id);
  }
  const outcome: StopOutcome = {
    fields: {
      ...filed.fields,
      ...nested.fields,
      ...nudge.fields,
      ...turn.fields(),
      ...await keepStaleRecord(library, env, filed.written ?? []),
    },
    message: [filed.message, ...nested.messages].filter((m) => m !== "").join("\n"),
  };
  if (nudge.reason !== undefined) outcome.nudge = nudge.reason;
  return outcome;
}

/**
 * SubagentStop: the subagent is never nudged itself; the code files it changed (read from its own
 * transcript) are noted for its session's next Stop, which counts them with its turn
 * (`subagent_changes.ts`), unless the subagent recorded a learning.
 */
async function noteForParent(
  event: HookEvent,
  env: EnvReader,
  tagged: boolean,
  turn: TurnSource,
): Promise<{ reason?: string; fields: Record<string, LogValue> }> {
  const state = stateDir(env);
  if (event.agent !== undefined && event.agent !== "claude") {
    return { fields: { subagent: "other-agent" } };
  }
  if (tagged) return { fields: { subagent: "tagged" } };
  const changes = await turn.changes();
  if (changes?.tagged) return { fields: { subagent: "tagged" } };
  const files = changes?.files ?? [];
  if (!state || !event.session_id || typeof event.agent_id !== "string" || files.length === 0) {
    return { fields: { subagent: files.length === 0 ? "no-code-changed" : "not-noted" } };
  }
  const noted = noteSubagentChanges(state, event.session_id, event.agent_id, files);
  return { fields: { subagent: noted ? "noted" : "not-noted" } };
}

/** Each changed file's digest as the turn left it (what its learnings' provenance records). */
function digestsOf(projectRoot: string, changed: readonly string[]): Map<string, string> {
  const digests = new Map<string, string>();
  for (const file of changed.slice(0, 64)) {
    const digest = fileDigest(joinPath(projectRoot, file));
    if (digest !== undefined) digests.set(file, digest);
  }
  return digests;
}

/**
 * Keeps the stale record the inject hook marks stale learnings from (git/stale_check.ts): a few
 * stats when nothing moved; extended without git when this turn only appended learnings about
 * code as it left it; else remade, asking git, when `HEAD`, a library file or a cited code file
 * changed. Never fails the turn.
 */
async function keepStaleRecord(
  library: Library,
  env: EnvReader,
  written: readonly string[],
): Promise<Record<string, LogValue>> {
  try {
    const need = staleRecordNeed(library, env, written.length > 0);
    if (need === null) return {};
    if (written.length > 0) {
      const { extendStaleRecord } = await loadLater<typeof import("../git/stale_extend.ts")>(
        "git/stale_extend.ts",
      );
      if (extendStaleRecord(library, need, written)) return { stale_record: "extended" };
    }
    const { remakeStaleRecord } = await loadLater<typeof import("../git/stale_refresh.ts")>(
      "git/stale_refresh.ts",
    );
    const outcome = await remakeStaleRecord(library, need);
    return {
      stale_record: outcome.kind === "written" ? `written:${outcome.stale}` : outcome.kind,
    };
  } catch (error) {
    return { stale_record: `skipped:${errorText(error)}` };
  }
}

/**
 * Files the scratch of each library nested in the project that the turn worked in
 * (`packages/a/_memory_library/`, see nested.ts): an edit there was told to add learnings to that
 * scratch. Auto memory is synced into the session library only.
 */
async function fileNestedLibraries(
  event: HookEvent,
  session: Library,
  env: EnvReader,
  turn: TurnSource,
): Promise<{ messages: string[]; fields: Record<string, LogValue>; tagged: boolean }> {
  const none = { messages: [], fields: {}, tagged: false };
  const changes = await turn.changes();
  if (!changes || changes.files.length === 0) return none;
  const { nestedLibrariesOf } = await loadLater<typeof import("./nested.ts")>("filing/nested.ts");
  const messages: string[] = [];
  const filedIn: string[] = [];
  let tagged = false;
  for (const nested of nestedLibrariesOf(session, changes.files)) {
    if (!scratchHasContent(nested)) continue;
    const where = nested.root.slice(session.projectRoot.length + 1);
    const out = await fileLearnings(nested, env, turnSource(event, nested, env), { memory: false });
    filedIn.push(`${where}:${out.fields.result}`);
    if (out.message) messages.push(out.message.replace(/^Librarian:/, `Librarian (${where}):`));
    tagged ||= out.tagged ?? false;
  }
  return { messages, fields: { nested: filedIn.join(",") || undefined }, tagged };
}

async function fileLearnings(
  library: Library,
  env: EnvReader,
  turn: TurnSource,
  options: { memory?: boolean } = {},
): Promise<StopOutcome & { tagged?: boolean; written?: string[] }> {
  const scan = options.memory === false
    ? { dirs: [], changed: [], stale: [] }
    : scanAutoMemory(library, env);
  const memoryWork = scan.changed.length > 0 || scan.stale.length > 0;
  const scratchWork = scratchHasContent(library);
  const left = leftOverOf(library, env);
  if (!memoryWork && !scratchWork && !left.carry && !left.exportDue) {
    return { fields: { result: "nothing-to-do", ...scanLogFields(scan) }, message: "" };
  }
  // Something to file: only now is the filing code loaded (an idle turn loads none of it).
  // Read before the lock is taken: the transcript may need a moment to catch up.
  const changed = scratchWork ? (await turn.changes())?.files : undefined;
  const [
    { syncAutoMemory },
    { nothingFiledMessage, routeFields, summarize, syncFields },
    { acquireCoordination, CoordinationError },
    { routeLocked },
    { LockTimeoutError, lockTimeoutFrom },
    { localDay },
    { provenanceStamper },
    { headCommit },
  ] = await Promise.all([
    loadLater<typeof import("../automemory/sync.ts")>(
      "automemory/sync.ts",
    ),
    loadStopSummary(),
    loadLater<typeof import("./coordination.ts")>("filing/coordination.ts"),
    loadLater<typeof import("./route.ts")>("filing/route.ts"),
    loadLater<typeof import("./lock.ts")>("filing/lock.ts"),
    loadLater<typeof import("../format/provenance.ts")>(
      "format/provenance.ts",
    ),
    loadLater<typeof import("./provenance_stamp.ts")>(
      "filing/provenance_stamp.ts",
    ),
    loadLater<typeof import("../git/head.ts")>("git/head.ts"),
  ]);
  const timeoutMs = lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  let coordination;
  try {
    coordination = await acquireCoordination(library, env, { timeoutMs });
  } catch (error) {
    if (error instanceof LockTimeoutError) {
      // Another run is busy (or stuck): everything stays for the next turn.
      return { fields: { result: "locked", detail: error.message }, message: "" };
    }
    if (!(error instanceof CoordinationError)) throw error;
    // Told every turn: nothing can be filed until it is fixed.
    return {
      fields: { result: "failed", detail: error.message },
      message: nothingFiledMessage(error.message),
    };
  }
  await using held = coordination;
  let sync: SyncOutcome | undefined;
  if (memoryWork) {
    try {
      sync = await syncAutoMemory(library, env, scan);
    } catch (error) {
      // Records are written after scratch: whatever was not synced is synced on a later turn.
      sync = { synced: [], skipped: [], unchanged: 0, error: errorText(error) };
    }
  }
  const now = nowFrom(env);
  const report = await routeLocked(library, {
    env,
    journal: held.paths.journal,
    now,
    maxScratchBytes: MAX_SCRATCH_BYTES,
    maxTargets: MAX_TARGETS_PER_TURN,
    provenanceFor: provenanceStamper(
      localDay(now),
      headCommit(library.projectRoot),
      changed,
      changed === undefined ? undefined : digestsOf(library.projectRoot, changed),
    ),
  });
  report.lockWaitMs = held.lock.waitedMs;
  const fields: Record<string, LogValue> = {
    result: report.status,
    ...syncFields(scan, sync),
    ...routeFields(report),
  };
  let message = summarize(report, sync);
  if (report.status === "routed" && report.grown.some((g) => g.after > g.before)) {
    // Told once, as a file crosses its fair share of the budget, with the fix.
    const { overShareMessages } = await loadLater<typeof import("./over_share.ts")>(
      "filing/over_share.ts",
    );
    const over = overShareMessages(library, report.grown, readBudget(env).budget);
    if (over.length > 0) {
      fields.over_share = over.length;
      message = message === "" ? `Librarian: ${over.join("; ")}` : `${message}; ${over.join("; ")}`;
    }
  }
  if ((report.status === "routed" && report.targets.length > 0) || left.exportDue) {
    // Keeps the exports `librarian init --export` recorded current (nothing when none are), and
    // finishes one an earlier run left due, even in a turn that files nothing.
    const { reexportFiled } = await loadLater<typeof import("../export/after_filing.ts")>(
      "export/after_filing.ts",
    );
    const exported = await reexportFiled(
      library,
      report.targets.map((t) => t.target),
      held.paths.exportPending,
    );
    if (exported?.changed) fields.exported = exported.changed;
    if (exported?.error) {
      fields.export_error = exported.error;
      message = message === "" ? `Librarian: ${exported.error}.` : `${message} ${exported.error}.`;
    }
  }
  // The turn recorded something (or auto memory did): this Stop filed or newly kept a block.
  const tagged = report.routed.length > 0 || report.kept.some((k) => k.newly) ||
    (sync !== undefined && sync.synced.length > 0);
  const written = report.targets.map((t) => t.target);
  return { fields, message, tagged, written };
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
    const outcome = await onStop(event, env);
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
    ms: elapsedMs(),
  });
  return 0;
}
