/**
 * The start of a context window: SessionStart (the main agent) and SubagentStart (a subagent).
 *
 * - SessionStart (`startup`, `resume`, `fork`, `clear`, `compact`): the library root's files, once
 *   per context window, recorded in the ledger, so a later first touch sends only folder-specific
 *   files. After `compact` (and `clear`) the window is empty again: its ledger is reset first. A
 *   `fork` (Claude Code 2.1.332's `--fork-session`: a new session id holding its parent's
 *   conversation) is a `resume`: its ledger starts as a copy of its parent's (`fork_parent.ts`),
 *   so nothing the parent was sent comes again. A second run of the same start (hooks wired
 *   twice) within 30 s sends nothing.
 *   `LIBRARIAN_SESSION_START=off` turns the root files off (the ledger is still reset). First,
 *   the library's stale record is made when there is none (a fresh clone, a new machine, a
 *   cleared state folder) or remade when it no longer holds (`HEAD` moved): the one place the
 *   inject hook asks git, so that stale learnings are marked from the first touch on.
 * - SubagentStart: a short tagging reminder and the root files, for the subagent's own window. A
 *   fork (`agent_type: "fork"`) inherits its parent's conversation, so its ledger starts as a copy
 *   of the parent's: nothing the parent had is sent again.
 *
 * @module
 */

import {
  findLibraryForSession,
  isLibrary,
  type Library,
  lookUpLibraryForSession,
  refusalWarning,
  scratchPathOf,
  trustsOwnersOf,
} from "../core/discover.ts";
import { type EnvReader, readBudget } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { collectLibraryFiles, type LibraryFile } from "../core/walk.ts";
import { clientLoadedRootAgents, rootAgentsFile } from "./root_agents.ts";
import { chooseContext } from "./choose.ts";
import { dirnameOf, relativeInside } from "../core/paths.ts";
import { compactionFiles, compactionHeader } from "./recent.ts";
import {
  fingerprintsOf,
  nativeSources,
  repoWideRules,
  withoutClientsOwnRules,
} from "./native_sources.ts";
import { type StaleView, staleView } from "./stale_view.ts";
import { claudeRuleExports, generatedRootAgents, heldByExports } from "./loaded_exports.ts";
import { loadLedger, pruneLedgers } from "./ledger.ts";
import { pruneWalkMemos } from "./walk_memo.ts";
import { staleRecordNeed } from "../git/stale_check.ts";
import { formatStaleRecord } from "../git/stale_record.ts";
import { writeTextAtomicSync } from "../core/atomic.ts";
import { staleModeFrom } from "../format/stale_marks.ts";
import { loadLater } from "../core/load_later.ts";
import { messageOf } from "../core/errors.ts";
import { findForkParent, inheritedLedger, isUntouched } from "./fork_parent.ts";
import { emptyLedger, type Ledger } from "./ledger_format.ts";
import { subagentReminder } from "./reminder.ts";
import { decideOnce, type Outcome, windowStateDir } from "./window.ts";

/** The header of the root files' context. */
export const ROOT_HEADER =
  "[Librarian] Memory library context for the whole project (the library root's files):";

/** True unless `LIBRARIAN_SESSION_START` is `off` (or `0`, `false`, `no`). *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { rootFilesAtStart } from "./start.ts";
 * assert.equal(rootFilesAtStart(envFrom({})), true);
 * assert.equal(rootFilesAtStart(envFrom({ LIBRARIAN_SESSION_START: "off" })), false);
 * ```
 */
export function rootFilesAtStart(env: EnvReader): boolean {
  const value = env("LIBRARIAN_SESSION_START")?.trim().toLowerCase();
  return !["off", "0", "false", "no"].includes(value ?? "");
}

function optionalStale(stale: StaleView | undefined): { stale?: StaleView } {
  return stale === undefined ? {} : { stale };
}

/**
 * The root files a window does not have yet, rendered within `budget`: the text (empty when
 * nothing is due) and what to record.
 */
