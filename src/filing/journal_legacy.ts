/**
 * Journals from before the switch to XXH32 (version 2: cyrb53 block hashes, named by the old key,
 * cyrb53 of the library path, 14 hex digits). Their hashes cannot be matched with XXH32 ones and
 * their key cannot be computed any more, so what they guard is kept as a window
 * (`Journal.legacyUntil`: the newest entry + 30 days) in which every block whose items are all in
 * its target counts as filed. The window only ever drops such a block: it can prevent a
 * duplicate, never lose a learning. Old journals themselves are read, never moved or changed.
 *
 * @module
 */

import { readFileBounded } from "../core/fs_probe.ts";
import { dirnameOf, joinPath } from "../core/paths.ts";

/** Blocks filed in the last 30 days are remembered (as `JOURNAL_MAX_AGE_MS` in journal.ts). */
const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The largest old journal read (as `JOURNAL_MAX_BYTES` in journal.ts). */
const MAX_BYTES = 64 * 1024 * 1024;
/** A version-2 journal's name. */
const LEGACY_NAME = /^[0-9a-f]{14}\.filed\.json$/;

/**
 * The end of a version-2 journal's window: its newest entry plus 30 days (`undefined` when it
 * holds none).
 *
 * @example Usage
 * ```ts
 * import { legacyUntilOf } from "./journal_legacy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(legacyUntilOf([["a", 5], ["b", 9]]), 9 + 30 * 24 * 60 * 60 * 1000);
 * assert.equal(legacyUntilOf([]), undefined);
 * ```
 */
export function legacyUntilOf(filed: ReadonlyArray<[string, number]>): number | undefined {
  if (filed.length === 0) return undefined;
  return Math.max(...filed.map(([, at]) => at)) + MAX_AGE_MS;
}

/**
 * The latest window of the version-2 journals in the folder of `path` (0 when there is none).
 * Every one there counts: which library it belonged to cannot be told. `windowOf` reads one
 * journal's text (`parseJournal`); one it refuses, or that cannot be read, is ignored.
 *
 * @example Usage
 * ```ts
 * import { legacyWindowBeside } from "./journal_legacy.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/0123456789abcd.filed.json`, "7");
 * assert.equal(legacyWindowBeside(`${dir}/new.filed.json`, (text) => Number(text)), 7);
 * assert.equal(legacyWindowBeside(`${dir}/none/new.filed.json`, () => 1), 0);
 * ```
 */
export function legacyWindowBeside(
  path: string,
  windowOf: (text: string) => number | undefined,
): number {
  let until = 0;
  try {
    for (const entry of Deno.readDirSync(dirnameOf(path))) {
      if (!entry.isFile || !LEGACY_NAME.test(entry.name)) continue;
      const read = readFileBounded(joinPath(dirnameOf(path), entry.name), MAX_BYTES);
      if (read.kind !== "bytes") continue;
      until = Math.max(until, windowOf(new TextDecoder().decode(read.bytes)) ?? 0);
    }
  } catch {
    // no folder yet: nothing from before the switch
  }
  return until;
}
