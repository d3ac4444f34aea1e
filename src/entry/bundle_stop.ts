/**
 * The stop hook as one module: the entry `scripts/bundle_hooks.ts` bundles into `stop.js`,
 * which the launcher runs in source mode. Unlike the inject bundle it carries only what an idle
 * turn runs, the hook's static module graph: most turns file nothing, and every kilobyte of
 * bundle is read and deserialised on each of them (measured: an idle turn took about 1.1 times a
 * bare Deno start with this bundle, about 1.35 times with the filing code carried too).
 *
 * When a turn has something to file, the hook loads the filing modules from `src/` as usual
 * ({@link LOADED_FROM_SOURCE}). They are then copies of their own, beside the bundle's copies of
 * the modules both use (`core/errors.ts`, `core/paths.ts`, ...). That is safe while no module held
 * by both keeps top-level state (a `let`, a `Map`) or declares a class either side checks with
 * `instanceof`: `tests/hook_bundle_test.ts` reads the real import graph and fails otherwise. The
 * hook checks the errors the filing code throws against the classes those same modules export
 * (`LockTimeoutError`, `CoordinationError`).
 *
 * @module
 */

import { run } from "../stop/stop_hook.ts";
import { runHookEntry } from "./hook_process.ts";

/** The modules the stop hook loads later that its bundle carries: none (see the module doc). */
export const CARRIED: Readonly<Record<string, unknown>> = {};

/**
 * The modules the stop hook loads later from `src/`, only when a turn files or nudges (the shell
 * reader: only for a turn that ran Bash, to count the files it wrote), or when the stale record
 * must be remade.
 */
export const LOADED_FROM_SOURCE: readonly string[] = [
  "automemory/sync.ts",
  "format/provenance.ts",
  "export/after_filing.ts",
  "filing/coordination.ts",
  "git/head.ts",
  "filing/library_lock.ts",
  "filing/nested.ts",
  "filing/nudge_reason.ts",
  "filing/over_share.ts",
  "filing/provenance_stamp.ts",
  "filing/route.ts",
  "filing/stop_summary.ts",
  "filing/subagent_note.ts",
  "shell/bash_touches.ts",
  "git/stale_extend.ts",
  "git/stale_refresh.ts",
];

if (import.meta.main) await runHookEntry("stop", run);
