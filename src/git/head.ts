/**
 * The commit `HEAD` points at, read from the repository's files: no `git` process (the stop hook
 * runs at every turn end, and a process start costs more than the whole hook), and no work at all
 * outside a repository (a few `stat` calls find no `.git`).
 *
 * Handles a `.git` folder, a `.git` file (`gitdir: ...`, worktrees and submodules, with
 * `commondir` for shared refs), a detached `HEAD`, loose refs and `packed-refs`. Anything else
 * (a reftable repository, an unborn branch, damaged files) is "no commit known".
 *
 * @module
 */

import { isDirectory } from "../core/fs_probe.ts";
import { isLocalAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";
import { gitRootAbove } from "./root.ts";

const HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** How many characters of a commit provenance keeps. */
export const SHORT_COMMIT = 7;

function readSmall(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > 64 * 1024 * 1024) return null;
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The git folder of the repository holding `dir` (its root found by {@link gitRootAbove}): the
 * `.git` folder, or where a `.git` file (`gitdir: ...`) points; `null` outside a repository.
 *
 * @example Usage
 * ```ts
 * import { gitDirAbove } from "./head.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(gitDirAbove(dir), null);
 * Deno.mkdirSync(`${dir}/.git`);
 * Deno.mkdirSync(`${dir}/src/api`, { recursive: true });
 * assert.equal(gitDirAbove(`${dir}/src/api`), `${dir}/.git`);
 * ```
 */
export function gitDirAbove(dir: string): string | null {
  const start = normalizePath(dir);
  if (!isLocalAbsolutePath(start)) return null;
  const root = gitRootAbove(start);
  if (root === null) return null;
  const dotGit = joinPath(root, ".git");
  if (isDirectory(dotGit)) return dotGit;
  const pointer = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(readSmall(dotGit) ?? "")?.[1];
  if (!pointer) return null;
  const target = normalizePath(pointer);
  return isLocalAbsolutePath(target) ? target : normalizePath(joinPath(root, pointer));
}

/**
 * The full hash a ref names in `packed-refs` text, or `null` (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const packed = `# pack-refs\n${"a".repeat(40)} refs/heads/main\n`;
 * assert.equal(packedRef(packed, "refs/heads/main"), "a".repeat(40));
 * assert.equal(packedRef(packed, "refs/heads/other"), null);
 * ```
 */
export function packedRef(packed: string, ref: string): string | null {
  for (const line of packed.split("\n")) {
    const [hash, name] = line.trim().split(" ");
    if (name === ref && hash && HASH.test(hash)) return hash;
  }
  return null;
}

/**
 * The full hash of `HEAD` in the git folder `gitDir`, or `null`.
 *
 * @example Usage
 * ```ts
 * import { headOf } from "./head.ts";
 * import assert from "node:assert/strict";
 * const gitDir = `${Deno.makeTempDirSync()}/.git`;
 * Deno.mkdirSync(`${gitDir}/refs/heads`, { recursive: true });
 * Deno.writeTextFileSync(`${gitDir}/HEAD`, "ref: refs/heads/main\n");
 * assert.equal(headOf(gitDir), null);
 * Deno.writeTextFileSync(`${gitDir}/refs/heads/main`, `${"a1b2c3d4".repeat(5)}\n`);
 * assert.equal(headOf(gitDir), "a1b2c3d4".repeat(5));
 * ```
 */
export function headOf(gitDir: string): string | null {
  const head = readSmall(joinPath(gitDir, "HEAD"))?.trim();
  if (!head) return null;
  if (HASH.test(head)) return head;
  const ref = /^ref:[ \t]*(refs\/\S+)$/.exec(head)?.[1];
  if (!ref || ref.split("/").includes("..")) return null;
  const common = readSmall(joinPath(gitDir, "commondir"))?.trim();
  const commonDir = common
    ? (isLocalAbsolutePath(normalizePath(common))
      ? normalizePath(common)
      : normalizePath(joinPath(gitDir, common)))
    : gitDir;
  for (const dir of commonDir === gitDir ? [gitDir] : [gitDir, commonDir]) {
    const loose = readSmall(joinPath(dir, ref))?.trim();
    if (loose && HASH.test(loose)) return loose;
  }
  const packed = readSmall(joinPath(commonDir, "packed-refs"));
  return packed === null ? null : packedRef(packed, ref);
}

/**
 * The short commit of `HEAD` for the repository holding `dir`, or `undefined` outside git or when
 * it cannot be read.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(headCommit(dir), undefined);
 * Deno.mkdirSync(`${dir}/.git/refs/heads`, { recursive: true });
 * Deno.writeTextFileSync(`${dir}/.git/HEAD`, "ref: refs/heads/main\n");
 * Deno.writeTextFileSync(`${dir}/.git/refs/heads/main`, "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678\n");
 * assert.equal(headCommit(dir), "a1b2c3d");
 * ```
 */
export function headCommit(dir: string): string | undefined {
  const gitDir = gitDirAbove(dir);
  if (!gitDir) return undefined;
  return headOf(gitDir)?.slice(0, SHORT_COMMIT);
}