function rootContext(
  library: Library,
  ledger: Ledger,
  budget: number,
  env: EnvReader,
  recent: readonly string[] = [],
  event?: HookEvent,
): { text: string; files: Record<string, string>; sent: string } {
  const client = event?.agent;
  // the project's root AGENTS.md, general last, where Claude Code did not load it
  // (root_agents.ts); another agent reads it itself
  const byClaude = client === undefined || client === "claude";
  const agents = byClaude ? rootAgentsFile(library.projectRoot) : null;
  const verdict = agents === null || ledger.files[agents.absPath] !== undefined
    ? undefined
    : clientLoadedRootAgents(library.projectRoot, event?.transcript_path, env, "start");
  // the Librarian's own exports of the root Claude Code loads: a claude-rules rule without
  // `paths:` at every start, a generated root AGENTS.md where it loads that (told at the first
  // touch on 2.1.3xx: left to it until then); the root files they hold are in the window
  // (loaded_exports.ts)
  const exported = byClaude ? exportedRoot(library, event, env) : { loaded: [], deferred: [] };
  const libraryFiles = collectLibraryFiles(library.root, "");
  const held = heldByExports(libraryFiles, exported.loaded);
  const deferred = heldByExports(libraryFiles, exported.deferred);
  const away = new Set([...held, ...deferred].map((f) => f.absPath));
  const loaded = {
    ...(verdict === true && agents !== null ? fingerprintsOf([agents]) : {}),
    ...fingerprintsOf(held),
  };
  // the library's root files, the root AGENTS.md, then the other agents' rules for the whole
  // repository (Claude Code never loads them), under one budget: cut last
  const rootFiles = [
    ...libraryFiles.filter((file) => !away.has(file.absPath)),
    ...(verdict === false && agents !== null ? [agents] : []),
    ...withoutClientsOwnRules(repoWideRules(library.projectRoot), client),
  ];
  const result = rootFilesAndRecent(library, ledger, budget, env, recent, rootFiles, client);
  return { ...result, files: { ...loaded, ...result.files } };
}

/**
 * The exports of the library root Claude Code loads at a start: `loaded` (a `claude-rules` rule
 * without `paths:`; a generated root `AGENTS.md` the client is known to load) and `deferred` (a
 * generated root `AGENTS.md` a 2.1.3xx client tells only at the first touch: `inject_hook.ts`).
 */
function exportedRoot(
  library: Library,
  event: HookEvent | undefined,
  env: EnvReader,
): { loaded: LibraryFile[]; deferred: LibraryFile[] } {
  const rules = claudeRuleExports(library.projectRoot);
  const agents = generatedRootAgents(library.projectRoot);
  const verdict = agents === null
    ? false
    : clientLoadedRootAgents(library.projectRoot, event?.transcript_path, env, "start");
  return {
    loaded: [...rules, ...(verdict === true && agents ? [agents] : [])],
    deferred: verdict === undefined && agents ? [agents] : [],
  };
}

/** The root files (and after a compaction the recent folders' files), chosen and rendered. */
function rootFilesAndRecent(
  library: Library,
  ledger: Ledger,
  budget: number,
  env: EnvReader,
  recent: readonly string[],
  rootFiles: LibraryFile[],
  client: string | undefined,
): { text: string; files: Record<string, string>; sent: string } {
  // after a compaction, the folders worked on last come back first (recent.ts), with what the
  // client does not load again for them (a nested AGENTS.md, another agent's rule covering them)
  const folders = recent.flatMap((folder) => {
    const rel = relativeInside(folder, library.projectRoot);
    return rel === null || rel === "" ? [] : [rel];
  });
  const walks = folders.map((folder) => [
    ...collectLibraryFiles(library.root, folder),
    ...withoutClientsOwnRules(
      nativeSources(library.projectRoot, [`${folder}/`], "file-tool"),
      client,
    ),
  ]);
  const files = compactionFiles(walks, rootFiles);
  const named = folders.filter((_, i) => walks[i]!.some((f) => dirnameOf(f.relPath) !== ""));
  if (files.length === 0) return { text: "", files: {}, sent: "" };
  const choice = chooseContext(files, {
    budget,
    alreadySent: ledger.files,
    header: () => named.length > 0 ? compactionHeader(named) : ROOT_HEADER,
    trusts: trustsOwnersOf(library),
    ...optionalStale(staleView(library, env)),
  });
  if (choice.kind === "none") return { text: "", files: choice.refreshed, sent: "" };
  const { shown, cut } = choice.rendered;
  return {
    text: choice.rendered.text,
    files: choice.delivered,
    sent: [...shown, ...cut].join(","),
  };
}

