/**
 * The inject side's short, synchronous, bounded lock: one decision at a time per context window.
 *
 * Claude Code runs the PreToolUse hooks of parallel tool calls at the same time, and a plugin plus
 * settings wiring runs every hook twice at once. Each run takes this lock around "load the ledger,
 * choose what to send, record it", so that every library file version reaches a context window
 * exactly once. The lock is `flock` (`LockFileEx` on Windows) through `Deno.FsFile.tryLockSync`:
 * the operating system drops it when its holder exits, even when killed, so it is never stale.
 *
 * Synchronous (the hot path has no event loop worth starting) and bounded: it polls, sleeping with
 * `Atomics.wait`, and gives up after the timeout; the caller then sends nothing rather than
 * risking sending twice.
 *
 * @module
 */

import { openLockFile, releaseLockFile } from "../core/lock_file.ts";

/** How long an inject run waits for its context window's lock by default. */
export const INJECT_LOCK_TIMEOUT_MS = 2_000;

/** A held lock. Release it (or `using` it) when done. */
export interface HeldSyncLock extends Disposable {
  /** How long acquiring took, in ms (one decimal). */
  readonly waitedMs: number;
  /** Releases the lock (idempotent). */
  release(): void;
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

/**
 * Takes the exclusive lock on the file `path` (creating it and its folder), waiting at most
 * `timeoutMs`; `null` when another process held it all that time.
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors opening the lock file
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockSync } from "./lock.ts";
 * const path = Deno.makeTempDirSync() + "/a.lock";
 * const held = lockSync(path, 100);
 * assert.ok(held !== null);
 * held.release();
 * ```
 */
export function lockSync(path: string, timeoutMs: number): HeldSyncLock | null {
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
      sleepSync(Math.max(1, Math.min(delay, timeoutMs - waited)));
      delay = Math.min(delay * 2, 16);
    }
  } catch (error) {
    file.close();
    throw error;
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    releaseLockFile(file);
  };
  return {
    waitedMs: Math.round((performance.now() - start) * 10) / 10,
    release,
    [Symbol.dispose]: release,
  };
}
