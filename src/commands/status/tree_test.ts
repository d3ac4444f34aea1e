/**
 * The folder tree of `librarian status` (`src/commands/status/tree.ts`): natural order, and a
 * collapsed view that still counts everything below what it shows.
 */
import assert from "node:assert/strict";
import {
  collapseTree,
  compareFolderPaths,
  DEFAULT_MAX_ROWS,
  type FolderRow,
  naturalTreeOrder,
} from "./tree.ts";

const row = (path: string, files = 1, bytes = 10): FolderRow => ({
  path,
  depth: path === "" ? 0 : path.split("/").length,
  files,
  bytes,
});

Deno.test("folders sort parents first, numbers by value, whatever the case", () => {
  const paths = ["v10", "v2", "a/b", "", "B", "a"];
  assert.deepEqual(paths.sort(compareFolderPaths), ["", "a", "a/b", "B", "v2", "v10"]);
  assert.ok(compareFolderPaths("a", "a-b") < 0);
  assert.notEqual(compareFolderPaths("a", "A"), 0, "two spellings never tie");
});

Deno.test("natural order returns a new array and leaves the input alone", () => {
  const rows = [row("src/api"), row(""), row("src")];
  assert.deepEqual(naturalTreeOrder(rows).map((r) => r.path), ["", "src", "src/api"]);
  assert.equal(rows[0]!.path, "src/api");
});

Deno.test("collapsing to a depth adds what is hidden to the nearest shown folder", () => {
  const rows = naturalTreeOrder([
    row(""),
    row("a"),
    row("a/b", 2, 20),
    row("a/b/c", 3, 30),
    row("d"),
  ]);
  const { rows: shown, depth, hidden } = collapseTree(rows, 1);
  assert.equal(depth, 1);
  assert.equal(hidden, 2);
  assert.deepEqual(shown.map((r) => r.path), ["", "a", "d"]);
  assert.deepEqual(shown[1]!.below, { folders: 2, files: 5, bytes: 50 });
  assert.equal(shown[2]!.below, undefined);
});

Deno.test("without a depth, the deepest level that fits the screen is chosen", () => {
  const wide = [row(""), ...Array.from({ length: DEFAULT_MAX_ROWS }, (_, i) => row(`f${i}`))];
  const deep = wide.flatMap((r) => r.path === "" ? [r] : [r, row(`${r.path}/x`)]);
  const { depth, hidden } = collapseTree(naturalTreeOrder(deep));
  assert.equal(depth, 1);
  assert.equal(hidden, DEFAULT_MAX_ROWS);
  assert.equal(collapseTree([row(""), row("a"), row("a/b")]).depth, 2);
});