/**
 * A start's identity: its source and the transcript's size then (each compaction grows the
 * transcript, while a second run of the same start sees the same size), timed so that without a
 * transcript two runs within 30 s are one start.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { startEventId } from "./start.ts";
 * assert.equal(startEventId("compact", undefined, 5), "start:compact-0@5");
 * ```
 */
export function startEventId(source: string, transcriptPath: unknown, now: number): string {
  let size = 0;
  if (typeof transcriptPath === "string" && transcriptPath !== "") {
    try {
      size = Deno.statSync(transcriptPath).size;
    } catch {
      // no transcript yet
    }
  }
  return `start:${source.replace(/[^a-z]/g, "") || "unknown"}-${size}@${now}`;
}

/**
 * After compaction or `/clear` the window is empty: only the record of recent starts is kept,
 * and after a compaction the folders touched last (their files are sent again now).
 */
function forgetWindow(ledger: Ledger, keepRecent: boolean): Ledger {
  const events = ledger.events.filter((e) => e.startsWith("start:"));
  return keepRecent && ledger.recent
    ? { ...emptyLedger(), events, recent: ledger.recent }
    : { ...emptyLedger(), events };
}

/**
 * How long the session start waits for git's answers: its hook has 10 s, and the root files must
 * still be sent (a slower repository's record is made by the next Stop).
 */
const START_GIT_MS = 4_000;

/**
 * Makes the library's stale record when there is none, or remakes it when it no longer holds
 * (`HEAD` moved, a cited file changed: a few `stat` calls tell), so that the touches of this
 * session mark stale learnings (`stale_view.ts` reads the record, never git). Git is asked only
 * then, here at the session's start. Never fails the start: the log field says what happened.
 */
async function keepStaleRecord(library: Library, env: EnvReader): Promise<Outcome> {
  if (staleModeFrom(env("LIBRARIAN_STALE")) === "off") return {};
  try {
    const need = staleRecordNeed(library, env, false);
    if (need === null) return {};
    // loaded from src/ (the bundle does not carry it): it computes; the writing is done here
    const { makeStaleRecord } = await loadLater<typeof import("../git/stale_make.ts")>(
      "git/stale_make.ts",
    );
    const made = await makeStaleRecord(library, need.head, AbortSignal.timeout(START_GIT_MS));
    // a record made without git's answers would hold no marks until HEAD moves: the Stop makes it
    if (made.git === "git-unavailable") {
      return { stale_record: `skipped:git did not answer within ${START_GIT_MS} ms` };
    }
    writeTextAtomicSync(need.path, formatStaleRecord(made.record));
    return { stale_record: `written:${made.stale}` };
  } catch (error) {
    return { stale_record: `skipped:${messageOf(error)}` };
  }
}

