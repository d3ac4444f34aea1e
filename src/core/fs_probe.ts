/**
 * File-system probes shared by every side: what is at a path, asked without throwing.
 *
 * Synchronous on purpose: a hook is a short-lived process, and a synchronous `stat` costs a
 * fraction of an async one (no hand-off to a worker thread).
 *
 * @module
 */

/**
 * True when `path` is a folder (following symlinks); false when it is anything else, is missing
 * or cannot be looked at.
 *
 * @example Usage
 * ```ts
 * import { isDirectory } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isDirectory(Deno.makeTempDirSync()));
 * ```
 */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * True when `path` is a regular file (following symlinks); false when it is anything else (a
 * folder, a FIFO, a device), is missing or cannot be looked at.
 *
 * @example Usage
 * ```ts
 * import { isFile } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * assert.ok(isFile(path));
 * assert.ok(!isFile(`${path}.missing`));
 * ```
 */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The text of the regular file at `path`, or `null` when nothing is there. Anything that is not
 * a regular file (a folder, a FIFO that would block the reader) throws, as do read errors: the
 * caller says what that means for the user.
 *
 * @example Usage
 * ```ts
 * import { readTextIfExists } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * assert.deepEqual(readTextIfExists(path), "hello");
 * assert.deepEqual(readTextIfExists(`${path}.missing`), null);
 * ```
 */
export function readTextIfExists(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (!info.isFile) {
    throw new Deno.errors.InvalidData(`${path} is not a regular file`);
  }
  return Deno.readTextFileSync(path);
}
