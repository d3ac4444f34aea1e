/**
 * `import` reads inside the folder it imports and writes inside the library (issue 22): a nested
 * `CLAUDE.md` that links to a private file is not copied, a FIFO named `CLAUDE.md` is never
 * opened, an oversized bank file is not copied whole, a folder named `AGENTS.md` does not abort
 * the import, and a library file the person links to is written through, never replaced.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

async function project(root: string, files: Record<string, string> = {}) {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "# tech\n",
    "proj/src/api/handler.ts": "",
    ...files,
  });
  return join(root, "proj");
}

/** Every file's text under the library, joined. */
async function libraryText(dir: string): Promise<string> {
  let all = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) all += await libraryText(path);
    else if (entry.isFile) all += await Deno.readTextFile(path);
  }
  return all;
}

Deno.test(
  "import never copies a nested CLAUDE.md that links to a private file outside the project",
  {
    ignore: skipOnWindows("needs symbolic links"),
  },
  async () => {
    await using dir = await tempDir();
    const cwd = await project(dir.path, {
      "private/notes.md": "- PRIVATE-DIARY: never in the repository\n",
      "proj/src/api/AGENTS.md": "- the api's own rule\n",
    });
    await Deno.symlink(join(dir.path, "private/notes.md"), join(cwd, "src/api/CLAUDE.md"));
    const result = await runLibrarian(["import", ".", "--yes", "--hand-over"], { cwd });
    assert.doesNotMatch(await libraryText(join(cwd, "_memory_library")), /PRIVATE-DIARY/);
    assert.match(await libraryText(join(cwd, "_memory_library")), /the api's own rule/);
    assert.match(result.stdout, /src\/api\/CLAUDE\.md.*outside/);
  },
);

Deno.test("import never opens a FIFO named CLAUDE.md: it finishes and names it", {
  ignore: skipOnWindows("needs FIFOs"),
}, async () => {
  await using dir = await tempDir();
  const cwd = await project(dir.path, { "proj/src/api/AGENTS.md": "- kept\n" });
  await new Deno.Command("mkfifo", { args: [join(cwd, "src/api/CLAUDE.md")] }).output();
  const result = await runLibrarian(["import", ".", "--yes", "--hand-over"], {
    cwd,
    deadlineMs: 30_000,
  });
  assert.equal(result.killed, false, "import blocked on the FIFO");
  assert.match(result.stdout, /src\/api\/CLAUDE\.md.*not a regular file/);
  assert.match(await libraryText(join(cwd, "_memory_library")), /- kept/);
});

Deno.test("import does not copy a bank file past the size limit whole (the 48 MB tech file)", async () => {
  await using dir = await tempDir();
  const cwd = await project(dir.path);
  const huge = "- a line of the bank, repeated\n".repeat(100_000); // about 3 MB
  await writeTree(dir.path, { "bank/techContext.md": huge, "bank/projectbrief.md": "- brief\n" });
  const result = await runLibrarian(["import", join(dir.path, "bank"), "--yes", "--hand-over"], {
    cwd,
  });
  const tech = await Deno.readTextFile(join(cwd, "_memory_library/tech.md"));
  assert.ok(tech.length < 100_000, `tech.md is ${tech.length} characters`);
  assert.match(result.stdout, /techContext\.md.*bytes, more than/);
  assert.match(await libraryText(join(cwd, "_memory_library")), /- brief/);
});

Deno.test("a folder named AGENTS.md does not abort the import", async () => {
  await using dir = await tempDir();
  const cwd = await project(dir.path, {
    "proj/src/api/AGENTS.md/readme.txt": "a folder, not a file\n",
    "proj/src/api/CLAUDE.md": "- the api's rule\n",
  });
  const result = await runLibrarian(["import", ".", "--yes", "--hand-over"], { cwd });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(await libraryText(join(cwd, "_memory_library")), /the api's rule/);
});

Deno.test("import writes through a library file the person links to, and the link stays", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const cwd = await project(dir.path, { "bank/techContext.md": "- Deno 2 only\n" });
  await Deno.remove(join(cwd, "_memory_library/tech.md"));
  await writeTree(cwd, { "_memory_library/shared/tech.md": "# tech\n" });
  await Deno.symlink("shared/tech.md", join(cwd, "_memory_library/tech.md"));
  const result = await runLibrarian(["import", join(dir.path, "bank"), "--yes", "--hand-over"], {
    cwd,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.ok((await Deno.lstat(join(cwd, "_memory_library/tech.md"))).isSymlink);
  assert.match(await Deno.readTextFile(join(cwd, "_memory_library/shared/tech.md")), /Deno 2/);
});
