import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { Library } from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import {
  canonicalGitRoot,
  encodeProjectDir,
  memoryDirs,
  projectPathHash,
} from "../src/automemory/locate.ts";
import {
  firstBodyLine,
  memoryBlock,
  parseMemoryFile,
  splitFrontMatter,
} from "../src/automemory/parse.ts";
import { scanAutoMemory, syncAutoMemory } from "../src/automemory/sync.ts";
import { tempDir, writeTree } from "./helpers.ts";

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

Deno.test("front matter: top-level type", () => {
  const parsed = parseMemoryFile(
    "---\nname: dbt-build\ndescription: Always run dbt build\ntype: feedback\n---\nbody\n",
    "feedback_dbt",
    parseYaml,
  );
  assert.deepEqual(parsed, {
    kind: "entry",
    entry: {
      name: "dbt-build",
      type: "feedback",
      mapped: "patterns",
      summary: "Always run dbt build",
    },
  });
});

Deno.test("front matter: type nested under metadata, CRLF and a BOM", () => {
  const parsed = parseMemoryFile(
    "\uFEFF---\r\nname: launch\r\nmetadata:\r\n  type: Project\r\n---\r\n# Launch\r\n\r\n- It is in March\r\n",
    "project_launch",
    parseYaml,
  );
  assert.deepEqual(parsed, {
    kind: "entry",
    entry: { name: "launch", type: "project", mapped: "product", summary: "It is in March" },
  });
});

Deno.test("front matter: reference maps to tech; a missing name falls back to the file stem", () => {
  const parsed = parseMemoryFile(
    "---\ntype: reference\ndescription: |\n  Grafana is at\n  grafana.internal\n---\n",
    "reference_grafana",
    parseYaml,
  );
  assert.deepEqual(parsed, {
    kind: "entry",
    entry: {
      name: "reference_grafana",
      type: "reference",
      mapped: "tech",
      summary: "Grafana is at grafana.internal",
    },
  });
});

Deno.test("front matter: user entries, unknown types and malformed YAML are skipped", () => {
  const cases: ReadonlyArray<[string, string]> = [
    ["---\nname: role\ntype: user\n---\n", "user"],
    ["---\nname: role\nmetadata: {type: user}\n---\n", "user"],
    ["no front matter\n", "no-front-matter"],
    ["---\nname: x\n", "no-front-matter"],
    ["---\nname: [unclosed\ntype: feedback\n---\n", "malformed"],
    ["---\n- a list\n---\n", "malformed"],
    ["---\nname: x\ndescription: y\n---\n", "no-type"],
    ["---\nname: x\ntype: diary\ndescription: y\n---\n", "unknown-type"],
    ["---\nname: x\ntype: feedback\n---\n\n# Only a heading\n", "empty"],
  ];
  for (const [text, why] of cases) {
    const parsed = parseMemoryFile(text, "stem", parseYaml);
    assert.equal(parsed.kind === "skip" && parsed.why, why, text);
  }
});

Deno.test("splitFrontMatter and firstBodyLine", () => {
  assert.deepEqual(splitFrontMatter("---\na: 1\n...\nrest\n"), { yaml: "a: 1\n", body: "rest\n" });
  assert.equal(firstBodyLine("\n# Title\n\n> quoted line\n"), "quoted line");
});

Deno.test("memoryBlock tags the entry for the library root", () => {
  assert.equal(
    memoryBlock({ name: "n", type: "feedback", mapped: "patterns", summary: "s" }),
    "## [TAG: global, type: patterns]\n- n: s\n",
  );
});

Deno.test("canonicalGitRoot: a repository, a worktree of it, and a submodule", async () => {
  await using dir = await tempDir();
  const main = join(dir.path, "main");
  const wt = join(dir.path, "wt");
  const sub = join(main, "vendor", "lib");
  await Deno.mkdir(join(main, ".git", "worktrees", "wt"), { recursive: true });
  await Deno.mkdir(join(main, ".git", "modules", "lib"), { recursive: true });
  await writeTree(dir.path, {
    "main/.git/worktrees/wt/commondir": "../..\n",
    "wt/.git": `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`,
    "main/vendor/lib/.git": "gitdir: ../../.git/modules/lib\n",
  });
  await Deno.mkdir(join(wt, "src"), { recursive: true });
  assert.equal(canonicalGitRoot(join(main, "a", "b")), main);
  assert.equal(
    canonicalGitRoot(join(wt, "src")),
    main,
    "worktrees share the main checkout's memory",
  );
  assert.equal(canonicalGitRoot(sub), sub);
  assert.equal(canonicalGitRoot("/"), null);
});

