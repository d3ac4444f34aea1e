/**
 * The inject hook as one module: the entry `scripts/bundle_hooks.ts` bundles into `inject.js`
 * (`bundles/` in a checkout, `hooks/` in the release tree), which the launcher runs in source mode
 * for every inject event but a shell command (the plugin's `hooks/hooks.json` wires Bash events to
 * `inject --shell`, which runs `inject-shell.js`, built from `bundle_inject_shell.ts`). Deno then
 * loads one file of plain JavaScript instead of some 30 TypeScript modules (docs/benchmarks.md).
 *
 * This bundle carries the session-start handlers but not the shell-command reader: every kilobyte
 * of bundle is read and deserialised on each run, and the reader is almost half of the hook
 * (measured: a repeat Edit took about 2 ms less without it). A Bash event that reaches this bundle
 * anyway (hooks wired by hand, or by an older `librarian setup-hooks`) is still served: the hook
 * loads the reader from `src/` ({@link LOADED_FROM_SOURCE}), as copies of their own beside the
 * bundle's copies of the modules both use. That is safe because the reader returns plain data
 * (the touched files and their library), and no module held by both keeps top-level state or a
 * class either side checks with `instanceof` (`tests/hook_bundle_test.ts` fails otherwise).
 *
 * @module
 */

// first: its clock is read before any other module of the bundle is evaluated
import "../core/load_clock.ts";
import * as sessionStart from "../inject/start.ts";
import { provideBundled } from "../core/load_later.ts";
import { run } from "../inject/inject_hook.ts";
import { runHookEntry } from "./hook_process.ts";

/** The modules the inject hook loads later, carried by its bundle (by path under `src/`). */
export const CARRIED: Readonly<Record<string, unknown>> = {
  "inject/start.ts": sessionStart,
};

/**
 * The modules the inject hook loads later from `src/`: for a shell command (see above), and the
 * stale record's making at a session start that needs it.
 */
export const LOADED_FROM_SOURCE: readonly string[] = [
  "inject/command_context.ts",
  // the PostToolUse after a search, when hooks wired by hand send it here (a shell command too)
  "inject/after_shell_read.ts",
  // a session start's stale record, only when it is missing or no longer holds: it computes the
  // record (git, pure parsing) and keeps no state; the start writes it with the bundle's copies
  "git/stale_make.ts",
];

if (import.meta.main) {
  provideBundled(CARRIED);
  await runHookEntry("inject", run, Deno.args, { bundled: true });
}
