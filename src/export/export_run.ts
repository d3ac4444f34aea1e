/**
 * Running an export (effects): read the library, find the files earlier exports wrote, plan
 * ({@link planExport}) and, unless only checking, write. Used by `librarian export`,
 * `librarian init --export` and the Stop hook (for the folders it just filed into).
 *
 * @module
 */

import { isTempSiblingName } from "../core/atomic.ts";
import { Boundary, BoundaryError } from "../core/boundary.ts";
import { type Library, type OwnerCheck, trustsOwnersOf } from "../core/discover.ts";
import { messageOf } from "../core/errors.ts";
import { crashPoint } from "../core/fault.ts";
import { isDirectory } from "../core/fs_probe.ts";
import { basenameOf, dirnameOf, joinPath, relativeInside } from "../core/paths.ts";
import { readLibraryText } from "../core/read_text.ts";
import { scanLibrary, type ScannedFolder } from "../core/library_scan.ts";
import {
  type ExportFormat,
  FORMAT_LIMITS,
  generatedText,
  isExportFileName,
  isGeneratedText,
  outputPlace,
  RULE_FOLDERS,
} from "./export_formats.ts";
import { type DesiredOutput, type ExportAction, hasSection, planExport } from "./export_plan.ts";
import { type FolderFile, renderFolder } from "./render.ts";
import { withoutSecretsForExport } from "./export_secrets.ts";

/** The largest library file read whole for an export; the rest of a larger one is not needed. */
const MAX_READ_BYTES = 256 * 1024;
/** Files on disk larger than this are never read as earlier exports. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** How deep the search for earlier AGENTS.md files goes. */
const MAX_WALK_DEPTH = 64;
/** Folders never searched for AGENTS.md files. */
const SKIPPED_FOLDERS = new Set(["node_modules", "vendor", "target", "dist", "build"]);

/** What to export. */
export interface ExportOptions {
  formats: readonly ExportFormat[];
  /** Remove every file (and section) export owns for these formats, write nothing new. */
  clean?: boolean;
  /** Only plan: write nothing (`--check`, `--dry-run`). */
  dryRun?: boolean;
  /** Only these library folders (`""` = root); nothing else is deleted. */
  folders?: readonly string[];
  /**
   * Also remove the temp files a killed export left beside the generated files (`librarian
   * export` always asks for it; the Stop hook on the run after an interrupted re-export).
   */
  sweepTemps?: boolean;
}

/** A folder a format leaves out, and why. */
export interface ExportSkip {
  format: ExportFormat;
  folder: string;
  reason: string;
}

/** What an export did or would do. */
export interface ExportReport {
  actions: ExportAction[];
  skipped: ExportSkip[];
  /** Folders whose knowledge did not fit a format's limit: the library files cut or left out. */
  cut: { format: ExportFormat; folder: string; files: string[] }[];
  /** Writes or deletes that failed, with the error. */
  failures: { path: string; error: string }[];
}

/**
 * How generated files name the library: its path in the project (`_memory_library`).
 *
 * @example Usage
 * ```ts
 * import { libraryLabelOf } from "./export_run.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const };
 * assert.equal(libraryLabelOf(library), "_memory_library");
 * ```
 */
export function libraryLabelOf(library: Library): string {
  return relativeInside(library.root, library.projectRoot) || basenameOf(library.root);
}

function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * The folder's served files, read; a link whose target lies outside the library is skipped, and
 * a file owned by another user (`trusts`) is not read: it is named in `foreign`.
 */
function readFolder(
  folder: ScannedFolder,
  realRoot: string | null,
  trusts: OwnerCheck,
): { files: FolderFile[]; foreign: string[] } {
  const files: FolderFile[] = [];
  const foreign: string[] = [];
  for (const file of folder.files) {
    if (!file.served) continue;
    if (!trusts(file.uid)) {
      foreign.push(`${file.relPath} is owned by another user (uid ${file.uid}), not you or root`);
      continue;
    }
    if (Deno.lstatSync(file.absPath).isSymlink) {
      const real = realPathOrNull(file.absPath);
      if (real === null || realRoot === null || relativeInside(real, realRoot) === null) continue;
    }
    const read = readLibraryText(file.absPath, file.size, MAX_READ_BYTES);
    files.push({ relPath: file.relPath, text: read.kind === "text" ? read.text : null });
  }
  return { files, foreign };
}

/**
 * A path's text when it is a regular file of sane size inside the repository; `null` when
 * nothing is there, or when the place leads outside through a link (nothing of export's is
 * there: a write is then refused and reported); `""` for anything else that is there.
 */
