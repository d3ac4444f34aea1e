/**
 * `librarian init [<folder>]`: set a project up for the Librarian, idempotently.
 *
 * Creates `_memory_library/` with `.scratch.md` (and a `.gitkeep` so a new, empty library is
 * committed), keeps the scratch file out of git, and marks library files `merge=union` so that two
 * branches that both append learnings merge without conflicts. A second run changes nothing.
 *
 * @module
 */

import {
  Boundary,
  type EnvReader,
  findLibraryAbove,
  isDirectory,
  isFile,
  joinPath,
  LibrarianError,
  LIBRARY_DIR_NAME,
  normalizePath,
  processEnv,
  readTextIfExists,
  SCRATCH_FILE_NAME,
} from "../core/mod.ts";
import { gitRootAbove } from "../git/mod.ts";
import { VERSION } from "../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  makeStyle,
  pathArgument,
  printJson,
  runCommand,
  stringOption,
} from "../cli/mod.ts";
import { parseFormats, recordExportFormats } from "../export/mod.ts";

/** The `.gitignore` line that keeps pending learnings out of git. */
export const GITIGNORE_LINE = `${LIBRARY_DIR_NAME}/${SCRATCH_FILE_NAME}`;
/**
 * The `.gitignore` line for the temp files of an interrupted atomic write
 * (`<file>.tmp-<pid>-<n>-<random>`): the next hook run removes them, but they must never be
 * committed in between.
 */
export const GITIGNORE_TEMP_LINE = `${LIBRARY_DIR_NAME}/**/*.tmp-*`;
/** The `.gitattributes` line that lets appended learnings from two branches merge. */
export const GITATTRIBUTES_LINE = `${LIBRARY_DIR_NAME}/**/*.md merge=union`;

