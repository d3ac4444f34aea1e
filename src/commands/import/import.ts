/**
 * `librarian import <memory-bank folder>`: a deterministic conversion of a flat memory bank into
 * library root files. Durable files are appended (never overwritten) under a provenance line;
 * transient ones are reported and skipped unless `--include-transient`.
 *
 * @module
 */

import { Boundary, BoundaryError } from "../../core/boundary.ts";
import { type EnvReader, processEnv } from "../../core/env.ts";
import { basenameOf, joinPath, normalizePath, relativeInside } from "../../core/paths.ts";
import { listSources, type SourceListing, whyIgnored } from "./sources.ts";
import {
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  pathArgument,
  runCommand,
  stringOption,
  UsageError,
} from "../../cli/args.ts";
import { type CommandSpec } from "../../cli/help.ts";
import { makeStyle, printJson } from "../../cli/output.ts";
import { plural } from "../../core/words.ts";
import { parseOnly, runMoves } from "./moves.ts";
import { VERSION } from "../../version.ts";
import { LibrarianError, messageOf } from "../../core/errors.ts";
import { lockLibrary } from "../../filing/coordination.ts";
import { NOT_A_SECRET } from "../../format/markers.ts";
import { type ImportEntry, mapSource, planImport } from "./plan.ts";
import { libraryJson, locateLibrary, noLibraryMessage } from "../../cli/locate.ts";

