/**
 * The whole library at a glance: every folder and file, for `status` (the tree) and `lint` (the
 * health checks). The hooks never need this; they read only the folders on one path.
 *
 * @module
 */

import { joinPath } from "./paths.ts";
import { compareNames, isServedName, LibraryBounds } from "./walk.ts";

/** A file in the library. */
export interface ScannedFile {
  /** Path inside the library (`src/api/edge.md`, `tech.md`). */
  relPath: string;
  name: string;
  absPath: string;
  /** Size in bytes. */
  size: number;
  /** True for the files the inject hook serves (`*.md`, not dotfiles). */
  served: boolean;
  /** The file's owner (links followed), `null` where the system tells none (Windows). */
  uid: number | null;
}

/** A folder in the library and the files directly in it. */
export interface ScannedFolder {
  /** Path inside the library; `""` for the root. It mirrors the code folder of the same path. */
  relDir: string;
  /** 0 for the root. */
  depth: number;
  files: ScannedFile[];
  /**
   * Entries directly in this folder that are links to somewhere outside the library: never
   * read, never served or exported (library-relative paths; a folder's ends in `/`).
   */
  outside: string[];
}

/** Folders nested deeper than this are not scanned (a guard against link loops). */
const MAX_DEPTH = 64;

/**
 * Every folder of the library under `root`, parents before children, names in code-point order.
 * Hidden folders (`.git`, ...) and symlinked folders are not entered; only regular files (links
 * followed) are listed. A link whose real location is outside the library is not listed as a
 * file: it is put in its folder's `outside` list.
 *
 * @example Usage
 * ```ts
 * import { scanLibrary } from "./library_scan.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/src`);
 * Deno.writeTextFileSync(`${root}/tech.md`, "# tech");
 * Deno.writeTextFileSync(`${root}/src/api.md`, "# api");
 * const folders = await scanLibrary(root);
 * assert.deepEqual(folders.map((f) => f.relDir), ["", "src"]);
 * assert.deepEqual(folders[1]?.files.map((f) => f.relPath), ["src/api.md"]);
 * ```
 */
export async function scanLibrary(root: string): Promise<ScannedFolder[]> {
  const folders: ScannedFolder[] = [];
  const bounds = new LibraryBounds(root);
  async function visit(relDir: string, depth: number): Promise<void> {
    const absDir = joinPath(root, relDir);
    const files: ScannedFile[] = [];
    const subdirs: string[] = [];
    const outside: string[] = [];
    try {
      for await (const entry of Deno.readDir(absDir)) {
        const relPath = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
        const absPath = joinPath(absDir, entry.name);
        if (entry.isDirectory) {
          if (!entry.name.startsWith(".")) subdirs.push(entry.name);
          continue;
        }
        let size = 0;
        let uid: number | null = null;
        try {
          const info = await Deno.stat(absPath);
          if (entry.isSymlink && (info.isFile || info.isDirectory) && !bounds.contains(absPath)) {
            outside.push(info.isDirectory ? `${relPath}/` : relPath);
            continue;
          }
          // only regular files: a FIFO, a socket or a link to a device is not a library file
          // (reading one would block or never end)
          if (!info.isFile) continue;
          size = info.size;
          uid = info.uid;
        } catch {
          continue; // a dangling link
        }
        const served = isServedName(entry.name);
        files.push({ relPath, name: entry.name, absPath, size, served, uid });
      }
    } catch {
      return;
    }
    files.sort((a, b) => compareNames(a.name, b.name));
    outside.sort(compareNames);
    folders.push({ relDir, depth, files, outside });
    if (depth >= MAX_DEPTH) return;
    subdirs.sort(compareNames);
    for (const name of subdirs) await visit(relDir === "" ? name : `${relDir}/${name}`, depth + 1);
  }
  await visit("", 0);
  return folders;
}

/**
 * The served files of a scan, in scan order.
 *
 * @example Usage
 * ```ts
 * import { scanLibrary, servedFiles } from "./library_scan.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/tech.md`, "# tech");
 * Deno.writeTextFileSync(`${root}/notes.txt`, "not served");
 * assert.deepEqual(servedFiles(await scanLibrary(root)).map((f) => f.name), ["tech.md"]);
 * ```
 */
export function servedFiles(folders: readonly ScannedFolder[]): ScannedFile[] {
  return folders.flatMap((f) => f.files.filter((file) => file.served));
}
