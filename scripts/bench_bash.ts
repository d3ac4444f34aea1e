/**
 * Bash-event benchmark: the inject hook for a `PreToolUse` Bash event, whole process through the
 * launcher, against a bare Deno start. The command names a file 10 levels deep in a project whose
 * library mirrors that path (20 `.md` files); the shell tokenizer and its rules are loaded only
 * for such events, and their load is part of the time.
 *
 * @module
 */

import { join } from "node:path";
import { INJECT_GOALS, librariesSettled, makeLibrary } from "./bench_inject.ts";
import {
  baselineCommand,
  type BenchRow,
  benchRow,
  compare,
  hookEnv,
  launcherPath,
  type TimedCommand,
} from "./bench_util.ts";

/** Issue 14's goal for a Bash event, parser load included, as a multiple of a bare Deno start (medians). */
export const BASH_GOAL = 1.3;

function bashCommand(root: string, command: string, home: string, fresh: boolean): TimedCommand {
  let n = 0;
  const edit = command.startsWith("Edit ");
  return {
    cmd: "sh",
    // as hooks/hooks.json wires them: Bash events run `inject --shell`, file tools `inject`
    args: [launcherPath(), "inject", ...(edit ? [] : ["--shell"])],
    stdin: () =>
      JSON.stringify({
        session_id: fresh ? `bench-bash-${Deno.pid}-${n++}` : `bench-bash-${Deno.pid}-repeat`,
        hook_event_name: "PreToolUse",
        tool_name: edit ? "Edit" : "Bash",
        tool_input: edit
          ? { file_path: join(root, command.slice(5)), old_string: "a", new_string: "b" }
          : { command, description: "benchmark" },
        cwd: root,
      }),
    env: hookEnv(home),
  };
}

/** Runs the Bash-event benchmark and returns its rows. */
export async function benchBash(runs = 60): Promise<BenchRow[]> {
  const tmp = await Deno.makeTempDir({ prefix: "librarian-bench-bash-" });
  try {
    const root = join(tmp, "project");
    const file = await makeLibrary(root, 2, 10);
    await librariesSettled();
    const rel = file.slice(root.length + 1);
    const folder = rel.slice(0, rel.lastIndexOf("/"));
    const cases: [string, string, boolean][] = [
      [
        `sed -i 's/a/b/' ${rel}`,
        "`sed -i` on a file 10 levels deep, first touch in a session",
        true,
      ],
      [
        `cd ${folder} && grep -n export edited.ts | head -5`,
        "`cd <folder> && grep` piped to `head`, nothing new",
        false,
      ],
      ["git status && ls", "`git status && ls` at the root, no project path named", true],
      [`Edit ${rel}`, "(for comparison: an Edit of the same file, first touch)", true],
    ];
    const rows: BenchRow[] = [];
    for (const [command, label, fresh] of cases) {
      const subject = bashCommand(root, command, join(tmp, "home"), fresh);
      const result = await compare(subject, baselineCommand(subject.stdin), runs);
      const edit = command.startsWith("Edit ");
      rows.push(
        benchRow(
          `inject, ${edit ? "Edit" : "Bash"} ${label}`,
          result,
          edit ? INJECT_GOALS.firstTouch : BASH_GOAL,
        ),
      );
    }
    return rows;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { formatRows } = await import("./bench_util.ts");
  console.log(formatRows(await benchBash(Number(Deno.args[0] ?? 60))));
}
