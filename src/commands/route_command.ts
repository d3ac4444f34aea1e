/**
 * `librarian route`: run the stop hook's routing now ({@link routeScratch}, the same code and
 * the same lock) and report what moved where; `--dry-run` shows the plan without writing.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import { type EnvReader, plural, processEnv } from "../core/mod.ts";
import { coordinationPaths, type RouteReport, routeScratch } from "../filing/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  libraryJson,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
  type Style,
} from "../cli/mod.ts";
import { reexportFiled } from "../export/mod.ts";

/** The command line of `librarian route`. */
export const SPEC: CommandSpec = {
  name: "route",
  synopsis: "[--dry-run] [--accept] [--json]",
  summary: "file the scratch file's tagged learnings into the library now",
  details: [
    "Runs the stop hook's routing now, under the same lock: each tagged block of the scratch",
    "file is appended to <folder>/<type>.md, and blocks that cannot be filed stay in scratch",
    "with the reason. Exits 1 when a block stays in scratch or a file could not be written.",
    "Auto memories synced with LIBRARIAN_AUTOMEMORY=review wait in scratch, marked for review:",
    "edit or delete them there, then --accept files them (blocks awaiting review do not count",
    "as problems for the exit status).",
  ],
  options: {
    "dry-run": { type: "boolean", short: "n", description: "show the plan, write nothing" },
    accept: {
      type: "boolean",
      description: "file auto-memory blocks awaiting review too (after reading them)",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

function printReport(report: RouteReport, style: Style): void {
  const dry = report.status === "dry-run";
  if (report.status === "empty" || (dry && report.routed.length + report.kept.length === 0)) {
    console.log(`Scratch is empty: nothing to file (${report.scratchPath}).`);
    return;
  }
  const files = plural(report.targets.length, "file");
  const learnings = plural(report.learnings, "learning");
  const blocks = plural(report.routed.length, "block");
  if (report.routed.length === 0) console.log(`Nothing ${dry ? "would be" : "was"} filed.`);
  else {
    console.log(
      dry
        ? `Would file ${learnings} from ${blocks} into ${files} (dry run: nothing written):`
        : `Filed ${learnings} from ${blocks} into ${files}:`,
    );
  }
  for (const r of report.routed) {
    const dup = r.duplicates ? `, ${plural(r.duplicates, "duplicate")} skipped` : "";
    console.log(
      `  line ${String(r.line).padEnd(4)} ${r.tag}  → ${style.green(r.target)} (+${r.added}${dup})`,
    );
  }
  for (const t of report.targets) {
    console.log(`  ${style.dim(`${t.target}: +${t.added}${t.created ? " (new file)" : ""}`)}`);
  }
  if (report.kept.length > 0) {
    console.log(`\n${style.yellow(`Kept in scratch (${report.kept.length}):`)}`);
    for (const k of report.kept) {
      console.log(`  line ${String(k.line).padEnd(4)} ${k.tag}  ${k.reason}`);
    }
  }
  if (report.secretsHeld > 0) {
    console.log(
      `${
        plural(report.secretsHeld, "block")
      } held for a likely secret: remove it, then route again.`,
    );
  }
  if (report.emptyDropped > 0) {
    console.log(style.dim(`${plural(report.emptyDropped, "empty block")} dropped.`));
  }
  for (const f of report.failures) {
    console.log(style.red(`could not write ${f.target}: ${f.error}`));
  }
}

/** Runs `librarian route`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const library = await requireLibrary(env);
    const report = await routeScratch(library, {
      dryRun: flag(parsed, "dry-run"),
      env,
      acceptReview: flag(parsed, "accept"),
    });
    const exported = report.status === "routed"
      ? await reexportFiled(
        library,
        report.targets.map((t) => t.target),
        coordinationPaths(library, env)?.exportPending,
      )
      : null;
    const failed = report.status === "locked" || report.status === "unreadable" ||
      report.status === "failed";
    const problems = report.kept.filter((k) => k.code !== "review");
    const exit = failed || problems.length > 0 || report.failures.length > 0
      ? EXIT_PROBLEMS
      : EXIT_OK;
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, library: libraryJson(library), ...report });
      return exit;
    }
    if (failed) {
      console.error(`librarian route: ${report.error ?? report.status}; nothing was changed`);
      return exit;
    }
    printReport(report, makeStyle(env));
    for (const notice of report.notices) console.error(`librarian route: ${notice}`);
    if (report.error) console.error(`librarian route: ${report.error}`);
    if (exported?.changed) console.log(`Exports updated: ${plural(exported.changed, "file")}.`);
    if (exported?.error) console.error(`librarian route: ${exported.error}`);
    return exported?.error ? EXIT_PROBLEMS : exit;
  });
}
