/**
 * Files that stay small: after a Stop files into a library file, whether that file has just
 * grown past its fair share of the budget (`format/budget.ts`: what a first touch of its folder
 * can show of it whole, given every file on the path), so the turn's message says so once, at the
 * moment it crosses, with the fix. A file already over its share before this turn is not told
 * again.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import { collectLibraryFiles, type LibraryFile } from "../core/walk.ts";
import { fairShare } from "../format/budget.ts";
import { stripMetadata } from "../format/library_doc.ts";

/** A target's knowledge before and after this turn, in characters. */
export interface Growth {
  /** Library-relative path. */
  target: string;
  before: number;
  after: number;
}

/** A file that crossed its fair share. */
export interface OverShare {
  target: string;
  chars: number;
  share: number;
  /** The code folder whose first touch sends it (`.` for the root). */
  folder: string;
}

/**
 * The targets that crossed their fair share this turn (pure): `others` are the characters of the
 * other files on each target's path.
 *
 * @example Usage
 * ```ts
 * import { crossedShare } from "./over_share.ts";
 * import assert from "node:assert/strict";
 *
 * const others = () => [6_000];
 * assert.deepEqual(crossedShare([{ target: "src/a.md", before: 4_000, after: 5_000 }], others, 9_000), [
 *   { target: "src/a.md", chars: 5_000, share: 4_500, folder: "src" },
 * ]);
 * // already over before this turn: told when it crossed, not again
 * assert.deepEqual(crossedShare([{ target: "src/a.md", before: 4_600, after: 5_000 }], others, 9_000), []);
 * ```
 */
export function crossedShare(
  grown: readonly Growth[],
  others: (target: string) => number[],
  budget: number,
): OverShare[] {
  const crossed: OverShare[] = [];
  for (const g of grown) {
    if (g.after <= g.before) continue;
    const rest = others(g.target);
    const share = fairShare([...rest, g.after], budget);
    if (g.after <= share) continue;
    if (g.before > fairShare([...rest, g.before], budget)) continue;
    const slash = g.target.lastIndexOf("/");
    crossed.push({
      target: g.target,
      chars: g.after,
      share,
      folder: slash < 0 ? "." : g.target.slice(0, slash),
    });
  }
  return crossed;
}

/**
 * The other files on a target's path, by their knowledge in characters (read from disk), for the
 * targets of one turn: each folder's files are listed, and each file read, once for all of them
 * (a turn that files into 150 targets asked about the same folders and files again and again).
 */
function othersOnPaths(library: Library): (target: string) => number[] {
  const filesOf = new Map<string, LibraryFile[]>();
  const charsOf = new Map<string, number | undefined>();
  const chars = (absPath: string): number | undefined => {
    if (charsOf.has(absPath)) return charsOf.get(absPath);
    const stat = statStamp(absPath);
    const text = "error" in stat ? undefined : readLibraryText(absPath, stat.size, 256 * 1024);
    const count = text === undefined
      ? undefined
      : text.kind === "text"
      ? stripMetadata(text.text).length
      : 0;
    charsOf.set(absPath, count);
    return count;
  };
  return (target) => {
    const slash = target.lastIndexOf("/");
    const folder = slash < 0 ? "" : target.slice(0, slash);
    let files = filesOf.get(folder);
    if (!files) filesOf.set(folder, files = collectLibraryFiles(library.root, folder));
    const sizes: number[] = [];
    for (const file of files) {
      if (file.relPath === target || file.outside) continue;
      const count = chars(file.absPath);
      if (count !== undefined) sizes.push(count);
    }
    return sizes;
  };
}

/**
 * The turn's words for each file that crossed its fair share this turn, with the fix.
 *
 * @example Usage
 * ```ts
 * import { overShareMessages } from "./over_share.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * const library = { root, projectRoot: root, foundBy: "cwd" as const };
 * Deno.writeTextFileSync(`${root}/tech.md`, "x".repeat(2_000));
 * const [message] = overShareMessages(library, [{ target: "tech.md", before: 900, after: 2_000 }], 1_000);
 * assert.match(message!, /tech\.md is now over its fair share .*librarian tidy/);
 * ```
 */
export function overShareMessages(
  library: Library,
  grown: readonly Growth[],
  budget: number,
): string[] {
  return crossedShare(grown, othersOnPaths(library), budget).map((o) =>
    `${o.target} is now over its fair share of the context (${o.chars} characters; a first ` +
    `touch of ${o.folder} shows ${o.share} whole): run 'librarian tidy' to move learnings down ` +
    `into sub-folders and drop duplicates, or '/librarian-curate ${o.folder}' to consolidate it`
  );
}
