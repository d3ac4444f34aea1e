/**
 * The export benchmark: `librarian export --format all` over a library of 300 folders (1,204
 * generated files), first as a full write and then as the `--check` a CI step runs, each against
 * a bare Deno start.
 *
 * @module
 */

import { join } from "node:path";
import {
  baselineCommand,
  type BenchRow,
  benchRow,
  compare,
  formatRows,
  launcherPath,
  type TimedCommand,
} from "./bench_util.ts";

/** Folders in the benchmark library (each with one library file and one code file). */
export const EXPORT_FOLDERS = 300;

function buildProject(root: string): void {
  const library = join(root, "_memory_library");
  Deno.mkdirSync(library, { recursive: true });
  Deno.writeTextFileSync(join(library, "tech.md"), "# tech\n\n- Deno 2\n");
  for (let i = 0; i < EXPORT_FOLDERS; i++) {
    const folder = `pkg${i % 10}/mod${i}`;
    Deno.mkdirSync(join(library, folder), { recursive: true });
    Deno.mkdirSync(join(root, folder), { recursive: true });
    const bullets = Array.from({ length: 12 }, (_, n) => `- learning ${n} about ${folder}`);
    Deno.writeTextFileSync(join(library, folder, "patterns.md"), `${bullets.join("\n")}\n`);
    Deno.writeTextFileSync(join(root, folder, "index.ts"), "");
  }
}

function exportCommand(project: string, args: string[], env: Record<string, string>): TimedCommand {
  return {
    cmd: "sh",
    args: [launcherPath(), "export", "--format", "all", ...args],
    stdin: "",
    env,
    cwd: project,
  };
}

/** Runs the export benchmark and returns its rows. */
export async function benchExport(runs = 6): Promise<BenchRow[]> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-bench-export-" }));
  try {
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: join(tmp, "home") };
    const project = join(tmp, "proj");
    buildProject(project);
    const clean = exportCommand(project, ["--clean"], env);
    const write = exportCommand(project, [], env);
    // Each timed full export starts from nothing: the untimed clean runs in its stdin callback.
    const fresh: TimedCommand = {
      ...write,
      stdin: () => {
        new Deno.Command(clean.cmd, { args: clean.args, cwd: project, env, stdout: "null" })
          .outputSync();
        return "";
      },
    };
    const full = await compare(fresh, baselineCommand("{}", env), runs, 1);
    const check = await compare(
      exportCommand(project, ["--check"], env),
      baselineCommand("{}", env),
      runs,
      1,
    );
    return [
      benchRow(`export --format all, ${EXPORT_FOLDERS} folders (1204 files written)`, full, 40),
      benchRow(`export --format all --check, ${EXPORT_FOLDERS} folders, up to date`, check, 25),
    ];
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  console.log("export: building the library and timing...");
  console.log(formatRows(await benchExport()));
}
