/**
 * Running an export (effects): read the library, find the files earlier exports wrote, plan
 * ({@link planExport}) and, unless only checking, write. Used by `librarian export`,
 * `librarian init --export` and the Stop hook (for the folders it just filed into).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import type { Library } from "../core/discover.ts";
import { messageOf } from "../core/errors.ts";
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
} from "./formats.ts";
import { type DesiredOutput, type ExportAction, hasSection, planExport } from "./plan.ts";
import { type FolderFile, renderFolder } from "./render.ts";
import { withoutSecretsForExport } from "./secrets.ts";

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
 * import { libraryLabelOf } from "./run.ts";
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

/** The folder's served files, read; a link whose target lies outside the library is skipped. */
function readFolder(folder: ScannedFolder, realRoot: string | null): FolderFile[] {
  const files: FolderFile[] = [];
  for (const file of folder.files) {
    if (!file.served) continue;
    if (Deno.lstatSync(file.absPath).isSymlink) {
      const real = realPathOrNull(file.absPath);
      if (real === null || realRoot === null || relativeInside(real, realRoot) === null) continue;
    }
    const read = readLibraryText(file.absPath, file.size, MAX_READ_BYTES);
    files.push({ relPath: file.relPath, text: read.kind === "text" ? read.text : null });
  }
  return files;
}

/** A path's text when it is a regular file of sane size; `""` for anything else that is there. */
function diskReader(projectRoot: string): (path: string) => string | null {
  return (path) => {
    const abs = joinPath(projectRoot, path);
    try {
      const info = Deno.lstatSync(abs);
      if (!info.isFile || info.size > MAX_OUTPUT_BYTES) return "";
      return Deno.readTextFileSync(abs);
    } catch (error) {
      return error instanceof Deno.errors.NotFound ? null : "";
    }
  };
}

/** Every `AGENTS.md` under the project that carries export's marker (a bounded walk). */
function findGeneratedAgentsFiles(
  projectRoot: string,
  libraryRoot: string,
  disk: (path: string) => string | null,
): string[] {
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
): { format: ExportFormat; path: string; section: boolean }[] {
  if (format === "agents-md") {
    return findGeneratedAgentsFiles(library.projectRoot, library.root, disk)
      .map((path) => ({ format, path, section: false }));
  }
  const found: { format: ExportFormat; path: string; section: boolean }[] = [];
  const folder = RULE_FOLDERS[format]!;
  try {
    for (const entry of Deno.readDirSync(joinPath(library.projectRoot, folder))) {
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

/** Applies the planned writes and deletes; failures are collected, never thrown. */
function applyActions(
  projectRoot: string,
  actions: readonly ExportAction[],
): ExportReport["failures"] {
  const failures: ExportReport["failures"] = [];
  for (const action of actions) {
    const abs = joinPath(projectRoot, action.path);
    try {
      if (action.kind === "create" || action.kind === "update") {
        Deno.mkdirSync(dirnameOf(abs), { recursive: true });
        writeTextAtomicSync(abs, action.text);
      } else if (action.kind === "delete") {
        Deno.removeSync(abs);
      }
    } catch (error) {
      failures.push({ path: action.path, error: messageOf(error) });
    }
  }
  return failures;
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
  const disk = diskReader(library.projectRoot);
  const read = folders.map((folder) => ({ folder, files: readFolder(folder, realRoot) }))
    .filter((f) => f.files.length > 0);
  const report: ExportReport = { actions: [], skipped: [], cut: [], failures: [] };
  for (const format of options.formats) {
    const desired: DesiredOutput[] = [];
    for (const { folder, files } of read) {
      const relDir = folder.relDir;
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
    const generated = scope === null ? findGenerated(format, library, disk) : [];
    report.actions.push(...planExport(desired, generated, disk, scope !== null));
  }
  if (!options.dryRun) report.failures = applyActions(library.projectRoot, report.actions);
  return report;
}
