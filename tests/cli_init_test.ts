import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { commitAll, git, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

const IGNORE = "_memory_library/.scratch.md";
const ATTRIBUTE = "_memory_library/**/*.md merge=union";

async function readTree(root: string, paths: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of paths) out[p] = await Deno.readTextFile(join(root, p));
  return out;
}

Deno.test("init creates the library, the scratch file and both git settings", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["init"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.ok((await Deno.stat(join(dir.path, "_memory_library"))).isDirectory);
  assert.equal(await Deno.readTextFile(join(dir.path, "_memory_library/.scratch.md")), "");
  const ignore = await Deno.readTextFile(join(dir.path, ".gitignore"));
  assert.ok(ignore.split("\n").includes(IGNORE), ignore);
  const attributes = await Deno.readTextFile(join(dir.path, ".gitattributes"));
  assert.ok(attributes.split("\n").includes(ATTRIBUTE), attributes);
  assert.match(result.stdout, /created\s+_memory_library\//);
  assert.match(result.stdout, /librarian doctor/);
});

Deno.test("init is idempotent: a second run changes no file and says so", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".gitignore": "node_modules", ".gitattributes": "* text=auto\n" });
  assert.equal((await runLibrarian(["init"], { cwd: dir.path })).code, 0);
  const files = [".gitignore", ".gitattributes", "_memory_library/.scratch.md"];
  const before = await readTree(dir.path, files);
  const again = await runLibrarian(["init", "--json"], { cwd: dir.path });
  assert.equal(again.code, 0, again.stderr);
  const report = JSON.parse(again.stdout);
  assert.equal(report.changed, false);
  assert.ok(report.actions.every((a: { action: string }) => a.action === "unchanged"));
  assert.deepEqual(await readTree(dir.path, files), before);
  const text = await runLibrarian(["init"], { cwd: dir.path });
  assert.match(text.stdout, /already set up; nothing changed/);
});

Deno.test("init keeps existing .gitignore and .gitattributes lines and adds its own once", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".gitignore": "node_modules", ".gitattributes": "* text=auto\n" });
  await runLibrarian(["init"], { cwd: dir.path });
  await runLibrarian(["init"], { cwd: dir.path });
  const ignore = (await Deno.readTextFile(join(dir.path, ".gitignore"))).split("\n");
  assert.equal(ignore[0], "node_modules");
  assert.equal(ignore.filter((l) => l === IGNORE).length, 1);
  const attributes = (await Deno.readTextFile(join(dir.path, ".gitattributes"))).split("\n");
  assert.equal(attributes[0], "* text=auto");
  assert.equal(attributes.filter((l) => l === ATTRIBUTE).length, 1);
});

Deno.test("init accepts an ignore pattern that already covers the scratch file", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".gitignore": "**/.scratch.md\n*.tmp-*\n" });
  const result = await runLibrarian(["init", "--json"], { cwd: dir.path });
  const gitignore = JSON.parse(result.stdout).actions.find((a: { path: string }) =>
    a.path === ".gitignore"
  );
  assert.equal(gitignore.action, "unchanged");
  assert.equal(await Deno.readTextFile(join(dir.path, ".gitignore")), "**/.scratch.md\n*.tmp-*\n");
});

Deno.test("init keeps the temp files of an interrupted write out of git", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".gitignore": "**/.scratch.md\n" });
  await runLibrarian(["init"], { cwd: dir.path });
  const ignore = await Deno.readTextFile(join(dir.path, ".gitignore"));
  assert.ok(ignore.includes("_memory_library/**/*.tmp-*"));
  assert.ok(
    !ignore.includes("_memory_library/.scratch.md"),
    "the existing scratch pattern is kept",
  );
  const git = (args: string[]) =>
    new Deno.Command("git", { args, cwd: dir.path, stdout: "piped", stderr: "null" }).output();
  await git(["init", "-q"]);
  await writeTree(dir.path, {
    "_memory_library/src/tech.md.tmp-123-4-abc": "half-written",
    "_memory_library/tech.md.tmp-9-1-z": "half-written",
    "_memory_library/src/tech.md": "- kept",
  });
  const status = new TextDecoder().decode(
    (await git(["status", "--porcelain", "--untracked-files=all"])).stdout,
  );
  assert.ok(!status.includes(".tmp-"), status);
  assert.ok(status.includes("_memory_library/src/tech.md"), status);
});

