/**
 * The library files sent along with each target of a routing pass (effectful: lists and reads
 * the library): the other files of the target's folder and of every folder above it, as a touch
 * of that folder would send them. Links that lead outside the library are never read (the walk
 * names them apart, `core/walk.ts`); a file that cannot be read as text is left out.
 *
 * @module
 */

import { readLibraryText, statStamp } from "../core/read_text.ts";
import { collectLibraryFiles } from "../core/walk.ts";
import { dirnameOf } from "../core/paths.ts";
import { foldKey } from "./classify.ts";
import type { VisibleFile } from "./known.ts";

/** A library file larger than this is compared on its start only. */
export const MAX_VISIBLE_BYTES = 4 * 1024 * 1024;

/**
 * For each target path (library-relative, as spelled on disk), the files sent along with it.
 *
 * @example Usage
 * ```ts
 * import { visibleFiles } from "./visible.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/src/api`, { recursive: true });
 * Deno.writeTextFileSync(`${root}/tech.md`, "- t\n");
 * Deno.writeTextFileSync(`${root}/src/api/patterns.md`, "- p\n");
 * const visible = visibleFiles(root, ["src/api/edge.md"], false);
 * assert.deepEqual(visible.get("src/api/edge.md")?.map((f) => f.relPath), ["src/api/patterns.md", "tech.md"]);
 * ```
 */
export function visibleFiles(
  libraryRoot: string,
  targets: Iterable<string>,
  foldCase: boolean,
): Map<string, VisibleFile[]> {
  const texts = new Map<string, string | null>();
  const textOf = (absPath: string): string | null => {
    if (texts.has(absPath)) return texts.get(absPath)!;
    const stat = statStamp(absPath);
    const read = "error" in stat ? null : readLibraryText(absPath, stat.size, MAX_VISIBLE_BYTES);
    const text = read?.kind === "text" ? read.text : null;
    texts.set(absPath, text);
    return text;
  };
  const byFolder = new Map<string, ReturnType<typeof collectLibraryFiles>>();
  const visible = new Map<string, VisibleFile[]>();
  for (const target of targets) {
    const folder = dirnameOf(target);
    let files = byFolder.get(folder);
    if (!files) byFolder.set(folder, files = collectLibraryFiles(libraryRoot, folder));
    const own = foldKey(target, foldCase);
    const list: VisibleFile[] = [];
    for (const file of files) {
      if (file.outside || foldKey(file.relPath, foldCase) === own) continue;
      const text = textOf(file.absPath);
      if (text !== null) list.push({ relPath: file.relPath, text });
    }
    visible.set(target, list);
  }
  return visible;
}
