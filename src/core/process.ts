/**
 * What every start of the program shares, whichever module starts it (`src/main.ts`, or a hook's
 * entry module in `src/entry/`): which commands are hooks, and how the process is set up.
 *
 * @module
 */

import { restoreLauncherHome } from "./env.ts";

/** The commands Claude Code runs as hooks: they read one event on stdin and always exit 0. */
export const HOOK_COMMANDS: ReadonlySet<string> = new Set(["inject", "stop"]);

/**
 * Prepares this process for a run: a rejected promise nobody awaited is not fatal, `HOME` is the
 * user's again (the launcher gives Deno a HOME of its own), and for a hook errors skip capturing
 * stack traces (hooks expect many "not found" errors and log only names and messages).
 */
export function prepareProcess(forHook: boolean): void {
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  if (forHook) Error.stackTraceLimit = 0;
  restoreLauncherHome();
}

/**
 * Whether a hook entry module runs the hook itself: Claude Code's call, with no options and the
 * event on a pipe. Anything else (`--help`, `--example`, `--explain`, a person at a terminal)
 * goes through `src/main.ts`, which knows how to answer it.
 *
 * @example Usage
 * ```ts
 * import { isPlainHookRun } from "./process.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isPlainHookRun([], false), true);
 * assert.equal(isPlainHookRun(["--explain"], false), false);
 * assert.equal(isPlainHookRun([], true), false);
 * ```
 */
export function isPlainHookRun(args: readonly string[], stdinIsTerminal: boolean): boolean {
  return args.length === 0 && !stdinIsTerminal;
}