Deno.test("init --json reports the project, the library and every action", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["init", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0);
  const report = JSON.parse(result.stdout);
  assert.equal(report.projectRoot, dir.path);
  assert.equal(report.library, `${dir.path}/_memory_library`);
  assert.equal(report.changed, true);
  assert.deepEqual(
    report.actions.map((a: { path: string; action: string }) => `${a.action} ${a.path}`),
    [
      "created _memory_library/",
      "created _memory_library/.scratch.md",
      "created _memory_library/.gitkeep",
      "created .gitignore",
      "created .gitattributes",
    ],
  );
});

Deno.test("init run in a sub-folder tends the existing library instead of nesting one", async () => {
  await using dir = await tempDir();
  await runLibrarian(["init"], { cwd: dir.path });
  await Deno.mkdir(join(dir.path, "src/api"), { recursive: true });
  const result = await runLibrarian(["init", "--json"], { cwd: join(dir.path, "src/api") });
  assert.equal(JSON.parse(result.stdout).projectRoot, dir.path);
  await assert.rejects(Deno.stat(join(dir.path, "src/api/_memory_library")));
});

Deno.test("init <folder> sets up that folder, relative to the current one", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "packages/web"), { recursive: true });
  const result = await runLibrarian(["init", "packages/web"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.ok((await Deno.stat(join(dir.path, "packages/web/_memory_library/.scratch.md"))).isFile);
});

Deno.test("init of a folder that does not exist exits 1 with a message", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["init", "no/such/folder"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /is not a folder/);
});

Deno.test("init with bad arguments exits 2 with a usage line", async () => {
  await using dir = await tempDir();
  const extra = await runLibrarian(["init", "a", "b"], { cwd: dir.path });
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /^Usage: librarian init /m);
  const unknown = await runLibrarian(["init", "--force"], { cwd: dir.path });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--force/);
  assert.match(unknown.stderr, /^Usage: librarian init /m);
  await assert.rejects(Deno.stat(join(dir.path, "_memory_library")));
});

/** Two branches each append a learning to the same library files, then merge. */
async function mergeTwoLearnings(dir: string): Promise<{ merged: boolean; files: string[] }> {
  await writeTree(dir, {
    "src/api/handler.ts": "export {};\n",
    "_memory_library/src/api/patterns.md": "# patterns\n\n- validate input at the edge\n",
    "_memory_library/tech.md": "# tech\n\n- Deno 2\n",
  });
  await commitAll(dir, "library");
  await gitOk(dir, "checkout", "-q", "-b", "alice");
  await Deno.writeTextFile(
    join(dir, "_memory_library/src/api/patterns.md"),
    "- alice: retries need idempotency keys\n",
    { append: true },
  );
  await Deno.writeTextFile(join(dir, "_memory_library/tech.md"), "- alice: pin std\n", {
    append: true,
  });
  await commitAll(dir, "alice learns");
  await gitOk(dir, "checkout", "-q", "main");
  await gitOk(dir, "checkout", "-q", "-b", "bob");
  await Deno.writeTextFile(
    join(dir, "_memory_library/src/api/patterns.md"),
    "- bob: errors are RFC 9457 problem details\n",
    { append: true },
  );
  await Deno.writeTextFile(join(dir, "_memory_library/tech.md"), "- bob: no jsr imports\n", {
    append: true,
  });
  await commitAll(dir, "bob learns");
  const merge = await git(dir, "merge", "--no-edit", "alice");
  return {
    merged: merge.code === 0,
    files: [
      await Deno.readTextFile(join(dir, "_memory_library/src/api/patterns.md")),
      await Deno.readTextFile(join(dir, "_memory_library/tech.md")),
    ],
  };
}

