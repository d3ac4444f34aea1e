/**
 * The one cross-process lock both sides take: an exclusive `Deno.FsFile.tryLock` (`flock` on
 * Unix, `LockFileEx` on Windows) on a lock file, waited for synchronously and for a bounded time.
 * The operating system drops such a lock when its holder exits, even when killed, so a crashed
 * run never leaves a stale lock behind; the lock file itself is left in place (removing it would
 * let two processes hold locks on different files).
 *
 * Synchronous on purpose: a hook has nothing else to do while it waits (the inject hook's window
 * lock, the Stop hook's library lock), and sleeping with `Atomics.wait` starts no timer. Each
 * caller says what a timeout means: the inject hook sends nothing (`inject/ledger.ts`), filing
 * throws `LockTimeoutError` (`filing/library_lock.ts`).
 *
 * @module
 */

import { dirnameOf } from "./paths.ts";
import { sleepSync } from "./sleep.ts";

/** A held lock: release it, or `using` (or `await using`) it. */
export interface HeldLock extends Disposable, AsyncDisposable {
  /** The lock file. */
  readonly path: string;
  /** How long taking it took, in ms (one decimal). */
  readonly waitedMs: number;
  /** Releases the lock; idempotent, never throws. */
  release(): void;
}

/** Options of {@link takeLock}. */
export interface TakeLockOptions {
  /** How the held file is unlocked on release (default: its `unlockSync`; tests put a fault here). */
  unlock?: (file: Deno.FsFile) => void;
}

/** The longest sleep between two tries, in ms. */
const MAX_POLL_MS = 16;

/** Opens (creating it and its folder when needed) the lock file at `path`, read-write. */
function openLockFile(path: string): Deno.FsFile {
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
 * Takes the exclusive lock on the file `path` (creating it and its folder), trying again with
 * growing, jittered sleeps for at most `timeoutMs`; `null` when another process held it all that
 * time. Releasing never throws: when unlocking is refused, closing the file releases the lock all
 * the same, and a failure there must never discard the work done under the lock.
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors opening the lock file
 *
 * @example Usage
 * ```ts
 * import { takeLock } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/new/folder/a.lock`;
 * {
 *   using held = takeLock(path, 100);
 *   assert.ok(held !== null && held.path === path);
 * }
 * const refused = takeLock(path, 100, {
 *   unlock: () => {
 *     throw new Error("unlock refused");
 *   },
 * });
 * refused!.release();
 * using again = takeLock(path, 0);
 * assert.ok(again !== null, "closing the file released the lock");
 * ```
 */
export function takeLock(
  path: string,
  timeoutMs: number,
  options: TakeLockOptions = {},
): HeldLock | null {
  const start = performance.now();
  const file = openLockFile(path);
  let delay = 1;
  try {
    while (!file.tryLockSync(true)) {
      const waited = performance.now() - start;
      if (waited >= timeoutMs) {
        file.close();
        return null;
      }
      const jittered = delay * (0.75 + Math.random() / 2);
      sleepSync(Math.max(1, Math.min(jittered, timeoutMs - waited)));
      delay = Math.min(delay * 2, MAX_POLL_MS);
    }
  } catch (error) {
    file.close();
    throw error;
  }
  const unlock = options.unlock ?? ((held: Deno.FsFile) => held.unlockSync());
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    try {
      unlock(file);
    } catch {
      // closing below releases it
    }
    try {
      file.close();
    } catch {
      // already closed: nothing is held
    }
  };
  return {
    path,
    waitedMs: Math.round((performance.now() - start) * 10) / 10,
    release,
    [Symbol.dispose]: release,
    [Symbol.asyncDispose]: () => Promise.resolve(release()),
  };
}
