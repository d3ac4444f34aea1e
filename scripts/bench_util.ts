/**
 * Timing helpers for `deno task bench`: run whole processes with stdin, take medians.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The plugin folder whose launcher the bench times ({@link stageReleaseTree}). */
let pluginRoot = REPO_ROOT;

/**
 * The launcher the bench times: `bin/librarian` of the tree {@link stageReleaseTree} staged, else
 * this checkout's.
 */
export function launcherPath(): string {
  return join(pluginRoot, "bin", "librarian");
}

/**
 * Stages the plugin files as a release tree holds them (`scripts/stage_release.ts`
 * `stagePluginFiles`: the hook bundles in `hooks/`, run without the checkout's freshness check,
 * no binary) into a temporary folder, removed when the bench ends, and times its launcher from
 * then on: what a release ships, run from source. Build the bundles first.
 */
export async function stageReleaseTree(): Promise<string> {
  const { stagePluginFiles } = await import("./stage_release.ts");
  const dir = await Deno.makeTempDir({ prefix: "librarian-bench-plugin-" });
  await stagePluginFiles(REPO_ROOT, dir);
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone
    }
  });
  pluginRoot = dir;
  return dir;
}

/**
 * The environment a timed hook runs with: `PATH` and `HOME` only, as a user's install has it.
 * Logging is on where it is by default (`~/.claude/librarian.log` under `home`), one line per
 * event; no `LIBRARIAN_*` is set, as a user sets none (a location setting, such as
 * `LIBRARIAN_LOG`, has each run read the project's settings to see whether they chose it).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hookEnv } from "./bench_util.ts";
 * assert.deepEqual(Object.keys(hookEnv("/tmp/home")), ["PATH", "HOME"]);
 * ```
 */
export function hookEnv(home: string): Record<string, string> {
  return { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home };
}

/** One benchmark result row. */
export interface BenchRow {
  name: string;
  /** Median wall time of the measured command, ms. */
  ms: number;
  /** Median wall time of the baseline in the same run, ms. */
  baselineMs: number;
  /** Median ratio of wall times: the figure the goal is judged on. */
  ratio: number;
  /** Ratio of the fastest runs, which machine noise disturbs least (shown for reference). */
  bestRatio?: number;
  /** Median CPU time (user + system) of the measured process, ms, when it could be measured. */
  cpuMs?: number;
  /** Median CPU time of the baseline, ms. */
  baselineCpuMs?: number;
  /** The goal, as text (e.g. "≤ 1.5×"). */
  goal: string;
  ok: boolean;
}

/** A command to time: program, arguments, stdin text and environment. */
export interface TimedCommand {
  cmd: string;
  args: string[];
  stdin: string | (() => string);
  env?: Record<string, string>;
  cwd?: string;
}

/** One timed run: wall time, and CPU time (user + system) when the platform reports it. */
export interface Timing {
  wallMs: number;
  cpuMs?: number;
}

/**
 * Bash, whose `time` keyword reports a child's wall and CPU time (from `wait4`'s resource usage)
 * to the millisecond; undefined where there is none (the bench then reports wall time only).
 */
