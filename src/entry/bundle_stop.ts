/**
 * The stop hook as one module: the entry `scripts/bundle_hooks.ts` bundles into `stop.js`,
 * which the launcher runs in source mode. Unlike the inject bundle it carries only what an idle
 * turn runs, the hook's static module graph: most turns file nothing, and every kilobyte of
 * bundle is read and deserialised on each of them (measured: an idle turn took about 1.1 times a
 * bare Deno start with this bundle, about 1.35 times with the filing code carried too).
 *
 * When a turn has something to file, the hook loads the filing modules from its chunk,
 * `stop-filing.js` beside the bundle (`bundle_stop_filing.ts`), or from `src/` when the chunk is
 * not there. They are then copies of their own, beside the bundle's copies of the modules both use
 * (`core/errors.ts`, `core/paths.ts`, ...). That is safe while no module held by both keeps
 * top-level state (a `let`, a `Map`) or declares a class either side checks with `instanceof`:
 * `tests/hook_bundle_test.ts` reads the real import graph and fails otherwise. The hook checks the
 * errors the filing code throws against the classes those same modules export
 * (`LockTimeoutError`, `CoordinationError`).
 *
 * @module
 */

// first: its clock is read before any other module of the bundle is evaluated
import "../core/load_clock.ts";
import { provideChunk } from "../core/load_later.ts";
import { run } from "../stop/stop_hook.ts";
import { runHookEntry } from "./hook_process.ts";
import { STOP_FILING_MODULES } from "./stop_filing_modules.ts";

/** The modules the stop hook loads later that its bundle carries: none (see the module doc). */
export const CARRIED: Readonly<Record<string, unknown>> = {};

/** The modules the stop hook loads later from its filing chunk (`stop_filing_modules.ts`). */
export const CHUNKED: readonly string[] = STOP_FILING_MODULES;

/** The modules the stop hook loads later from `src/` by design: none, the chunk holds them. */
export const LOADED_FROM_SOURCE: readonly string[] = [];

if (import.meta.main) {
  provideChunk(new URL("./stop-filing.js", import.meta.url).href, CHUNKED);
  await runHookEntry("stop", run, Deno.args, { bundled: true });
}
