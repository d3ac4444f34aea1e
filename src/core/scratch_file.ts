/**
 * Whether `.scratch.md` is a file the Librarian may read and rewrite: a plain regular file with
 * one name, the user's own (or root's), or missing.
 *
 * Scratch is appended to in place (auto-memory sync, the carry-over of late appends), so a
 * symlink or a second hard link would let those writes reach a file outside the library; and
 * reading a FIFO or a device would block the hook. Another user's scratch (in the user's own
 * library) is not the user's learnings to file. Such a scratch is left alone, and the user is
 * told why.
 *
 * @module
 */

import { type OwnerCheck, trustedByThisProcess } from "./discover.ts";
import { messageOf } from "./errors.ts";

/**
 * Why `path` is not a plain scratch file (`"scratch is a symlink, ..."`), or `null` when it is
 * one or does not exist. Checks the path itself (`lstat`): a symlink is never followed.
 *
 * @example Usage
 * ```ts
 * import { scratchFileProblem } from "./scratch_file.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * assert.equal(scratchFileProblem(`${dir}/.scratch.md`), null);
 * Deno.writeTextFileSync(`${dir}/.scratch.md`, "");
 * assert.equal(scratchFileProblem(`${dir}/.scratch.md`), null);
 * Deno.symlinkSync(`${dir}/.scratch.md`, `${dir}/link.md`);
 * assert.equal(scratchFileProblem(`${dir}/link.md`), "scratch is a symlink, not a plain file");
 * assert.equal(scratchFileProblem(dir), "scratch is a folder");
 * ```
 */
export function scratchFileProblem(
  path: string,
  trusts: OwnerCheck = trustedByThisProcess,
): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    return `scratch cannot be read (${messageOf(error)})`;
  }
  if (info.isSymlink) return "scratch is a symlink, not a plain file";
  if (info.isDirectory) return "scratch is a folder";
  if (!info.isFile) return "scratch is not a regular file";
  if (!trusts(info.uid)) return notOwnedProblem(info.uid);
  const links = info.nlink ?? 1;
  if (links > 1) return `scratch has ${links} hard links (writing it would change the others)`;
  return null;
}

function notOwnedProblem(uid: number | null): string {
  return `scratch is owned by another user (uid ${uid}), not you or root: 'librarian lint' ` +
    "tells the fix";
}

/**
 * Why the scratch at `path` is not the user's to file (another user owns it), or `null` when it
 * is, or is missing. One `lstat`: for the checks made before scratch is touched at all.
 *
 * @example Usage
 * ```ts
 * import { scratchOwnerProblem } from "./scratch_file.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/.scratch.md`;
 * assert.equal(scratchOwnerProblem(path), null);
 * Deno.writeTextFileSync(path, "");
 * assert.equal(scratchOwnerProblem(path), null);
 * assert.match(scratchOwnerProblem(path, () => false) ?? "", /owned by another user/);
 * ```
 */
export function scratchOwnerProblem(
  path: string,
  trusts: OwnerCheck = trustedByThisProcess,
): string | null {
  try {
    const uid = Deno.lstatSync(path).uid;
    return trusts(uid) ? null : notOwnedProblem(uid);
  } catch {
    return null;
  }
}
