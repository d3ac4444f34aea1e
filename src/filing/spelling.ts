/**
 * The spelling a target path already has on disk (effectful, read-only).
 *
 * Tags are compared in NFC, but a folder may be spelled in NFD on disk (macOS tools, archives,
 * another machine). Filing into the tag's own spelling would then create a second folder beside
 * the first, and inject would serve only one of them. So each segment takes the spelling of the
 * library folder that already has its name in NFC; a folder the library does not have yet takes
 * the spelling of the code folder it mirrors, if that exists; otherwise the tag's NFC spelling.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { joinPath } from "../core/paths.ts";

/** The entry of `dir` named `segment` up to Unicode normalisation, or `null`. */
function entryNamed(dir: string, segment: string): string | null {
  try {
    Deno.lstatSync(joinPath(dir, segment));
    return segment;
  } catch {
    // not under this exact spelling: look for another one
  }
  const wanted = segment.normalize("NFC");
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name.normalize("NFC") === wanted) return entry.name;
    }
  } catch {
    // no such folder (or unreadable): nothing is spelled there
  }
  return null;
}

/** The on-disk spelling of each leading segment of `segments` under `root` that exists. */
function spelledUnder(root: string, segments: readonly string[]): string[] {
  const spelled: string[] = [];
  let dir = root;
  for (const segment of segments) {
    const name = entryNamed(dir, segment);
    if (name === null) break;
    spelled.push(name);
    dir = joinPath(dir, name);
  }
  return spelled;
}

/**
 * `relPath` (library-relative, `/`-separated) with each segment spelled as the library, or else
 * the project's code tree, already spells it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/lib/cafe\u0301`, { recursive: true });
 * const library = { root: `${root}/lib`, projectRoot: root, foundBy: "cwd" as const };
 * assert.equal(existingSpelling(library, "caf\u00e9/tech.md"), "cafe\u0301/tech.md");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function existingSpelling(library: Library, relPath: string): string {
  // ASCII names have one spelling: no folder is read.
  // deno-lint-ignore no-control-regex
  if (/^[\u0000-\u007f]*$/.test(relPath)) return relPath;
  const segments = relPath.split("/");
  const inLibrary = spelledUnder(library.root, segments);
  if (inLibrary.length === segments.length) return inLibrary.join("/");
  // The file name (last segment) is never looked up in the code tree.
  const inCode = spelledUnder(library.projectRoot, segments.slice(0, -1));
  return segments.map((segment, i) => inLibrary[i] ?? inCode[i] ?? segment).join("/");
}
