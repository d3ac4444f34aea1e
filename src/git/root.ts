/**
 * The git repository a folder belongs to, found by looking for `.git` (nothing is run).
 *
 * @module
 */

import { dirnameOf, joinPath, normalizePath } from "../core/paths.ts";

/**
 * The git work tree's root at or above `dir` (a `.git` folder, or a `.git` file of a worktree or
 * submodule), or null: one `stat` per level, at most 256 levels.
 *
 * @example Usage
 * ```ts
 * import { gitRootAbove } from "./root.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/.git`);
 * Deno.mkdirSync(`${root}/src/api`, { recursive: true });
 * assert.equal(gitRootAbove(`${root}/src/api`), root);
 * assert.equal(gitRootAbove(Deno.makeTempDirSync()), null);
 * ```
 */
export function gitRootAbove(dir: string): string | null {
  let at = normalizePath(dir);
  for (let depth = 0; depth < 256 && at !== ""; depth++) {
    try {
      const info = Deno.statSync(joinPath(at, ".git"));
      if (info.isDirectory || info.isFile) return at;
    } catch {
      // not here: look one level up
    }
    const parent = dirnameOf(at);
    if (parent === at) return null;
    at = parent;
  }
  return null;
}