const BASH: string | undefined = (() => {
  for (const candidate of ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
})();

/**
 * The command under bash's `time` keyword, between two readings of `$EPOCHREALTIME` (bash 5: the
 * clock to the microsecond, read without starting a process), so that the wall time is not
 * rounded to the millisecond: a 1 ms step is 0.04 of a 25 ms bare start, as much as a goal's
 * margin. Older bash prints empty readings and the bench falls back to `%3R`.
 */
const TIMED_SCRIPT = 'TIMEFORMAT="%3R %3U %3S"; s=$EPOCHREALTIME; time "$@"; status=$?; ' +
  'e=$EPOCHREALTIME; echo "wall $s $e" >&2; exit $status';

/** `%3R %3U %3S` as printed by bash's `time`, then the `wall <start> <end>` line. */
const TIME_LINES = /(\d+\.\d+) (\d+\.\d+) (\d+\.\d+)\s*\nwall (\S*) (\S*)\s*$/;

/** Microseconds since the epoch as `$EPOCHREALTIME` prints them (`.` or `,` before the µs). */
function epochMs(reading: string): number {
  return Number(reading.replace(",", ".")) * 1000;
}

/**
 * Runs a command once and returns its wall and CPU time in ms (throws on a non-zero exit).
 *
 * With bash present the command runs under bash's `time` keyword: the wall time is the child's
 * own (from fork to exit, without the bench's spawn cost) and the CPU time is the user + system
 * time the kernel charged to the child, which other processes on a loaded machine do not inflate
 * the way they inflate wall time. Without bash, wall time is taken around the spawn.
 */
export async function timeOnce(command: TimedCommand): Promise<Timing> {
  const stdin = typeof command.stdin === "function" ? command.stdin() : command.stdin;
  const start = performance.now();
  const timed = BASH !== undefined;
  const child = new Deno.Command(timed ? BASH : command.cmd, {
    args: timed ? ["-c", TIMED_SCRIPT, "bench", command.cmd, ...command.args] : command.args,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
    ...(command.env ? { env: command.env } : {}),
    ...(command.cwd ? { cwd: command.cwd } : {}),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const ms = performance.now() - start;
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) {
    throw new Error(`${command.cmd} ${command.args.join(" ")} exited ${out.code}: ${stderr}`);
  }
  const times = timed ? TIME_LINES.exec(stderr) : null;
  if (!times) return { wallMs: ms };
  const precise = epochMs(times[5]!) - epochMs(times[4]!);
  return {
    wallMs: Number.isFinite(precise) && precise > 0 ? precise : Number(times[1]) * 1000,
    cpuMs: (Number(times[2]) + Number(times[3])) * 1000,
  };
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What {@link compare} measured: medians of wall (and CPU) time for subject and baseline. */
export interface Comparison {
  ms: number;
  baselineMs: number;
  bestRatio: number;
  cpuMs?: number;
  baselineCpuMs?: number;
}

/**
 * Times `subject` against `baseline`, interleaved so that machine noise hits both alike,
 * after `warmup` untimed runs of each and then `prepare`, when given. Returns the medians.
 */
export async function compare(
  subject: TimedCommand,
  baseline: TimedCommand,
  runs: number,
  warmup = 5,
  prepare?: () => Promise<void>,
): Promise<Comparison> {
  for (let i = 0; i < warmup; i++) {
    await timeOnce(subject);
    await timeOnce(baseline);
  }
  await prepare?.();
  const a: Timing[] = [];
  const b: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    // alternate which goes first, so neither always runs on a cache the other just warmed
    if (i % 2 === 0) {
      a.push(await timeOnce(subject));
      b.push(await timeOnce(baseline));
    } else {
      b.push(await timeOnce(baseline));
      a.push(await timeOnce(subject));
    }
  }
  const wall = (t: Timing[]) => t.map((x) => x.wallMs);
  const cpu = (t: Timing[]) =>
    t.every((x) => x.cpuMs !== undefined) ? median(t.map((x) => x.cpuMs!)) : undefined;
  const cpuMs = cpu(a);
  const baselineCpuMs = cpu(b);
  return {
    ms: median(wall(a)),
    baselineMs: median(wall(b)),
    bestRatio: Math.min(...wall(a)) / Math.min(...wall(b)),
    ...(cpuMs !== undefined && baselineCpuMs !== undefined ? { cpuMs, baselineCpuMs } : {}),
  };
}

/**
 * The bare start's own Deno cache folder, made on first use and removed when the bench ends. A
 * shared cache (`~/.cache/deno`) is also used by every other Deno process on the machine, and
 * one run with other V8 flags (a hook, a test) discards the cached code of the others: the bare
 * start then pays for compiling its script now and then, and every ratio looks better than it
 * is. The hooks in the bench have theirs too (the launcher uses `$HOME/.cache/deno` of the
 * bench's own HOME).
 */
let baselineDenoDir: string | undefined;

function ownDenoDir(): string {
  if (baselineDenoDir === undefined) {
    const dir = Deno.makeTempDirSync({ prefix: "librarian-bench-deno-" });
    baselineDenoDir = dir;
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // already gone
      }
    });
  }
  return baselineDenoDir;
}

