/**
 * The stale record (pure, kept in the state folder): which learnings of which library files are about code that has since
 * been deleted, renamed or heavily changed, worked out where git is already asked (the Stop hook,
 * `librarian lint`) and read by the inject hook, which never runs git. Each entry says which
 * version of its library file it was worked out for (the content hash the inject hook computes
 * anyway) and the stamp (`size:mtime`, or `missing`) of every code file it cites, so a reader can
 * tell cheaply whether a mark still holds; one that may not is left out ("unknown", no mark).
 *
 * ```json
 * {"version": 1, "head": "a1b2c3d", "cited": {"src/api/tax.ts": "missing"},
 *  "files": {"src/api/patterns.md": {"stamp": "812:1764000000000", "hash": "…",
 *    "stale": [{"lines": [[6, 6]], "reason": "src/api/tax.ts deleted since a1b2c3d",
 *               "cited": {"src/api/tax.ts": "missing"}}]}}}
 * ```
 *
 * @module
 */

import { hashUtf8 } from "../core/hash.ts";
import { isObject } from "../core/json.ts";

/** The record's format version; a record of another version is read as none. */
export const STALE_RECORD_VERSION = 1;

/** The stamp of a cited file that does not exist. */
export const MISSING_STAMP = "missing";

/** One stale learning block of a library file. */
export interface StaleMark {
  /** The learnings its provenance comment covers: 1-based first and last lines. */
  lines: [number, number][];
  /** What happened, e.g. `src/api/tax.ts deleted since a1b2c3d`. */
  reason: string;
  /** Project-relative cited file → its stamp when the record was made. */
  cited: Record<string, string>;
}

/** What the record knows of one library file. */
export interface StaleFileEntry {
  /** The library file's stamp (`size:mtime`) when the record was made. */
  stamp: string;
  /** Its content hash (`core/read_text.ts`'s), the version the marks' lines belong to. */
  hash: string;
  stale: StaleMark[];
}

/** The record for one library. */
export interface StaleRecord {
  version: typeof STALE_RECORD_VERSION;
  /** Short `HEAD` when it was made (`""` outside git). */
  head: string;
  /** Every cited file of every learning → its stamp when the record was made. */
  cited: Record<string, string>;
  /** Library-relative path → entry, for every library file with cited learnings. */
  files: Record<string, StaleFileEntry>;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === "string");
}

function isLinePair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 &&
    value.every((n) => Number.isInteger(n) && n >= 1) && value[0] <= value[1];
}

function isMark(value: unknown): value is StaleMark {
  return isObject(value) && Array.isArray(value.lines) && value.lines.every(isLinePair) &&
    typeof value.reason === "string" && isStringRecord(value.cited);
}

function isEntry(value: unknown): value is StaleFileEntry {
  return isObject(value) && typeof value.stamp === "string" && typeof value.hash === "string" &&
    Array.isArray(value.stale) && value.stale.every(isMark);
}

/**
 * The record a text holds, or `null` when it is damaged or of another version (read as none).
 *
 * @example Usage
 * ```ts
 * import { formatStaleRecord, parseStaleRecord } from "./stale_record.ts";
 * import assert from "node:assert/strict";
 *
 * const record = { version: 1 as const, head: "a1b2c3d", cited: {}, files: {} };
 * assert.deepEqual(parseStaleRecord(formatStaleRecord(record)), record);
 * assert.equal(parseStaleRecord('{"version": 2}'), null);
 * assert.equal(parseStaleRecord("not json"), null);
 * ```
 */
export function parseStaleRecord(text: string): StaleRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || value.version !== STALE_RECORD_VERSION) return null;
  if (typeof value.head !== "string" || !isStringRecord(value.cited)) return null;
  if (!isObject(value.files) || !Object.values(value.files).every(isEntry)) return null;
  return value as unknown as StaleRecord;
}

/**
 * The record as the text stored (one line of JSON).
 *
 * @example Usage
 * ```ts
 * import { formatStaleRecord } from "./stale_record.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   formatStaleRecord({ version: 1, head: "", cited: {}, files: {} }),
 *   '{"version":1,"head":"","cited":{},"files":{}}\n',
 * );
 * ```
 */
export function formatStaleRecord(record: StaleRecord): string {
  return JSON.stringify(record) + "\n";
}

/**
 * Where a library's stale record is kept in the state folder: `stale/<hash of its root>.json`.
 *
 * @example Usage
 * ```ts
 * import { staleRecordPath } from "./stale_record.ts";
 * import assert from "node:assert/strict";
 * assert.match(staleRecordPath("/state", "/p/_memory_library"), /^\/state\/stale\/[0-9a-f]{16}\.json$/);
 * ```
 */
export function staleRecordPath(state: string, libraryRoot: string): string {
  return `${state.replace(/[\\/]+$/, "")}/stale/${hashUtf8(libraryRoot)}.json`;
}
