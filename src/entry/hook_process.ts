/**
 * How a hook's own entry module (`entry/inject.ts`, `entry/stop.ts`, the bundles' entries) runs the
 * hook as a process. The launcher runs these in source mode so that Deno loads the hook's modules
 * in one pass instead of loading `main.ts` first and the hook through a second, dynamic import; a
 * hook run by hand (options, a terminal) is handed to `main.ts`, the top of the program. What these
 * and `main.ts` share (which commands are hooks, the process set-up) is `core/process.ts`.
 *
 * @module
 */

import { importedLater, loadLater } from "../core/load_later.ts";
import { LOADED_AT_MS, mayEndAtOnce } from "../core/load_clock.ts";
import { isPlainHookRun, prepareProcess } from "../core/process.ts";

/** How a hook's entry runs it. */
export interface HookEntryOptions {
  /**
   * A bundle's entry (`src/entry/bundle_*.ts`, which imports `core/load_clock.ts` first): a run
   * whose bundle loaded from Deno's code cache and that imported nothing later ends its process
   * at once when its work is done, skipping the runtime's tear-down (`core/load_clock.ts`).
   */
  bundled?: boolean;
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
  options: HookEntryOptions = {},
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
  // its output and log are written (synchronously) by now; `unload` listeners still run
  if (options.bundled && mayEndAtOnce(LOADED_AT_MS, importedLater())) Deno.exit(0);
  Deno.exitCode = 0;
}
