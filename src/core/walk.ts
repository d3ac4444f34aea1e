/**
 * The walk-up: which library files apply to a code folder, most specific first.
 *
 * Only the mirror folders on the path from the code folder up to the library root are read, so
 * the cost grows with the depth of the file, never with the size of the library.
 *
 * @module
 */

import { SCRATCH_FILE_NAME } from "./discover.ts";
import { isCaseInsensitiveOs, joinPath } from "./paths.ts";

/** A library file that applies to the code being touched. */
export interface LibraryFile {
  /** Path inside the library (`models/launch/patterns.md`, `tech.md` at the root). */
  relPath: string;
  /** The label shown to the model: the `relPath`, with root files as `global/<name>`. */
  label: string;
  /** The absolute path, normal form. */
  absPath: string;
}

/**
 * The mirror folders for a project-relative folder, most specific first, root (`""`) last.
 *
 * @example
 * ```ts
 * mirrorLevels("models/launch/btbi"); // ["models/launch/btbi", "models/launch", "models", ""]
 * ```
 */
export function mirrorLevels(relDir: string): string[] {
  const segments = relDir.split("/").filter((s) => s !== "" && s !== ".");
  const levels: string[] = [];
  for (let n = segments.length; n > 0; n--) levels.push(segments.slice(0, n).join("/"));
  levels.push("");
  return levels;
}

/** The label the model sees for a library-relative path. */
export function labelOf(relPath: string): string {
  return relPath.includes("/") ? relPath : `global/${relPath}`;
}

/** True for names the walk serves: `*.md`, not dotfiles (so never `.scratch.md`). */
export function isServedName(name: string): boolean {
  return name.toLowerCase().endsWith(".md") && !name.startsWith(".") && name !== SCRATCH_FILE_NAME;
}

/** Compares names by code point, so the order is the same on every OS and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One library folder's listing: its served files and the names of its subfolders. */
interface LevelListing {
  files: LibraryFile[];
  subfolders: string[];
}

/**
 * Lists one library folder, or `null` when it does not exist. Synchronous on purpose: for a
 * short-lived hook, sync calls cost far less than async ones.
 */
function readLevel(libraryRoot: string, level: string): LevelListing | null {
  const folder = joinPath(libraryRoot, level);
  const names: string[] = [];
  const subfolders: string[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.isDirectory || entry.isSymlink) subfolders.push(entry.name);
      if (!isServedName(entry.name)) continue;
      if (entry.isFile) {
        names.push(entry.name);
      } else if (entry.isSymlink) {
        try {
          if (Deno.statSync(joinPath(folder, entry.name)).isFile) names.push(entry.name);
        } catch {
          // a dangling link is not a library file
        }
      }
    }
  } catch {
    return null;
  }
  names.sort(compareNames);
  const files = names.map((name) => {
    const relPath = level === "" ? name : `${level}/${name}`;
    return { relPath, label: labelOf(relPath), absPath: joinPath(folder, name) };
  });
  return { files, subfolders };
}

/** The served `.md` files directly in one library folder, sorted; a missing folder gives `[]`. */
export function listLevel(libraryRoot: string, level: string): LibraryFile[] {
  return readLevel(libraryRoot, level)?.files ?? [];
}

const ASCII_ONLY = /^\p{ASCII}*$/u;

/**
 * The subfolder of a listing that mirrors the code folder `segment`: the same name, else one
 * spelled with the other Unicode normal form (NFC `é` against NFD `e` + accent: a library made on
 * macOS or typed by the model meets code checked out elsewhere), and on a case-insensitive OS
 * (Windows, macOS) one that differs only in case.
 */
export function matchSubfolder(
  subfolders: readonly string[],
  segment: string,
  caseInsensitive: boolean,
): string | undefined {
  if (subfolders.includes(segment)) return segment;
  // An ASCII name has one spelling: only case can differ.
  if (!caseInsensitive && ASCII_ONLY.test(segment)) return undefined;
  const fold = caseInsensitive
    ? (name: string) => name.normalize("NFC").toLowerCase()
    : (name: string) => name.normalize("NFC");
  const wanted = fold(segment);
  return subfolders.find((name) => fold(name) === wanted);
}

/**
 * Every served library file for a project-relative folder, most specific folder first.
 *
 * The mirror is walked from the library root down, one listing per level, and stops at the first
 * level that has no mirror folder: a sparse library costs no failed look-ups, and the cost grows
 * with the depth of the file, never with the size of the library.
 */
export function collectLibraryFiles(
  libraryRoot: string,
  relDir: string,
  os: string = Deno.build.os,
): LibraryFile[] {
  const segments = relDir.split("/").filter((s) => s !== "" && s !== ".");
  const caseInsensitive = isCaseInsensitiveOs(os);
  const levels: LibraryFile[][] = [];
  let level = "";
  for (let depth = 0; depth <= segments.length; depth++) {
    const listing = readLevel(libraryRoot, level);
    if (!listing) break;
    levels.push(listing.files);
    if (depth === segments.length) break;
    const next = matchSubfolder(listing.subfolders, segments[depth]!, caseInsensitive);
    if (next === undefined) break;
    level = level === "" ? next : `${level}/${next}`;
  }
  return levels.reverse().flat();
}
