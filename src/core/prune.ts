/**
 * Housekeeping of the state folder: removing the entries of a folder that were not written for a
 * given time (session ledgers, walk memos). Never throws: a folder that is not there has nothing
 * to remove, and an entry another process removes or rewrites meanwhile is left to it.
 *
 * @module
 */

import { joinPath } from "./paths.ts";

/**
 * Removes each entry of `folder` that `matches` and whose modification time is more than
 * `maxAgeMs` before `now` (a folder with all it holds); returns how many were removed.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { removeOlderThan } from "./prune.ts";
 * const folder = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${folder}/old.json`, "{}");
 * Deno.writeTextFileSync(`${folder}/old.txt`, "kept");
 * const later = Date.now() + 60_000;
 * const isJson = (entry: Deno.DirEntry) => entry.isFile && entry.name.endsWith(".json");
 * assert.equal(await removeOlderThan(folder, isJson, later, 1_000), 1);
 * assert.deepEqual([...Deno.readDirSync(folder)].map((entry) => entry.name), ["old.txt"]);
 * assert.equal(await removeOlderThan(`${folder}/none`, isJson, later, 1_000), 0);
 * ```
 */
export async function removeOlderThan(
  folder: string,
  matches: (entry: Deno.DirEntry) => boolean,
  now: number,
  maxAgeMs: number,
): Promise<number> {
  let removed = 0;
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (!matches(entry)) continue;
      const path = joinPath(folder, entry.name);
      try {
        const info = await Deno.stat(path);
        if (info.mtime && now - info.mtime.getTime() > maxAgeMs) {
          await Deno.remove(path, { recursive: true });
          removed++;
        }
      } catch {
        // raced with another pruner, or a run rewriting it
      }
    }
  } catch {
    // nothing there yet
  }
  return removed;
}
