/**
 * Timing helpers for `deno task bench`: run whole processes with stdin, take medians.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/** One benchmark result row. */
export interface BenchRow {
  name: string;
  /** Median wall time of the measured command, ms. */
  ms: number;
  /** Median wall time of the baseline in the same run, ms. */
  baselineMs: number;
  /** Median ratio: the figure the goal is judged on. */
  ratio: number;
  /** Ratio of the fastest runs, which machine noise disturbs least (shown for reference). */
  bestRatio?: number;
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

/** Runs a command once and returns its wall time in ms (throws on a non-zero exit). */
export async function timeOnce(command: TimedCommand): Promise<number> {
  const stdin = typeof command.stdin === "function" ? command.stdin() : command.stdin;
  const start = performance.now();
  const child = new Deno.Command(command.cmd, {
    args: command.args,
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
  if (out.code !== 0) {
    throw new Error(
      `${command.cmd} ${command.args.join(" ")} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return ms;
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Times `subject` against `baseline`, interleaved so that machine noise hits both alike,
 * after `warmup` untimed runs of each. Returns the two medians.
 */
export async function compare(
  subject: TimedCommand,
  baseline: TimedCommand,
  runs: number,
  warmup = 5,
): Promise<{ ms: number; baselineMs: number; bestRatio: number }> {
  for (let i = 0; i < warmup; i++) {
    await timeOnce(subject);
    await timeOnce(baseline);
  }
  const a: number[] = [];
  const b: number[] = [];
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
  return { ms: median(a), baselineMs: median(b), bestRatio: Math.min(...a) / Math.min(...b) };
}

/** The baseline command: a bare `deno run` that reads and parses stdin JSON. */
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
    ...(env ? { env } : {}),
  };
}

/** A result row for `name` from a {@link compare} result, judged against `maxRatio`. */
export function benchRow(
  name: string,
  result: { ms: number; baselineMs: number; bestRatio: number },
  maxRatio: number,
): BenchRow {
  const ratio = result.ms / result.baselineMs;
  return {
    name,
    ms: result.ms,
    baselineMs: result.baselineMs,
    ratio,
    bestRatio: result.bestRatio,
    goal: `≤ ${maxRatio}×`,
    ok: ratio <= maxRatio,
  };
}

/** Formats result rows as a Markdown table. */
export function formatRows(rows: BenchRow[]): string {
  const lines = [
    "| benchmark | median ms | bare deno start ms | ratio (medians) | ratio (fastest runs) | goal | |",
    "| --- | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const r of rows) {
    const best = r.bestRatio === undefined ? "" : `${r.bestRatio.toFixed(2)}×`;
    const cells = [
      r.name,
      r.ms.toFixed(1),
      r.baselineMs.toFixed(1),
      `${r.ratio.toFixed(2)}×`,
      best,
    ];
    lines.push(`| ${cells.join(" | ")} | ${r.goal} | ${r.ok ? "ok" : "MISSED"} |`);
  }
  return lines.join("\n");
}
