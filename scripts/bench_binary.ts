/**
 * The compiled binary timed where it runs: the release workflow's smoke job runs this on each OS
 * against the plugin tree it staged with that OS's binary, and publishes the table with the release.
 *
 * ```sh
 * deno run --allow-all scripts/bench_binary.ts --plugin smoke-plugin --target x86_64-unknown-linux-gnu \
 *   --out bench/x86_64-unknown-linux-gnu.md [--runs 21] [--warmup 3]
 * ```
 *
 * Four hook runs through `sh <plugin>/bin/librarian`, as Claude Code starts them: an inject first
 * touch (a new session each run), a repeat touch, a Bash event (`inject --shell`) and an idle Stop
 * (empty scratch). Each is timed with the binary (`LIBRARIAN_FORCE_BINARY=1`), in source mode
 * (`LIBRARIAN_FORCE_SOURCE=1`, the hook bundles with Deno) and against the OS's bare process start
 * (`sh` running `cat` on the event), interleaved; medians are reported with the binary's size.
 * Before timing, each mode's inject must send the library, so a table is never made of a binary
 * that does nothing. Figures are reported, never judged: timing noise cannot fail a release.
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { binaryFileName } from "./build_plan.ts";
import { median, type TimedCommand, timeOnce } from "./bench_util.ts";

/** The hook runs timed, in the table's order. */
export const BINARY_BENCH_ROWS = [
  "inject, first touch",
  "inject, repeat touch",
  "inject --shell, Bash event",
  "stop, idle turn",
] as const;

/** One row's medians, ms. */
export interface BinaryBenchRow {
  name: string;
  binaryMs: number;
  sourceMs: number;
  bareMs: number;
}

/**
 * The Markdown the release publishes for one OS (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBinaryTable } from "./bench_binary.ts";
 *
 * const text = formatBinaryTable("x86_64-unknown-linux-gnu", 80_000_000, 21, [
 *   { name: "inject, first touch", binaryMs: 40, sourceMs: 60, bareMs: 2 },
 * ]);
 * assert.match(text, /^\| inject, first touch \| 40\.0 \| 60\.0 \| 2\.0 \| 20\.00× \| 0\.67× \|$/m);
 * assert.match(text, /librarian-x86_64-unknown-linux-gnu: 80,000,000 bytes \(76\.3 MB\)/);
 * ```
 */
