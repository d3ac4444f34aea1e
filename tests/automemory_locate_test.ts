/**
 * Finding Claude Code's auto-memory folder for a project, as Claude Code 2.1.197 lays it out:
 * `<config>/projects/<encoded git root>/memory/`, or `autoMemoryDirectory` from settings.
 */
import assert from "node:assert/strict";
import type { Library } from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import { canonicalGitRoot } from "../src/git/memory_root.ts";
import {
  configuredAutoMemoryDir,
  configuredMemoryDirOf,
  encodeProjectDir,
  listMemoryFiles,
  memoryDirs,
  memoryDirSetting,
  projectPathHash,
} from "../src/automemory/memory_locate.ts";
import { joinPath } from "../src/core/paths.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

function libraryAt(projectRoot: string): Library {
  return { root: joinPath(projectRoot, "_memory_library"), projectRoot, foundBy: "cwd" };
}

Deno.test("project folder names: every character outside [A-Za-z0-9] becomes '-'", () => {
  assert.equal(encodeProjectDir("/home/user/work/my-repo"), "-home-user-work-my-repo");
  assert.equal(encodeProjectDir("/home/u/my_project.v2"), "-home-u-my-project-v2");
  assert.equal(encodeProjectDir("C:\\Users\\x"), "C--Users-x");
  assert.equal(encodeProjectDir("/tmp/文档/a b"), "-tmp----a-b");
  assert.equal(encodeProjectDir("/x/😀"), "-x---", "one '-' per UTF-16 unit");
});

Deno.test("project folder names over 200 characters: cut, then '-' and a base-36 hash", () => {
  const long = "/" + "a".repeat(250);
  const name = encodeProjectDir(long);
  assert.equal(name.slice(0, 201), "-" + "a".repeat(199) + "-");
  assert.equal(name, `${"-" + "a".repeat(199)}-${Math.abs(projectPathHash(long)).toString(36)}`);
  assert.notEqual(encodeProjectDir(long + "b"), name, "different paths, different names");
  assert.equal(projectPathHash("abc"), 96354, "(h << 5) - h + c over UTF-16 units");
});

Deno.test("long project folder names match Claude Code 2.1.197's own function", () => {
  // Computed by running `$E` (and its hash `jCe`) extracted from the 2.1.197 bundle.
  const cases: ReadonlyArray<[string, string]> = [
    ["/" + "a".repeat(250), "feo44x"],
    ["/home/user/" + "x".repeat(200) + "/repo", "25vpby"],
    ["/tmp/" + "é".repeat(210), "jvwydj"],
    ["/x/" + "😀".repeat(120), "rq304y"],
  ];
  for (const [path, hash] of cases) {
    const expected = `${path.replace(/[^a-zA-Z0-9]/g, "-").slice(0, 200)}-${hash}`;
    assert.equal(encodeProjectDir(path), expected, path.slice(0, 20));
  }
});

Deno.test("canonicalGitRoot: a repository, a worktree of it, and a submodule", async () => {
  await using dir = await tempDir();
  const main = joinPath(dir.path, "main");
  const wt = joinPath(dir.path, "wt");
  const sub = joinPath(main, "vendor", "lib");
  await Deno.mkdir(joinPath(main, ".git", "worktrees", "wt"), { recursive: true });
  await Deno.mkdir(joinPath(main, ".git", "modules", "lib"), { recursive: true });
  await writeTree(dir.path, {
    "main/.git/worktrees/wt/commondir": "../..\n",
    "main/.git/worktrees/wt/gitdir": `${joinPath(wt, ".git")}\n`,
    "wt/.git": `gitdir: ${joinPath(main, ".git", "worktrees", "wt")}\n`,
    "main/vendor/lib/.git": "gitdir: ../../.git/modules/lib\n",
  });
  await Deno.mkdir(joinPath(wt, "src"), { recursive: true });
  assert.equal(canonicalGitRoot(joinPath(main, "a", "b")), main);
  assert.equal(canonicalGitRoot(joinPath(wt, "src")), main, "worktrees share the main checkout's");
  assert.equal(canonicalGitRoot(sub), sub);
  assert.equal(canonicalGitRoot("/"), null);
});