Deno.test("after init, two branches that append learnings to the same file merge cleanly", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await gitInit(dir.path);
  assert.equal((await runLibrarian(["init"], { cwd: dir.path })).code, 0);
  await commitAll(dir.path, "init");
  const { merged, files } = await mergeTwoLearnings(dir.path);
  assert.ok(merged, "git merge should succeed");
  const [patterns, tech] = files;
  assert.match(patterns!, /alice: retries need idempotency keys/);
  assert.match(patterns!, /bob: errors are RFC 9457 problem details/);
  assert.match(patterns!, /validate input at the edge/);
  assert.match(tech!, /alice: pin std/);
  assert.match(tech!, /bob: no jsr imports/);
  assert.doesNotMatch(patterns! + tech!, /^(<{7}|>{7}|={7})/m);
  assert.equal((await gitOk(dir.path, "status", "--porcelain")).trim(), "");
});

Deno.test("without init's merge=union attribute the same two branches conflict", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await gitInit(dir.path);
  await writeTree(dir.path, { "README.md": "x\n" });
  await commitAll(dir.path, "start");
  const { merged } = await mergeTwoLearnings(dir.path);
  assert.equal(merged, false);
});

Deno.test("init in a subfolder of a git repository sets up at the repository's root", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "src/api/handler.ts": "" });
  await Deno.mkdir(join(dir.path, ".git"));
  const result = await runLibrarian(["init", "--json"], { cwd: join(dir.path, "src", "api") });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).projectRoot, dir.path);
  assert.ok(Deno.statSync(join(dir.path, "_memory_library", ".scratch.md")).isFile);
  assert.throws(() => Deno.statSync(join(dir.path, "src", "api", "_memory_library")));
});

Deno.test("init <folder> in a git repository still sets up in that folder (a sub-project)", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "packages/web/index.ts": "" });
  await Deno.mkdir(join(dir.path, ".git"));
  const result = await runLibrarian(["init", "packages/web"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(Deno.statSync(join(dir.path, "packages", "web", "_memory_library")).isDirectory);
  assert.throws(() => Deno.statSync(join(dir.path, "_memory_library")));
});

Deno.test("init --dry-run lists what it would create and writes nothing", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["init", "--dry-run", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.dryRun, true);
  assert.equal(report.changed, true);
  assert.deepEqual(
    report.actions.map((a: { path: string; action: string }) => `${a.action} ${a.path}`),
    [
      "created _memory_library/",
      "created _memory_library/.scratch.md",
      "created _memory_library/.gitkeep",
      "created .gitignore",
      "created .gitattributes",
    ],
  );
  assert.deepEqual([...Deno.readDirSync(dir.path)], []);
  const text = await runLibrarian(["init", "--dry-run"], { cwd: dir.path });
  assert.match(text.stdout, /^Would set up the memory library in .* \(dry run, nothing written\):/);
});

Deno.test("init --json reports an error as JSON, with the exit code", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["init", "missing-folder", "--json"], { cwd: dir.path });
  assert.equal(result.code, 1);
  const error = JSON.parse(result.stdout);
  assert.equal(typeof error.version, "string");
  assert.match(error.error, /missing-folder is not a folder/);
  assert.equal(error.exitCode, 1);
  assert.equal(result.stderr, "");
});

Deno.test("init writes nothing through a link that leads outside the repository", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const outside = join(dir.path, "outside");
  await Deno.mkdir(outside);
  await Deno.mkdir(join(dir.path, "proj"));
  await Deno.symlink(join(outside, "gitignore"), join(dir.path, "proj/.gitignore"));
  await Deno.symlink(outside, join(dir.path, "proj/_memory_library"));
  const result = await runLibrarian(["init"], { cwd: join(dir.path, "proj") });
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stderr, /leads outside the repository/);
  assert.deepEqual([...Deno.readDirSync(outside)], []);
});
