/**
 * A blocking sleep for short waits in the hooks (a lock's next try, a rename Windows refused a
 * moment ago): `Atomics.wait` on a private buffer starts no timer and keeps the process
 * synchronous.
 *
 * @module
 */

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/**
 * Blocks the calling thread for about `ms` milliseconds (nothing for 0 or less).
 *
 * @example Usage
 * ```ts
 * import { sleepSync } from "./sleep.ts";
 * import assert from "node:assert/strict";
 *
 * const start = performance.now();
 * sleepSync(5);
 * assert.ok(performance.now() - start >= 4);
 * ```
 */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(SLEEPER, 0, 0, ms);
}
