import assert from "node:assert/strict";
import {
  findLibraryAbove,
  findLibraryForFile,
  findLibraryForSession,
  isTrustedOwner,
  type Library,
  lookUpLibraryAbove,
  lookUpLibraryForFile,
  lookUpLibraryForSession,
  placeFile,
  placeFileResolved,
  probeLibraryDir,
  refusalWarning,
  trustsOwnersOf,
} from "../src/core/discover.ts";
import { ConfigError, readLibraryConfig } from "../src/export/config.ts";
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

// ---------------------------------------------------------------------------------------------
// Ownership (issue 22, item 2): another user's library is neither served nor acted on, unless
// LIBRARIAN_PATH names it. The check is injected here; tests/ownership_test.ts runs it for real.

const NOBODY_OWNS_IT = () => false;

Deno.test("the user's and root's files are trusted, another user's are not; no owner told (Windows) is the user's", () => {
  assert.ok(isTrustedOwner(1000, 1000));
  assert.ok(isTrustedOwner(0, 1000));
  assert.ok(!isTrustedOwner(1001, 1000));
  assert.ok(!isTrustedOwner(65534, 0));
  assert.ok(isTrustedOwner(null, 1000));
  assert.ok(isTrustedOwner(1001, null));
});

Deno.test("another user's library folder is refused, and the lookup names it", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/a.md": "outer",
    "shared/_memory_library/b.md": "theirs",
    "shared/me/src/x.ts": "",
  });
  const start = `${dir.path}/shared/me/src`;
  assert.deepEqual(
    probeLibraryDir(`${dir.path}/shared/_memory_library`, dir.path, NOBODY_OWNS_IT),
    "not-owned",
  );
  assert.deepEqual(lookUpLibraryAbove(start, "file", NOBODY_OWNS_IT), {
    refused: `${dir.path}/shared/_memory_library`,
    reason: "not-owned",
  });
  // the owner check reads the lstat the search makes anyway: a trusted owner finds it as before
  assert.equal(
    (lookUpLibraryAbove(start, "file", (uid) => uid === Deno.statSync(dir.path).uid) as Library)
      .root,
    `${dir.path}/shared/_memory_library`,
  );
  assert.deepEqual(lookUpLibraryForFile(`${start}/x.ts`, NO_ENV, NOBODY_OWNS_IT), {
    refused: `${dir.path}/shared/_memory_library`,
    reason: "not-owned",
  });
  const session = lookUpLibraryForSession(
    start,
    envFrom({ CLAUDE_PROJECT_DIR: start }),
    NOBODY_OWNS_IT,
  );
  assert.deepEqual(session, { refused: `${dir.path}/shared/_memory_library`, reason: "not-owned" });
});

Deno.test(
  "a library linked inside its project is refused when the link or its target is another user's",
  {
    ignore: skipOnWindows("creates a symbolic link"),
  },
  async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { "proj/notes/a.md": "" });
    await Deno.symlink(`${dir.path}/proj/notes`, `${dir.path}/proj/_memory_library`);
    const mine = Deno.statSync(dir.path).uid;
    const library = `${dir.path}/proj/_memory_library`;
    assert.equal(probeLibraryDir(library, `${dir.path}/proj`, (uid) => uid === mine), "library");
    assert.equal(probeLibraryDir(library, `${dir.path}/proj`, NOBODY_OWNS_IT), "not-owned");
  },
);

Deno.test("LIBRARIAN_PATH names a library of any owner: the user chose it", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "shared/_memory_library/b.md": "" });
  const env = envFrom({ LIBRARIAN_PATH: `${dir.path}/shared/_memory_library` });
  const found = lookUpLibraryForFile(`${dir.path}/shared/x.ts`, env, NOBODY_OWNS_IT);
  assert.equal((found as Library).foundBy, "LIBRARIAN_PATH");
  assert.ok(trustsOwnersOf(found as Library)(65534));
});

Deno.test("the refusal's one-line warning names the folder and the way to use it anyway", () => {
  const line = refusalWarning({ refused: "/tmp/_memory_library", reason: "not-owned" });
  assert.ok(line.startsWith("/tmp/_memory_library is not used: it is owned by another user"));
  assert.match(line, /set LIBRARIAN_PATH to it/);
  assert.ok(!line.includes("\n"));
});

Deno.test("another user's .librarian.json chooses nothing: it is refused with its name", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".librarian.json": '{"version":1,"export":["agents-md"]}' });
  assert.deepEqual(readLibraryConfig(dir.path).export, ["agents-md"]);
  assert.throws(
    () => readLibraryConfig(dir.path, NOBODY_OWNS_IT),
    (error: Error) =>
      error instanceof ConfigError && error.message.includes(`${dir.path}/.librarian.json`) &&
      /owned by another user/.test(error.message),
  );
});
