/**
 * `deno task bench`: whole-process hook timings against a bare Deno start, in one run.
 *
 * Prints a Markdown table (docs/benchmarks.md quotes it). Goals are reported, not asserted: a missed goal
 * is shown as MISSED and the exit code stays 0, so timing noise never breaks CI.
 *
 * @module
 */

import { benchInject } from "./bench_inject.ts";
import { type BenchRow, formatRows } from "./bench_util.ts";
import { bundleDifferences } from "./bundle_hooks.ts";

const rows: BenchRow[] = [];
// The launcher runs the hooks as bundles (bundles/*.js, built by the task): anything else would
// time the TypeScript entries, not the bundles.
for (const why of await bundleDifferences()) {
  console.log(`warning: ${why}; the figures below may not time the bundles`);
}
console.log("inject: building libraries and timing (about a minute)...");
rows.push(...await benchInject());
console.log("inject, Bash events: timing...");
rows.push(...await (await import("./bench_bash.ts")).benchBash());
try {
  const stop = await import("./bench_stop.ts") as { benchStop?: () => Promise<BenchRow[]> };
  if (stop.benchStop) {
    console.log("stop: timing...");
    rows.push(...await stop.benchStop());
  }
} catch (error) {
  console.log(`stop benchmark unavailable: ${error instanceof Error ? error.message : error}`);
}
console.log("lint: building a repository with history and timing...");
rows.push(...await (await import("./bench_lint.ts")).benchLint());
console.log("export: timing...");
rows.push(...await (await import("./bench_export.ts")).benchExport());
console.log(
  `\nDeno ${Deno.version.deno}, ${Deno.build.target}, ${navigator.hardwareConcurrency} cores\n`,
);
console.log(formatRows(rows));