/**
 * The baseline command: a bare `deno run` that reads and parses stdin JSON, with a Deno cache
 * folder of its own ({@link ownDenoDir}).
 */
export function baselineCommand(
  stdin: string | (() => string),
  env?: Record<string, string>,
): TimedCommand {
  return {
    cmd: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--config",
      join(REPO_ROOT, "deno.json"),
      join(REPO_ROOT, "scripts", "bench_baseline.ts"),
    ],
    stdin,
    env: { ...(env ?? Deno.env.toObject()), DENO_DIR: ownDenoDir() },
  };
}

/** A result row for `name` from a {@link compare} result, judged against `maxRatio`. */
export function benchRow(name: string, result: Comparison, maxRatio: number): BenchRow {
  const ratio = result.ms / result.baselineMs;
  return {
    name,
    ms: result.ms,
    baselineMs: result.baselineMs,
    ratio,
    bestRatio: result.bestRatio,
    ...(result.cpuMs !== undefined && result.baselineCpuMs !== undefined
      ? { cpuMs: result.cpuMs, baselineCpuMs: result.baselineCpuMs }
      : {}),
    goal: `≤ ${maxRatio}×`,
    ok: ratio <= maxRatio,
  };
}

/**
 * Formats result rows as a Markdown table. The goal column judges the wall-time ratio of
 * medians (the official figure); the CPU columns support it on a loaded machine.
 */
export function formatRows(rows: BenchRow[]): string {
  const lines = [
    "| benchmark | median ms | bare deno start ms | ratio (medians) | ratio (fastest runs) | CPU ms | bare CPU ms | CPU ratio | goal | |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const r of rows) {
    const best = r.bestRatio === undefined ? "" : `${r.bestRatio.toFixed(2)}×`;
    const cpu = r.cpuMs !== undefined && r.baselineCpuMs !== undefined;
    const cells = [
      r.name,
      r.ms.toFixed(1),
      r.baselineMs.toFixed(1),
      `${r.ratio.toFixed(2)}×`,
      best,
      cpu ? r.cpuMs!.toFixed(1) : "",
      cpu ? r.baselineCpuMs!.toFixed(1) : "",
      cpu ? `${(r.cpuMs! / r.baselineCpuMs!).toFixed(2)}×` : "",
    ];
    lines.push(`| ${cells.join(" | ")} | ${r.goal} | ${r.ok ? "ok" : "MISSED"} |`);
  }
  return lines.join("\n");
}

/** One goal of the summary: which rows it judges (by name) and the most each may take. */
export interface GoalSpec {
  /** What the goal is about, as the issue names it. */
  name: string;
  /** Picks the rows the goal judges. */
  rows: (row: BenchRow) => boolean;
  /** The largest ratio (medians of wall time) that meets it. */
  maxRatio: number;
}

/**
 * The goals side by side, as a Markdown table: for each, how many rows it judges, the worst of
 * them (its ratio, CPU ratio and name) against the goal, and whether every one of them meets it.
 */
export function formatGoals(rows: BenchRow[], goals: readonly GoalSpec[]): string {
  const lines = [
    "| goal | rows | worst ratio (medians) | CPU ratio | goal | | worst row |",
    "| --- | ---: | ---: | ---: | --- | --- | --- |",
  ];
  for (const goal of goals) {
    const judged = rows.filter(goal.rows);
    if (judged.length === 0) {
      lines.push(`| ${goal.name} | 0 | | | ≤ ${goal.maxRatio}× | not measured | |`);
      continue;
    }
    const worst = judged.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const cpu = worst.cpuMs !== undefined && worst.baselineCpuMs !== undefined
      ? `${(worst.cpuMs / worst.baselineCpuMs).toFixed(2)}×`
      : "";
    const met = judged.every((r) => r.ratio <= goal.maxRatio);
    lines.push(
      `| ${goal.name} | ${judged.length} | ${
        worst.ratio.toFixed(2)
      }× | ${cpu} | ≤ ${goal.maxRatio}× | ${met ? "met" : "MISSED"} | ${worst.name} |`,
    );
  }
  return lines.join("\n");
}