/** SessionStart: reset the window after compaction, then send the root files once. */
export async function onSessionStart(event: HookEvent, env: EnvReader): Promise<Outcome> {
  const state = windowStateDir(env);
  const source = event.source ?? "unknown";
  const found = lookUpLibraryForSession(event.cwd, env);
  const library = isLibrary(found) ? found : null;
  // before the root files are chosen, so that they are marked too
  const stale = library === null ? {} : await keepStaleRecord(library, env);
  const fresh = source === "compact" || source === "clear";
  const forked = source === "fork";
  // the folders touched last before a compaction, read from the ledger it resets
  let recent: readonly string[] = [];
  let parent: string | undefined;
  const seed = (ledger: Ledger): Ledger => {
    if (forked) {
      // the fork's first hook: it holds its parent's window
      if (!state || !isUntouched(ledger)) return ledger;
      parent = findForkParent(event, state);
      return parent ? inheritedLedger(loadLedger(state, { sessionId: parent }).ledger) : ledger;
    }
    if (source === "compact") recent = ledger.recent ?? [];
    return forgetWindow(ledger, source === "compact");
  };
  const send = library !== null && rootFilesAtStart(env);
  const key = event.session_id ? { sessionId: event.session_id } : undefined;
  const { budget } = readBudget(env);
  const outcome = decideOnce(event, env, state, key, (ledger) => {
    if (found !== null && !isLibrary(found)) {
      // another user's library: the user hears it once per start; nothing is read or filed
      return {
        outcome: { result: "library-refused", refused: found.refused, why: found.reason },
        output: { event: "SessionStart", warning: `Librarian: ${refusalWarning(found)}.` },
        record: {},
      };
    }
    if (!send || library === null) {
      return {
        outcome: { result: library === null ? "no-library" : "root-files-off" },
        record: {},
      };
    }
    const root = rootContext(library, ledger, budget, env, recent, event);
    if (root.text === "") return { outcome: { result: "all-sent" }, record: { files: root.files } };
    const again = recent.length > 0 ? { recent: recent.length } : {};
    return {
      outcome: {
        result: "injected",
        sent: root.sent || undefined,
        chars: root.text.length,
        ...again,
      },
      output: { event: "SessionStart", text: root.text },
      record: { files: root.files },
    };
  }, {
    eventId: startEventId(source, event.transcript_path, Date.now()),
    ...(fresh || forked ? { seed } : {}),
  });
  const pruned = state ? await pruneLedgers(state) : 0;
  const prunedMemos = state ? await pruneWalkMemos(state) : 0;
  return {
    source,
    ...outcome,
    ...stale,
    ...(forked ? { parent: parent?.slice(0, 8) ?? "none" } : {}),
    ...(fresh ? { ledger: "reset" } : {}),
    pruned: pruned || undefined,
    pruned_memos: prunedMemos || undefined,
  };
}

/** SubagentStart: the subagent's reminder and root files, in its own window. */
export function onSubagentStart(event: HookEvent, env: EnvReader): Outcome {
  const agentType = typeof event.agent_type === "string" ? event.agent_type : undefined;
  const base: Outcome = { agent_type: agentType };
  if (!event.agent_id) return { ...base, result: "no-agent-id" };
  const library = findLibraryForSession(event.cwd, env);
  if (!library) return { ...base, result: "no-library" };
  const state = windowStateDir(env);
  const key = event.session_id
    ? { sessionId: event.session_id, agentId: event.agent_id }
    : undefined;
  const isFork = agentType === "fork";
  const seed = (ledger: Ledger): Ledger => {
    const untouched = !ledger.reminded && ledger.events.length === 0 &&
      Object.keys(ledger.files).length === 0;
    if (!isFork || !untouched || !state || !event.session_id) return ledger;
    const parent = loadLedger(state, { sessionId: event.session_id }).ledger;
    return { files: { ...parent.files }, reminded: parent.reminded, events: [] };
  };
  const { budget } = readBudget(env);
  const outcome = decideOnce(event, env, state, key, (ledger) => {
    const reminder = ledger.reminded ? "" : subagentReminder(scratchPathOf(library));
    const root = rootFilesAtStart(env)
      ? rootContext(library, ledger, budget - reminder.length - 2, env, [], event)
      : { text: "", files: {}, sent: "" };
    const text = [reminder, root.text].filter((t) => t !== "").join("\n\n");
    if (text === "") return { outcome: { result: "all-sent" }, record: { files: root.files } };
    return {
      outcome: {
        result: "injected",
        reminded: reminder !== "" || undefined,
        sent: root.sent || undefined,
        chars: text.length,
      },
      output: { event: "SubagentStart", text },
      record: { files: root.files, reminded: true },
    };
  }, { eventId: `subagent:${event.agent_id.replace(/\s/g, "_").slice(0, 200)}`, seed });
  return { ...base, ...outcome };
}
