/**
 * The library's lock for filing (the Stop hook, `route`, `import`, `scratch --drop`): the one
 * lock of `core/lock.ts`, waited for up to `LIBRARIAN_LOCK_TIMEOUT_MS` (default 5 s), after which
 * the work is left for the next turn with a {@link LockTimeoutError}.
 *
 * @module
 */

import { millisecondsFrom } from "../core/env.ts";
import { LibrarianError } from "../core/errors.ts";
import { type HeldLock, takeLock } from "../core/lock.ts";
import { faultFires } from "../core/fault.ts";

/** How long filing waits for the lock by default before leaving the work for the next turn. */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/** The lock could not be had within the timeout. */
export class LockTimeoutError extends LibrarianError {
  constructor(path: string, timeoutMs: number) {
    super(`another Librarian run held ${path} for more than ${timeoutMs} ms`);
    this.name = "LockTimeoutError";
  }
}

/** Options for {@link acquireLock}. */
export interface LockOptions {
  /** Give up after this many ms (default {@link DEFAULT_LOCK_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Takes the exclusive lock on `path` (creating the file and its folder), waiting at most
 * `timeoutMs`. Its release goes through the `lock-release-throws` fault point (tests only).
 *
 * @throws {LockTimeoutError} when another process holds the lock for longer than the timeout
 * @throws {Deno.errors.PermissionDenied} and other I/O errors opening the lock file
 *
 * @example Usage
 * ```ts
 * import { acquireLock } from "./library_lock.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/locks/library.lock`;
 * {
 *   await using held = acquireLock(path);
 *   assert.equal(held.path, path);
 * }
 * acquireLock(path, { timeoutMs: 20 }).release();
 * ```
 */
export function acquireLock(path: string, options: LockOptions = {}): HeldLock {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const held = takeLock(path, timeoutMs, {
    unlock: (file) => {
      if (faultFires("lock-release-throws")) throw new Error("unlock refused (fault point)");
      file.unlockSync();
    },
  });
  if (held === null) throw new LockTimeoutError(path, timeoutMs);
  return held;
}

/**
 * The lock timeout from `LIBRARIAN_LOCK_TIMEOUT_MS`, else the default.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_LOCK_TIMEOUT_MS, lockTimeoutFrom } from "./library_lock.ts";
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
