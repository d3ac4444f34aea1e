/**
 * The lock file both sides' locks are built on: opened (with its folder made on demand) for
 * `Deno.FsFile.tryLock` (`flock` on Unix, `LockFileEx` on Windows), and released in a way that
 * never throws. The operating system drops such a lock when its holder exits, even when killed,
 * so a crashed run never leaves a stale lock behind.
 *
 * @module
 */

import { dirnameOf } from "./paths.ts";

/**
 * Opens (creating it and its folder when needed) the lock file at `path`, read-write.
 *
 * @example Usage
 * ```ts
 * import { openLockFile, releaseLockFile } from "./lock_file.ts";
 * import assert from "node:assert/strict";
 *
 * const file = openLockFile(`${Deno.makeTempDirSync()}/new/folder/a.lock`);
 * assert.ok(file.tryLockSync(true));
 * releaseLockFile(file);
 * ```
 */
export function openLockFile(path: string): Deno.FsFile {
  const options = { read: true, write: true, create: true } as const;
  try {
    return Deno.openSync(path, options);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(dirnameOf(path), { recursive: true });
    return Deno.openSync(path, options);
  }
}

/**
 * Releases a held lock file and closes it, never throwing: when unlocking is refused, closing
 * the file releases the lock all the same, and a failure here must never discard the work done
 * under the lock. `unlock` defaults to the file's own `unlockSync` (tests put a fault there).
 *
 * @example Usage
 * ```ts
 * import { openLockFile, releaseLockFile } from "./lock_file.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/a.lock`;
 * const first = openLockFile(path);
 * assert.ok(first.tryLockSync(true));
 * releaseLockFile(first, () => {
 *   throw new Error("unlock refused");
 * });
 * const second = openLockFile(path);
 * assert.ok(second.tryLockSync(true), "closing released the lock");
 * releaseLockFile(second);
 * ```
 */
export function releaseLockFile(
  file: Deno.FsFile,
  unlock: () => void = () => file.unlockSync(),
): void {
  try {
    unlock();
  } catch {
    // closing below releases it
  }
  try {
    file.close();
  } catch {
    // already closed: nothing is held
  }
}
