/**
 * The library's folder tree as `librarian status` shows it: in natural order (m1, m2, m10), and
 * collapsed below a depth, each shown folder counting what lies beneath it.
 *
 * Pure.
 *
 * @module
 */

/** One library folder: its path relative to the library root (`""` for the root). */
export interface FolderRow {
  path: string;
  depth: number;
  files: number;
  bytes: number;
}

/** A shown folder, with what is hidden below it when the tree is collapsed. */
export interface ShownFolder extends FolderRow {
  below?: { folders: number; files: number; bytes: number };
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "variant" });

/**
 * Compares two folder paths segment by segment, numbers by value (`m2` before `m10`), so a
 * folder's children follow it directly.
 *
 * @example Usage
 * ```ts
 * import { compareFolderPaths } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const paths = ["m10", "m2", "m1", "m1/b", ""];
 * assert.deepEqual(paths.sort(compareFolderPaths), ["", "m1", "m1/b", "m2", "m10"]);
 * ```
 */
export function compareFolderPaths(a: string, b: string): number {
  const as = a === "" ? [] : a.split("/");
  const bs = b === "" ? [] : b.split("/");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const order = collator.compare(as[i]!, bs[i]!);
    if (order !== 0) return order;
    if (as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1;
  }
  return as.length - bs.length;
}

/**
 * The rows in natural tree order (a new array).
 *
 * @example Usage
 * ```ts
 * import { naturalTreeOrder } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const rows = [
 *   { path: "src/api", depth: 2, files: 1, bytes: 10 },
 *   { path: "", depth: 0, files: 1, bytes: 10 },
 *   { path: "src", depth: 1, files: 0, bytes: 0 },
 * ];
 * assert.deepEqual(naturalTreeOrder(rows).map((r) => r.path), ["", "src", "src/api"]);
 * assert.equal(rows[0]?.path, "src/api");
 * ```
 */
export function naturalTreeOrder(rows: readonly FolderRow[]): FolderRow[] {
  return [...rows].sort((x, y) => compareFolderPaths(x.path, y.path));
}

/** Rows shown when no depth is asked for: the deepest level that keeps the list this short. */
export const DEFAULT_MAX_ROWS = 40;

/**
 * The rows to show down to `depth` (default: the deepest level that fits in
 * {@link DEFAULT_MAX_ROWS} rows, at least 1), each with the folders, files and bytes below it
 * that are not shown, and how many folders were hidden in all.
 *
 * @example Usage
 * ```ts
 * import { collapseTree } from "./tree.ts";
 * import assert from "node:assert/strict";
 *
 * const rows = [
 *   { path: "", depth: 0, files: 1, bytes: 10 },
 *   { path: "a", depth: 1, files: 1, bytes: 10 },
 *   { path: "a/b", depth: 2, files: 2, bytes: 20 },
 * ];
 * const { rows: shown, hidden } = collapseTree(rows, 1);
 * assert.equal(shown.length, 2);
 * assert.deepEqual(shown[1]!.below, { folders: 1, files: 2, bytes: 20 });
 * assert.equal(hidden, 1);
 * ```
 */
export function collapseTree(
  rows: readonly FolderRow[],
  depth?: number,
): { rows: ShownFolder[]; depth: number; hidden: number } {
  const maxDepth = Math.max(0, ...rows.map((r) => r.depth));
  let chosen = depth;
  if (chosen === undefined) {
    chosen = maxDepth;
    while (chosen > 1 && rows.filter((r) => r.depth <= chosen!).length > DEFAULT_MAX_ROWS) {
      chosen--;
    }
  }
  const shown: ShownFolder[] = [];
  let hidden = 0;
  for (const row of rows) {
    if (row.depth <= chosen) {
      shown.push({ ...row });
      continue;
    }
    hidden++;
    // the nearest shown ancestor: the last shown row whose path is a prefix of this one
    const owner = shown.findLast((s) => s.path === "" || row.path.startsWith(`${s.path}/`));
    if (!owner) continue;
    owner.below ??= { folders: 0, files: 0, bytes: 0 };
    owner.below.folders++;
    owner.below.files += row.files;
    owner.below.bytes += row.bytes;
  }
  return { rows: shown, depth: chosen, hidden };
}
