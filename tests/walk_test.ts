import assert from "node:assert/strict";
import {
  collectLibraryFiles,
  isServedName,
  labelOf,
  listLevel,
  matchSubfolder,
  mirrorLevels,
} from "../src/core/walk.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

Deno.test("mirrorLevels() lists the folder and every ancestor, root last", () => {
  assert.deepEqual(mirrorLevels("models/launch/btbi"), [
    "models/launch/btbi",
    "models/launch",
    "models",
    "",
  ]);
  assert.deepEqual(mirrorLevels(""), [""]);
});

Deno.test("labelOf() shows root files as <name> (library root)", () => {
  assert.equal(labelOf("patterns.md"), "patterns.md (library root)");
  assert.equal(labelOf("src/api/edge.md"), "src/api/edge.md");
});

Deno.test("isServedName() serves .md files but never scratch or other dotfiles", () => {
  assert.ok(isServedName("patterns.md"));
  assert.ok(isServedName("Notes.MD"));
  assert.ok(!isServedName(".scratch.md"));
  assert.ok(!isServedName(".hidden.md"));
  assert.ok(!isServedName("image.png"));
});

Deno.test("collectLibraryFiles() walks most specific first, files sorted within a level", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "tech.md": "t",
    "patterns.md": "p",
    ".scratch.md": "s",
    "src/zeta.md": "z",
    "src/alpha.md": "a",
    "src/api/edge.md": "e",
    "src/api/v2/notes.txt": "not md",
    "src/other/ignored.md": "sibling",
  });
  const files = await collectLibraryFiles(dir.path, "src/api/v2");
  assert.deepEqual(files.map((f) => f.label), [
    "src/api/edge.md",
    "src/alpha.md",
    "src/zeta.md",
    "patterns.md (library root)",
    "tech.md (library root)",
  ]);
  assert.equal(files[0]!.absPath, `${dir.path}/src/api/edge.md`);
});

Deno.test("listLevel() skips folders named like .md files and follows links to files", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "real.md": "r", "folder.md/inner.md": "i" });
  await Deno.symlink(`${dir.path}/real.md`, `${dir.path}/linked.md`, { type: "file" });
  await Deno.symlink(`${dir.path}/missing.md`, `${dir.path}/dangling.md`, { type: "file" });
  const files = await listLevel(dir.path, "");
  assert.deepEqual(files.map((f) => f.relPath), ["linked.md", "real.md"]);
});

Deno.test("listLevel() of a missing folder is empty", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await listLevel(dir.path, "no/such/folder"), []);
});

Deno.test("collectLibraryFiles() stops at the first level the library does not mirror", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "root.md": "r",
    "src/a.md": "a",
    "src/api/deep/orphan.md": "only reachable through src/api, which has no mirror of v2",
  });
  const files = collectLibraryFiles(dir.path, "src/other/api/deep");
  assert.deepEqual(files.map((f) => f.label), ["src/a.md", "root.md (library root)"]);
});

Deno.test("collectLibraryFiles() matches mirror folders regardless of case on Windows and macOS", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "Src/Api/edge.md": "e", "patterns.md": "p" });
  const insensitive = collectLibraryFiles(dir.path, "src/api", "darwin");
  assert.deepEqual(insensitive.map((f) => f.label), [
    "Src/Api/edge.md",
    "patterns.md (library root)",
  ]);
  const sensitive = collectLibraryFiles(dir.path, "src/api", "linux");
  assert.deepEqual(sensitive.map((f) => f.label), ["patterns.md (library root)"]);
});

Deno.test("matchSubfolder() prefers the exact name", () => {
  assert.equal(matchSubfolder(["API", "api"], "api", true), "api");
  assert.equal(matchSubfolder(["API"], "api", true), "API");
  assert.equal(matchSubfolder(["API"], "api", false), undefined);
});
