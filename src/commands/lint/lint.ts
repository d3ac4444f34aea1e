/**
 * `librarian lint`: library health for people and CI. Exits 1 when there is a finding.
 *
 * @module
 */

import { describeDoubling, nativeDoublings } from "../../import/mod.ts";
import { VERSION } from "../../version.ts";
import {
  basenameOf,
  decodeLibraryBytes,
  type EnvReader,
  isDirectory,
  joinPath,
  type Library,
  type OwnerCheck,
  plural,
  processEnv,
  readBudget,
  scanLibrary,
  type ScannedFile,
  type ScannedFolder,
  SCRATCH_FILE_NAME,
  trustsOwnersOf,
} from "../../core/mod.ts";
import { CONFIG_FILE_NAME } from "../../export/mod.ts";
import { shSingleQuote } from "../../setup/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  intOption,
  libraryJson,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
} from "../../cli/mod.ts";
import { DEFAULT_CHANGE_RATIO, gitRenames, refreshStaleRecord } from "../../git/mod.ts";
import { applyFolderMoves, type FolderMove } from "./fix.ts";
import { type LibraryText, staleLearningFindings } from "./staleness_check.ts";
import { DEFAULT_SIMILARITY } from "../../format/mod.ts";
import {
  type BulletFile,
  bulletsOf,
  conflictMarkerLines,
  duplicateBullets,
  type Finding,
  type LearningFile,
  libraryFileSecrets,
  likelyNewHome,
  nearDuplicates,
  outermostFolders,
  sortFindings,
} from "./lint_checks.ts";
import { scratchFindings } from "../scratch/scratch_review.ts";
import { nestedScratches } from "../status/nested_scratch.ts";

/** The command line of `librarian lint`. */
export const SPEC: CommandSpec = {
  name: "lint",
  synopsis: "[--json] [--fix] [--change-threshold <percent>] [--similarity <percent>]",
  summary: "check the library's health (stale folders, oversized files, duplicates, ...)",
  details: [
    "Finds library folders whose code folder no longer exists (with the likely new home when git",
    "shows a rename), files larger than the inject budget, the same bullet in a folder and its",
    "ancestor, learnings that say nearly the same (token-shingle similarity, in one file, one",
    "folder, or a folder and one above it), merge-conflict markers, malformed or escaping tags and secrets in the scratch file,",
    "and files that are not UTF-8. Learnings whose provenance comment names code files that were",
    "deleted, renamed (git's rename detection gives the new path) or heavily changed since their",
    "commit are reported too. --fix applies only safe actions: it moves a library folder whose code",
    "folder git shows was renamed (git mv when tracked); it never deletes a learning.",
    "Exits 1 when anything is found (after --fix: anything left), 0 when the library is clean.",
  ],
  options: {
    json: { type: "boolean", description: "print a JSON object instead of text" },
    fix: { type: "boolean", description: "move library folders whose code folder was renamed" },
    "change-threshold": {
      type: "string",
      valueName: "<percent>",
      description: "share of a source's lines that must change to report it (default 50; 0: off)",
    },
    similarity: {
      type: "string",
      valueName: "<percent>",
      description: "how alike two learnings must be to report them (default 60; 0: off)",
    },
  },
  positionals: [],
};

/** A path as one shell word: as it is when plain, else single-quoted. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : shSingleQuote(path);
}

async function codeKind(path: string): Promise<"folder" | "file" | "missing"> {
  try {
    return (await Deno.stat(path)).isDirectory ? "folder" : "file";
  } catch {
    return "missing";
  }
}

/** Library folders whose mirrored code folder is gone, with git's hint of where it went. */
async function staleFolderFindings(library: Library, folders: ScannedFolder[]) {
  const kinds = new Map<string, "file" | "missing">();
  for (const { relDir } of folders) {
    if (relDir === "") continue;
    const kind = await codeKind(joinPath(library.projectRoot, relDir));
    if (kind !== "folder") kinds.set(relDir, kind);
  }
  const outermost = outermostFolders([...kinds.keys()]);
  if (outermost.length === 0) return { findings: [], git: "not-needed" };
  const libName = basenameOf(library.root);
  const findings: Finding[] = [];
  const missing: string[] = [];
  for (const relDir of outermost) {
    if (kinds.get(relDir) === "missing") {
      missing.push(relDir);
      continue;
    }
    const parent = relDir.includes("/") ? relDir.slice(0, relDir.lastIndexOf("/")) : "";
    findings.push({
      check: "stale-folder",
      path: `${relDir}/`,
      message: `mirrors ${relDir}, which is a file: library folders mirror code folders, so ` +
        "its files are never sent",
      fix: `move its files into ${libName}/${parent ? `${parent}/` : ""} (the file's folder)`,
    });
  }
  if (missing.length === 0) return { findings, git: "not-needed" };
  const git = await gitRenames(library.projectRoot);
  for (const relDir of missing) {
    const movedTo = likelyNewHome(relDir, git.renames);
    const finding: Finding = {
      check: "stale-folder",
      path: `${relDir}/`,
      message: `mirrors the code folder ${relDir}/, which no longer exists` +
        (movedTo ? `; git shows it moved to ${movedTo}/` : ""),
      fix: movedTo
        ? (await isDirectory(joinPath(library.root, movedTo))
          ? `move its files into ${libName}/${movedTo}/ (which exists), then delete the folder`
          : `git mv ${shellWord(`${libName}/${relDir}`)} ${shellWord(`${libName}/${movedTo}`)}`)
        : "move it to the code's new home, fold its learnings into an ancestor folder, or delete it",
    };
    if (movedTo) finding.movedTo = movedTo;
    findings.push(finding);
  }
  return { findings, git: git.status };
}