export function formatBinaryTable(
  triple: string,
  bytes: number,
  runs: number,
  rows: readonly BinaryBenchRow[],
): string {
  return [
    `### ${triple}: the compiled binary, timed where it runs`,
    "",
    `Medians of ${runs} runs through \`sh bin/librarian\`. Bare process start: \`sh\` running ` +
    "`cat` on the event.",
    "",
    "| hook run | binary ms | source mode ms | bare process start ms | binary ÷ bare | binary ÷ source |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.name} | ${r.binaryMs.toFixed(1)} | ${r.sourceMs.toFixed(1)} | ${
        r.bareMs.toFixed(1)
      } | ${(r.binaryMs / r.bareMs).toFixed(2)}× | ${(r.binaryMs / r.sourceMs).toFixed(2)}× |`
    ),
    "",
    `${binaryFileName(triple)}: ${bytes.toLocaleString("en-US")} bytes (${
      (bytes / 1024 / 1024).toFixed(1)
    } MB)`,
    "",
  ].join("\n");
}

/** A binary that cannot be benchmarked (it is missing, or its hooks do not work). */
export class BinaryBenchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BinaryBenchError";
  }
}

/** A small project: a library root file and one folder's file for the touched source file. */
async function makeProject(root: string): Promise<string> {
  const library = join(root, "_memory_library");
  await Deno.mkdir(join(library, "src", "app"), { recursive: true });
  await Deno.mkdir(join(root, "src", "app"), { recursive: true });
  await Deno.writeTextFile(join(library, "tech.md"), "# tech\n- builds run on Deno 2\n");
  await Deno.writeTextFile(
    join(library, "src", "app", "patterns.md"),
    "# patterns\n- BENCH-CONTEXT: handlers return results\n",
  );
  await Deno.writeTextFile(join(library, ".scratch.md"), "");
  await Deno.writeTextFile(join(root, "transcript.jsonl"), "");
  const file = join(root, "src", "app", "handler.ts");
  await Deno.writeTextFile(file, "export {};\n");
  return file;
}

function event(fields: Record<string, unknown>): string {
  return JSON.stringify(fields);
}

/** Times the hook runs; returns the rows. */
export async function benchBinary(
  plugin: string,
  triple: string,
  runs: number,
  warmup: number,
): Promise<{ rows: BinaryBenchRow[]; bytes: number }> {
  const binary = join(plugin, "bin", binaryFileName(triple));
  let bytes: number;
  try {
    bytes = (await Deno.stat(binary)).size;
  } catch {
    throw new BinaryBenchError(`no binary at ${binary}; stage the plugin with --target ${triple}`);
  }
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-bench-binary-" }));
  try {
    const project = join(tmp, "project");
    const home = join(tmp, "home");
    await Deno.mkdir(home, { recursive: true });
    const file = await makeProject(project);
    const env = (mode: Record<string, string>): Record<string, string> => ({
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      USERPROFILE: home,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      ...(Deno.env.get("SYSTEMROOT") ? { SYSTEMROOT: Deno.env.get("SYSTEMROOT")! } : {}),
      LIBRARIAN_LOG: "off",
      LIBRARIAN_NUDGE: "off",
      LIBRARIAN_HINT: "off",
      CLAUDE_PROJECT_DIR: project,
      ...mode,
    });
    let session = 0;
    const read = (id: string) =>
      event({
        session_id: id,
        hook_event_name: "PreToolUse",
        cwd: project,
        tool_name: "Read",
        tool_input: { file_path: file },
      });
    const stdins: Record<
      (typeof BINARY_BENCH_ROWS)[number],
      { args: string[]; stdin: () => string }
    > = {
      "inject, first touch": { args: ["inject"], stdin: () => read(`bench-first-${session++}`) },
      "inject, repeat touch": { args: ["inject"], stdin: () => read("bench-repeat") },
      "inject --shell, Bash event": {
        args: ["inject", "--shell"],
        stdin: () =>
          event({
            session_id: "bench-bash",
            hook_event_name: "PreToolUse",
            cwd: project,
            tool_name: "Bash",
            tool_input: { command: "cat src/app/handler.ts" },
          }),
      },
      "stop, idle turn": {
        args: ["stop"],
        stdin: () =>
          event({
            session_id: "bench-stop",
            hook_event_name: "Stop",
            cwd: project,
            transcript_path: join(project, "transcript.jsonl"),
            stop_hook_active: false,
            last_assistant_message: "Done.",
          }),
      },
    };
    const launcher = join(plugin, "bin", "librarian");
    const modes = {
      binary: env({ LIBRARIAN_FORCE_BINARY: "1" }),
      source: env({ LIBRARIAN_FORCE_SOURCE: "1" }),
    };
    // each mode must send the library before anything is timed
    for (const [mode, modeEnv] of Object.entries(modes)) {
      const out = await new Deno.Command("sh", {
        args: [launcher, "inject"],
        env: modeEnv,
        clearEnv: true,
        cwd: project,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = out.stdin.getWriter();
      await writer.write(new TextEncoder().encode(read(`bench-check-${mode}`)));
      await writer.close();
      const result = await out.output();
      const stdout = new TextDecoder().decode(result.stdout);
      if (!stdout.includes("BENCH-CONTEXT")) {
        throw new BinaryBenchError(
          `in ${mode} mode, inject did not send the library (exit ${result.code}): ${
            stdout.slice(0, 200) || new TextDecoder().decode(result.stderr).slice(0, 200)
          }`,
        );
      }
    }
    // the repeat touch's session has seen the file once
    await timeOnce({
      cmd: "sh",
      args: [launcher, "inject"],
      stdin: read("bench-repeat"),
      env: modes.binary,
      cwd: project,
    });
    const rows: BinaryBenchRow[] = [];
    for (const name of BINARY_BENCH_ROWS) {
      const { args, stdin } = stdins[name];
      const commands: Record<"binary" | "source" | "bare", TimedCommand> = {
        binary: { cmd: "sh", args: [launcher, ...args], stdin, env: modes.binary, cwd: project },
        source: { cmd: "sh", args: [launcher, ...args], stdin, env: modes.source, cwd: project },
        bare: { cmd: "sh", args: ["-c", "cat >/dev/null"], stdin, env: modes.binary, cwd: project },
      };
      const times = { binary: [] as number[], source: [] as number[], bare: [] as number[] };
      const order = ["binary", "source", "bare"] as const;
      for (let i = 0; i < warmup + runs; i++) {
        // rotate which goes first, so none always runs on a cache another just warmed
        for (let k = 0; k < order.length; k++) {
          const mode = order[(i + k) % order.length]!;
          const timing = await timeOnce(commands[mode]);
          if (i >= warmup) times[mode].push(timing.wallMs);
        }
      }
      rows.push({
        name,
        binaryMs: median(times.binary),
        sourceMs: median(times.source),
        bareMs: median(times.bare),
      });
    }
    return { rows, bytes };
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({
      args: Deno.args,
      options: {
        plugin: { type: "string" },
        target: { type: "string", default: Deno.build.target },
        runs: { type: "string", default: "21" },
        warmup: { type: "string", default: "3" },
        out: { type: "string" },
      },
    });
    if (!values.plugin) throw new BinaryBenchError("--plugin <staged plugin folder> is required");
    const runs = Number(values.runs);
    const warmup = Number(values.warmup);
    if (!(runs >= 1) || !(warmup >= 0)) {
      throw new BinaryBenchError("--runs and --warmup are counts");
    }
    const { rows, bytes } = await benchBinary(values.plugin, values.target, runs, warmup);
    const table = formatBinaryTable(values.target, bytes, runs, rows);
    console.log(table);
    if (values.out) {
      await Deno.mkdir(join(values.out, ".."), { recursive: true });
      await Deno.writeTextFile(values.out, table);
    }
  } catch (error) {
    console.error(`bench_binary: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
