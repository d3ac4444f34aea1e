/**
 * The stop nudge's effects: read the turn from the transcript (once, shared with provenance),
 * waiting within a bound for Claude Code's buffered transcript to catch up, remember which
 * sessions were nudged (session_records.ts), and decide with the pure rules of `nudge.ts`.
 *
 * A session's nudge is recorded exclusively, so that two Stop hooks running at once (plugin and
 * settings) nudge once between them; a session whose transcript never appeared within the wait
 * is recorded too, so its later Stops do not wait for it again.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import type { LogValue } from "../core/log.ts";
import { isLocalAbsolutePath, normalizePath } from "../core/paths.ts";
import { createRecord, hasRecord } from "./session_records.ts";
import {
  type BashWrites,
  nudgeGate,
  nudgeModeOf,
  type NudgeSkip,
  nudgeSkipFor,
  type TurnChanges,
  turnChanges,
} from "./nudge.ts";
import { readTurnOnce, type TurnActivity, type TurnRead } from "./transcript.ts";
import { loadLater } from "../core/load_later.ts";
import { takeSubagentChanges } from "./subagent_changes.ts";
import { readTurnTools } from "../core/turn_record.ts";

/** The turn's changes from the transcript, read at most once per hook run. */
export interface TurnSource {
  /** The changes, or `undefined` when the transcript is missing, unreadable or unknown. */
  changes(): Promise<TurnChanges | undefined>;
  /** How the read went, for the log (`undefined` until read). */
  fields(): Record<string, LogValue>;
}

/**
 * Whether the transcript shows the turn's final assistant message (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const turn = { complete: true, toolUses: [], newestAssistantText: "Done." };
 * assert.equal(caughtUp(turn, "Done."), true);
 * assert.equal(caughtUp(turn, "Something else."), false);
 * assert.equal(caughtUp(turn, undefined), true);
 * ```
 */
export function caughtUp(activity: TurnActivity, lastAssistantMessage: unknown): boolean {
  const expected = namedMessage(lastAssistantMessage);
  return expected === undefined || activity.newestAssistantText?.trim() === expected;
}

/** The Stop event's `last_assistant_message`, trimmed, or `undefined` when it names none. */
function namedMessage(lastAssistantMessage: unknown): string | undefined {
  if (typeof lastAssistantMessage !== "string") return undefined;
  return lastAssistantMessage.trim() || undefined;
}

/** Options for {@link readTurn}. */
export interface ReadTurnOptions {
  /** The Stop event's `last_assistant_message`, to tell when the transcript has caught up. */
  lastAssistantMessage?: unknown;
  /** The longest wait for the transcript to catch up (default 400 ms). */
  maxWaitMs?: number;
  /**
   * Whether to wait for a transcript file that does not exist yet (default true). Off for a
   * session whose transcript never appeared: one run with `--no-session-persistence` writes none.
   */
  waitForFile?: boolean;
  maxBytes?: number;
  /** Read a subagent's own transcript (its entries are all `isSidechain`). */
  sidechain?: boolean;
  /** The clock, in milliseconds (default `performance.now`); tests give a slow one. */
  now?: () => number;
}

/** The poll interval while waiting for the transcript to catch up. */
const POLL_MS = 15;

/**
 * Whether a read is worth repeating: the transcript does not yet show the turn's last assistant
 * message, or, when the Stop names that message, the transcript file does not exist yet (Claude
 * Code writes it through a buffer, so a session's first Stop can come before the file).
 */
function behind(read: TurnRead, path: unknown, options: ReadTurnOptions): boolean {
  if (read.activity) return !caughtUp(read.activity, options.lastAssistantMessage);
  if (options.waitForFile === false || namedMessage(options.lastAssistantMessage) === undefined) {
    return false;
  }
  if (read.status !== "missing" || typeof path !== "string") return false;
  return isLocalAbsolutePath(normalizePath(path));
}

/**
 * Reads the current turn, waiting (up to `maxWaitMs`) while the transcript does not yet show the
 * turn's last assistant message, or does not exist yet; a transcript that grows or appears is
 * read again. Never throws.
 *
 * Only waiting counts: the bound and `waitedMs` start when the first read shows the transcript
 * behind, so a read that is merely slow (a big transcript, a loaded machine) is not a wait, and
 * `waitedMs` is 0 exactly when the hook did not wait.
 */
