/**
 * The journal: the stop side's crash record, kept per library beside its lock.
 *
 * It holds the hashes of blocks filed (written before the targets, so a run killed mid-way is
 * covered: the next run drops a block that is still in scratch when every item of it is already
 * in its target), and, while a run is writing, which files it writes (so the next run can clear
 * the temp files a killed run left).
 *
 * @module
 */

import { isTempSiblingName, writeTextAtomicSync } from "../core/atomic.ts";
import { basenameOf, dirnameOf, joinPath } from "../core/paths.ts";
import { readTextFile } from "./targets.ts";

/** Blocks filed in the last 30 days are remembered (at most {@link JOURNAL_MAX_ENTRIES}). */
export const JOURNAL_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The most block hashes the journal keeps. */
export const JOURNAL_MAX_ENTRIES = 5_000;

/** What the journal holds. */
export interface Journal {
  version: 2;
  /** `[raw-block hash, time filed (ms)]`, oldest first. */
  filed: Array<[string, number]>;
  /** Library-relative targets being written; present only while a run is in its write phase. */
  active?: string[];
}

/** The journal at `path`, or an empty one. */
export function loadJournal(path: string): Journal {
  const read = readTextFile(path);
  if (read.kind === "text") {
    try {
      const value = JSON.parse(read.text) as Journal;
      if (value?.version === 2 && Array.isArray(value.filed)) return value;
    } catch {
      // damaged: start afresh (bullets already present are still skipped)
    }
  }
  return { version: 2, filed: [] };
}

/** Writes the journal (temp file and rename). */
export function saveJournal(path: string, journal: Journal): void {
  writeTextAtomicSync(path, JSON.stringify(journal));
}

/** The journal with `hashes` filed `now` (each hash once, newest last), old entries dropped. */
export function withFiled(journal: Journal, hashes: readonly string[], now: number): Journal {
  const cutoff = now - JOURNAL_MAX_AGE_MS;
  const filed = new Map<string, number>();
  for (const [hash, at] of journal.filed) if (at >= cutoff) filed.set(hash, at);
  for (const hash of hashes) {
    filed.delete(hash);
    filed.set(hash, now);
  }
  return { version: 2, filed: [...filed].slice(-JOURNAL_MAX_ENTRIES) };
}

/** Removes `path`, if it is there. */
export function removeFile(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // already gone
  }
}

/**
 * Removes temp files a killed run left next to `path` (`<name>.tmp-<pid>-<n>-<random>`, see
 * `tempSiblingOf`; a person's `<name>.tmp-notes.md` is not one). Only called under the lock,
 * after a crash, so no live writer owns them.
 */
function sweepTempSiblings(path: string): void {
  const name = basenameOf(path);
  try {
    for (const entry of Deno.readDirSync(dirnameOf(path))) {
      if (entry.isFile && isTempSiblingName(entry.name, name)) {
        removeFile(joinPath(dirnameOf(path), entry.name));
      }
    }
  } catch {
    // the folder is gone: nothing to sweep
  }
}

/** Clears the temp files a run killed in its write phase left (scratch, journal, its targets). */
export function sweepAfterCrash(paths: readonly (string | undefined)[]): void {
  for (const path of paths) if (path) sweepTempSiblings(path);
}
