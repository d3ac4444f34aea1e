import assert from "node:assert/strict";
import {
  findLibraryAbove,
  findLibraryForFile,
  findLibraryForSession,
  placeFile,
  placeFileResolved,
} from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const NO_ENV = envFrom({});

Deno.test("findLibraryAbove() finds the nearest _memory_library/ walking up", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/a.md": "outer",
    "sub/_memory_library/b.md": "inner",
    "sub/src/deep/x.ts": "",
  });
  const inner = await findLibraryAbove(`${dir.path}/sub/src/deep`, "file");
  assert.equal(inner?.root, `${dir.path}/sub/_memory_library`);
  assert.equal(inner?.projectRoot, `${dir.path}/sub`);
  const outer = await findLibraryAbove(`${dir.path}/other`, "file");
  assert.equal(outer?.root, `${dir.path}/_memory_library`);
});

Deno.test("findLibraryAbove() gives null when no library exists above", async () => {
  await using dir = await tempDir();
  assert.equal(await findLibraryAbove(dir.path, "file"), null);
  assert.equal(await findLibraryAbove("relative/path", "file"), null);
});

Deno.test("LIBRARIAN_PATH wins over walking up, and its parent is the project", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "shelf/lib/a.md": "", "code/_memory_library/b.md": "" });
  const env = envFrom({ LIBRARIAN_PATH: `${dir.path}/shelf/lib` });
  const lib = await findLibraryForFile(`${dir.path}/code/x.ts`, env);
  assert.equal(lib?.root, `${dir.path}/shelf/lib`);
  assert.equal(lib?.projectRoot, `${dir.path}/shelf`);
  assert.equal(lib?.foundBy, "LIBRARIAN_PATH");
});

Deno.test("a LIBRARIAN_PATH that does not exist or is relative is ignored", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/a.md": "" });
  for (const value of [`${dir.path}/missing`, "relative/lib"]) {
    const lib = await findLibraryForFile(`${dir.path}/x.ts`, envFrom({ LIBRARIAN_PATH: value }));
    assert.equal(lib?.foundBy, "file");
  }
});

Deno.test("findLibraryForSession() tries CLAUDE_PROJECT_DIR before cwd", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "p1/_memory_library/a.md": "", "p2/_memory_library/a.md": "" });
  const env = envFrom({ CLAUDE_PROJECT_DIR: `${dir.path}/p1` });
  assert.equal((await findLibraryForSession(`${dir.path}/p2`, env))?.projectRoot, `${dir.path}/p1`);
  assert.equal((await findLibraryForSession(`${dir.path}/p2`, NO_ENV))?.foundBy, "cwd");
  assert.equal(await findLibraryForSession(undefined, NO_ENV), null);
});

Deno.test("placeFile() tells project files, outside files and library files apart", () => {
  const lib = { root: "/p/_memory_library", projectRoot: "/p", foundBy: "file" as const };
  assert.deepEqual(placeFile("/p/src/a.ts", lib, "linux"), {
    kind: "project",
    relPath: "src/a.ts",
  });
  assert.deepEqual(placeFile("/elsewhere/a.ts", lib, "linux"), { kind: "outside" });
  assert.deepEqual(placeFile("/p/_memory_library/x/a.md", lib, "linux"), { kind: "in-library" });
  assert.deepEqual(placeFile("/p", lib, "linux"), { kind: "outside" });
});

Deno.test("placeFile() matches Windows paths whatever the case of the drive", () => {
  const lib = {
    root: "C:/Repo/_memory_library",
    projectRoot: "C:/Repo",
    foundBy: "LIBRARIAN_PATH" as const,
  };
  assert.deepEqual(placeFile("C:/repo/src/a.ts", lib, "windows"), {
    kind: "project",
    relPath: "src/a.ts",
  });
  assert.deepEqual(placeFile("D:/repo/src/a.ts", lib, "windows"), { kind: "outside" });
});

Deno.test("placeFileResolved() sees through a symlinked checkout, even for a new file", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "real/_memory_library/a.md": "", "real/src/x.ts": "" });
  await Deno.symlink(`${dir.path}/real`, `${dir.path}/link`, { type: "dir" });
  const lib = {
    root: `${dir.path}/real/_memory_library`,
    projectRoot: `${dir.path}/real`,
    foundBy: "LIBRARIAN_PATH" as const,
  };
  assert.deepEqual(await placeFileResolved(`${dir.path}/link/src/new/y.ts`, lib), {
    kind: "project",
    relPath: "src/new/y.ts",
  });
});
