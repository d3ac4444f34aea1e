/**
 * `deno task bench`: whole-process hook timings against a bare Deno start, in one run.
 *
 * Prints a Markdown table of every row, then the four goals of issue 35 side by side (the worst row
 * each judges), both measured in this one run (docs/benchmarks.md quotes them). Goals are reported,
 * not asserted: a missed goal is shown as MISSED and the exit code stays 0, so timing noise never
 * breaks CI. `deno task bench --goals` times only the rows the goals judge (inject and stop).
 *
 * @module
 */

import { benchInject, INJECT_GOALS } from "./bench_inject.ts";
import {
  type BenchRow,
  formatGoals,
  formatRows,
  type GoalSpec,
  stageReleaseTree,
} from "./bench_util.ts";
import { bundleDifferences } from "./bundle_hooks.ts";
import { benchStop, STOP_GOALS } from "./bench_stop.ts";

/** Issue 35's goals, on the bundles a release ships (the rows each judges, by name). */
const GOALS: GoalSpec[] = [
  {
    name: "Stop, routing 2,000 scratch entries",
    rows: (r) => r.name.startsWith("stop, route "),
    maxRatio: STOP_GOALS.routing,
  },
  {
    name: "Stop, idle turn",
    rows: (r) => r.name.startsWith("stop, idle turn"),
    maxRatio: STOP_GOALS.idle,
  },
  {
    name: "inject, first touch",
    rows: (r) => r.name.startsWith("inject, first touch"),
    maxRatio: INJECT_GOALS.firstTouch,
  },
  {
    name: "inject, repeat touch",
    rows: (r) => r.name.startsWith("inject, repeat touch"),
    maxRatio: INJECT_GOALS.repeatTouch,
  },
];

const rows: BenchRow[] = [];
// The launcher runs the hooks as bundles (bundles/*.js, built by the task): anything else would
// time the TypeScript entries, not the bundles.
for (const why of await bundleDifferences()) {
  console.log(`warning: ${why}; the figures below may not time the bundles`);
}
// what a release ships: the plugin tree with the bundles in hooks/, run from source
await stageReleaseTree();
console.log("inject: building libraries and timing (about a minute)...");
rows.push(...await benchInject());
// `--goals`: only the rows the goals judge (inject, stop), for a quicker run
const goalsOnly = Deno.args.includes("--goals");
if (!goalsOnly) {
  console.log("inject, Bash events: timing...");
  rows.push(...await (await import("./bench_bash.ts")).benchBash());
}
console.log("stop: timing...");
rows.push(...await benchStop());
if (!goalsOnly) {
  console.log("lint: building a repository with history and timing...");
  rows.push(...await (await import("./bench_lint.ts")).benchLint());
  console.log("export: timing...");
  rows.push(...await (await import("./bench_export.ts")).benchExport());
}
console.log(
  `\nDeno ${Deno.version.deno}, ${Deno.build.target}, ${navigator.hardwareConcurrency} cores\n`,
);
console.log(formatRows(rows));
console.log("\nThe goals (issue 35), each judged on every row it names:\n");
console.log(formatGoals(rows, GOALS));
