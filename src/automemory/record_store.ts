/**
 * Sync records, written: loading one for a sync (a damaged record is set aside, renamed next to
 * it) and saving one atomically. Reading and validating are in `records.ts`.
 *
 * @module
 */

import { setAsideSync, writeTextAtomicSync } from "../core/atomic.ts";
import { readRecord, type SyncRecord } from "./records.ts";

/** A damaged record that was set aside. */
export interface DamagedRecord {
  /** The record file. */
  path: string;
  /** Why it failed validation. */
  reason: string;
  /** Where it was moved (`null` when it vanished meanwhile). */
  setAside: string | null;
}

/**
 * Loads the record at `path` for `dir`, setting a damaged one aside (renamed next to it) so that
 * it is reported once and a fresh record takes its place.
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors when a damaged record cannot be
 * moved: the caller reports it, and writes no record over it.
 *
 * @example Usage
 * ```ts
 * import { loadRecord } from "./record_store.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "not json");
 * const { damaged } = loadRecord(path, "/m");
 * assert.equal(damaged?.reason, "not valid JSON");
 * assert.ok(Deno.statSync(damaged!.setAside!).isFile);
 * ```
 */
export function loadRecord(
  path: string,
  dir: string,
  now: Date = new Date(),
): { record: SyncRecord; damaged?: DamagedRecord } {
  const loaded = readRecord(path, dir);
  if (loaded.kind !== "damaged") return { record: loaded.record };
  const setAside = setAsideSync(path, now);
  return { record: loaded.record, damaged: { path, reason: loaded.reason, setAside } };
}

/**
 * Writes a record atomically (creating the folder).
 *
 * @example Usage
 * ```ts
 * import { readRecord } from "./records.ts";
 * import { saveRecord } from "./record_store.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/automemory/r.json`;
 * saveRecord(path, { version: 1, dir: "/m", files: {} });
 * assert.equal(readRecord(path, "/m").kind, "ok");
 * ```
 */
export function saveRecord(path: string, record: SyncRecord): void {
  writeTextAtomicSync(path, JSON.stringify(record));
}
