/**
 * The whole-library scan behind `status`, `lint` and `export` (`src/core/library_scan.ts`):
 * parents before children in code-point order, hidden folders skipped, served files marked.
 */
import assert from "node:assert/strict";
import { scanLibrary, servedFiles } from "../src/core/library_scan.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

Deno.test("folders come parents first, names in code-point order, hidden folders skipped", {
  ignore: skipOnWindows("needs a case-sensitive file system (b and B)"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "tech.md": "# t\n",
    "b/x.md": "x",
    "B/y.md": "y",
    "a/deep/z.md": "z",
    ".git/config.md": "never",
  });
  const folders = await scanLibrary(dir.path);
  assert.deepEqual(folders.map((f) => [f.relDir, f.depth]), [
    ["", 0],
    ["B", 1],
    ["a", 1],
    ["a/deep", 2],
    ["b", 1],
  ]);
  assert.equal(folders[0]!.files[0]!.size, 4);
});

Deno.test("served files are the .md files that are not dotfiles, scratch included out", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "tech.md": "t",
    ".scratch.md": "s",
    "notes.txt": "n",
    "src/api.MD": "a",
  });
  const folders = await scanLibrary(dir.path);
  assert.deepEqual(servedFiles(folders).map((f) => f.relPath), ["tech.md", "src/api.MD"]);
  assert.deepEqual(folders[0]!.files.map((f) => [f.name, f.served]), [
    [".scratch.md", false],
    ["notes.txt", false],
    ["tech.md", true],
  ]);
});

Deno.test("a missing library scans as nothing, not an error", async () => {
  await using dir = await tempDir();
  const folders = await scanLibrary(`${dir.path}/none`);
  assert.deepEqual(servedFiles(folders), []);
});
