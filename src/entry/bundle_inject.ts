/**
 * The inject hook as one module: the entry `scripts/bundle_hooks.ts` bundles into `hooks/inject.js`,
 * which the launcher runs in source mode. It imports the modules the hook otherwise loads later
 * (the session-start handlers, the shell-command reader) so that the bundle carries them, and
 * hands them to `loadLater` before the hook runs. Deno then loads one file of plain JavaScript
 * instead of some 30 TypeScript modules (docs/benchmarks.md).
 *
 * @module
 */

import * as sessionStart from "../inject/start.ts";
import * as commandContext from "../inject/command_context.ts";
import { provideBundled } from "../core/load_later.ts";
import { run } from "../inject/hook.ts";
import { runHookEntry } from "./hook_process.ts";

/** The modules the inject hook loads later, carried by its bundle (by path under `src/`). */
export const CARRIED: Readonly<Record<string, unknown>> = {
  "inject/start.ts": sessionStart,
  "inject/command_context.ts": commandContext,
};

if (import.meta.main) {
  provideBundled(CARRIED);
  await runHookEntry("inject", run);
}
