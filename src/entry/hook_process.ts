/**
 * How a hook process runs, whichever module starts it: `src/main.ts` (the compiled binary, and
 * a hook run by hand, with options or at a terminal) or a hook's own entry module (`entry/inject.ts`,
 * `entry/stop.ts`), which the launcher runs in source mode so that Deno loads the hook's modules
 * in one pass instead of loading `main.ts` first and the hook through a second, dynamic import.
 *
 * @module
 */

import { restoreLauncherHome } from "../core/env.ts";
import { loadLater } from "../core/load_later.ts";

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
 * import { isPlainHookRun } from "./hook_process.ts";
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

/**
 * Runs hook `name` as a process: a plain run calls `run` directly and exits 0 whatever happens;
 * any other run is handed to the program's `main`, as if `librarian <name> <args>` had started
 * there.
 */
export async function runHookEntry(
  name: string,
  run: (args: string[]) => Promise<number>,
  args: readonly string[] = Deno.args,
): Promise<void> {
  if (!isPlainHookRun(args, Deno.stdin.isTerminal())) {
    const program = await loadLater<typeof import("../main.ts")>(
      "main.ts",
    );
    await program.runProgram([name, ...args]);
    return;
  }
  prepareProcess(true);
  try {
    await run([]);
  } catch {
    // a hook never fails the user's action: it exits 0 and stays silent on stdout
  }
  Deno.exitCode = 0;
}
