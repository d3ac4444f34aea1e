/**
 * Runs a command with the temporary folder set to a new folder of its own (`TMPDIR`, and `TMP` and
 * `TEMP` for Windows), and removes that folder when the command ends; exits with the command's
 * status. The doc examples make folders with `Deno.makeTempDirSync()` and leave them (an example
 * shows a use, not its clean-up): `deno task test:doc` runs through this, so that a run leaves
 * nothing behind in the machine's temporary folder (it left some 200 folders a run before).
 *
 * Usage: `deno run --allow-all scripts/in_temp_dir.ts <command> [arguments...]` (`deno` runs the
 * Deno that runs this script).
 *
 * @module
 */

/**
 * Runs `command` with `args`, its temporary folder a new one inside `parent` (default: the
 * machine's), removed afterwards; returns the command's exit code.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { runInTempDir } from "./in_temp_dir.ts";
 * const parent = Deno.makeTempDirSync();
 * const code = await runInTempDir(Deno.execPath(), ["eval", "Deno.makeTempDirSync(); Deno.exit(3)"], parent);
 * assert.equal(code, 3);
 * assert.deepEqual([...Deno.readDirSync(parent)], []);
 * Deno.removeSync(parent);
 * ```
 */
export async function runInTempDir(
  command: string,
  args: readonly string[],
  parent?: string,
): Promise<number> {
  const dir = await Deno.makeTempDir({
    prefix: "librarian-tests-",
    ...parent ? { dir: parent } : {},
  });
  try {
    const child = new Deno.Command(command, {
      args: [...args],
      env: { TMPDIR: dir, TMP: dir, TEMP: dir },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    return (await child.status).code;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      console.error(`in_temp_dir: could not remove ${dir}: ${error}`);
    });
  }
}

if (import.meta.main) {
  const [command, ...args] = Deno.args;
  if (command === undefined) {
    console.error("usage: deno run --allow-all scripts/in_temp_dir.ts <command> [arguments...]");
    Deno.exit(2);
  }
  Deno.exit(await runInTempDir(command === "deno" ? Deno.execPath() : command, args));
}
