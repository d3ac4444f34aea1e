/**
 * The journal: the stop side's crash record, kept per library beside its lock.
 *
 * It holds the hashes of blocks filed (written before the targets, so a run killed mid-way is
 * covered: the next run drops a block that is still in scratch when every item of it is already
 * in its target), and, while a run is writing, which files it writes (so the next run can clear
 * the temp files a killed run left, see crash_sweep.ts).
 *
 * It holds XXH32 hashes (core/hash.ts); a journal of any other version is set aside as damaged.
 *
 * @module
 */

import { isObject } from "../core/json.ts";
import { writeTextAtomicSync } from "../core/atomic.ts";
import { type BoundedText, readTextBounded } from "../core/fs_probe.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";

/** Blocks filed in the last 30 days are remembered, however many there are. */
export const JOURNAL_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * The largest journal read (a hash and a time per block filed in 30 days is far less); a larger
 * one is set aside like a damaged one, never read whole.
 */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

/** The journal format this version writes (3: XXH32 block hashes). */
export const JOURNAL_VERSION = 3;

/** What the journal holds. */
export interface Journal {
  version: 3;
  /** `[raw-block hash, time filed (ms)]`, oldest first. */
  filed: Array<[string, number]>;
  /** Library-relative targets being written; present only while a run is in its write phase. */
  active?: string[];
}

/** A journal with nothing filed. */
function emptyJournal(): Journal {
  return { version: JOURNAL_VERSION, filed: [] };
}

/** A journal as loaded: the journal, and what was set aside when the file was damaged. */
export interface JournalLoad {
  journal: Journal;
  /** The damaged file, renamed to `path` (never deleted), and what was wrong with it. */
  setAside?: { path: string; why: string };
}

/** The journal could not be read, set aside or written: nothing can be filed safely. */
export class JournalError extends LibrarianError {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "JournalError";
  }
}

/** Why `entry` is not a `[hash, time]` pair, or null. */
function filedEntryProblem(entry: unknown): string | null {
  if (!Array.isArray(entry) || entry.length !== 2) return "an entry of 'filed' is not a pair";
  const [hash, at] = entry;
  if (typeof hash !== "string" || hash === "") return "a hash in 'filed' is not text";
  if (typeof at !== "number" || !Number.isFinite(at)) return "a time in 'filed' is not a number";
  return null;
}

/** Why `path` is not a library-relative target path, or null. */
function activeEntryProblem(path: unknown): string | null {
  if (typeof path !== "string" || path === "") return "an entry of 'active' is not a path";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.includes("\\")) {
    return "an entry of 'active' is not library-relative";
  }
  if (path.split("/").some((s) => s === "" || s === "." || s === "..")) {
    return "an entry of 'active' leaves the library";
  }
  return null;
}

/**
 * The journal in `text`, or why it is not one: a complete check of every field, so a journal of
 * the wrong shape is never half-trusted.
 *
 * @example Usage
 * ```ts
 * import { parseJournal } from "./journal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseJournal('{"version":3,"filed":[["a1",5]]}'), { version: 3, filed: [["a1", 5]] });
 * assert.equal(parseJournal('{"version":3,"filed":[1]}'), "an entry of 'filed' is not a pair");
 * assert.equal(parseJournal('{"version":2,"filed":[]}'), "unknown version 2");
 * ```
 */
export function parseJournal(text: string): Journal | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (!isObject(value)) return "not a JSON object";
  if (value.version !== JOURNAL_VERSION) {
    return `unknown version ${JSON.stringify(value.version)}`;
  }
  if (!Array.isArray(value.filed)) return "'filed' is not a list";
  for (const entry of value.filed) {
    const problem = filedEntryProblem(entry);
    if (problem) return problem;
  }
  const journal: Journal = {
    version: JOURNAL_VERSION,
    filed: value.filed as Array<[string, number]>,
  };
  if (value.active !== undefined) {
    if (!Array.isArray(value.active)) return "'active' is not a list";
    for (const path of value.active) {
      const problem = activeEntryProblem(path);
      if (problem) return problem;
    }
    journal.active = value.active as string[];
  }
  return journal;
}