/** The command line of `librarian import`. */
export const SPEC: CommandSpec = {
  name: "import",
  synopsis:
    "<folder> [--dry-run] [--include-transient] [--json] | --suggest | --apply [--only <n,...>]",
  summary: "import a memory bank, CLAUDE.md/AGENTS.md files or Cursor rules into the library",
  details: [
    "Maps projectbrief.md and productContext.md to product.md, systemPatterns.md to patterns.md,",
    "techContext.md to tech.md, and any other .md file to a root file of its name in kebab-case.",
    "activeContext.md and progress.md are transient: reported and skipped unless",
    "--include-transient. Nothing is overwritten: text is appended after a provenance line, and",
    "text already imported is not added again. README.md is not imported. Below <folder>, every",
    "CLAUDE.md and AGENTS.md goes to its own folder's mirror, and .cursor/rules/*.mdc rules go to",
    "the folder their globs name (else the root), alwaysApply noted.",
    "--suggest lists the bullets and paragraphs of imported root files that name an existing code",
    "folder or file, with the mirror folder each belongs to; --apply moves them (or --only some)",
    "into scratch as tagged blocks, out of the root file, for 'librarian route' to file.",
  ],
  options: {
    "dry-run": { type: "boolean", short: "n", description: "print the mapping, write nothing" },
    "include-transient": {
      type: "boolean",
      description: "also import activeContext.md and progress.md",
    },
    suggest: {
      type: "boolean",
      description: "propose a folder for root-file text that names code paths",
    },
    apply: {
      type: "boolean",
      description: "move the suggested text into scratch as tagged blocks",
    },
    only: {
      type: "string",
      valueName: "<n,...>",
      description: "with --apply: only these suggestion numbers",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<folder>"],
  requiredPositionals: 0,
};

/** The largest library file import appends to. */
const MAX_TARGET_BYTES = 4 * 1024 * 1024;

/** The current text of each target (`null` when missing), or why one cannot be appended to. */
function readExisting(
  library: Boundary,
  targets: string[],
): Map<string, string | null> | string {
  const existing = new Map<string, string | null>();
  for (const target of targets) {
    const path = joinPath(library.root, target);
    try {
      // a FIFO would block the read, a folder cannot be appended to, a link out is not ours
      existing.set(target, library.readText(path, MAX_TARGET_BYTES));
    } catch (error) {
      if (error instanceof BoundaryError) return `${error.message} Then import again.`;
      throw error;
    }
  }
  return existing;
}

const ACTION_WORDS: Record<ImportEntry["action"], string> = {
  "create": "create",
  "append": "append",
  "already-imported": "skip: already imported",
  "skip-transient": "skip: transient (--include-transient imports it)",
  "skip-empty": "skip: empty",
  "skip-not-text": "skip: not UTF-8 text",
  "skip-refused": "skip: not read",
  "skip-secret": "skip: holds a likely credential",
};

/** What the text report says about one entry. */
function actionWords(entry: ImportEntry): string {
  if (entry.action === "skip-refused" && entry.reason !== undefined) {
    return `skip: ${entry.reason}`;
  }
  if (entry.action !== "skip-secret" || entry.reason === undefined) {
    return ACTION_WORDS[entry.action];
  }
  return `skip: ${entry.reason}: remove it (rotate it if it is real) and import again, or add ` +
    `${NOT_A_SECRET} to the file if it is not a secret`;
}

/** A problem the user must fix: `main.ts` prints it (as JSON with `--json`) and exits 1. */
function problem(_json: boolean, message: string): never {
  throw new LibrarianError(message);
}

/** Runs `librarian import`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const json = flag(parsed, "json");
    const dryRun = flag(parsed, "dry-run");
    const cwd = normalizePath(Deno.cwd());
    const suggest = flag(parsed, "suggest");
    const apply = flag(parsed, "apply");
    const only = parseOnly(stringOption(parsed, "only"));
    if (suggest && apply) throw new UsageError("--suggest and --apply exclude each other");
    if (only && !apply) throw new UsageError("--only goes with --apply");
    if ((suggest || apply) && parsed.positionals.length > 0) {
      throw new UsageError("--suggest and --apply work on the library; give no folder");
    }
    if (!suggest && !apply && parsed.positionals.length === 0) {
      throw new UsageError("missing <folder>");
    }
    const located = await locateLibrary(env, cwd);
    const { library } = located;
    if (!library) return problem(json, noLibraryMessage(cwd, located));
    if (suggest || apply) return await runMoves(library, env, { apply, only, json });
    const sourceDir = pathArgument(parsed.positionals[0]!, cwd);
    let listing: SourceListing;
    try {
      listing = listSources(sourceDir, library.projectRoot);
    } catch {
      return problem(json, `${sourceDir} is not a folder that can be read`);
    }
    if (listing.files.length === 0) {
      return problem(json, `${sourceDir} has no .md files to import`);
    }
    const targets = [...new Set(listing.files.map((f) => f.target ?? mapSource(f.name).target))];
    const sourceLabel = relativeInside(sourceDir, library.projectRoot) || basenameOf(sourceDir);
    // Read, plan and write under the library lock the stop hook and `route` take, so a learning
    // filed meanwhile is never overwritten by a write planned from an older read.
    let held: AsyncDisposable | undefined;
    if (!dryRun) {
      try {
        held = await lockLibrary(library, env);
      } catch (error) {
        return problem(json, messageOf(error));
      }
    }
    await using _lock = held;
    const boundary = new Boundary(library.root, "library");
    const existing = readExisting(boundary, targets);
    if (typeof existing === "string") return problem(json, existing);
    const plan = planImport(listing.files, existing, {
      includeTransient: flag(parsed, "include-transient"),
      sourceDir: sourceLabel,
      date: new Date().toISOString().slice(0, 10),
    });
    if (!dryRun) {
      // Through the boundary: a library file the person links to is written through.
      for (const [target, text] of plan.writes) {
        boundary.writeText(joinPath(library.root, target), text);
      }
    }
    const written = [...plan.writes.keys()];
    // A file held back for a credential is a problem to fix: scripts see exit 1.
    const exit = plan.entries.some((e) => e.action === "skip-secret") ? EXIT_PROBLEMS : EXIT_OK;
    if (json) {
      printJson({
        version: VERSION,
        source: sourceDir,
        library: libraryJson(library),
        dryRun,
        entries: plan.entries,
        ignored: listing.ignored,
        written: dryRun ? [] : written,
      });
      return exit;
    }
    const style = makeStyle(env);
    console.log(`${dryRun ? "Would import" : "Importing"} ${sourceDir} into ${library.root}:`);
    const width = Math.max(...plan.entries.map((e) => e.source.length));
    const targetWidth = Math.max(...plan.entries.map((e) => e.target.length));
    for (const e of plan.entries) {
      const word = actionWords(e);
      const coloured = e.action.startsWith("skip") || e.action === "already-imported"
        ? style.dim(word)
        : style.green(word);
      console.log(`  ${e.source.padEnd(width)}  → ${e.target.padEnd(targetWidth)}  ${coloured}`);
    }
    for (const name of listing.ignored) {
      console.log(`  ${style.dim(`${name}: not read (${whyIgnored(name)})`)}`);
    }
    const imported = plan.entries.filter((e) => e.action === "create" || e.action === "append");
    console.log(
      dryRun
        ? `\nDry run: ${plural(imported.length, "file")} would go into ${
          plural(written.length, "library file")
        }; nothing written.`
        : `\nImported ${plural(imported.length, "file")} into ${
          plural(written.length, "library file")
        }.`,
    );
    return exit;
  });
}
