/**
 * Sync records: per memory folder, what was last seen of each memory file (size, mtime, content
 * hash and the entry it produced), kept as JSON in the state folder so each entry syncs once.
 *
 * A record is parsed by a complete validator ({@link parseSyncRecord}); one that fails it is
 * damaged: it is set aside (renamed, kept for inspection), reported, and never trusted. Reading
 * is here (the stop hook's scan reads records at every turn end); setting aside and writing are
 * in `record_store.ts`, loaded only by the sync.
 *
 * @module
 */

import { readTextBounded } from "../core/fs_probe.ts";
import { hashUtf8 } from "../core/hash.ts";
import { isObject } from "../core/json.ts";
import { joinPath } from "../core/paths.ts";

/** The largest record file read; a larger one is damaged. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** The record format this version writes and reads. */
export const RECORD_VERSION = 1;

/** What was last seen of one memory file. */
export interface FileRecord {
  /** Size in bytes. */
  size: number;
  /** Modification time, ms since the epoch (0 when unknown). */
  mtime: number;
  /** Hash of the file's content (`""` when it was not read). */
  hash: string;
  /** Hash of the block it produced (`""` when it produced none). */
  entry: string;
}

/** The sync record of one memory folder. */
export interface SyncRecord {
  version: 1;
  /** The memory folder this record is about. */
  dir: string;
  /** Memory file path relative to `dir` (`/`-separated) → what was seen of it. */
  files: Record<string, FileRecord>;
}

/**
 * The record file for a memory folder, in the state folder.
 *
 * @example Usage
 * ```ts
 * import { recordPathOf } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(recordPathOf("/state", "/m"), /^\/state\/automemory\/[0-9a-f]{16}\.json$/);
 * ```
 */
export function recordPathOf(state: string, memoryDir: string): string {
  return joinPath(state, "automemory", `${hashUtf8(memoryDir)}.json`);
}

/** An empty record for `dir`. */
function emptyRecord(dir: string): SyncRecord {
  return { version: RECORD_VERSION, dir, files: {} };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function fileRecordProblem(value: unknown): string | null {
  if (!isObject(value)) return "is not an object";
  if (!isCount(value.size)) return "has no whole, non-negative size";
  if (typeof value.mtime !== "number" || !Number.isFinite(value.mtime)) return "has no mtime";
  if (typeof value.hash !== "string" || value.hash.length > 256) return "has no content hash";
  if (typeof value.entry !== "string" || value.entry.length > 256) return "has no entry hash";
  return null;
}

function namePathProblem(name: string): string | null {
  if (name === "" || name.length > 4096) return "a file name is empty or too long";
  const parts = name.split("/");
  if (name.startsWith("/") || parts.some((p) => p === "" || p === "." || p === "..")) {
    return `file name ${JSON.stringify(name.slice(0, 80))} is not a relative path`;
  }
  return null;
}

/**
 * Validates a record's text completely: JSON, version, the folder it belongs to, and every file
 * entry's fields and types. Returns the record, or why it is damaged.
 *
 * @example Usage
 * ```ts
 * import { parseSyncRecord } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const good = { version: 1, dir: "/m", files: { "a.md": { size: 1, mtime: 2, hash: "h", entry: "" } } };
 * assert.deepEqual(parseSyncRecord(JSON.stringify(good), "/m"), { ok: true, record: good });
 * assert.deepEqual(parseSyncRecord('{"version":1,"dir":"/m","files":[1]}', "/m"), {
 *   ok: false,
 *   reason: "files is not an object",
 * });
 * ```
 */
export function parseSyncRecord(
  text: string,
  dir: string,
): { ok: true; record: SyncRecord } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not valid JSON" };
  }
  if (!isObject(value)) return { ok: false, reason: "not a JSON object" };
  if (value.version !== RECORD_VERSION) {
    return { ok: false, reason: `version is ${JSON.stringify(value.version)}, not 1` };
  }
  if (value.dir !== dir) return { ok: false, reason: "it belongs to another memory folder" };
  if (!isObject(value.files)) return { ok: false, reason: "files is not an object" };
  const files: Record<string, FileRecord> = {};
  for (const [name, entry] of Object.entries(value.files)) {
    const nameProblem = namePathProblem(name);
    if (nameProblem) return { ok: false, reason: nameProblem };
    const problem = fileRecordProblem(entry);
    if (problem) return { ok: false, reason: `entry for ${name} ${problem}` };
    const { size, mtime, hash, entry: produced } = entry as unknown as FileRecord;
    files[name] = { size, mtime, hash, entry: produced };
  }
  return { ok: true, record: { version: RECORD_VERSION, dir, files } };
}

/** A record as loaded: fine, missing (a first sync), or damaged (and why). */
export type LoadedRecord =
  | { kind: "ok" | "missing"; record: SyncRecord }
  | { kind: "damaged"; record: SyncRecord; reason: string };

/**
 * Reads and validates the record at `path` for memory folder `dir`. Never throws, never blocks
 * (a FIFO or a folder there is damaged, not opened). A damaged record comes with an empty one in
 * its place: every entry is then read again (routing skips bullets already filed).
 *
 * @example Usage
 * ```ts
 * import { readRecord } from "./records.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, '{"version": 1, "dir": "/m", "files": []}');
 * assert.deepEqual(readRecord(path, "/m").kind, "damaged");
 * assert.deepEqual(readRecord(`${path}.none`, "/m").kind, "missing");
 * ```
 */
export function readRecord(path: string, dir: string): LoadedRecord {
  const read = readTextBounded(path, MAX_RECORD_BYTES);
  switch (read.kind) {
    case "missing":
      return { kind: "missing", record: emptyRecord(dir) };
    case "not-a-file":
      return { kind: "damaged", record: emptyRecord(dir), reason: "not a regular file" };
    case "too-large":
      return { kind: "damaged", record: emptyRecord(dir), reason: `${read.size} bytes, too large` };
    case "unreadable":
      return { kind: "damaged", record: emptyRecord(dir), reason: `unreadable (${read.reason})` };
    case "not-utf8":
      return { kind: "damaged", record: emptyRecord(dir), reason: "not UTF-8 text" };
  }
  const text = read.text.replace(/^\uFEFF/, "");
  const parsed = parseSyncRecord(text, dir);
  return parsed.ok
    ? { kind: "ok", record: parsed.record }
    : { kind: "damaged", record: emptyRecord(dir), reason: parsed.reason };
}