function diskReader(projectRoot: string, boundary: Boundary): (path: string) => string | null {
  return (path) => {
    try {
      return boundary.readText(joinPath(projectRoot, path), MAX_OUTPUT_BYTES);
    } catch (error) {
      if (error instanceof BoundaryError) {
        const kind = error.refusal.kind;
        return kind === "outside" || kind === "broken-link" ? null : "";
      }
      return "";
    }
  };
}

/**
 * True when the folder `relDir` of the project is a project of its own: it holds a git root
 * (`.git`) or a library (`libraryName`). Export never writes or deletes inside one.
 */
function isNestedProject(projectRoot: string, relDir: string, libraryName: string): boolean {
  if (relDir === "") return false;
  for (const name of [".git", libraryName, "_memory_library"]) {
    try {
      Deno.lstatSync(joinPath(projectRoot, relDir, name));
      return true;
    } catch {
      // not there
    }
  }
  return false;
}

/** The nested project `relDir` lies in (the folder itself or one above it), or `null`. */
function nestedProjectOf(
  projectRoot: string,
  relDir: string,
  libraryName: string,
  cache: Map<string, boolean>,
): string | null {
  const parts = relDir === "" ? [] : relDir.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    let nested = cache.get(folder);
    if (nested === undefined) {
      nested = isNestedProject(projectRoot, folder, libraryName);
      cache.set(folder, nested);
    }
    if (nested) return folder;
  }
  return null;
}

/** Every `AGENTS.md` under the project that carries export's marker (a bounded walk). */
function findGeneratedAgentsFiles(
  projectRoot: string,
  libraryRoot: string,
  disk: (path: string) => string | null,
): string[] {
  const libraryName = basenameOf(libraryRoot);
  const found: string[] = [];
  const visit = (relDir: string, depth: number) => {
    const abs = relDir === "" ? projectRoot : joinPath(projectRoot, relDir);
    if (abs === libraryRoot) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(abs)];
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isFile && entry.name === "AGENTS.md") {
        const text = disk(rel);
        if (text !== null && isGeneratedText(text)) found.push(rel);
      } else if (entry.isDirectory && depth < MAX_WALK_DEPTH) {
        if (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name)) continue;
        // A nested project's AGENTS.md files are its own export's, never this one's.
        if (isNestedProject(projectRoot, rel, libraryName)) continue;
        visit(rel, depth + 1);
      }
    }
  };
  visit("", 0);
  return found.sort();
}

/** The files (and the copilot section) earlier exports of `format` left on disk. */
function findGenerated(
  format: ExportFormat,
  library: Library,
  disk: (path: string) => string | null,
  boundary: Boundary,
): { format: ExportFormat; path: string; section: boolean }[] {
  if (format === "agents-md") {
    return findGeneratedAgentsFiles(library.projectRoot, library.root, disk)
      .map((path) => ({ format, path, section: false }));
  }
  const found: { format: ExportFormat; path: string; section: boolean }[] = [];
  const folder = RULE_FOLDERS[format]!;
  try {
    // A rule folder reached through a link that leaves the repository is not export's to list.
    const placed = boundary.place(joinPath(library.projectRoot, folder));
    for (const entry of Deno.readDirSync(placed.realPath)) {
      if (!entry.isFile || !isExportFileName(format, entry.name)) continue;
      const path = `${folder}/${entry.name}`;
      const text = disk(path);
      if (text !== null && isGeneratedText(text)) found.push({ format, path, section: false });
    }
  } catch {
    // no rule folder yet
  }
  if (format === "copilot") {
    const place = outputPlace("copilot", "");
    const text = disk(place.path);
    if (text !== null && hasSection(text)) found.push({ format, path: place.path, section: true });
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Applies the planned writes and deletes through the boundary; failures are collected. */
function applyActions(
  projectRoot: string,
  actions: readonly ExportAction[],
  boundary: Boundary,
): ExportReport["failures"] {
  const failures: ExportReport["failures"] = [];
  for (const action of actions) {
    const abs = joinPath(projectRoot, action.path);
    try {
      if (action.kind === "create" || action.kind === "update") {
        boundary.writeText(abs, action.text);
        crashPoint("after-export-write");
      } else if (action.kind === "delete") {
        boundary.remove(abs);
      }
    } catch (error) {
      failures.push({ path: action.path, error: messageOf(error) });
    }
  }
  return failures;
}

/** Removes the temp files a killed write left beside each generated file's place. */
function sweepTempFiles(
  projectRoot: string,
  paths: readonly string[],
  boundary: Boundary,
): void {
  const byFolder = new Map<string, Set<string>>();
  for (const path of paths) {
    const folder = dirnameOf(joinPath(projectRoot, path));
    const names = byFolder.get(folder) ?? new Set<string>();
    names.add(basenameOf(path));
    byFolder.set(folder, names);
  }
  for (const [folder, names] of byFolder) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(boundary.place(folder).realPath)];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile || ![...names].some((name) => isTempSiblingName(entry.name, name))) {
        continue;
      }
      try {
        boundary.remove(joinPath(folder, entry.name));
      } catch {
        // left for the next run
      }
    }
  }
}