export async function readTurn(path: unknown, options: ReadTurnOptions = {}): Promise<TurnRead> {
  const maxWait = options.maxWaitMs ?? 400;
  const clock = options.now ?? (() => performance.now());
  const readOnceNow = () =>
    readTurnOnce(path, options.maxBytes, { bytesExamined: 0 }, options.sidechain ?? false);
  let read = readOnceNow();
  let waitStarted: number | undefined;
  const waitedSoFar = () => waitStarted === undefined ? 0 : Math.max(1, clock() - waitStarted);
  while (behind(read, path, options)) {
    waitStarted ??= clock();
    const waited = waitedSoFar();
    const status = read.activity ? "lagging" : read.status;
    if (waited >= maxWait) return { ...read, status, waitedMs: Math.round(waited) };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    let size: number | undefined;
    try {
      size = Deno.statSync(path as string).size;
    } catch {
      size = undefined;
    }
    if (size !== read.size) read = readOnceNow();
  }
  return { ...read, waitedMs: Math.round(waitedSoFar()) };
}

/**
 * A {@link TurnSource} for a Stop event.
 *
 * @example Usage
 * ```ts
 * import { turnSource } from "./stop_nudge.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * const p = Deno.makeTempDirSync();
 * const library = { root: `${p}/_memory_library`, projectRoot: p, foundBy: "cwd" as const };
 * const edit = { type: "tool_use", name: "Write", input: { file_path: `${p}/src/a.ts` } };
 * const said = { type: "assistant", message: { content: [edit] } };
 * const transcript_path = `${p}/t.jsonl`;
 * Deno.writeTextFileSync(transcript_path, JSON.stringify(said));
 * const source = turnSource({ hook_event_name: "Stop", transcript_path }, library, envFrom({}));
 * assert.deepEqual(await source.changes(), { files: ["src/a.ts"], tagged: false });
 * assert.equal(source.fields().transcript, "ok");
 * ```
 */
export function turnSource(event: HookEvent, library: Library, env: EnvReader): TurnSource {
  if (event.agent !== undefined && event.agent !== "claude") {
    return recordedTurnSource(event, library, env);
  }
  // a SubagentStop reads the subagent's own transcript; a Stop adds what its subagents changed
  const subagent = event.hook_event_name === "SubagentStop";
  let read: Promise<TurnRead> | undefined;
  let done: TurnRead | undefined;
  let changes: TurnChanges | undefined;
  let fromSubagents: string[] | undefined;
  return {
    async changes() {
      read ??= subagent
        ? readTurn(event.agent_transcript_path, {
          lastAssistantMessage: event.last_assistant_message,
          sidechain: true,
        })
        : readOnce(event, stateDir(env));
      done = await read;
      if (changes) return changes;
      const state = stateDir(env);
      fromSubagents ??= !subagent && state && event.session_id
        ? takeSubagentChanges(state, event.session_id)
        : [];
      if (!done.activity && fromSubagents.length === 0) return undefined;
      const own = done.activity
        ? await changesOf(done.activity, library, event.cwd, env)
        : { files: [], tagged: false };
      changes = {
        files: [...new Set([...own.files, ...fromSubagents])].sort(),
        tagged: own.tagged,
      };
      return changes;
    },
    fields() {
      if (!done) return {};
      return {
        transcript: done.status,
        transcript_wait_ms: done.waitedMs || undefined,
        changed: changes?.files.length,
        subagent_changed: fromSubagents?.length || undefined,
      };
    },
  };
}

/**
 * The turn of an agent whose transcript is not read (Codex, Copilot, Gemini): what its tool
 * events showed the inject hook (`core/turn_record.ts`); no record means no file was changed.
 *
 * @example Usage
 * ```ts
 * import { turnSource } from "./stop_nudge.ts";
 * import { envFrom } from "../core/env.ts";
 * import { noteTurnTool } from "../core/turn_record.ts";
 * import assert from "node:assert/strict";
 * const p = Deno.makeTempDirSync();
 * const library = { root: `${p}/_memory_library`, projectRoot: p, foundBy: "cwd" as const };
 * const env = envFrom({ LIBRARIAN_STATE_DIR: `${p}/state` });
 * const patch = "*** Begin Patch\n*** Update File: src/a.ts\n*** End Patch";
 * const edit = { session_id: "s", cwd: p, tool_name: "apply_patch", tool_input: { command: patch } };
 * noteTurnTool(`${p}/state`, edit);
 * const stop = { hook_event_name: "Stop", session_id: "s", agent: "codex" as const };
 * const source = turnSource(stop, library, env);
 * assert.deepEqual(await source.changes(), { files: ["src/a.ts"], tagged: false });
 * assert.equal(source.fields().transcript, "turn-record");
 * ```
 */
