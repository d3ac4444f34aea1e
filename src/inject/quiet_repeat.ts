/**
 * Quiet repeats: a file tool's touch that sends nothing, answered again without being decided
 * again.
 *
 * Most touches in a session find everything already in the context window: the hook decides
 * nothing new, writes nothing and prints nothing. Such a run is a function of what it read: the
 * event, the environment, and the files and folders it looked at (`observed_run.ts`). When a run
 * like that has read only things that have settled (`walk_memo_format.ts` `isSettled`, so a
 * change within the file system's timestamp resolution cannot hide), its observations are kept,
 * beside the window's ledger, by the event's key ({@link repeatKeyOf}). A later run of an event
 * with the same key first looks at each kept observation again: when every one still holds (the
 * same stamps, links, values and errors), it would read what that run read, and so decide what it
 * decided, nothing; it logs that run's line and ends. One observation that differs, or no record,
 * and the hook decides as always. Any change to a library file, a folder's entries, the ledger,
 * a native memory file, a setting or the hook's own code is such a difference.
 *
 * Only Claude Code's file tools (PreToolUse), in a window that already has a ledger, are kept:
 * a window's first touch has nothing to repeat. An event's first touch in a window is not watched
 * either, only marked ({@link markSeen}): most such touches send something (a folder not seen
 * yet), and watching a run costs it some 4 % (every listing and read stamped). Its next touch is
 * watched and kept when quiet; the ones after it are replayed.
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { hashUtf8 } from "../core/hash.ts";
import { writeTextAtomicSync } from "../core/atomic.ts";
import { dirnameOf } from "../core/paths.ts";
import type { LogValue } from "../core/log.ts";
import { ledgerPath, quietRecordPath } from "./ledger_paths.ts";
import { isSettled } from "./walk_memo_format.ts";
import { ledgerKeyOf } from "./window.ts";
import {
  type Observation,
  OBSERVATION_KINDS,
  observationHolds,
  type ObservationKind,
  type ObservedRun,
  statObservation,
} from "./observed_run.ts";

/** Where a quiet repeat of an event is kept, and the key it is kept by. */
export interface QuietPlace {
  path: string;
  key: string;
}

/** What a quiet run logged, replayed as it was. */
export type QuietOutcome = Record<string, LogValue>;

/** Tool input that carries the edit's text, not where it goes: known by its kind alone. */
const CONTENT_INPUT = new Set(["old_string", "new_string", "content", "edits", "new_source"]);

/** Log fields that describe how a run went rather than what it decided: never replayed. */
const NOT_REPLAYED = new Set(["memo_recalled", "memo_kept"]);

const KINDS: ReadonlySet<unknown> = new Set(OBSERVATION_KINDS);

function sortedEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The key of a touch for quiet repeats: the whole event but the tool call's id, with the edit's
 * text reduced to its kind (an Edit's `old_string`, a Write's `content`). Two touches with one
 * key are the same question. (The program's own files are observations of every record.)
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { repeatKeyOf } from "./quiet_repeat.ts";
 * const edit = (id: string, text: string) => ({
 *   hook_event_name: "PreToolUse", session_id: "s", tool_use_id: id, tool_name: "Edit",
 *   tool_input: { file_path: "/p/a.ts", old_string: text, new_string: text },
 * });
 * assert.equal(repeatKeyOf(edit("t1", "x")), repeatKeyOf(edit("t2", "y")));
 * assert.notEqual(repeatKeyOf(edit("t1", "x")), repeatKeyOf({ ...edit("t1", "x"), cwd: "/q" }));
 * ```
 */
export function repeatKeyOf(event: HookEvent): string {
  const fields = sortedEntries(event).filter(([name]) => name !== "tool_use_id").map((
    [name, value],
  ) => {
    if (name !== "tool_input" || typeof value !== "object" || value === null) return [name, value];
    const input = sortedEntries(value as Record<string, unknown>).map(([key, part]) =>
      CONTENT_INPUT.has(key) ? [key, typeof part] : [key, part]
    );
    return [name, input];
  });
  return JSON.stringify(fields);
}

/**
 * Where a quiet repeat of `event` would be kept: only for a file tool's PreToolUse by Claude Code
 * in a context window whose ledger exists; otherwise undefined (nothing is watched or kept).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { quietPlaceOf } from "./quiet_repeat.ts";
 * const state = Deno.makeTempDirSync();
 * const read = { hook_event_name: "PreToolUse", session_id: "s", tool_name: "Read" };
 * assert.equal(quietPlaceOf(read, true, state), undefined, "no ledger yet: a first touch");
 * Deno.mkdirSync(`${state}/ledgers/s`, { recursive: true });
 * Deno.writeTextFileSync(`${state}/ledgers/s/main.json`, "{}");
 * assert.match(quietPlaceOf(read, true, state)!.path, /ledgers\/s\/main\.quiet\/[0-9a-f]{16}\.json$/);
 * assert.equal(quietPlaceOf(read, false, state), undefined, "not a file tool");
 * ```
 */
export function quietPlaceOf(
  event: HookEvent,
  fileTool: boolean,
  state: string | undefined,
): QuietPlace | undefined {
  if (!fileTool || event.hook_event_name !== "PreToolUse" || state === undefined) return undefined;
  if (event.agent !== undefined && event.agent !== "claude") return undefined;
  const window = ledgerKeyOf(event);
  if (window === undefined) return undefined;
  try {
    if (!Deno.statSync(ledgerPath(state, window)).isFile) return undefined;
  } catch {
    return undefined; // a window's first touch: nothing to repeat yet
  }
  const key = repeatKeyOf(event);
  return { path: quietRecordPath(state, window, hashUtf8(key)), key };
}

function isLogValue(value: unknown): value is LogValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * The observations in the order a replay checks them: values first (cheap), then stamps, the
 * most recently changed first (the ledger before a library file of last year), so a replay that
 * does not hold ends at its first look as a rule.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { byLikelyChange } from "./quiet_repeat.ts";
 * const old = { kind: "stat" as const, subject: "/lib/a.md", seen: "f:1000:1000:1:1:1:1", changedMs: 1000 };
 * const ledger = { kind: "read" as const, subject: "/state/main.json", seen: "f:9000:9000:2:1:1:1", changedMs: 9000 };
 * const home = { kind: "env" as const, subject: "HOME", seen: "=/home/me" };
 * assert.deepEqual(byLikelyChange([old, ledger, home]), [home, ledger, old]);
 * ```
 */
export function byLikelyChange(observations: readonly Observation[]): Observation[] {
  return observations
    .map((observation, index) => ({ observation, index, at: observation.changedMs ?? Infinity }))
    .sort((a, b) => b.at - a.at || a.index - b.index)
    .map((entry) => entry.observation);
}

/**
 * The record of a quiet run, as kept (JSON).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQuietRecord } from "./quiet_repeat.ts";
 * const observations = [{ kind: "cwd" as const, subject: "", seen: "/p" }];
 * const text = formatQuietRecord("k", observations, { result: "nothing-new", memo_recalled: 2 });
 * assert.deepEqual(JSON.parse(text), { key: "k", outcome: { result: "nothing-new" }, seen: [["cwd", "", "/p"]] });
 * ```
 */
export function formatQuietRecord(
  key: string,
  observations: readonly Observation[],
  outcome: QuietOutcome,
): string {
  const kept = Object.fromEntries(
    Object.entries(outcome).filter(([name, value]) => !NOT_REPLAYED.has(name) && isLogValue(value)),
  );
  const seen = byLikelyChange(observations).map((o) => [o.kind, o.subject, o.seen]);
  return JSON.stringify({ key, outcome: kept, seen });
}

/** What an event's record says before the event is decided. */
export type Replay =
  /** The record holds: the outcome its run logged. */
  | { kind: "replayed"; outcome: QuietOutcome }
  /** No record: the event's first touch in this window, not watched ({@link markSeen}). */
  | { kind: "unseen" }
  /** A record that does not hold (or the mark of the first touch): decided, watched. */
  | { kind: "stale" };

const UNSEEN: Replay = { kind: "unseen" };
const STALE: Replay = { kind: "stale" };

/**
 * What the record at `place` says: the outcome its quiet run logged when every one of its
 * observations still holds. Checked in the order kept, the likeliest to have changed first, and
 * straight from the record (a damaged one simply does not hold).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { markSeen, replayQuietRun } from "./quiet_repeat.ts";
 * const place = { path: `${Deno.makeTempDirSync()}/main.quiet/k.json`, key: "k" };
 * const env = (name: string) => name === "A" ? "1" : undefined;
 * assert.equal(replayQuietRun(place, env).kind, "unseen");
 * markSeen(place);
 * assert.equal(replayQuietRun(place, env).kind, "stale", "a mark is no record");
 * const record = { key: "k", outcome: { result: "all-sent" }, seen: [["env", "A", "=1"]] };
 * Deno.writeTextFileSync(place.path, JSON.stringify(record));
 * assert.deepEqual(replayQuietRun(place, env), { kind: "replayed", outcome: { result: "all-sent" } });
 * assert.equal(replayQuietRun(place, () => "2").kind, "stale", "what it read changed");
 * ```
 */
export function replayQuietRun(place: QuietPlace, env: EnvReader): Replay {
  let record: unknown;
  try {
    record = JSON.parse(Deno.readTextFileSync(place.path));
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? UNSEEN : STALE;
  }
  if (typeof record !== "object" || record === null) return STALE;
  const { key, outcome, seen } = record as Record<string, unknown>;
  if (key !== place.key || !Array.isArray(seen) || !isOutcome(outcome)) return STALE;
  for (const entry of seen) {
    if (!Array.isArray(entry) || !KINDS.has(entry[0])) return STALE;
    const [kind, subject, observed] = entry as [ObservationKind, unknown, unknown];
    if (typeof subject !== "string" || typeof observed !== "string") return STALE;
    if (!observationHolds({ kind, subject, seen: observed }, env)) return STALE;
  }
  return { kind: "replayed", outcome };
}

/**
 * Marks an event's first touch in a window (an empty record), so that its next touch is watched.
 * The first touch itself is not: most send something (a new file's folder), and watching costs
 * more than this mark. Never fails (without the mark, the next touch is simply not watched).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { markSeen } from "./quiet_repeat.ts";
 * const place = { path: `${Deno.makeTempDirSync()}/main.quiet/k.json`, key: "k" };
 * markSeen(place);
 * markSeen(place);
 * assert.equal(Deno.readTextFileSync(place.path), "");
 * ```
 */
export function markSeen(place: QuietPlace): void {
  const mark = () => Deno.writeTextFileSync(place.path, "", { createNew: true });
  try {
    mark();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return; // marked already, or cannot be
    try {
      Deno.mkdirSync(dirnameOf(place.path), { recursive: true });
      mark();
    } catch {
      // a state folder that cannot be written: no quiet repeats
    }
  }
}

function isOutcome(value: unknown): value is QuietOutcome {
  return typeof value === "object" && value !== null && Object.values(value).every(isLogValue);
}

/** The path of a `file:` URL (`file:///C:/x` is `C:/x`); undefined for any other. */
function pathOfFileUrl(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  try {
    const path = decodeURIComponent(new URL(url).pathname);
    return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
  } catch {
    return undefined;
  }
}

/** The running program's own files, observed with every run kept: a new build is a new answer. */
function codeObservations(): Observation[] {
  const module = pathOfFileUrl(Deno.mainModule);
  const paths = module === undefined ? [Deno.execPath()] : [Deno.execPath(), module];
  return paths.map(statObservation);
}

/**
 * Each thing observed once (a folder listed and stat'ed is one stamp), in the order first
 * observed; null when one thing was seen two ways in one run (it changed while the run read it:
 * such a run is not kept).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { distinctObservations } from "./quiet_repeat.ts";
 * const a = { kind: "env" as const, subject: "A", seen: "=1" };
 * assert.deepEqual(distinctObservations([a, a, { ...a, kind: "process-env" as const }]), [a, { ...a, kind: "process-env" }]);
 * assert.equal(distinctObservations([a, { ...a, seen: "=2" }]), null);
 * ```
 */
export function distinctObservations(observations: readonly Observation[]): Observation[] | null {
  const seen = new Map<string, string>();
  const distinct: Observation[] = [];
  for (const observation of observations) {
    // a listing's and a read's stamps are a stat's: one look stands for all three
    const kind = observation.kind === "list" || observation.kind === "read"
      ? "stat"
      : observation.kind;
    const id = `${kind}\0${observation.subject}`;
    const earlier = seen.get(id);
    if (earlier === undefined) {
      seen.set(id, observation.seen);
      distinct.push(observation);
    } else if (earlier !== observation.seen) {
      return null;
    }
  }
  return distinct;
}

/**
 * Keeps a watched run at `place` when it can be replayed: it did nothing but read (no write, no
 * output, no program), everything it stamped has settled at `nowMs`, and it ended in a decision
 * (not an error). Returns whether it was kept; a failure to write is not an error (the next run
 * decides as always).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepQuietRun, replayQuietRun } from "./quiet_repeat.ts";
 * import { observeRun } from "./observed_run.ts";
 * const folder = Deno.makeTempDirSync();
 * const place = { path: `${Deno.makeTempDirSync()}/main.quiet/k.json`, key: "k" };
 * const env = () => undefined;
 * const quiet = await observeRun(env, () => {
 *   Deno.statSync(folder);
 *   return Promise.resolve({ result: "all-sent" });
 * });
 * assert.equal(keepQuietRun(place, quiet, Date.now()), false, "what it read changed just now");
 * assert.equal(keepQuietRun(place, quiet, Date.now() + 60_000), true);
 * assert.equal(replayQuietRun(place, env).kind, "replayed");
 * ```
 */
export function keepQuietRun(
  place: QuietPlace,
  watched: ObservedRun<QuietOutcome>,
  nowMs: number = Date.now(),
): boolean {
  if (watched.effect !== undefined) return false;
  if (watched.newestChangeMs > 0 && !isSettled(watched.newestChangeMs, nowMs)) return false;
  const result = watched.value.result;
  if (result === "error" || result === "bad-input") return false;
  const observations = distinctObservations([...codeObservations(), ...watched.observations]);
  if (observations === null) return false;
  try {
    writeTextAtomicSync(place.path, formatQuietRecord(place.key, observations, watched.value));
    return true;
  } catch {
    return false;
  }
}
