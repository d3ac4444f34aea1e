/**
 * A cross-process exclusive lock on a lock file (`Deno.FsFile.tryLock`: `flock` on Unix,
 * `LockFileEx` on Windows), with a timeout so a hook never waits forever.
 *
 * The operating system releases the lock when its holder exits, even when it is killed, so a
 * crashed run never leaves a stale lock behind. The lock file itself is left in place (removing
 * it would let two processes hold locks on different files).
 *
 * @module
 */

import { millisecondsFrom } from "../core/env.ts";
import { openLockFile, releaseLockFile } from "../core/lock_file.ts";
import { faultFires } from "../core/fault.ts";

/** How long a hook waits for the lock by default before leaving the work for the next turn. */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/** The lock could not be had within the timeout. */
export class LockTimeoutError extends Error {
  constructor(path: string, timeoutMs: number) {
    super(`another Librarian run held ${path} for more than ${timeoutMs} ms`);
    this.name = "LockTimeoutError";
  }
}

/** A held lock; release it (or `await using` it) when done. */
export interface HeldLock extends AsyncDisposable {
  /** The lock file. */
  readonly path: string;
  /** How long acquiring took, in ms. */
  readonly waitedMs: number;
  /** Releases the lock (idempotent; never throws). */
  release(): void;
}

/** Options for {@link acquireLock}. */
export interface LockOptions {
  /** Give up after this many ms (default {@link DEFAULT_LOCK_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Resolves after `ms` milliseconds.
 *
 * @example Usage
 * ```ts
 * import { sleep } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const start = performance.now();
 * await sleep(5);
 * assert.ok(performance.now() - start >= 4);
 * ```
 */
export function sleep(ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

/**
 * Takes the exclusive lock on `path` (creating the file and its folder), polling until
 * `timeoutMs` has passed.
 *
 * @throws {LockTimeoutError} when another process holds the lock for longer than the timeout
 * @throws {Deno.errors.PermissionDenied} and other I/O errors opening the lock file
 *
 * @example Usage
 * ```ts
 * import { acquireLock, LockTimeoutError } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/locks/library.lock`;
 * const lock = await acquireLock(path);
 * await assert.rejects(acquireLock(path, { timeoutMs: 20 }), LockTimeoutError);
 * lock.release();
 * await (await acquireLock(path, { timeoutMs: 20 }))[Symbol.asyncDispose]();
 * ```
 */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<HeldLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const start = performance.now();
  const file = openLockFile(path);
  let delay = 2;
  try {
    while (!file.tryLockSync(true)) {
      const waited = performance.now() - start;
      if (waited >= timeoutMs) throw new LockTimeoutError(path, timeoutMs);
      await sleep(Math.min(delay, Math.max(1, timeoutMs - waited)) * (0.75 + Math.random() / 2));
      delay = Math.min(delay * 2, 50);
    }
  } catch (error) {
    file.close();
    throw error;
  }
  let held = true;
  // Never throws: closing the file releases the lock even when unlocking is refused, and a
  // failure here must not discard the work done under the lock.
  const release = () => {
    if (!held) return;
    held = false;
    releaseLockFile(file, () => {
      if (faultFires("lock-release-throws")) throw new Error("unlock refused (fault point)");
      file.unlockSync();
    });
  };
  return {
    path,
    waitedMs: Math.round((performance.now() - start) * 10) / 10,
    release,
    [Symbol.asyncDispose]: () => Promise.resolve(release()),
  };
}

/**
 * The lock timeout from `LIBRARIAN_LOCK_TIMEOUT_MS`, else the default.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_LOCK_TIMEOUT_MS, lockTimeoutFrom } from "./lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lockTimeoutFrom("250"), 250);
 * assert.equal(lockTimeoutFrom("soon"), DEFAULT_LOCK_TIMEOUT_MS);
 * assert.equal(lockTimeoutFrom(undefined), DEFAULT_LOCK_TIMEOUT_MS);
 * ```
 */
export function lockTimeoutFrom(raw: string | undefined): number {
  return millisecondsFrom(raw, DEFAULT_LOCK_TIMEOUT_MS);
}
