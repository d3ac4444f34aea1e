/**
 * `librarian export`: the library as the path-scoped instruction files other coding agents read
 * (AGENTS.md, Cursor rules, Copilot instructions, Claude Code rules), so one library serves
 * every agent a team uses.
 *
 * @module
 */

import { type EnvReader, LibrarianError, plural, processEnv, trustsOwnersOf } from "../core/mod.ts";
import { VERSION } from "../version.ts";
import { ConfigError, readLibraryConfig } from "./config.ts";
import { EXPORT_FORMATS, type ExportFormat, isExportFormat } from "./export_formats.ts";
import { type ExportReport, runExport } from "./export_run.ts";
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
  stringOption,
  type Style,
  UsageError,
} from "../cli/mod.ts";

/** The command line of `librarian export`. */
export const SPEC: CommandSpec = {
  name: "export",
  synopsis: "[--format <formats>] [--check | --clean | --dry-run] [--json]",
  summary: "write the library as AGENTS.md, Cursor, Copilot or Claude Code rule files",
  details: [
    `Formats (comma-separated, or 'all'): ${EXPORT_FORMATS.join(", ")}.`,
    "Without --format, the formats recorded by 'librarian init --export' are used.",
    "Every generated file starts with a marker line; export only ever changes or deletes files",
    "that carry it (and its own marked section of .github/copilot-instructions.md). A file of",
    "yours in a generated file's place is reported and left alone.",
    "--check exits 1 and lists what is out of date (for CI and pre-commit hooks).",
  ],
  options: {
    format: { type: "string", short: "f", valueName: "<formats>", description: "formats to write" },
    check: { type: "boolean", description: "write nothing; exit 1 when an export is out of date" },
    clean: { type: "boolean", description: "remove every file export wrote for these formats" },
    "dry-run": {
      type: "boolean",
      short: "n",
      description: "show what would change, write nothing",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/**
 * Parses `--format a,b` (or `all`).
 *
 * @example Usage
 * ```ts
 * import { parseFormats } from "./export.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseFormats("cursor, agents-md,cursor"), ["cursor", "agents-md"]);
 * assert.throws(() => parseFormats("vim"), /unknown format 'vim'/);
 * ```
 */
export function parseFormats(raw: string): ExportFormat[] {
  if (raw.trim() === "all") return [...EXPORT_FORMATS];
  const names = raw.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const formats: ExportFormat[] = [];
  for (const name of names) {
    if (!isExportFormat(name)) {
      throw new UsageError(
        `unknown format '${name}' (formats: ${EXPORT_FORMATS.join(", ")}, or all)`,
      );
    }
    if (!formats.includes(name)) formats.push(name);
  }
  if (formats.length === 0) throw new UsageError("--format needs at least one format");
  return formats;
}

const DONE = { create: "created", update: "updated", delete: "deleted" } as const;

function printReport(report: ExportReport, mode: "write" | "check" | "dry-run", style: Style) {
  // A write that failed is reported as failed, never as done.
  const failed = new Set(report.failures.map((f) => f.path));
  const changes = report.actions.filter((a) =>
    (a.kind === "create" || a.kind === "update" || a.kind === "delete") && !failed.has(a.path)
  );
  const unchanged = report.actions.filter((a) => a.kind === "unchanged").length;
  for (const a of changes) {
    const kind = a.kind as keyof typeof DONE;
    const label = mode === "write" ? DONE[kind] : kind;
    console.log(`  ${label.padEnd(8)} ${style.green(a.path)}  ${style.dim(`(${a.format})`)}`);
  }
  for (const a of report.actions) {
    if (a.kind !== "collision") continue;
    console.log(style.yellow(`  collision ${a.path} (${a.format}): ${a.reason}; left alone.`));
  }
  for (const s of report.skipped) {
    console.log(style.dim(`  skipped  ${s.folder || "(root)"} (${s.format}): ${s.reason}`));
  }
  for (const c of report.cut) {
    console.log(
      style.dim(
        `  cut      ${c.folder || "(root)"} (${c.format}): too large for the format; ` +
          `${c.files.join(", ")} named for reading instead`,
      ),
    );
  }
  for (const f of report.failures) console.log(style.red(`  failed   ${f.path}: ${f.error}`));
  const summary = mode === "check"
    ? changes.length === 0
      ? "Exports are up to date."
      : `${plural(changes.length, "export file")} out of date: run 'librarian export'.`
    : mode === "dry-run"
    ? `Would change ${plural(changes.length, "file")} (dry run: nothing written).`
    : `Changed ${plural(changes.length, "file")}; ${unchanged} already up to date.`;
  console.log(summary);
}

/** Runs `librarian export`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const modes = ["check", "clean", "dry-run"].filter((m) => flag(parsed, m));
    if (modes.length > 1) throw new UsageError("--check, --clean and --dry-run go alone");
    const json = flag(parsed, "json");
    const library = await requireLibrary(env);
    const raw = stringOption(parsed, "format");
    let formats: ExportFormat[];
    if (raw !== undefined) formats = parseFormats(raw);
    else {
      try {
        formats = readLibraryConfig(library.root, trustsOwnersOf(library)).export;
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        throw new LibrarianError(error.message, {
          cause: error,
          details: { library: libraryJson(library) },
        });
      }
      if (formats.length === 0) {
        throw new UsageError(
          "no format given and none recorded: pass --format, or record formats with " +
            "'librarian init --export <formats>'",
        );
      }
    }
    const check = flag(parsed, "check");
    const dryRun = check || flag(parsed, "dry-run");
    // a run by hand is the user's chance to clear what a killed export left beside its files
    const report = await runExport(library, {
      formats,
      clean: flag(parsed, "clean"),
      dryRun,
      sweepTemps: true,
    });
    const stale = report.actions.some((a) => a.kind !== "unchanged" && a.kind !== "collision");
    const collided = report.actions.some((a) => a.kind === "collision");
    const exit = report.failures.length > 0 || collided || (check && stale)
      ? EXIT_PROBLEMS
      : EXIT_OK;
    if (json) {
      printJson({
        version: VERSION,
        library: libraryJson(library),
        formats,
        check,
        dryRun,
        ...report,
      });
      return exit;
    }
    printReport(report, check ? "check" : dryRun ? "dry-run" : "write", makeStyle(env));
    return exit;
  });
}