Deno.test("canonicalGitRoot: a worktree of a bare repository maps to the bare git folder", async () => {
  // The `.bare` layout: proj/.bare (bare repository), proj/.git = "gitdir: ./.bare",
  // proj/main (a linked worktree). Claude Code names the memory after proj/.bare.
  await using dir = await tempDir();
  const proj = joinPath(dir.path, "proj");
  const bare = joinPath(proj, ".bare");
  const main = joinPath(proj, "main");
  await Deno.mkdir(joinPath(bare, "worktrees", "main"), { recursive: true });
  await Deno.mkdir(joinPath(main, "src"), { recursive: true });
  await writeTree(proj, {
    ".git": "gitdir: ./.bare\n",
    ".bare/HEAD": "ref: refs/heads/main\n",
    ".bare/worktrees/main/commondir": "../..\n",
    ".bare/worktrees/main/gitdir": `${joinPath(main, ".git")}\n`,
    "main/.git": `gitdir: ${joinPath(bare, "worktrees", "main")}\n`,
  });
  assert.equal(canonicalGitRoot(joinPath(main, "src")), bare);
  assert.equal(canonicalGitRoot(proj), proj, "the top folder's own pointer has no commondir");
});

Deno.test("canonicalGitRoot: a worktree whose gitdir does not point back is its own root", async () => {
  await using dir = await tempDir();
  const main = joinPath(dir.path, "main");
  const wt = joinPath(dir.path, "wt");
  await Deno.mkdir(joinPath(main, ".git", "worktrees", "wt"), { recursive: true });
  await writeTree(dir.path, {
    "main/.git/worktrees/wt/commondir": "../..\n",
    "main/.git/worktrees/wt/gitdir": `${joinPath(dir.path, "other", ".git")}\n`,
    "wt/.git": `gitdir: ${joinPath(main, ".git", "worktrees", "wt")}\n`,
  });
  assert.equal(canonicalGitRoot(wt), wt);
});

Deno.test("canonicalGitRoot never waits on a FIFO commondir", {
  ignore: skipOnWindows("needs FIFOs"),
}, async () => {
  await using dir = await tempDir();
  const main = joinPath(dir.path, "main");
  const wt = joinPath(dir.path, "wt");
  await Deno.mkdir(joinPath(main, ".git", "worktrees", "wt"), { recursive: true });
  await writeTree(dir.path, {
    "wt/.git": `gitdir: ${joinPath(main, ".git", "worktrees", "wt")}\n`,
  });
  const mkfifo = new Deno.Command("mkfifo", {
    args: [joinPath(main, ".git", "worktrees", "wt", "commondir")],
  });
  assert.equal((await mkfifo.output()).code, 0);
  assert.equal(canonicalGitRoot(wt), wt);
});

Deno.test("autoMemoryDirectory values are taken as Claude Code takes them", () => {
  const home = "/home/me";
  assert.equal(memoryDirSetting("/srv/mem", home), "/srv/mem");
  assert.equal(memoryDirSetting("/srv/mem///", home), "/srv/mem");
  assert.equal(memoryDirSetting("~/mem", home), "/home/me/mem");
  assert.equal(memoryDirSetting("~\\mem", home), "/home/me/mem");
  assert.equal(memoryDirSetting("/srv/cafe\u0301", home), "/srv/caf\u00e9", "NFC");
  for (const ignored of ["mem", "./mem", "~", "~/", "~/..", "~/../x", "/", "//server/share", 7]) {
    assert.equal(memoryDirSetting(ignored, home), null, String(ignored));
  }
  assert.equal(memoryDirSetting("~/mem", undefined), null, "no home folder: no expansion");
});

Deno.test("memoryDirs finds the encoded folder, a long-name folder and autoMemoryDirectory", async () => {
  await using dir = await tempDir();
  const claude = joinPath(dir.path, "claude");
  const project = joinPath(dir.path, "p".repeat(220));
  await Deno.mkdir(joinPath(project, "_memory_library"), { recursive: true });
  const prefix = encodeProjectDir(project).slice(0, 200);
  // A different Claude Code version appended another hash: one unique prefix match is accepted.
  const longDir = joinPath(claude, "projects", `${prefix}-otherhash`, "memory");
  const custom = joinPath(dir.path, "custom-memory");
  await Deno.mkdir(longDir, { recursive: true });
  await Deno.mkdir(custom, { recursive: true });
  await writeTree(project, {
    ".claude/settings.local.json": JSON.stringify({ autoMemoryDirectory: custom }),
  });
  await trust(claude, project);
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, HOME: dir.path });
  assert.deepEqual(memoryDirs(libraryAt(project), env), [custom, longDir]);

  const short = joinPath(dir.path, "short");
  await Deno.mkdir(joinPath(short, "_memory_library"), { recursive: true });
  const shortDir = joinPath(claude, "projects", encodeProjectDir(short), "memory");
  await Deno.mkdir(shortDir, { recursive: true });
  assert.deepEqual(memoryDirs(libraryAt(short), env), [shortDir]);
  assert.deepEqual(memoryDirs(libraryAt(joinPath(dir.path, "none")), env), []);
});

