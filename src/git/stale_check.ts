/**
 * Whether a library's stale record (`git/stale_record.ts`) still holds: the same `HEAD` (read
 * from `.git`, no process), every library file it knows with the same stamp, every code file a
 * learning cites with the same stamp. A few `stat` calls; the Stop hook asks after every turn and
 * remakes the record (`git/stale_refresh.ts`, which asks git) only when it no longer holds.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import { readTextBounded } from "../core/fs_probe.ts";
import { joinPath } from "../core/paths.ts";
import { statStamp } from "../core/read_text.ts";
import {
  MISSING_STAMP,
  parseStaleRecord,
  type StaleRecord,
  staleRecordPath,
} from "./stale_record.ts";
import { headCommit } from "./head.ts";

const MAX_RECORD_BYTES = 2 * 1024 * 1024;

/**
 * The stamp of a project-relative file now (`missing` when it cannot be stat'ed).
 *
 * @example Usage
 * ```ts
 * import { citedStamp } from "./stale_check.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.ts`, "x");
 * assert.match(citedStamp(root, "a.ts"), /^1:\d+$/);
 * assert.equal(citedStamp(root, "gone.ts"), "missing");
 * ```
 */
export function citedStamp(projectRoot: string, path: string): string {
  const stat = statStamp(joinPath(projectRoot, path));
  return "error" in stat ? MISSING_STAMP : stat.stamp;
}

/**
 * The record stored at `path`, or `null` when there is none (or it is damaged).
 *
 * @example Usage
 * ```ts
 * import { readStaleRecord } from "./stale_check.ts";
 * import assert from "node:assert/strict";
 * assert.equal(readStaleRecord(`${Deno.makeTempDirSync()}/none.json`), null);
 * ```
 */
export function readStaleRecord(path: string): StaleRecord | null {
  const read = readTextBounded(path, MAX_RECORD_BYTES);
  return read.kind === "text" ? parseStaleRecord(read.text) : null;
}

/**
 * True when nothing the record was made from has changed.
 *
 * @example Usage
 * ```ts
 * import { recordHolds } from "./stale_check.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const record = { version: 1 as const, head: "", cited: { "a.ts": "missing" }, files: {} };
 * assert.equal(recordHolds(record, library, ""), true);
 * assert.equal(recordHolds(record, library, "a1b2c3d"), false);
 * Deno.writeTextFileSync(`${root}/a.ts`, "back");
 * assert.equal(recordHolds(record, library, ""), false);
 * ```
 */
export function recordHolds(record: StaleRecord, library: Library, head: string): boolean {
  if (record.head !== head) return false;
  for (const [relPath, entry] of Object.entries(record.files)) {
    const stat = statStamp(joinPath(library.root, relPath));
    if ("error" in stat || stat.stamp !== entry.stamp) return false;
  }
  for (const [path, stamp] of Object.entries(record.cited)) {
    if (citedStamp(library.projectRoot, path) !== stamp) return false;
  }
  return true;
}

/** Where the record goes and the `HEAD` it is for, when it must be remade; `null` when it holds. */
export interface RemakeNeed {
  path: string;
  head: string;
}

/**
 * Whether the library's record must be remade (always with `force`); `null` when it holds or
 * there is no state folder to keep it in.
 *
 * @example Usage
 * ```ts
 * import { staleRecordNeed } from "./stale_check.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * assert.equal(staleRecordNeed(library, envFrom({}), true), null); // no state folder
 * const env = envFrom({ CLAUDE_PLUGIN_DATA: `${root}/state` });
 * const need = staleRecordNeed(library, env, false)!; // no record yet
 * assert.ok(need.path.startsWith(`${root}/state/`));
 * assert.equal(need.head, ""); // not a git repository
 * ```
 */
export function staleRecordNeed(
  library: Library,
  env: EnvReader,
  force: boolean,
): RemakeNeed | null {
  const state = stateDir(env);
  if (state === undefined) return null;
  const path = staleRecordPath(state, library.root);
  const head = headCommit(library.projectRoot) ?? "";
  if (force) return { path, head };
  const old = readStaleRecord(path);
  return old !== null && recordHolds(old, library, head) ? null : { path, head };
}