function describe(read: BoundedText): string | null {
  switch (read.kind) {
    case "not-utf8":
      return "not UTF-8 text";
    case "not-a-file":
      return "not a regular file";
    case "too-large":
      return `larger than ${JOURNAL_MAX_BYTES / 1024 / 1024} MB`;
    case "unreadable":
      return `unreadable (${read.reason})`;
    default:
      return null;
  }
}

/** Renames the damaged journal aside, next to itself; returns the new path. */
function setAside(path: string, now: number): string {
  const aside = `${path}.damaged-${now}`;
  try {
    Deno.renameSync(path, aside);
  } catch (error) {
    throw new JournalError(
      `the journal ${path} is damaged and could not be set aside (${messageOf(error)}); ` +
        "move it away to file again",
      error,
    );
  }
  return aside;
}

/**
 * The journal at `path` (an empty one when there is none). A damaged journal (not a regular
 * file, too large, not UTF-8, not JSON, or JSON of the wrong shape) is renamed aside to
 * `<path>.damaged-<time>` and reported in `setAside` (with `setAside: false`, for a dry run, it
 * is only reported); a FIFO is never opened.
 *
 * @throws {JournalError} when the journal cannot be read or set aside
 *
 * @example Usage
 * ```ts
 * import { loadJournal } from "./journal.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/a.filed.json`;
 * assert.deepEqual(loadJournal(path).journal, { version: 3, filed: [] });
 * Deno.writeTextFileSync(path, "{ damaged");
 * const load = loadJournal(path);
 * assert.deepEqual(load.journal.filed, []);
 * assert.ok(load.setAside);
 * ```
 */
export function loadJournal(
  path: string,
  options: { now?: number; setAside?: boolean } = {},
): JournalLoad {
  const read = readTextBounded(path, JOURNAL_MAX_BYTES);
  if (read.kind === "missing") return { journal: emptyJournal() };
  let why = describe(read);
  if (read.kind === "unreadable") {
    throw new JournalError(`cannot read the journal ${path}: ${read.reason}`);
  }
  if (read.kind === "text") {
    const parsed = parseJournal(read.text);
    if (typeof parsed !== "string") return { journal: parsed };
    why = parsed;
  }
  if (options.setAside === false) {
    return { journal: emptyJournal(), setAside: { path, why: why ?? "damaged" } };
  }
  const aside = setAside(path, options.now ?? Date.now());
  return { journal: emptyJournal(), setAside: { path: aside, why: why ?? "damaged" } };
}

/**
 * Writes the journal (temp file and rename).
 *
 * @throws {JournalError} when it cannot be written (a run then files nothing)
 *
 * @example Usage
 * ```ts
 * import { loadJournal, saveJournal } from "./journal.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/a.filed.json`;
 * saveJournal(path, { version: 3, filed: [["0bdcb81aee8d83", 1]] });
 * assert.deepEqual(loadJournal(path).journal.filed, [["0bdcb81aee8d83", 1]]);
 * ```
 */
export function saveJournal(path: string, journal: Journal): void {
  try {
    writeTextAtomicSync(path, JSON.stringify(journal));
  } catch (error) {
    throw new JournalError(`cannot write the journal ${path} (${messageOf(error)})`, error);
  }
}

/**
 * The journal with `hashes` filed `now` (each hash once, newest last); entries older than
 * {@link JOURNAL_MAX_AGE_MS} are dropped, and nothing else (a count limit would let a crash after
 * a large pass file its oldest blocks twice).
 *
 * @example Usage
 * ```ts
 * import { JOURNAL_MAX_AGE_MS, withFiled } from "./journal.ts";
 * import assert from "node:assert/strict";
 *
 * const now = JOURNAL_MAX_AGE_MS * 2;
 * const journal = { version: 3 as const, filed: [["old", 1], ["kept", now - 5]] as [string, number][] };
 * assert.deepEqual(withFiled(journal, ["new", "kept"], now).filed, [["new", now], ["kept", now]]);
 * ```
 */
export function withFiled(journal: Journal, hashes: readonly string[], now: number): Journal {
  const cutoff = now - JOURNAL_MAX_AGE_MS;
  const filed = new Map<string, number>();
  for (const [hash, at] of journal.filed) if (at >= cutoff) filed.set(hash, at);
  for (const hash of hashes) {
    filed.delete(hash);
    filed.set(hash, now);
  }
  return { version: JOURNAL_VERSION, filed: [...filed] };
}