/** Library text also sent from where it lies (a `CLAUDE.md`, what it imports, an agent's rule). */
function loadedTwiceFindings(library: Library): Finding[] {
  return nativeDoublings(library.projectRoot, library.root).map((d) => ({
    check: "loaded-twice",
    path: d.libraryFiles[0] ?? "",
    ...describeDoubling(d),
  }));
}

/**
 * Learnings waiting in the scratch of a library nested in the project: the Stop hook files them
 * at the end of a turn that works below it, so until then they reach nobody.
 */
function nestedScratchFindings(library: Library): Finding[] {
  return nestedScratches(library).paths.map((path) => {
    const nested = path.slice(0, -`/${SCRATCH_FILE_NAME}`.length);
    const project = nested.includes("/") ? nested.slice(0, nested.lastIndexOf("/")) : ".";
    return {
      check: "nested-scratch",
      path,
      message: `learnings wait in a nested library's scratch (${path}), sent to nobody yet`,
      fix: `they are filed at the end of a turn that works in ${project}/, or run ` +
        `'librarian route' in ${project}/`,
    };
  });
}

/**
 * A library file the hooks act on (served, scratch, settings) that is owned by someone other than
 * the user or root (`trusts`): the hooks neither serve it, file into it nor read it as settings.
 *
 * @example Usage
 * ```ts
 * import { notOwnedFinding } from "./lint.ts";
 * import assert from "node:assert/strict";
 *
 * const file = { relPath: "src/a.md", name: "a.md", absPath: "/p/l/src/a.md", size: 1, served: true, uid: 7 };
 * assert.equal(notOwnedFinding(file, (uid) => uid !== 7)?.check, "not-owned");
 * assert.equal(notOwnedFinding(file, () => true), null);
 * assert.equal(notOwnedFinding({ ...file, name: "notes.txt", served: false }, () => false), null);
 * ```
 */
export function notOwnedFinding(file: ScannedFile, trusts: OwnerCheck): Finding | null {
  const actedOn = file.served || file.name === SCRATCH_FILE_NAME || file.name === CONFIG_FILE_NAME;
  if (!actedOn || trusts(file.uid)) return null;
  const what = file.name === SCRATCH_FILE_NAME
    ? "so its learnings are never filed"
    : file.name === CONFIG_FILE_NAME
    ? "so its settings are not used"
    : "so it is never sent and nothing is filed into it";
  return {
    check: "not-owned",
    path: file.relPath,
    message: `is owned by another user (uid ${file.uid}), not you or root, ${what}`,
    fix: `if it is yours, take it: chown "$(id -u)" ${shSingleQuote(file.absPath)} ` +
      "(with sudo); else remove it",
  };
}

/** Checks of each file's content: encoding, size, conflict markers, duplicates, scratch. */
async function contentFindings(
  folders: ScannedFolder[],
  budget: number,
  texts: LibraryText[],
  similarity: number,
  trusts: OwnerCheck,
) {
  const findings: Finding[] = [];
  const bulletFiles: BulletFile[] = [];
  const learningFiles: LearningFile[] = [];
  for (const folder of folders) {
    for (const file of folder.files) {
      // another user's file is not read: named, with the fix
      const notOwned = notOwnedFinding(file, trusts);
      if (notOwned !== null) {
        findings.push(notOwned);
        continue;
      }
      const isScratch = folder.relDir === "" && file.name === SCRATCH_FILE_NAME;
      if (!file.served && !isScratch) continue;
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(file.absPath);
      } catch (error) {
        findings.push({
          check: "unreadable",
          path: file.relPath,
          message: `cannot be read (${error instanceof Error ? error.name : error}), so it is ` +
            "never sent",
          fix: "make it readable (check its permissions or where its link points), or remove it",
        });
        continue;
      }
      const decoded = decodeLibraryBytes(bytes, false);
      if (decoded.kind !== "text") {
        findings.push({
          check: "not-utf8",
          path: file.relPath,
          message: decoded.kind === "binary"
            ? "is binary, so it is never sent"
            : "is not UTF-8 text, so it is never sent",
          fix: "re-save it as UTF-8 text (or remove it from the library)",
        });
        continue;
      }
      for (const line of conflictMarkerLines(decoded.text)) {
        findings.push({
          check: "conflict-marker",
          path: file.relPath,
          line,
          message: "has a merge-conflict marker, which the model is sent as is",
          fix: "resolve the conflict (keep both sides' learnings), and run 'librarian init' so " +
            "library files merge with merge=union",
        });
      }
      if (isScratch) {
        findings.push(...scratchFindings(decoded.text, file.relPath));
        continue;
      }
      findings.push(...libraryFileSecrets(decoded.text, file.relPath));
      if (decoded.text.length > budget) {
        findings.push({
          check: "oversized",
          path: file.relPath,
          message: `has ${decoded.text.length} characters, more than the ${budget}-character ` +
            "inject budget, so the model only sees its start",
          fix: "move learnings about one sub-folder into that folder's file, or trim it",
        });
      }
      texts.push({ relPath: file.relPath, text: decoded.text });
      bulletFiles.push({
        relPath: file.relPath,
        relDir: folder.relDir,
        bullets: bulletsOf(decoded.text),
      });
      learningFiles.push({ relPath: file.relPath, relDir: folder.relDir, text: decoded.text });
    }
  }
  return [
    ...findings,
    ...duplicateBullets(bulletFiles),
    ...nearDuplicates(learningFiles, similarity),
  ];
}

