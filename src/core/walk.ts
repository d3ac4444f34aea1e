/**
 * The walk-up: which library files apply to a code folder, most specific first.
 *
 * Only the mirror folders on the path from the code folder up to the library root are read, so
 * the cost grows with the depth of the file, never with the size of the library.
 *
 * @module
 */

import { SCRATCH_FILE_NAME } from "./discover.ts";
import { isCaseInsensitiveOs, joinPath, normalizePath, relativeInside } from "./paths.ts";

/** A library file that applies to the code being touched. */
export interface LibraryFile {
  /** Path inside the library (`models/launch/patterns.md`, `tech.md` at the root). */
  relPath: string;
  /** The label shown to the model: names exactly this file ({@link labelOf}). */
  label: string;
  /** The absolute path, normal form. */
  absPath: string;
  /**
   * Set when the entry is a symbolic link whose real location is outside the library (a file, or
   * a folder on the walk's path): it is never read, only named.
   */
  outside?: "file" | "folder";
}

/**
 * The mirror folders for a project-relative folder, most specific first, root (`""`) last.
 *
 * @example Usage
 * ```ts
 * import { mirrorLevels } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(mirrorLevels("models/launch/btbi"), [
 *   "models/launch/btbi",
 *   "models/launch",
 *   "models",
 *   "",
 * ]);
 * assert.deepEqual(mirrorLevels(""), [""]);
 * ```
 */
export function mirrorLevels(relDir: string): string[] {
  const segments = relDir.split("/").filter((s) => s !== "" && s !== ".");
  const levels: string[] = [];
  for (let n = segments.length; n > 0; n--) levels.push(segments.slice(0, n).join("/"));
  levels.push("");
  return levels;
}

/** What a root-level label adds after the file name. */
export const ROOT_LABEL_SUFFIX = " (library root)";

/**
 * The label the model sees for a library-relative path: the path itself, and for a file at the
 * library root its name followed by {@link ROOT_LABEL_SUFFIX}. A served name always ends in `.md`,
 * so no file in a folder (a real `global/` folder included) can ever get a root file's label.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelOf } from "./walk.ts";
 * assert.equal(labelOf("tech.md"), "tech.md (library root)");
 * assert.equal(labelOf("global/tech.md"), "global/tech.md");
 * ```
 */
export function labelOf(relPath: string): string {
  return relPath.includes("/") ? relPath : `${relPath}${ROOT_LABEL_SUFFIX}`;
}

/**
 * True for names the walk serves: `*.md`, not dotfiles (so never `.scratch.md`).
 *
 * @example Usage
 * ```ts
 * import { isServedName } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isServedName("tech.md"));
 * assert.ok(isServedName("NOTES.MD"));
 * assert.ok(!isServedName(".scratch.md"));
 * assert.ok(!isServedName("notes.txt"));
 * ```
 */
export function isServedName(name: string): boolean {
  return name.toLowerCase().endsWith(".md") && !name.startsWith(".") && name !== SCRATCH_FILE_NAME;
}

/**
 * Compares names by code point, so the order is the same on every OS and locale.
 *
 * @example Usage
 * ```ts
 * import { compareNames } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(["b", "B", "a", "é"].sort(compareNames), ["B", "a", "b", "é"]);
 * ```
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One library folder's listing: its served files and the names of its subfolders. */
interface LevelListing {
  files: LibraryFile[];
  subfolders: string[];
  /** Subfolders that are links to somewhere outside the library. */
  outsideFolders: string[];
}

/**
 * A library folder without links, as a {@link LevelMemo} keeps it: its served file names (sorted
 * by {@link compareNames}) and its subfolders' names.
 */
export interface PlainLevel {
  files: string[];
  subfolders: string[];
}

/**
 * What a caller may keep of big library folders between runs (`inject/walk_memo.ts`): the walk
 * asks it before listing a folder, and offers it each listing of a folder without links.
 */
export interface LevelMemo {
  /** The folder as it was listed before, when it has not changed since; else `undefined`. */
  recallLevel(folder: string): PlainLevel | undefined;
  /**
   * A listing of `folder` just made, with its count of entries (all kinds); `relist` lists it
   * again as it is now (`null` when it is gone or holds a link now).
   */
  offerLevel(
    folder: string,
    level: PlainLevel,
    entries: number,
    relist: () => PlainLevel | null,
  ): void;
}