/** Records that the person accepted Claude Code's trust dialog for `folder`. */
async function trust(claude: string, folder: string) {
  const projects = { [folder]: { hasTrustDialogAccepted: true } };
  await writeTree(claude, { ".claude.json": JSON.stringify({ projects }) });
}

Deno.test("autoMemoryDirectory follows Claude Code 2.1.197: policy, local, project (trusted only), user; a committed value is never synced (issue 22)", async () => {
  await using dir = await tempDir();
  const claude = joinPath(dir.path, "claude");
  const project = joinPath(dir.path, "proj");
  const [policyDir, local, committed, user] = ["policy", "local", "committed", "user"].map((n) =>
    joinPath(dir.path, n)
  );
  for (const d of [policyDir!, local!, committed!, user!, joinPath(project, "_memory_library")]) {
    await Deno.mkdir(d, { recursive: true });
  }
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, HOME: dir.path });
  const library = libraryAt(project);
  const policyFile = joinPath(dir.path, "managed-settings.json");
  const which = () => configuredMemoryDirOf([project], claude, env, { policyFile })?.source ?? null;

  await writeTree(claude, { "settings.json": JSON.stringify({ autoMemoryDirectory: user }) });
  assert.deepEqual(memoryDirs(library, env), [user]);
  await writeTree(project, {
    ".claude/settings.json": JSON.stringify({ autoMemoryDirectory: committed }),
    ".claude/settings.local.json": JSON.stringify({ autoMemoryDirectory: local }),
  });
  // An untrusted workspace: Claude Code ignores both project files, and so does the Librarian.
  assert.equal(which(), "user");
  assert.deepEqual(memoryDirs(library, env), [user], "a cloned repository chooses nothing");

  await trust(claude, dir.path); // a folder above the project counts
  assert.equal(which(), "local");
  assert.deepEqual(memoryDirs(library, env), [local]);

  await Deno.remove(joinPath(project, ".claude/settings.local.json"));
  assert.equal(which(), "project", "Claude Code uses the committed folder");
  assert.deepEqual(memoryDirs(library, env), [], "but it is not synced without the person's word");
  await writeTree(project, {
    ".claude/settings.local.json": JSON.stringify({ autoMemoryDirectory: committed }),
  });
  assert.deepEqual(memoryDirs(library, env), [committed], "named in their own settings: synced");

  await writeTree(dir.path, {
    "managed-settings.json": JSON.stringify({ autoMemoryDirectory: policyDir }),
  });
  assert.equal(which(), "policy", "managed settings win over everything");
  assert.equal(
    configuredAutoMemoryDir([project], claude, env, { policyFile }),
    policyDir,
  );
});

Deno.test("memoryDirs never waits on a FIFO or reads a huge settings file", {
  ignore: skipOnWindows("needs FIFOs"),
}, async () => {
  await using dir = await tempDir();
  const claude = joinPath(dir.path, "claude");
  const project = joinPath(dir.path, "proj");
  await Deno.mkdir(joinPath(project, ".claude"), { recursive: true });
  await Deno.mkdir(claude, { recursive: true });
  for (
    const fifo of [
      joinPath(project, ".claude", "settings.local.json"),
      joinPath(claude, "settings.json"),
    ]
  ) {
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  }
  const huge = JSON.stringify({ autoMemoryDirectory: dir.path, pad: "x".repeat(2_000_000) });
  await writeTree(project, { ".claude/settings.json": huge });
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, HOME: dir.path });
  assert.deepEqual(memoryDirs(libraryAt(project), env), []);
});

Deno.test("memory files are found recursively; MEMORY.md, hidden names and other files are not", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "MEMORY.md": "- index\n",
    "feedback_a.md": "a",
    "team/MEMORY.md": "- team index\n",
    "team/project_b.md": "b",
    "team/deep/reference_c.md": "c",
    ".hidden/x.md": "x",
    ".draft.md": "x",
    "notes.txt": "x",
  });
  assert.deepEqual(listMemoryFiles(dir.path), [
    "feedback_a.md",
    "team/deep/reference_c.md",
    "team/project_b.md",
  ]);
});
