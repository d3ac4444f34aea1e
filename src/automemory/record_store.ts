/**
 * Sync records, written: loading one for a sync (a damaged record is set aside, renamed next to
 * it), saving one atomically, and removing the records named by the hash used before XXH32.
 * Reading and validating are in `records.ts`.
 *
 * @module
 */

import { setAsideSync, writeTextAtomicSync } from "../core/atomic.ts";
import { dirnameOf, joinPath } from "../core/paths.ts";
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
): { record: SyncRecord; damaged?: DamagedRecord; missing?: true } {
  const loaded = readRecord(path, dir);
  if (loaded.kind === "missing") return { record: loaded.record, missing: true };
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

/** A record's name before the switch to XXH32: cyrb53 of the memory folder, 14 hex digits. */
const LEGACY_RECORD_NAME = /^[0-9a-f]{14}\.json$/;

/**
 * Removes the records written before the switch to XXH32 (named by the old hash) that belong to
 * memory folder `dir`, beside the record at `path`; another folder's, or one that is not a valid
 * record, is left alone. Returns the paths removed. Never throws.
 *
 * @example Usage
 * ```ts
 * import { removeLegacyRecords } from "./record_store.ts";
 * import assert from "node:assert/strict";
 *
 * const state = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${state}/automemory`);
 * const old = `${state}/automemory/0123456789abcd.json`;
 * Deno.writeTextFileSync(old, '{"version":1,"dir":"/m","files":{}}');
 * assert.deepEqual(removeLegacyRecords(`${state}/automemory/x.json`, "/m"), [old]);
 * assert.deepEqual(removeLegacyRecords(`${state}/automemory/x.json`, "/m"), []);
 * ```
 */
export function removeLegacyRecords(path: string, dir: string): string[] {
  const folder = dirnameOf(path);
  const removed: string[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      if (!entry.isFile || !LEGACY_RECORD_NAME.test(entry.name)) continue;
      const legacy = joinPath(folder, entry.name);
      if (readRecord(legacy, dir).kind !== "ok") continue;
      try {
        Deno.removeSync(legacy);
        removed.push(legacy);
      } catch {
        // gone meanwhile, or not ours to remove: it is ignored either way
      }
    }
  } catch {
    // no folder: nothing to clean up
  }
  return removed;
}
