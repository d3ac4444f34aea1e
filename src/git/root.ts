/**
 * The git repository a folder belongs to, found by looking for `.git` (nothing is run).
 *
 * @module
 */

import { isDirectory, isFile } from "../core/fs_probe.ts";
import { dirnameOf, joinPath, normalizePath } from "../core/paths.ts";

/**
 * The git work tree's root at or above `dir` (a `.git` folder, or a `.git` file of a worktree or
 * submodule), or null.
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
 * ```
 */
export function gitRootAbove(dir: string): string | null {
  for (let at = normalizePath(dir); at !== ""; at = dirnameOf(at)) {
    const git = joinPath(at, ".git");
    if (isDirectory(git) || isFile(git)) return at;
    if (dirnameOf(at) === at) break;
  }
  return null;
}
