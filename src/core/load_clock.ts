/**
 * How long Deno took to load the running hook, and whether the hook may end its process at once.
 *
 * A hook bundle's entry imports this module first, so it is evaluated before any other module of
 * the bundle: {@link LOADED_AT_MS} is then the time from the process's time origin to the bundle's
 * first line, which is mostly Deno reading the bundle and its V8 code cache. The hooks log it
 * (`load_ms`).
 *
 * It also says whether the code cache was there. Deno keeps a module's code cache in its cache
 * folder and writes a missing one while the process runs; the write completes only when the
 * process ends the normal way. On this project's machines a bundle whose code cache is there
 * loads in 2–3 ms (6–9 ms with two CPU burners beside it); one whose cache is missing compiles in
 * 22–27 ms (58 ms loaded), and one whose earlier write was cut short in 11–13 ms. A run that loaded
 * in at most {@link CODE_CACHE_HIT_MS} had its cache, so nothing is left to write, and it may skip
 * the runtime's tear-down (`Deno.exit`), about 0.9 ms a run (docs/benchmarks.md). Any slower run
 * ends normally, so a missing or cut-short cache is written by the first run that needs it; a
 * machine would have to compile some five times faster than these for a miss to pass for a hit.
 *
 * @module
 */

/** Milliseconds from the process's time origin to this module's evaluation, to a tenth. */
export const LOADED_AT_MS: number = Math.round(performance.now() * 10) / 10;

/** The slowest load that can only have come from Deno's code cache (see the module doc). */
export const CODE_CACHE_HIT_MS = 5;

/**
 * Whether a hook run may end its process at once (`Deno.exit`) once its work is done: only when
 * its bundle loaded from the code cache (`loadedAtMs` at most {@link CODE_CACHE_HIT_MS}) and the
 * run imported no module of its own (`importedLater`: a chunk or a module from `src/`, whose code
 * cache Deno may still be writing).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayEndAtOnce } from "./load_clock.ts";
 *
 * assert.equal(mayEndAtOnce(2.4, false), true);
 * assert.equal(mayEndAtOnce(24.6, false), false, "a compiled bundle's cache is still being written");
 * assert.equal(mayEndAtOnce(2.4, true), false, "so may a module loaded later's");
 * ```
 */
export function mayEndAtOnce(loadedAtMs: number, importedLater: boolean): boolean {
  return loadedAtMs <= CODE_CACHE_HIT_MS && !importedLater;
}
