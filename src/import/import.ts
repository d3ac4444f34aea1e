/**
 * `librarian import [<folder> | <file>]`: moves a project's agent memory into the library without
 * doubling. With no folder it finds every kind (nested `CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
 * Cursor, Cline, Copilot and Windsurf rules, `memory-bank/`), prints the plan and applies it with
 * `--yes` (an interactive run asks once). Text is appended (never overwritten) under a provenance
 * line; `CLAUDE.md` files are handed over (a stub names the library), other agents' files kept.
 *
 * @module
 */

import {
  basenameOf,
  Boundary,
  type EnvReader,
  isDirectory,
  isServedName,
  joinPath,
  LibrarianError,
  messageOf,
  normalizePath,
  processEnv,
  readBudget,
  relativeInside,
  trustsOwnersOf,
} from "../core/mod.ts";
import { listSources, whyIgnored } from "./sources.ts";
import {
  type CommandSpec,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  libraryJson,
  locateLibrary,
  noLibraryMessage,
  pathArgument,
  printJson,
  runCommand,
  stringOption,
  UsageError,
} from "../cli/mod.ts";
import { parseOnly, runMoves } from "./moves.ts";
import { VERSION } from "../version.ts";
import { lockLibrary } from "../filing/mod.ts";
import { mapSource, planImport, type SourceFile } from "./import_plan.ts";
import {
  findProjectSources,
  onDemandIndex,
  type Original,
  type ProjectSources,
} from "./project_sources.ts";
import { stubText } from "./source_formats.ts";
import { reportLines, whyKept } from "./import_report.ts";
import { stripMetadata } from "../format/mod.ts";
import {
  ConfigError,
  EXPORT_FORMATS,
  type ExportFormat,
  parseFormats,
  readLibraryConfig,
} from "../export/mod.ts";
import { type Becoming, planBecoming } from "./become_export.ts";
import { becomeExports, type ExportStep } from "./export_step.ts";

