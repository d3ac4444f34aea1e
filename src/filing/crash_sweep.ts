/**
 * After a run killed in its write phase (the journal lists the files it was writing): clearing
 * the temp files it left next to scratch, the journal and its targets.
 *
 * @module
 */

import { isTempSiblingName, removeIfPresent } from "../core/atomic.ts";
import { basenameOf, dirnameOf, joinPath } from "../core/paths.ts";

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
        removeIfPresent(joinPath(dirnameOf(path), entry.name));
      }
    }
  } catch {
    // the folder is gone: nothing to sweep
  }
}

/**
 * Clears the temp files a run killed in its write phase left (scratch, journal, its targets).
 *
 * @example Usage
 * ```ts
 * import { sweepAfterCrash } from "./crash_sweep.ts";
 * import { tempSiblingOf } from "../core/atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const target = `${Deno.makeTempDirSync()}/tech.md`;
 * Deno.writeTextFileSync(target, "kept");
 * Deno.writeTextFileSync(tempSiblingOf(target), "half-written");
 * sweepAfterCrash([target, undefined]);
 * assert.deepEqual([...Deno.readDirSync(target.slice(0, -8))].map((e) => e.name), ["tech.md"]);
 * ```
 */
export function sweepAfterCrash(paths: readonly (string | undefined)[]): void {
  for (const path of paths) if (path) sweepTempSiblings(path);
}