/** The command line of `librarian init`. */
export const SPEC: CommandSpec = {
  name: "init",
  synopsis: "[<folder>] [--export <formats>] [--dry-run] [--json]",
  summary: "create _memory_library/ and the git settings it needs (safe to rerun)",
  details: [
    "Sets up the project in <folder> (default: the project of the library above the current",
    `folder, else the git repository's root, else the current folder): ${LIBRARY_DIR_NAME}/ with ${SCRATCH_FILE_NAME}, the lines`,
    `'${GITIGNORE_LINE}' and '${GITIGNORE_TEMP_LINE}' in .gitignore, and`,
    `'${GITATTRIBUTES_LINE}' in .gitattributes so branches that both add learnings`,
    "merge cleanly. Changes nothing that is already in place. Pass a folder explicitly to create",
    "a nested library in a sub-project.",
  ],
  options: {
    export: {
      type: "string",
      valueName: "<formats>",
      description: "record export formats the Stop hook keeps current (see 'librarian export')",
    },
    "dry-run": { type: "boolean", description: "show what would be created, write nothing" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<folder>"],
  requiredPositionals: 0,
};

/** What init did to one path. */
export interface InitAction {
  /** Path relative to the project folder. */
  path: string;
  action: "created" | "updated" | "unchanged";
}

/**
 * Lines already in a git pattern file that make `line` redundant (pure).
 *
 * @example Usage
 * ```ts
 * import { hasPatternLine } from "./init.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(hasPatternLine("node_modules\n*.tmp-*\n", ["*.tmp-*"]));
 * assert.ok(hasPatternLine("a\r\n  *.tmp-*  \r\n", ["*.tmp-*"]));
 * assert.ok(!hasPatternLine("node_modules\n", ["*.tmp-*"]));
 * ```
 */
export function hasPatternLine(text: string, accepted: readonly string[]): boolean {
  const wanted = new Set(accepted.map((l) => l.replace(/\s+/g, " ").trim()));
  return text.split(/\r?\n/).some((l) => wanted.has(l.replace(/\s+/g, " ").trim()));
}

/**
 * `text` with `lines` appended, on a line of their own (pure).
 *
 * @example Usage
 * ```ts
 * import { appendLines } from "./init.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(appendLines("", ["a"]), "a\n");
 * assert.equal(appendLines("x", ["a", "b"]), "x\n\na\nb\n");
 * assert.equal(appendLines("x\n", ["a"]), "x\n\na\n");
 * ```
 */
export function appendLines(text: string, lines: readonly string[]): string {
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  const gap = text.trim() === "" ? "" : "\n";
  return `${text}${sep}${gap}${lines.join("\n")}\n`;
}

function ensureLine(
  boundary: Boundary,
  path: string,
  relPath: string,
  accepted: readonly string[],
  block: readonly string[],
  dryRun: boolean,
): InitAction {
  const text = readTextIfExists(path);
  if (text !== null && hasPatternLine(text, accepted)) {
    return { path: relPath, action: "unchanged" };
  }
  if (!dryRun) boundary.writeText(path, appendLines(text ?? "", block));
  return { path: relPath, action: text === null ? "created" : "updated" };
}

function ensureFile(
  boundary: Boundary,
  path: string,
  relPath: string,
  dryRun: boolean,
): InitAction {
  if (dryRun) {
    return { path: relPath, action: isFile(path) ? "unchanged" : "created" };
  }
  return { path: relPath, action: boundary.createFile(path) ? "created" : "unchanged" };
}

/**
 * Sets up the project in `projectRoot`; returns what changed (with `dryRun`, what would change,
 * and nothing is written).
 *
 * @example Usage
 * ```ts
 * import { initProject } from "./init.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * const planned = initProject(project, true);
 * assert.ok(planned.some((a) => a.path.startsWith("_memory_library") && a.action === "created"));
 * assert.throws(() => Deno.statSync(`${project}/_memory_library`));
 * initProject(project);
 * assert.ok(Deno.statSync(`${project}/_memory_library`).isDirectory);
 * assert.ok(initProject(project).every((a) => a.action === "unchanged"));
 * ```
 */
export function initProject(projectRoot: string, dryRun = false): InitAction[] {
  const libraryRoot = joinPath(projectRoot, LIBRARY_DIR_NAME);
  const actions: InitAction[] = [];
  // Every write stays inside the repository: a cloned repository's link cannot lead init out.
  const boundary = new Boundary(projectRoot, "repository");
  const createdLibrary = dryRun ? !isDirectory(libraryRoot) : boundary.ensureFolder(libraryRoot);
  actions.push({ path: `${LIBRARY_DIR_NAME}/`, action: createdLibrary ? "created" : "unchanged" });
  actions.push(
    ensureFile(boundary, joinPath(libraryRoot, SCRATCH_FILE_NAME), GITIGNORE_LINE, dryRun),
  );
  if (createdLibrary) {
    actions.push(
      ensureFile(
        boundary,
        joinPath(libraryRoot, ".gitkeep"),
        `${LIBRARY_DIR_NAME}/.gitkeep`,
        dryRun,
      ),
    );
  }
  actions.push(
    ensureLine(
      boundary,
      joinPath(projectRoot, ".gitignore"),
      ".gitignore",
      [GITIGNORE_LINE, `/${GITIGNORE_LINE}`, SCRATCH_FILE_NAME, `**/${SCRATCH_FILE_NAME}`],
      [
        "# Librarian: pending learnings, filed into the library at the end of each turn",
        GITIGNORE_LINE,
      ],
      dryRun,
    ),
  );
  const tempIgnore = ensureLine(
    boundary,
    joinPath(projectRoot, ".gitignore"),
    ".gitignore",
    [GITIGNORE_TEMP_LINE, `/${GITIGNORE_TEMP_LINE}`, "*.tmp-*", "**/*.tmp-*"],
    [
      "# Librarian: temp files of a write cut short (the next run removes them)",
      GITIGNORE_TEMP_LINE,
    ],
    dryRun,
  );
  if (tempIgnore.action !== "unchanged") {
    const previous = actions.findIndex((a) => a.path === ".gitignore");
    if (previous >= 0 && actions[previous]!.action === "unchanged") actions[previous] = tempIgnore;
  }
  actions.push(
    ensureLine(
      boundary,
      joinPath(projectRoot, ".gitattributes"),
      ".gitattributes",
      [GITATTRIBUTES_LINE, `/${GITATTRIBUTES_LINE}`],
      [
        "# Librarian: learnings appended on two branches merge without conflicts",
        GITATTRIBUTES_LINE,
      ],
      dryRun,
    ),
  );
  return actions;
}

/** `<folder>`, else the project of a library above, else the git repository's root, else here. */
async function chooseProjectRoot(folder: string | undefined, cwd: string): Promise<string> {
  if (folder !== undefined) return pathArgument(folder, cwd);
  const existing = await findLibraryAbove(cwd, "cwd");
  return existing ? existing.projectRoot : gitRootAbove(cwd) ?? cwd;
}

/** Runs `librarian init`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const exportOption = stringOption(parsed, "export");
    const formats = exportOption === undefined ? undefined : parseFormats(exportOption);
    const cwd = normalizePath(Deno.cwd());
    const projectRoot = await chooseProjectRoot(parsed.positionals[0], cwd);
    if (!isDirectory(projectRoot)) {
      throw new LibrarianError(`${projectRoot} is not a folder; create it first, or pass another`);
    }
    const dryRun = flag(parsed, "dry-run");
    const actions = initProject(projectRoot, dryRun);
    if (formats && !dryRun) actions.push(...await recordExportFormats(projectRoot, formats));
    const changed = actions.some((a) => a.action !== "unchanged");
    const library = joinPath(projectRoot, LIBRARY_DIR_NAME);
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, projectRoot, library, dryRun, changed, actions });
      return EXIT_OK;
    }
    const style = makeStyle(env);
    console.log(
      dryRun
        ? (changed
          ? `Would set up the memory library in ${projectRoot} (dry run, nothing written):`
          : `The memory library in ${projectRoot} is already set up; nothing would change:`)
        : changed
        ? `Set up the memory library in ${projectRoot}:`
        : `The memory library in ${projectRoot} is already set up; nothing changed:`,
    );
    for (const a of actions) {
      const word = a.action === "unchanged" ? style.dim(a.action) : style.green(a.action);
      console.log(`  ${word}${" ".repeat(10 - a.action.length)}${a.path}`);
    }
    if (changed && !dryRun) {
      console.log(
        `\nNext: commit .gitignore, .gitattributes and ${LIBRARY_DIR_NAME}/, then run ` +
          `'librarian doctor' to check that the hooks are wired.`,
      );
    }
    return EXIT_OK;
  });
}
