/**
 * The repository a session belongs to, as Claude Code names it for auto memory: the git root of
 * the working folder, a linked worktree mapped to its main repository. Pointer files are read
 * bounded (a FIFO or a huge file is never waited on).
 *
 * @module
 */

import { readTextBounded } from "../core/fs_probe.ts";
import { basenameOf, dirnameOf, isAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";
import { gitRootAbove } from "./root.ts";

/** The largest `.git` pointer, `commondir` or `gitdir` file read. */
const MAX_POINTER_BYTES = 4096;

/** A pointer file's text, trimmed (a byte-order mark too), or `undefined`. */
function pointerText(path: string): string | undefined {
  const read = readTextBounded(path, MAX_POINTER_BYTES);
  return read.kind === "text" ? read.text.trim() : undefined;
}

function resolveFrom(base: string, path: string): string {
  const normal = normalizePath(path);
  return isAbsolutePath(normal) ? normal : normalizePath(joinPath(base, normal));
}

function realPathOrNull(path: string): string | null {
  try {
    return normalizePath(Deno.realPathSync(path));
  } catch {
    return null;
  }
}

/**
 * The real path of `path` (links resolved), or `path` itself when it cannot be resolved.
 *
 * @example Usage
 * ```ts
 * import { realPathOr } from "./memory_root.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(realPathOr("/no/such/folder"), "/no/such/folder");
 * ```
 */
export function realPathOr(path: string): string {
  return realPathOrNull(path) ?? path;
}

/**
 * The repository a git root belongs to, as Claude Code names it for auto memory: a linked
 * worktree (`.git` file → `<common>/worktrees/<name>`, whose `gitdir` points back) maps to the
 * main checkout, or, when the common git folder is not named `.git` (a bare repository such as
 * `.bare`), to that git folder itself. Anything else (a plain repository, a submodule, a pointer
 * that does not check out) is `root` itself.
 *
 * @example Usage
 * ```ts
 * import { mainRepositoryOf } from "./memory_root.ts";
 * import assert from "node:assert/strict";
 *
 * const top = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.mkdirSync(`${top}/.bare/worktrees/main`, { recursive: true });
 * Deno.mkdirSync(`${top}/main`);
 * Deno.writeTextFileSync(`${top}/main/.git`, `gitdir: ${top}/.bare/worktrees/main\n`);
 * Deno.writeTextFileSync(`${top}/.bare/worktrees/main/commondir`, "../..\n");
 * Deno.writeTextFileSync(`${top}/.bare/worktrees/main/gitdir`, `${top}/main/.git\n`);
 * assert.equal(mainRepositoryOf(`${top}/main`), `${top}/.bare`);
 * ```
 */
export function mainRepositoryOf(root: string): string {
  const pointer = pointerText(joinPath(root, ".git"));
  if (!pointer?.startsWith("gitdir:")) return root;
  const gitDir = resolveFrom(root, pointer.slice("gitdir:".length).trim());
  const common = pointerText(joinPath(gitDir, "commondir"));
  if (!common) return root; // a submodule, or a plain gitdir pointer: this folder is the root
  const commonDir = resolveFrom(gitDir, common);
  if (dirnameOf(gitDir) !== joinPath(commonDir, "worktrees")) return root;
  const back = pointerText(joinPath(gitDir, "gitdir"));
  const backReal = back ? realPathOrNull(back) : null;
  const rootReal = realPathOrNull(root);
  if (!backReal || !rootReal || backReal !== joinPath(rootReal, ".git")) return root;
  return basenameOf(commonDir) === ".git" ? dirnameOf(commonDir) : commonDir;
}

/**
 * The folder Claude Code names a project's auto memory after, for a session started in `start`:
 * the git root, with a linked worktree mapped to its main repository (see
 * {@link mainRepositoryOf}); `null` outside a repository.
 *
 * @example Usage
 * ```ts
 * import { canonicalGitRoot } from "./memory_root.ts";
 * import assert from "node:assert/strict";
 *
 * const repo = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${repo}/.git`);
 * assert.equal(canonicalGitRoot(repo), repo);
 * ```
 */
export function canonicalGitRoot(start: string): string | null {
  const root = gitRootAbove(start);
  return root === null ? null : mainRepositoryOf(root);
}
