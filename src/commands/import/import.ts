/**
 * `librarian import <memory-bank folder>`: a deterministic conversion of a flat memory bank into
 * library root files. Durable files are appended (never overwritten) under a provenance line;
 * transient ones are reported and skipped unless `--include-transient`.
 *
 * @module
 */

import { writeTextAtomic } from "../../core/atomic.ts";
import { type EnvReader, processEnv } from "../../core/env.ts";
import {
  basenameOf,
  dirnameOf,
  joinPath,
  normalizePath,
  relativeInside,
} from "../../core/paths.ts";
import { isRegularFile } from "../../core/read_text.ts";
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

/** The current text of each target (`null` when missing), or why one cannot be appended to. */
async function readExisting(
  libraryRoot: string,
  targets: string[],
): Promise<Map<string, string | null> | string> {
  const existing = new Map<string, string | null>();
  for (const target of targets) {
    const path = joinPath(libraryRoot, target);
    try {
      // a FIFO would block the read, and a folder cannot be appended to
      if (!isRegularFile(path) && (await Deno.lstat(path))) {
        return `${path} is not a regular file; move it away, then import again`;
      }
      existing.set(target, await Deno.readTextFile(path));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      existing.set(target, null);
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
  "skip-secret": "skip: holds a likely credential",
};

/** What the text report says about one entry. */
function actionWords(entry: ImportEntry): string {
  if (entry.reason === undefined) return ACTION_WORDS[entry.action];
  const fix = `remove it (rotate it if it is real) and import again, or add ${NOT_A_SECRET} ` +
    "to the file if it is not a secret";
  if (entry.action === "skip-secret") return `skip: ${entry.reason}: ${fix}`;
  return `${ACTION_WORDS[entry.action]}, without ${entry.reason}: ${fix}`;
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
    const existing = await readExisting(library.root, targets);
    if (typeof existing === "string") return problem(json, existing);
    const plan = planImport(listing.files, existing, {
      includeTransient: flag(parsed, "include-transient"),
      sourceDir: sourceLabel,
      date: new Date().toISOString().slice(0, 10),
    });
    if (!dryRun) {
      for (const [target, text] of plan.writes) {
        const path = joinPath(library.root, target);
        await Deno.mkdir(dirnameOf(path), { recursive: true });
        await writeTextAtomic(path, text);
      }
    }
    const written = [...plan.writes.keys()];
    // Lines held back for a credential are a problem to fix: scripts see exit 1.
    const exit = plan.entries.some((e) => e.reason !== undefined) ? EXIT_PROBLEMS : EXIT_OK;
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