function recordedTurnSource(event: HookEvent, library: Library, env: EnvReader): TurnSource {
  const state = stateDir(env);
  let changes: TurnChanges | undefined;
  let status: string | undefined;
  return {
    async changes() {
      if (changes === undefined) {
        const tools = readTurnTools(state, event.session_id);
        status = tools === undefined ? "no-turn-record" : "turn-record";
        const toolUses = (tools ?? []).map((t) => ({ ...t, failed: false }));
        changes = await changesOf({ complete: true, toolUses }, library, event.cwd, env);
      }
      return changes;
    },
    fields() {
      return status === undefined ? {} : { transcript: status, changed: changes?.files.length };
    },
  };
}

/**
 * The turn's changes; a shell command's writes count as the inject hook's touches do (the shell
 * reader is loaded only for a turn that ran Bash without failing).
 */
async function changesOf(
  activity: TurnActivity,
  library: Library,
  cwd: string | undefined,
  env: EnvReader,
): Promise<TurnChanges> {
  const bash = activity.toolUses.some((u) => u.name === "Bash" && !u.failed)
    ? await bashWritesReader(env)
    : undefined;
  return turnChanges(activity, library, cwd, undefined, bash);
}

/**
 * The files a Bash command writes, by the shell reader the inject hook reads touches with (loaded
 * only for a turn that ran Bash); a command it cannot read writes nothing it knows of.
 */
async function bashWritesReader(env: EnvReader): Promise<BashWrites> {
  const { touchesOfCommand } = await loadLater<typeof import("../shell/bash_touches.ts")>(
    "shell/bash_touches.ts",
  );
  return (command, cwd) => {
    try {
      const found = touchesOfCommand(command, { cwd, home: env("HOME") });
      if (!found.ok) return [];
      return found.touches.filter((t) => t.role === "write" && t.glob === undefined)
        .map((t) => t.path);
    } catch {
      return []; // the reader's bounds: a command it cannot read changes nothing it knows of
    }
  };
}

/**
 * Reads the Stop's turn, waiting for a transcript file that does not exist yet only when this
 * session's transcript has not already failed to appear once.
 */
async function readOnce(event: HookEvent, state: string | undefined): Promise<TurnRead> {
  const session = event.session_id;
  const remembered = state !== undefined && typeof session === "string" && session !== "";
  const neverWritten = remembered && hasRecord(state, "no-transcript", session);
  const read = await readTurn(event.transcript_path, {
    lastAssistantMessage: event.last_assistant_message,
    waitForFile: !neverWritten,
  });
  if (remembered && !neverWritten && read.status === "missing" && read.waitedMs > 0) {
    createRecord(state, "no-transcript", session, Date.now());
  }
  return read;
}

function wasNudged(state: string | undefined, sessionId: string | undefined): boolean {
  // Without a session or a place to remember it, "once per session" cannot be kept: no nudge.
  if (!state || !sessionId) return true;
  return hasRecord(state, "nudged", sessionId);
}

/** The nudge decision for one Stop. */
export interface NudgeDecision {
  /** The reason to continue with, or `undefined` when the turn ends normally. */
  reason?: string;
  fields: Record<string, LogValue>;
}

/**
 * Decides whether this Stop nudges: cheap checks first, the transcript only when the turn could
 * need it, and in `session` mode an exclusive record so the session is nudged once.
 */
export async function decideStopNudge(
  event: HookEvent,
  library: Library,
  env: EnvReader,
  taggedThisStop: boolean,
  turn: TurnSource,
): Promise<NudgeDecision> {
  const mode = nudgeModeOf(env("LIBRARIAN_NUDGE"));
  const state = stateDir(env);
  const skip = (why: NudgeSkip): NudgeDecision => ({ fields: { nudge: why } });
  const gate = nudgeGate({
    mode,
    stopHookActive: event.stop_hook_active === true,
    taggedThisStop,
    nudgedBefore: () => wasNudged(state, event.session_id),
  });
  if (gate) return skip(gate);
  const changes = await turn.changes();
  const why = nudgeSkipFor(changes);
  if (why || !changes) return skip(why ?? "no-transcript");
  // The reason's code (tag rules) is loaded only now: most turns never get this far.
  const { nudgeReason, tagLevels } = await loadLater<typeof import("./nudge_reason.ts")>(
    "filing/nudge_reason.ts",
  );
  const reason = nudgeReason(changes.files, library, tagLevels(library));
  if (mode === "session" && !createRecord(state!, "nudged", event.session_id!, Date.now())) {
    return skip("already-nudged");
  }
  return { reason, fields: { nudge: "sent" } };
}