function libraryAt(projectRoot: string): Library {
  return { root: join(projectRoot, "_memory_library"), projectRoot, foundBy: "cwd" };
}

Deno.test("memoryDirs finds the encoded folder, a long-name folder and autoMemoryDirectory", async () => {
  await using dir = await tempDir();
  const claude = join(dir.path, "claude");
  const project = join(dir.path, "p".repeat(220));
  await Deno.mkdir(join(project, "_memory_library"), { recursive: true });
  const prefix = encodeProjectDir(project).slice(0, 200);
  // A different Claude Code version appended another hash: one unique prefix match is accepted.
  const longDir = join(claude, "projects", `${prefix}-otherhash`, "memory");
  const custom = join(dir.path, "custom-memory");
  await Deno.mkdir(longDir, { recursive: true });
  await Deno.mkdir(custom, { recursive: true });
  await writeTree(project, {
    ".claude/settings.local.json": JSON.stringify({ autoMemoryDirectory: custom }),
  });
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, HOME: dir.path });
  assert.deepEqual(memoryDirs(libraryAt(project), env), [custom, longDir]);

  const short = join(dir.path, "short");
  await Deno.mkdir(join(short, "_memory_library"), { recursive: true });
  const shortDir = join(claude, "projects", encodeProjectDir(short), "memory");
  await Deno.mkdir(shortDir, { recursive: true });
  assert.deepEqual(memoryDirs(libraryAt(short), env), [shortDir]);
  assert.deepEqual(memoryDirs(libraryAt(join(dir.path, "none")), env), []);
});

Deno.test("scan and sync: each entry once, edits again, nothing read when nothing changed", async () => {
  await using dir = await tempDir();
  const project = join(dir.path, "proj");
  const library = libraryAt(project);
  await Deno.mkdir(library.root, { recursive: true });
  const claude = join(dir.path, "claude");
  const memory = join(claude, "projects", encodeProjectDir(project), "memory");
  await writeTree(memory, {
    "MEMORY.md": "- [a](feedback_a.md)\n",
    "feedback_a.md": "---\nname: a\ndescription: first\ntype: feedback\n---\n",
    "user_me.md": "---\nname: me\ndescription: personal\ntype: user\n---\n",
  });
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, LIBRARIAN_STATE_DIR: join(dir.path, "state") });
  const scratch = join(library.root, ".scratch.md");
  await Deno.writeTextFile(scratch, "notes without a final newline");

  const scan = scanAutoMemory(library, env);
  assert.deepEqual(scan.changed.map((c) => c.name).sort(), ["feedback_a.md", "user_me.md"]);
  const report = await syncAutoMemory(library, env, scan);
  assert.deepEqual(report.synced.map((s) => s.name), ["a"]);
  assert.deepEqual(report.skipped, [{ file: "user_me.md", why: "user" }]);
  assert.equal(
    await Deno.readTextFile(scratch),
    "notes without a final newline\n## [TAG: global, type: patterns]\n- a: first\n",
  );

  assert.deepEqual(scanAutoMemory(library, env).changed, [], "recorded: not even read again");

  await Deno.writeTextFile(
    join(memory, "feedback_a.md"),
    "---\nname: a\ndescription: second\ntype: feedback\n---\n",
  );
  const again = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(again.synced.map((s) => s.name), ["a"]);
  assert.match(
    await Deno.readTextFile(scratch),
    /- a: first\n## \[TAG: global, type: patterns\]\n- a: second\n$/,
  );

  await Deno.remove(join(memory, "user_me.md"));
  const pruned = scanAutoMemory(library, env);
  assert.equal(pruned.stale.length, 1);
  await syncAutoMemory(library, env, pruned);
  assert.deepEqual(scanAutoMemory(library, env).stale, []);
});

Deno.test("scan without a state folder syncs nothing (it could not remember what it synced)", () => {
  const scan = scanAutoMemory(libraryAt("/nowhere"), envFrom({}));
  assert.equal(scan.skipped, "no state folder");
});
