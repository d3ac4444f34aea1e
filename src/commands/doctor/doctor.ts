/**
 * `librarian doctor`: answers "why didn't it fire?". Each check is one line; a warning or a
 * failure comes with the fix. Exits 1 when a check fails.
 *
 * @module
 */

import { VERSION } from "../../version.ts";
import { type EnvReader, normalizePath, processEnv } from "../../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  makeStyle,
  printJson,
  runCommand,
} from "../../cli/mod.ts";
import { runChecks } from "./doctor_checks.ts";
import { type Check } from "./check.ts";

/** The command line of `librarian doctor`. */
export const SPEC: CommandSpec = {
  name: "doctor",
  synopsis: "[--json]",
  summary: "check why the hooks might not fire, with a fix for each problem",
  details: [
    "Checks the runtime, the launcher and hooks file, the library from the current folder, the",
    "scratch file, whether Claude Code runs the hooks (plugin or settings), the log's last events",
    "and the budget setting. Exits 1 when a check fails; warnings alone exit 0.",
  ],
  options: {
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** Runs `librarian doctor`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const checks = await runChecks(env, normalizePath(Deno.cwd()));
    const failed = checks.some((c) => c.status === "fail");
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, ok: !failed, checks });
      return failed ? EXIT_PROBLEMS : EXIT_OK;
    }
    const style = makeStyle(env);
    const mark = { ok: style.green("ok  "), warn: style.yellow("warn"), fail: style.red("FAIL") };
    for (const check of checks) {
      console.log(`${mark[check.status]}  ${style.bold(check.id)}: ${check.message}`);
      if (check.fix) console.log(`      ${style.dim("fix:")} ${check.fix}`);
    }
    const counts = (s: Check["status"]) => checks.filter((c) => c.status === s).length;
    console.log(`\n${counts("fail")} failed, ${counts("warn")} warnings, ${counts("ok")} ok`);
    return failed ? EXIT_PROBLEMS : EXIT_OK;
  });
}