/**
 * Tells whether a path lies inside the library, by its real location; the library's own real
 * path is found on first use only, so a library without symbolic links pays nothing.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { LibraryBounds } from "./walk.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.md`, "- a");
 * const bounds = new LibraryBounds(root);
 * assert.ok(bounds.contains(`${root}/a.md`));
 * assert.ok(!bounds.contains("/"));
 * ```
 */
export class LibraryBounds {
  #realRoot: string | null | undefined;
  constructor(readonly root: string) {}

  /** True when the real location of `path` (links followed) is inside the library root. */
  contains(path: string): boolean {
    if (this.#realRoot === undefined) {
      try {
        this.#realRoot = normalizePath(Deno.realPathSync(this.root));
      } catch {
        this.#realRoot = null;
      }
    }
    if (this.#realRoot === null) return false;
    try {
      return relativeInside(normalizePath(Deno.realPathSync(path)), this.#realRoot) !== null;
    } catch {
      return false; // dangling or unreadable: not library content
    }
  }
}

/** One folder as listed: its entries sorted into kinds, and how many entries and links it has. */
interface FolderEntries {
  /** The served file names, sorted by {@link compareNames}. */
  names: string[];
  /** Those of `names` that are links to files outside the library, if any. */
  outsideNames: ReadonlySet<string> | undefined;
  subfolders: string[];
  outsideFolders: string[];
  entries: number;
  links: number;
}

/**
 * Lists one folder, or `null` when it cannot be listed. Only entries that are symbolic links are
 * resolved (`bounds`): one that leads outside the library is kept apart, never read.
 */
function listFolder(folder: string, bounds: LibraryBounds): FolderEntries | null {
  const names: string[] = [];
  let outsideNames: Set<string> | undefined;
  const subfolders: string[] = [];
  const outsideFolders: string[] = [];
  let entries = 0;
  let links = 0;
  try {
    for (const entry of Deno.readDirSync(folder)) {
      entries++;
      if (entry.isDirectory) subfolders.push(entry.name);
      else if (entry.isFile && isServedName(entry.name)) names.push(entry.name);
      else if (entry.isSymlink) {
        links++;
        const path = joinPath(folder, entry.name);
        let info: Deno.FileInfo;
        try {
          info = Deno.statSync(path);
        } catch {
          continue; // a dangling link is not a library entry
        }
        const inside = bounds.contains(path);
        if (info.isDirectory) (inside ? subfolders : outsideFolders).push(entry.name);
        else if (info.isFile && isServedName(entry.name)) {
          names.push(entry.name);
          if (!inside) (outsideNames ??= new Set()).add(entry.name);
        }
      }
    }
  } catch {
    return null;
  }
  // the default sort compares UTF-16 code units, as compareNames does, without a call into
  // JavaScript for each comparison
  names.sort();
  return {
    names,
    outsideNames,
    subfolders,
    outsideFolders,
    entries,
    links,
  };
}

/** A folder's listing as a {@link LevelMemo} keeps it, or `null` when it holds a link. */
function plainLevelOf(listed: FolderEntries): PlainLevel | null {
  return listed.links > 0 ? null : { files: listed.names, subfolders: listed.subfolders };
}

/**
 * Lists one library folder, or `null` when it does not exist. Synchronous on purpose: for a
 * short-lived hook, sync calls cost far less than async ones. With a `memo`, a big folder that
 * has not changed since it was last listed is not listed again.
 */
function readLevel(
  libraryRoot: string,
  level: string,
  bounds: LibraryBounds,
  memo?: LevelMemo,
): LevelListing | null {
  const folder = joinPath(libraryRoot, level);
  const remembered = memo?.recallLevel(folder);
  if (remembered !== undefined) {
    return levelListing(level, folder, remembered.files, undefined, remembered.subfolders, []);
  }
  const listed = listFolder(folder, bounds);
  if (listed === null) return null;
  const plain = memo === undefined ? null : plainLevelOf(listed);
  if (memo !== undefined && plain !== null) {
    memo.offerLevel(folder, plain, listed.entries, () => {
      const again = listFolder(folder, bounds);
      return again === null ? null : plainLevelOf(again);
    });
  }
  return levelListing(
    level,
    folder,
    listed.names,
    listed.outsideNames,
    listed.subfolders,
    listed.outsideFolders,
  );
}

/**
 * A level's listing from its sorted served names (`outsideNames`: those that are links to files
 * outside the library) and its subfolders.
 */
function levelListing(
  level: string,
  folder: string,
  names: readonly string[],
  outsideNames: ReadonlySet<string> | undefined,
  subfolders: string[],
  outsideFolders: string[],
): LevelListing {
  const prefix = level === "" ? "" : `${level}/`;
  const parent = folder.endsWith("/") ? folder : `${folder}/`;
  const files = names.map((name): LibraryFile => {
    const relPath = prefix + name;
    const file: LibraryFile = { relPath, label: labelOf(relPath), absPath: parent + name };
    if (outsideNames?.has(name)) file.outside = "file";
    return file;
  });
  return { files, subfolders, outsideFolders };
}

/**
 * The served `.md` files directly in one library folder, sorted; a missing folder gives `[]`.
 *
 * @example Usage
 * ```ts
 * import { listLevel } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/src`);
 * Deno.writeTextFileSync(`${root}/src/b.md`, "b");
 * Deno.writeTextFileSync(`${root}/src/a.md`, "a");
 * Deno.writeTextFileSync(`${root}/src/skip.txt`, "no");
 * assert.deepEqual(listLevel(root, "src").map((f) => f.relPath), ["src/a.md", "src/b.md"]);
 * assert.deepEqual(listLevel(root, "missing"), []);
 * ```
 */
export function listLevel(libraryRoot: string, level: string): LibraryFile[] {
  return readLevel(libraryRoot, level, new LibraryBounds(libraryRoot))?.files ?? [];
}

const ASCII_ONLY = /^\p{ASCII}*$/u;

/**
 * The subfolder of a listing that mirrors the code folder `segment`: the same name, else one
 * spelled with the other Unicode normal form (NFC `é` against NFD `e` + accent: a library made on
 * macOS or typed by the model meets code checked out elsewhere), and on a case-insensitive OS
 * (Windows, macOS) one that differs only in case.
 *
 * @example Usage
 * ```ts
 * import { matchSubfolder } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(matchSubfolder(["Models", "api"], "api", false), "api");
 * assert.equal(matchSubfolder(["Models"], "models", true), "Models");
 * assert.equal(matchSubfolder(["Models"], "models", false), undefined);
 * assert.equal(matchSubfolder(["caf\u00e9"], "cafe\u0301", false), "caf\u00e9");
 * ```
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
 * with the depth of the file, never with the size of the library. A folder on the path that is a
 * link to somewhere outside the library ends the walk there, and is returned as an entry with
 * `outside: "folder"` (its `relPath` ends in `/`). With a `memo` ({@link LevelMemo}), a folder it
 * recalls is not listed, and each folder without links that is listed is offered to it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectLibraryFiles } from "./walk.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/src`);
 * Deno.writeTextFileSync(`${root}/tech.md`, "- t");
 * Deno.writeTextFileSync(`${root}/src/edge.md`, "- e");
 * assert.deepEqual(collectLibraryFiles(root, "src/api").map((f) => f.label), ["src/edge.md", "tech.md (library root)"]);
 * ```
 */
export function collectLibraryFiles(
  libraryRoot: string,
  relDir: string,
  os: string = Deno.build.os,
  memo?: LevelMemo,
): LibraryFile[] {
  const segments = relDir.split("/").filter((s) => s !== "" && s !== ".");
  const caseInsensitive = isCaseInsensitiveOs(os);
  const levels: LibraryFile[][] = [];
  const bounds = new LibraryBounds(libraryRoot);
  let level = "";
  for (let depth = 0; depth <= segments.length; depth++) {
    const listing = readLevel(libraryRoot, level, bounds, memo);
    if (!listing) break;
    levels.push(listing.files);
    if (depth === segments.length) break;
    const next = matchSubfolder(listing.subfolders, segments[depth]!, caseInsensitive);
    if (next === undefined) {
      const away = matchSubfolder(listing.outsideFolders, segments[depth]!, caseInsensitive);
      if (away !== undefined) {
        const relPath = `${level === "" ? away : `${level}/${away}`}/`;
        const absPath = joinPath(libraryRoot, relPath.slice(0, -1));
        levels.push([{ relPath, label: relPath, absPath, outside: "folder" }]);
      }
      break;
    }
    level = level === "" ? next : `${level}/${next}`;
  }
  return levels.reverse().flat();
}