/**
 * Library entries that are links to somewhere outside the library: never read or served.
 *
 * @example Usage
 * ```ts
 * import { outsideFindings } from "./lint.ts";
 * import assert from "node:assert/strict";
 *
 * const folders = [{ relDir: "", depth: 0, files: [], outside: ["notes.md", "shared/"] }];
 * const findings = outsideFindings(folders);
 * assert.deepEqual(findings.map((f) => [f.check, f.path]), [
 *   ["outside-library", "notes.md"],
 *   ["outside-library", "shared/"],
 * ]);
 * ```
 */
export function outsideFindings(folders: readonly ScannedFolder[]): Finding[] {
  return folders.flatMap((folder) =>
    folder.outside.map((path): Finding => ({
      check: "outside-library",
      path,
      message: "is a link to a place outside the library, so it is never read or sent",
      fix: "copy the content into the library (or link to a place inside it), or remove the link",
    }))
  );
}

/** Runs `librarian lint`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const library = await requireLibrary(env, { findings: [] });
    const { budget } = readBudget(env);
    const changeRatio = intOption(parsed, "change-threshold", DEFAULT_CHANGE_RATIO * 100, 0, 100) /
      100;
    let folders = await scanLibrary(library.root);
    let stale = await staleFolderFindings(library, folders);
    let fixed: FolderMove[] = [];
    if (flag(parsed, "fix")) {
      fixed = await applyFolderMoves(library, stale.findings);
      if (fixed.some((f) => f.how !== "skipped")) {
        folders = await scanLibrary(library.root);
        stale = await staleFolderFindings(library, folders);
      }
    }
    const texts: LibraryText[] = [];
    const similarity = intOption(parsed, "similarity", DEFAULT_SIMILARITY * 100, 0, 100) / 100;
    const content = await contentFindings(
      folders,
      budget,
      texts,
      similarity,
      trustsOwnersOf(library),
    );
    const learnings = await staleLearningFindings(library, texts, { changeRatio });
    // what the inject hook marks as stale is what lint finds (at the default threshold)
    await refreshStaleRecord(library, env, { force: true });
    const findings = sortFindings([
      ...stale.findings,
      ...outsideFindings(folders),
      ...learnings.findings,
      ...content,
      ...loadedTwiceFindings(library),
      ...nestedScratchFindings(library),
    ]);
    const files = folders.reduce((n, f) => n + f.files.filter((x) => x.served).length, 0);
    const exit = findings.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
    if (flag(parsed, "json")) {
      printJson({
        version: VERSION,
        library: libraryJson(library),
        checked: { folders: folders.length, files, budget, learnings: learnings.learnings },
        git: stale.git === "not-needed" ? learnings.git : stale.git,
        ...(flag(parsed, "fix") ? { fixed } : {}),
        findings,
      });
      return exit;
    }
    const style = makeStyle(env);
    const libName = basenameOf(library.root);
    for (const move of fixed) {
      const verb = move.how === "skipped"
        ? style.dim("not moved")
        : style.green(`moved (${move.how})`);
      console.log(
        `${verb}  ${libName}/${move.from}/ → ${libName}/${move.to}/${
          move.why ? ` (${move.why})` : ""
        }`,
      );
    }
    const width = Math.max(0, ...findings.map((f) => f.check.length));
    for (const f of findings) {
      const where = `${libName}/${f.path}${f.line ? `:${f.line}` : ""}`;
      console.log(`${style.red(f.check.padEnd(width))}  ${style.bold(where)} ${f.message}`);
      console.log(`${" ".repeat(width)}  ${style.dim("fix:")} ${f.fix}`);
    }
    const scope = `${plural(files, "file")} in ${
      plural(folders.length, "folder")
    } of ${library.root}`;
    if (findings.length === 0) console.log(style.green(`No problems in ${scope}.`));
    else console.log(`\n${plural(findings.length, "problem")} in ${scope}.`);
    return exit;
  });
}
