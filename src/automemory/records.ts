/**
 * Sync records: per memory folder, what was last seen of each memory file (size, mtime, content
 * hash and the entry it produced), kept as JSON in the state folder so each entry syncs once.
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { readTextBounded } from "../core/fs_probe.ts";
import { hashText } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";

/** The largest record file read. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** What was last seen of one memory file. */
export interface FileRecord {
  size: number;
  mtime: number;
  /** Hash of the file's content. */
  hash: string;
  /** Hash of the block it produced (`""` when it produced none). */
  entry: string;
}

/** The sync record of one memory folder. */
export interface SyncRecord {
  version: 1;
  dir: string;
  files: Record<string, FileRecord>;
}

/** The record file for a memory folder, in the state folder. */
export function recordPathOf(state: string, memoryDir: string): string {
  return joinPath(state, "automemory", `${hashText(memoryDir)}.json`);
}

/** Loads the record of `dir`; a missing or damaged record starts empty. */
export function loadRecord(path: string, dir: string): SyncRecord {
  const text = readTextBounded(path, MAX_RECORD_BYTES);
  if (text) {
    try {
      const value = JSON.parse(text) as SyncRecord;
      if (value?.version === 1 && value.files && typeof value.files === "object") return value;
    } catch {
      // damaged: start over (entries re-sync; routing skips bullets already filed)
    }
  }
  return { version: 1, dir, files: {} };
}

/** Writes a record atomically. */
export function saveRecord(path: string, record: SyncRecord): void {
  writeTextAtomicSync(path, JSON.stringify(record));
}
