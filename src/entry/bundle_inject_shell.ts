/**
 * The inject hook for shell commands, as one module: the entry `scripts/bundle_hooks.ts` bundles
 * into `inject-shell.js`, which the launcher runs in source mode for `inject --shell` (the
 * plugin's `hooks/hooks.json` wires Bash events that way). It is `bundle_inject.ts` plus the
 * shell-command reader, carried so that a Bash event loads one module, not the reader's modules
 * from `src/` too.
 *
 * @module
 */

// first: its clock is read before any other module of the bundle is evaluated
import "../core/load_clock.ts";
import * as sessionStart from "../inject/start.ts";
import * as commandContext from "../inject/command_context.ts";
import * as afterShellRead from "../inject/after_shell_read.ts";
import { provideBundled } from "../core/load_later.ts";
import { run } from "../inject/inject_hook.ts";
import { runHookEntry } from "./hook_process.ts";

/** The modules the inject hook loads later, carried by this bundle (by path under `src/`). */
export const CARRIED: Readonly<Record<string, unknown>> = {
  "inject/start.ts": sessionStart,
  "inject/command_context.ts": commandContext,
  // the PostToolUse after a search (hooks.json wires it as `inject --shell` too)
  "inject/after_shell_read.ts": afterShellRead,
};

/** The modules this hook loads later from `src/`: a session start's stale record, when needed. */
export const LOADED_FROM_SOURCE: readonly string[] = ["git/stale_make.ts"];

if (import.meta.main) {
  provideBundled(CARRIED);
  await runHookEntry("inject", run, Deno.args, { bundled: true });
}
