/**
 * How a hook's own entry module (`entry/inject.ts`, `entry/stop.ts`, the bundles' entries) runs the
 * hook as a process. The launcher runs these in source mode so that Deno loads the hook's modules
 * in one pass instead of loading `main.ts` first and the hook through a second, dynamic import; a
 * hook run by hand (options, a terminal) is handed to `main.ts`, the top of the program. What these
 * and `main.ts` share (which commands are hooks, the process set-up) is `core/process.ts`.
 *
 * @module
 */

import { loadLater } from "../core/load_later.ts";
import { isPlainHookRun, prepareProcess } from "../core/process.ts";

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