/**
 * Why no AGENTS.md may sit in the code folder `relDir`, or `null`: it reaches outside the
 * repository through a link, or it lies in a nested project (whose exports are its own).
 */
function agentsFolderProblem(
  projectRoot: string,
  relDir: string,
  boundary: Boundary,
  nested: () => string | null,
): string | null {
  try {
    boundary.place(joinPath(projectRoot, relDir), { intent: "write" });
  } catch (error) {
    if (error instanceof BoundaryError) {
      return `the code folder ${relDir}/ leads outside the repository through a symbolic link`;
    }
    throw error;
  }
  const project = nested();
  return project === null
    ? null
    : `${project}/ is a project of its own (its own library or git root); its exports are its own`;
}

/**
 * Exports the library in `options.formats`: every folder with library files becomes one
 * generated file per format (the root too); earlier generated files for folders that no longer
 * have knowledge are deleted; a person's file in a generated file's place is reported, never
 * touched.
 */
export async function runExport(library: Library, options: ExportOptions): Promise<ExportReport> {
  const scope = options.folders ? new Set(options.folders) : null;
  const folders = options.clean
    ? []
    : (await scanLibrary(library.root)).filter((f) => scope === null || scope.has(f.relDir));
  const realRoot = realPathOrNull(library.root);
  const label = libraryLabelOf(library);
  const boundary = new Boundary(library.projectRoot, "repository");
  const disk = diskReader(library.projectRoot, boundary);
  const libraryName = basenameOf(library.root);
  const nestedCache = new Map<string, boolean>();
  const all = folders.map((folder) => ({
    folder,
    ...readFolder(folder, realRoot, trustsOwnersOf(library)),
  }));
  const read = all.filter((f) => f.files.length > 0);
  const report: ExportReport = { actions: [], skipped: [], cut: [], failures: [] };
  for (const format of options.formats) {
    for (const { folder, foreign } of all) {
      for (const reason of foreign) report.skipped.push({ format, folder: folder.relDir, reason });
    }
    const desired: DesiredOutput[] = [];
    for (const { folder, files } of read) {
      const relDir = folder.relDir;
      if (format === "agents-md") {
        const skip = agentsFolderProblem(
          library.projectRoot,
          relDir,
          boundary,
          () => nestedProjectOf(library.projectRoot, relDir, libraryName, nestedCache),
        );
        if (skip !== null) {
          report.skipped.push({ format, folder: relDir, reason: skip });
          continue;
        }
      }
      if (format === "agents-md" && !isDirectory(joinPath(library.projectRoot, relDir))) {
        report.skipped.push({
          format,
          folder: relDir,
          reason: `the code folder ${relDir}/ does not exist, so no AGENTS.md can sit in it`,
        });
        continue;
      }
      // A block holding a likely credential never reaches a generated file.
      const safe = withoutSecretsForExport(files);
      for (const { reason } of safe.setAside) {
        report.skipped.push({ format, folder: relDir, reason });
      }
      const rendered = renderFolder(safe.files, label, FORMAT_LIMITS[format]);
      if (rendered.cut.length > 0) report.cut.push({ format, folder: relDir, files: rendered.cut });
      for (const relPath of rendered.skipped) {
        report.skipped.push({ format, folder: relDir, reason: `${relPath} is not text` });
      }
      const text = generatedText(format, label, relDir, rendered.body);
      desired.push({ format, relDir, place: outputPlace(format, relDir), text });
    }
    const generated = scope === null ? findGenerated(format, library, disk, boundary) : [];
    report.actions.push(...planExport(desired, generated, disk, scope !== null));
    if (options.sweepTemps && !options.dryRun) {
      sweepTempFiles(library.projectRoot, desired.map((d) => d.place.path), boundary);
    }
  }
  if (!options.dryRun) {
    report.failures = applyActions(library.projectRoot, report.actions, boundary);
  }
  return report;
}