/** The command line of `librarian import`. */
export const SPEC: CommandSpec = {
  name: "import",
  synopsis: "[<folder> | <file>] [--yes] [--dry-run] [--export <formats>] [--hand-over] " +
    "[--keep-originals] " +
    "[--include-transient] [--verbose] [--json] | --suggest | --apply [--only <n,...>]",
  summary: "move a project's agent memory (CLAUDE.md, AGENTS.md, Cursor, Cline, Copilot, " +
    "Windsurf rules, memory banks) into the library without doubling",
  details: [
    "With no folder: every CLAUDE.md (any level, and the files it @-imports inside the project),",
    "AGENTS.md, GEMINI.md, .cursor/rules/** and .cursorrules, .clinerules (file or folder),",
    "memory-bank/, .github/copilot-instructions.md and .github/instructions/**, .windsurf/rules/**.",
    "Each goes to the library folder it applies to: a file's own folder; a rule's globs under one",
    "folder, that folder; a rule for every file, its base folder. A manual or agent-requested rule",
    "(no globs, not always applied) is kept on demand in <folder>/.on-demand/ and named with its",
    "description in that folder's on-demand-rules.md: never sent on every touch.",
    "CLAUDE.md (any level), AGENTS.md and .claude/rules/*.md are read where they lie, not imported:",
    "Claude Code loads them by path, and the Librarian sends them where it does not (shell commands,",
    "a nested AGENTS.md); a teammate without the plugin keeps them. The plan names each, with why.",
    "The plan is printed; --yes applies it (an interactive run asks once). --hand-over is the",
    "explicit choice to import them: a CLAUDE.md then becomes a short stub naming the library",
    "(Claude Code would load it again); --keep-originals imports them and keeps every original, and",
    "the double loading is reported. Other agents' files are kept, or, with --export",
    "<formats> (or formats recorded by 'librarian init --export'), become that export: AGENTS.md",
    "(agents-md), .cursor/rules/** and .cursorrules (cursor), Copilot's files (copilot) are then",
    "replaced by the marked file export regenerates from the library, so they never drift apart.",
    "One is replaced only when nothing of it can be lost: no line held back, not a manual rule (the",
    "export has no on-demand form) and a dry-run export writes its folder whole (not cut to the",
    "format's limit); else it is kept, with the reason. The formats are recorded (as 'init --export'",
    "does) and an output that cannot be written gets its original back. CLAUDE.local.md is",
    "personal and left. A line holding a likely secret is held back (line and reason shown); put",
    "<!-- librarian: not-a-secret --> on the line above a false alarm. Memory-bank files:",
    "projectbrief.md and productContext.md to product.md, systemPatterns.md to patterns.md,",
    "techContext.md to tech.md; activeContext.md and progress.md are transient (skipped unless",
    "--include-transient). Nothing is overwritten; text already imported is not added again.",
    "--suggest lists the sections, bullets and paragraphs of imported root files that name a code",
    "folder (paths, package or folder names), with the folder each belongs to; --apply moves them",
    "(or --only some) into that folder's library file in one step, out of the root file.",
  ],
  options: {
    yes: { type: "boolean", short: "y", description: "apply the plan without asking" },
    "dry-run": { type: "boolean", short: "n", description: "print the plan, write nothing" },
    "hand-over": {
      type: "boolean",
      description:
        "import CLAUDE.md (leaving a stub) and AGENTS.md too, instead of reading them in place",
    },
    "keep-originals": {
      type: "boolean",
      description: "keep every original as it is (Claude Code then loads CLAUDE.md text twice)",
    },
    export: {
      type: "string",
      valueName: "<formats>",
      description: `record and write these exports (${
        EXPORT_FORMATS.join(", ")
      }); other agents' files become theirs`,
    },
    "include-transient": {
      type: "boolean",
      description: "also import activeContext.md and progress.md",
    },
    verbose: { type: "boolean", short: "v", description: "every mapping and every entry not read" },
    suggest: {
      type: "boolean",
      description: "propose a folder for root-file text that names code folders",
    },
    apply: {
      type: "boolean",
      description: "move the suggested text into its folder's library file",
    },
    only: {
      type: "string",
      valueName: "<n,...>",
      description: "with --apply: only these suggestion numbers",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<folder> | <file>"],
  requiredPositionals: 0,
};

/** The current text of each target (`null` when missing), read through the library's boundary. */
function readExisting(boundary: Boundary, libraryRoot: string, targets: string[]) {
  const existing = new Map<string, string | null>();
  for (const target of targets) {
    try {
      existing.set(target, boundary.readText(joinPath(libraryRoot, target), 4 * 1_048_576));
    } catch (error) {
      throw new LibrarianError(`${messageOf(error)}; move it away, then import again`);
    }
  }
  return existing;
}

/** The characters of the library root's files (what a first touch anywhere carries). */
function rootChars(boundary: Boundary, libraryRoot: string, planned: Map<string, string>): number {
  let total = 0;
  const names = new Set(planned.keys());
  try {
    for (const entry of Deno.readDirSync(libraryRoot)) if (entry.isFile) names.add(entry.name);
  } catch {
    // no library folder yet: only the planned files count
  }
  for (const name of names) {
    if (name.includes("/") || !isServedName(name)) continue;
    try {
      const text = planned.get(name) ?? boundary.readText(joinPath(libraryRoot, name), 4 << 20);
      total += stripMetadata(text ?? "").trim().length;
    } catch {
      // an unreadable file is reported by lint and doctor
    }
  }
  return total;
}

function confirm(question: string): boolean {
  const answer = prompt(`${question} [y/N]`);
  return answer !== null && /^y(es)?$/i.test(answer.trim());
}

/** What a folder outside the project (a memory bank elsewhere) holds, in the shape found here. */
function bankSources(folder: string, projectRoot: string): ProjectSources {
  const listing = listSources(folder, projectRoot);
  return {
    files: listing.files,
    originals: [],
    left: listing.ignored.map((name) => ({ name, why: whyIgnored(name) })),
    inPlace: [],
    onDemand: [],
  };
}

/** Runs `librarian import`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const json = flag(parsed, "json");
    const dryRun = flag(parsed, "dry-run");
    const yes = flag(parsed, "yes");
    const keepOriginals = flag(parsed, "keep-originals");
    const handOver = flag(parsed, "hand-over");
    if (handOver && keepOriginals) {
      throw new UsageError("--hand-over and --keep-originals exclude each other");
    }
    const includeTransient = flag(parsed, "include-transient");
    const cwd = normalizePath(Deno.cwd());
    const suggest = flag(parsed, "suggest");
    const apply = flag(parsed, "apply");
    const only = parseOnly(stringOption(parsed, "only"));
    if (suggest && apply) throw new UsageError("--suggest and --apply exclude each other");
    if (only && !apply) throw new UsageError("--only goes with --apply");
    if ((suggest || apply) && parsed.positionals.length > 0) {
      throw new UsageError("--suggest and --apply work on the library; give no folder");
    }
    const exportOption = stringOption(parsed, "export");
    if ((suggest || apply) && exportOption !== undefined) {
      throw new UsageError("--export goes with an import, not with --suggest or --apply");
    }
    const chosen = exportOption === undefined ? [] : parseFormats(exportOption);
    const located = await locateLibrary(env, cwd);
    const { library } = located;
    if (!library) throw new LibrarianError(noLibraryMessage(cwd, located));
    if (suggest || apply) return await runMoves(library, env, { apply, only, json });
    let recordedFormats: ExportFormat[];
    try {
      recordedFormats = readLibraryConfig(library.root, trustsOwnersOf(library)).export;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      throw new LibrarianError(error.message, { cause: error });
    }
    // The formats chosen now and those recorded before: their agents' files become the export.
    const formats = EXPORT_FORMATS.filter((f) => chosen.includes(f) || recordedFormats.includes(f));
    const source = parsed.positionals.length > 0
      ? pathArgument(parsed.positionals[0]!, cwd)
      : library.projectRoot;
    const inProject = relativeInside(source, library.projectRoot) !== null &&
      relativeInside(source, library.root) === null;
    let found: ProjectSources;
    try {
      Deno.statSync(source);
      if (!inProject && !isDirectory(source)) throw new Error("not a folder");
      found = inProject
        ? findProjectSources(source, library.projectRoot, library.root, {
          handOver: handOver || keepOriginals,
          agentsExport: formats.includes("agents-md"),
          rulesExport: formats.filter((f) => f === "cursor" || f === "copilot"),
          budget: readBudget(env).budget,
        })
        : bankSources(source, library.projectRoot);
      // A folder of notes inside the project that is not a known kind: a memory bank.
      if (
        inProject && found.files.length === 0 && source !== library.projectRoot &&
        isDirectory(source)
      ) {
        const bank = bankSources(source, library.projectRoot);
        if (bank.files.length > 0) found = bank;
      }
    } catch {
      throw new LibrarianError(`${source} is not a folder or file that can be read`);
    }
    if (found.files.length === 0 && found.originals.length === 0 && found.inPlace.length === 0) {
      const why = found.left.length
        ? `: ${found.left.map((l) => `${l.name} (${l.why})`).join("; ")}`
        : "";
      throw new LibrarianError(`${source} holds no agent memory to import${why}`);
    }
    const libraryLabel = relativeInside(library.root, library.projectRoot) || library.root;
    // On-demand rules are named, with their description, in their folder's context.
    const byLevel = new Map<string, typeof found.onDemand>();
    for (const rule of found.onDemand) {
      byLevel.set(rule.level, [...(byLevel.get(rule.level) ?? []), rule]);
    }
    const files: SourceFile[] = [...found.files];
    const sourceTexts = new Map(found.originals.map((o) => [o.rel, o.text]));
    for (const [level, rules] of byLevel) {
      files.push({
        name: `${rules.map((r) => r.source).join(", ")} (on-demand index)`,
        content: { kind: "text", text: onDemandIndex(libraryLabel, rules) },
        target: level === "" ? "on-demand-rules.md" : `${level}/on-demand-rules.md`,
      });
    }
    const targets = [...new Set(files.map((f) => f.target ?? mapSource(f.name).target))];
    const sourceLabel = relativeInside(source, library.projectRoot) ?? basenameOf(source);
    const libraryBoundary = new Boundary(library.root, "library");
    // Read, plan and write under the library lock the stop hook and `route` take, so a learning
    // filed meanwhile is never overwritten by a write planned from an older read.
    const plan = (existing: Map<string, string | null>) =>
      planImport(files, existing, {
        includeTransient,
        // project files are named from the project root; a bank elsewhere by its folder
        sourceDir: inProject ? "" : sourceLabel,
        date: new Date().toISOString().slice(0, 10),
      });
    let planned = plan(readExisting(libraryBoundary, library.root, targets));
    // Other agents' files that become their export; --keep-originals keeps every one.
    const candidates = keepOriginals ? [] : found.originals;
    let becoming: Becoming[] = planBecoming(
      candidates,
      planned.entries,
      found.onDemand,
      formats,
      null,
    );
    let exported: ExportStep | null = null;
    const interactive = !yes && !dryRun && !json && Deno.stdin.isTerminal();
    const budget = readBudget(env).budget;
    const report = (state: "plan" | "applied" | "dry-run") => ({
      source: sourceLabel === "" ? library.projectRoot : sourceLabel,
      libraryLabel,
      entries: planned.entries,
      originals: found.originals,
      left: found.left,
      inPlace: found.inPlace,
      onDemand: found.onDemand,
      rootChars: rootChars(libraryBoundary, library.root, planned.writes),
      budget,
      state,
      keepOriginals,
      becoming,
      exportFailures: exported?.report.failures ?? [],
      exportCollisions: exported?.blocked ?? [],
      sampleFolder: [...planned.writes.keys()].find((t) =>
        t.includes("/") && !t.includes("/.") &&
        !t.startsWith(".")
      )?.replace(/\/[^/]*$/, "") ?? null,
    });
    let state: "plan" | "applied" | "dry-run" = dryRun ? "dry-run" : yes ? "applied" : "plan";
    if (interactive) {
      for (const line of reportLines(report("plan"), flag(parsed, "verbose")).slice(0, -1)) {
        console.log(line);
      }
      state = confirm("Apply this plan?") ? "applied" : "plan";
      if (state === "plan") {
        console.log("Nothing written.");
        return EXIT_OK;
      }
    }
    const handedOver: string[] = [];
    const stubs: Original[] = [];
    if (state === "applied") {
      await using _lock = await lockLibrary(library, env).catch((error) => {
        throw new LibrarianError(messageOf(error));
      });
      planned = plan(readExisting(libraryBoundary, library.root, targets));
      for (const [target, text] of planned.writes) {
        libraryBoundary.writeText(joinPath(library.root, target), text);
      }
      if (!keepOriginals) {
        const project = new Boundary(library.projectRoot, "repository");
        const written = [
          ...planned.writes.keys(),
          ...planned.entries
            .filter((e) => e.action === "already-imported").map((e) => e.target),
        ];
        for (const original of found.originals) {
          if (original.action !== "hand-over" || whyKept(original, planned.entries) !== null) {
            continue;
          }
          const atLevel = written.filter((t) =>
            (t.includes("/") ? t.slice(0, t.lastIndexOf("/")) : "") === original.level
          ).map(basenameOf);
          const folder = `${libraryLabel}/${original.level === "" ? "" : `${original.level}/`}`;
          const kept = original.keptImports.length ? `${original.keptImports.join("\n")}\n` : "";
          // A line held back as a likely secret stays where it was, never lost.
          const source = sourceTexts.get(original.rel) ?? "";
          const heldLines = planned.entries.filter((e) => e.source === original.rel)
            .flatMap((e) => e.held ?? []).map((h) => source.split("\n")[h.line - 1] ?? "");
          const heldText = heldLines.length
            ? `\nHeld back from the library as likely secrets (move them somewhere safe):\n${
              heldLines.join("\n")
            }\n`
            : "";
          project.writeText(
            joinPath(library.projectRoot, original.rel),
            stubText(folder, [...new Set(atLevel)]) + kept + heldText,
          );
          handedOver.push(original.rel);
          stubs.push(original);
        }
      }
      if (formats.length > 0) {
        exported = await becomeExports(library, {
          originals: candidates,
          entries: planned.entries,
          onDemand: found.onDemand,
          formats,
          trusts: trustsOwnersOf(library),
        });
        becoming = exported.becoming;
      }
    }
    const held = planned.entries.some((e) => e.held?.length);
    const exit = held || (exported?.report.failures.length ?? 0) > 0 ||
        (exported?.blocked.length ?? 0) > 0
      ? EXIT_PROBLEMS
      : EXIT_OK;
    if (json) {
      printJson({
        version: VERSION,
        source,
        library: libraryJson(library),
        dryRun: state !== "applied",
        applied: state === "applied",
        entries: planned.entries,
        originals: found.originals.map(({ text: _text, ...o }) => o),
        onDemand: found.onDemand,
        ignored: found.left.map((l) => l.name),
        left: found.left,
        inPlace: found.inPlace,
        handedOver,
        exportFormats: formats,
        exports: becoming,
        becameExport: state === "applied"
          ? becoming.filter((b) => b.becomes).map((b) => b.rel)
          : [],
        exportReport: exported
          ? {
            recorded: exported.recorded,
            actions: exported.report.actions.map(({ kind, format, path }) => ({
              kind,
              format,
              path,
            })),
            failures: exported.report.failures,
          }
          : null,
        written: state === "applied" ? [...planned.writes.keys()] : [],
      });
      return exit;
    }
    const lines = reportLines(report(state), flag(parsed, "verbose"));
    if (!interactive) { for (const line of lines) console.log(line); }
    else for (const line of [lines[0]!, ...lines.slice(-2)]) console.log(line); // plan shown above
    return exit;
  });
}
