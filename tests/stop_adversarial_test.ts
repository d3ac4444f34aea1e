/**
 * Adversarial specification of the stop hook's guarantees:
 * 1. it never writes outside the library, whatever a tag, a symlink or scratch itself is;
 * 2. every learning ends up exactly once (in its target or in scratch), across reruns, races
 *    and crashes;
 * 3. a likely secret never reaches a library file, not even as a folder or file name;
 * 4. it exits 0 and prints at most one `{"systemMessage": ...}` on any input, and finishes within
 *    the timeout hooks/hooks.json gives it;
 * 5. it stays cheap: work per turn is bounded (scratch size, target files per turn).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Library } from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import { recordPathOf } from "../src/automemory/records.ts";
import { classifyBlock } from "../src/filing/classify.ts";
import { coordinationPaths } from "../src/filing/coordination_paths.ts";
import { planRoute, rawHash, type TargetState } from "../src/filing/route_plan.ts";
import { parseScratch } from "../src/format/scratch.ts";
import { checkTagPath, checkTagType } from "../src/format/tag_rules.ts";
import {
  parseHookStdout,
  REPO_ROOT,
  runLibrarian,
  type RunOptions,
  type RunResult,
  tempDir,
} from "./helpers.ts";
import { makeProject, makeTaggedFolders, type Project, stopEvent } from "./stop_fixtures.ts";
import { IS_WINDOWS, skipOnWindows } from "./platform.ts";

const TODAY = "2026-11-30";
const NOW = `${TODAY}T12:00:00`;

/** The Stop hook's timeout from hooks/hooks.json: Claude Code kills the hook after it. */
const STOP_TIMEOUT_MS = (() => {
  const config = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "hooks", "hooks.json")));
  const seconds = config.hooks.Stop[0].hooks[0].timeout as number;
  return seconds * 1000;
})();

/**
 * `sh bin/librarian stop` on a Stop event for the project, killed (and failed) if it runs past the
 * hook's timeout from hooks.json.
 */
async function stop(
  p: Project,
  options: { env?: Record<string, string> } & RunOptions = {},
): Promise<RunResult> {
  const { env, ...rest } = options;
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root, { session_id: "sess-adversarial" }),
    home: p.home,
    cwd: p.root,
    deadlineMs: STOP_TIMEOUT_MS,
    ...rest,
    env: { LIBRARIAN_NOW: NOW, ...env },
  });
  assert.equal(result.killed, false, `the hook ran past its ${STOP_TIMEOUT_MS} ms timeout`);
  return result;
}

/** The one systemMessage of a run (asserting exit 0 and the output's shape), or null. */
function messageOf(result: RunResult): string | null {
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  if (out === null) return null;
  assert.deepEqual(Object.keys(out), ["systemMessage"], "only a systemMessage, never a decision");
  assert.equal(typeof out.systemMessage, "string");
  return out.systemMessage as string;
}

/** Everything under `dir`, without following symlinks: path → what it is (and holds). */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (abs: string, rel: string) => {
    for await (const entry of Deno.readDir(abs)) {
      const path = join(abs, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      const info = await Deno.lstat(path);
      if (info.isSymlink) out.set(key, `link -> ${await Deno.readLink(path)}`);
      else if (info.isDirectory) {
        out.set(key, "folder");
        await walk(path, key);
      } else if (info.isFile) out.set(key, `file: ${await Deno.readTextFile(path)}`);
      else out.set(key, "special");
    }
  };
  await walk(dir, "");
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A `feedback` auto memory for the project, so the hook's sync phase has work. */
async function addMemory(p: Project, name = "feedback_x.md", text = "always run dbt build") {
  const dir = join(p.home, ".claude", "projects", encodeProjectDir(p.root), "memory");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, name),
    `---\nname: ${name.replace(/\.md$/, "")}\ndescription: ${text}\ntype: feedback\n---\n`,
  );
}

const GITHUB_TOKEN = ["gh", "p_", "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3d"].join("");
const STRIPE_KEY = ["sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"].join("");

// ---------------------------------------------------------------------------------------------
// 1. Nothing outside the library.

Deno.test("tag rules: Unicode look-alikes, invisible characters and Windows aliases are rejected", () => {
  const cases: ReadonlyArray<[string, RegExp]> = [
    ["\u2024\u2024/x", /look like/], // one-dot leaders: NFKC '..'
    ["\uFF0E\uFF0E/x", /look like/], // fullwidth full stops
    ["a\uFF0F..\uFF0Fx", /look like/], // fullwidth solidus
    ["\uFE52git", /look like/], // small full stop + git: NFKC '.git'
    ["src\uFF3Capi", /look like/], // fullwidth backslash
    ["s\u200Brc", /invisible or control/], // zero-width space
    ["\u202Etxt.exe", /invisible or control/], // right-to-left override
    ["a\u0085b", /invisible or control/], // C1 control (NEL)
    ["CONIN$", /device name/],
    ["conout$/x", /device name/],
    ["con .txt", /device name/],
    ["LPT\u00B9", /device name/],
    ["GIT~1", /short name/],
    ["docs/PROGRA~12", /short name/],
    ["\u00E9".repeat(130), /longer than 255 bytes/],
    [Array(65).fill("a").join("/"), /more than 64 folders deep/],
  ];
  for (const [path, reason] of cases) {
    const check = checkTagPath(path);
    assert.equal(check.ok, false, `accepted ${JSON.stringify(path)}`);
    if (!check.ok) {
      assert.match(check.reason, reason, JSON.stringify(path));
      assert.ok(
        !/[\p{Cc}\p{Cf}]/u.test(check.reason),
        "reason shows no controls",
      );
    }
  }
  for (const path of ["docs/Read Me/größe", "日本語/メモ", "v1.2/notes", "release~v2", "%2e%2e"]) {
    assert.ok(checkTagPath(path).ok, path);
  }
  assert.equal(checkTagType("x\u0000").ok, false);
});

Deno.test("a reason quoting a path with several control characters shows none of them", () => {
  const check = checkTagPath("a\u001b[31m\u001b[0mb");
  assert.equal(check.ok, false);
  if (!check.ok) assert.ok(!check.reason.includes("\u001b"), JSON.stringify(check.reason));
});

Deno.test({
  name: "every escape trick stays in scratch and nothing outside the library changes",
  ignore: skipOnWindows(
    "needs symbolic links",
  ),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    await Deno.writeTextFile(join(p.outside, "victim.md"), "# victim\n");
    await Deno.mkdir(join(p.outside, "deeper"));
    const rejected = [
      "..",
      "../x",
      "a/../../x",
      "\u2024\u2024/\u2024\u2024/x",
      "\uFF0E\uFF0E/x",
      "a\uFF0F..\uFF0F..\uFF0Fx",
      "..\\..\\x",
      "C:\\x",
      "D:x",
      "//srv/share/x",
      "\\\\?\\C:\\x",
      p.outside,
      "a\u0000b",
      "x".repeat(256),
      "\u00E9".repeat(130),
      Array(300).fill("deep").join("/"),
      "CONIN$",
      "con .txt",
      "GIT~1",
      "s\u200Brc",
      "\u202Eevil",
      "link", // folder symlink to outside/
      "link/sub", // through it
      "gone", // dangling folder symlink to outside/gone
      "loop", // a symlink to itself
    ].map((path) => `${path}, type: y`);
    rejected.push(
      "global, type: ../y",
      "global, type: y/z",
      "global, type: y\u0000",
      "global, type: victim", // file symlink to outside/victim.md
      "global, type: ghost", // dangling file symlink to outside/ghost.md
      `global, type: ${"y".repeat(300)}`,
    );
    const scratch = rejected.map((tag, i) => `## [TAG: ${tag}]\n- escape ${i}\n`).join("") +
      "## [TAG: %2e%2e/%2e%2e, type: literal]\n- percent signs are just characters\n" +
      "## [TAG: global, type: ok]\n- fine\n";
    await Deno.writeTextFile(p.scratch, scratch);
    await makeTaggedFolders(p.root, "[TAG: %2e%2e/%2e%2e,");
    await Deno.symlink(p.outside, join(p.lib, "link"), { type: "dir" });
    await Deno.symlink(join(p.outside, "gone"), join(p.lib, "gone"), { type: "dir" });
    await Deno.symlink(join(p.lib, "loop"), join(p.lib, "loop"), { type: "file" });
    await Deno.symlink(join(p.outside, "victim.md"), join(p.lib, "victim.md"), { type: "file" });
    await Deno.symlink(join(p.outside, "ghost.md"), join(p.lib, "ghost.md"), { type: "file" });
    const outsideBefore = await snapshot(p.outside);
    const linksBefore = [...(await snapshot(p.lib))].filter(([, v]) => v.startsWith("link"));

    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /2 learnings → %2e%2e\/%2e%2e\/literal\.md, ok\.md/);
    assert.match(message, new RegExp(`${rejected.length} kept in scratch`));

    assert.deepEqual(await snapshot(p.outside), outsideBefore, "nothing outside changed");
    const after = await Deno.readTextFile(p.scratch);
    for (let i = 0; i < rejected.length; i++) {
      assert.equal(after.split(`- escape ${i}\n`).length, 2, `escape ${i} stays exactly once`);
    }
    assert.equal((after.match(/<!-- librarian: kept in scratch:/g) ?? []).length, rejected.length);
    const libAfter = await snapshot(p.lib);
    for (const [path, link] of linksBefore) assert.equal(libAfter.get(path), link, path);
    assert.deepEqual(
      [...libAfter.keys()].filter((k) => !linksBefore.some(([l]) => l === k)).sort(),
      ["%2e%2e", "%2e%2e/%2e%2e", "%2e%2e/%2e%2e/literal.md", ".scratch.md", "ok.md"],
    );
    const beside = [...(await snapshot(p.base)).keys()].filter((k) =>
      !/^(proj\/_memory_library\/|home\/|outside\/)/.test(k)
    );
    assert.deepEqual(beside.sort(), [
      "home",
      "outside",
      "proj",
      "proj/%2e%2e", // the code folder the literal tag names
      "proj/%2e%2e/%2e%2e",
      "proj/_memory_library",
    ]);
  },
});

Deno.test({
  name: "a .scratch.md symlinked outside is never written through, not even by the memory sync",
  ignore: skipOnWindows(
    "needs symbolic links",
  ),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    const notes = join(p.outside, "notes.md");
    await Deno.writeTextFile(notes, "## [TAG: global, type: tech]\n- from outside\n");
    await Deno.symlink(notes, p.scratch, { type: "file" });
    await addMemory(p);
    const before = await snapshot(p.outside);
    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /scratch is a symlink/);
    assert.deepEqual(await snapshot(p.outside), before);
    assert.ok((await Deno.lstat(p.scratch)).isSymlink, "the link is left alone");
    assert.deepEqual([...(await snapshot(p.lib)).keys()], [".scratch.md"]);

    // Once scratch is a plain file again, the pending memory syncs: nothing was lost.
    await Deno.remove(p.scratch);
    await Deno.copyFile(notes, p.scratch);
    assert.equal(
      messageOf(await stop(p)),
      "Librarian: 1 auto memory synced; 2 learnings → patterns.md, tech.md",
    );
  },
});

Deno.test({
  name: "a dangling .scratch.md symlink never creates its target outside",
  ignore: skipOnWindows(
    "needs symbolic links",
  ),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    await Deno.symlink(join(p.outside, "new.md"), p.scratch, { type: "file" });
    await addMemory(p);
    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /scratch is a symlink/);
    assert.equal(await exists(join(p.outside, "new.md")), false);
  },
});

Deno.test({
  name: "a hard-linked .scratch.md is left alone (appending would change the other name too)",
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    const notes = join(p.outside, "notes.md");
    await Deno.writeTextFile(notes, "## [TAG: global, type: tech]\n- shared inode\n");
    await Deno.link(notes, p.scratch);
    await addMemory(p);
    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /scratch has 2 hard links/);
    assert.equal(await Deno.readTextFile(notes), "## [TAG: global, type: tech]\n- shared inode\n");
  },
});

Deno.test({
  name: "a target symlinked inside the library is written through, the link kept",
  ignore: skipOnWindows(
    "needs symbolic links",
  ),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path, {
      "_memory_library/shared/tech.md": "# tech\n",
      "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- through the link\n",
    });
    await Deno.symlink(join(p.lib, "shared", "tech.md"), join(p.lib, "tech.md"), { type: "file" });
    assert.equal(messageOf(await stop(p)), "Librarian: 1 learning → tech.md");
    assert.ok((await Deno.lstat(join(p.lib, "tech.md"))).isSymlink);
    assert.match(await Deno.readTextFile(join(p.lib, "shared", "tech.md")), /- through the link/);
  },
});

Deno.test({
  name: "a target .md hard-linked to a file outside: the outside file is never changed",
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path, {
      "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- filed by replacing\n",
    });
    await Deno.writeTextFile(join(p.outside, "tech.md"), "# tech\n");
    await Deno.link(join(p.outside, "tech.md"), join(p.lib, "tech.md"));
    assert.equal(messageOf(await stop(p)), "Librarian: 1 learning → tech.md");
    assert.equal(await Deno.readTextFile(join(p.outside, "tech.md")), "# tech\n");
    assert.match(await Deno.readTextFile(join(p.lib, "tech.md")), /- filed by replacing\n$/);
  },
});

Deno.test({
  name: "a library folder linked out of its project is used only when LIBRARIAN_PATH names it",
  ignore: skipOnWindows("needs symbolic links"),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    const real = join(p.outside, "real-library");
    await Deno.remove(p.lib);
    await Deno.mkdir(real);
    await Deno.symlink(real, p.lib, { type: "dir" });
    await Deno.mkdir(join(p.root, "src/api"), { recursive: true });
    await Deno.writeTextFile(
      join(real, ".scratch.md"),
      "## [TAG: src/api, type: tech]\n- via a linked library\n## [TAG: ../x, type: y]\n- no\n",
    );
    assert.equal(
      messageOf(await stop(p)),
      null,
      "found by discovery outside the project: not used",
    );
    assert.deepEqual([...(await snapshot(p.outside)).keys()].sort(), [
      "real-library",
      "real-library/.scratch.md",
    ]);
    const message = messageOf(await stop(p, { env: { LIBRARIAN_PATH: p.lib } })) ?? "";
    assert.match(message, /1 learning → src\/api\/tech\.md; 1 kept in scratch/);
    assert.deepEqual([...(await snapshot(p.outside)).keys()].sort(), [
      "real-library",
      "real-library/.scratch.md",
      "real-library/src",
      "real-library/src/api",
      "real-library/src/api/tech.md",
    ]);
  },
});

// ---------------------------------------------------------------------------------------------
// 3. Secrets.

Deno.test("a likely secret in the tag line (path or type) holds the block back", () => {
  for (
    const tag of [`${GITHUB_TOKEN}/api, type: tech`, `global, type: ${STRIPE_KEY}`]
  ) {
    const doc = parseScratch(`## [TAG: ${tag}]\n- an ordinary learning\n`);
    const decision = classifyBlock(doc.blocks[0]!);
    assert.equal(decision.kind, "keep", tag);
    if (decision.kind === "keep") {
      assert.equal(decision.code, "secret");
      assert.match(decision.reason, /in the tag line/);
      assert.ok(!decision.reason.includes(GITHUB_TOKEN.slice(4)), "never echoed");
      assert.ok(!decision.reason.includes(STRIPE_KEY.slice(8)), "never echoed");
    }
  }
});

Deno.test("a secret in a tag never becomes a folder or file name in the library", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": `## [TAG: ${GITHUB_TOKEN}, type: tech]\n- a\n` +
      `## [TAG: global, type: ${STRIPE_KEY}]\n- b\n## [TAG: global, type: ok]\n- c\n`,
  });
  const message = messageOf(await stop(p)) ?? "";
  assert.match(message, /2 blocks held in scratch \(likely GitHub token in the tag line/);
  assert.ok(!message.includes(GITHUB_TOKEN.slice(4)) && !message.includes(STRIPE_KEY.slice(8)));
  assert.deepEqual([...(await snapshot(p.lib)).keys()].sort(), [".scratch.md", "ok.md"]);
});

// ---------------------------------------------------------------------------------------------
// 2. Exactly once.

Deno.test("a block that gained a final newline meanwhile is not filed twice", () => {
  // Run 1 plans a paragraph block at the end of a scratch without a final newline, and files it;
  // before it rewrites scratch, the model appends a block starting on a new line. The filed
  // block's raw text now ends in "\n", so scratch keeps it.
  const first = parseScratch("## [TAG: global, type: t]\nWhy it matters.");
  const run1 = planRoute(first, {
    today: TODAY,
    targets: new Map<string, TargetState>([["t.md", { kind: "missing" }]]),
  });
  const filed = run1.writes[0]!.after;
  const filedBefore = new Set(
    run1.decisions.filter((d) => d.kind === "route").map((d) => rawHash(d.block.raw)),
  );
  const scratch = "## [TAG: global, type: t]\nWhy it matters.\n## [TAG: global, type: u]\n- x\n";
  const run2 = planRoute(parseScratch(scratch), {
    today: TODAY,
    targets: new Map<string, TargetState>([
      ["t.md", { kind: "text", text: filed }],
      ["u.md", { kind: "missing" }],
    ]),
    filedBefore,
  });
  assert.deepEqual(run2.writes.map((w) => w.relPath), ["u.md"], "the paragraph is not repeated");
  assert.equal(run2.scratchText, "");
});

Deno.test("two Claude Code accounts (CLAUDE_CONFIG_DIR) on one project share one lock and journal", async () => {
  await using dir = await tempDir();
  const library: Library = {
    root: "/work/p/_memory_library",
    projectRoot: "/work/p",
    foundBy: "cwd",
  };
  const home = dir.path;
  const a = coordinationPaths(library, envFrom({ HOME: home, CLAUDE_CONFIG_DIR: `${home}/a` }));
  const b = coordinationPaths(library, envFrom({ HOME: home, CLAUDE_CONFIG_DIR: `${home}/b` }));
  const plain = coordinationPaths(library, envFrom({ HOME: home }));
  assert.deepEqual(a, b);
  assert.deepEqual(a, plain);
  assert.ok(a!.lock.startsWith(`${home}/.claude/librarian/locks/`));
});

Deno.test("a Windows CLAUDE_CONFIG_DIR with backslashes holds the lock and journal", () => {
  const library: Library = {
    root: "C:/work/p/_memory_library",
    projectRoot: "C:/work/p",
    foundBy: "cwd",
  };
  const paths = coordinationPaths(
    library,
    envFrom({ CLAUDE_CONFIG_DIR: "C:\\Users\\me\\.claude" }),
  );
  assert.ok(paths?.lock.startsWith("C:/Users/me/.claude/librarian/locks/"), paths?.lock);
});

Deno.test("after a crash, only the Librarian's own temp files are swept, never a user's file", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/tech.md": "# tech\n",
    "_memory_library/tech.md.tmp-notes.md": "# my own notes\n",
    "_memory_library/tech.md.tmp-4242-3-k9x2ab": "half a file",
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- a\n",
  });
  const library: Library = { root: p.lib, projectRoot: p.root, foundBy: "cwd" };
  const { journal } = coordinationPaths(library, envFrom({ HOME: p.home }))!;
  await Deno.mkdir(join(journal, ".."), { recursive: true });
  await Deno.writeTextFile(journal, JSON.stringify({ version: 3, filed: [], active: ["tech.md"] }));
  assert.equal(messageOf(await stop(p)), "Librarian: 1 learning → tech.md");
  assert.equal(await exists(join(p.lib, "tech.md.tmp-4242-3-k9x2ab")), false);
  assert.equal(await Deno.readTextFile(join(p.lib, "tech.md.tmp-notes.md")), "# my own notes\n");
});

// ---------------------------------------------------------------------------------------------
// 4. Any input: exit 0, at most one systemMessage, within the timeout.

Deno.test("garbage, huge and hostile stdin: exit 0 and no output", async () => {
  await using dir = await tempDir();
  const inputs = [
    "\u0000\u0001\u00ff garbage",
    "x".repeat(20_000_000),
    "[".repeat(1_000_000) + "]".repeat(1_000_000),
    JSON.stringify({ hook_event_name: "Stop", cwd: "\u0000" }),
    JSON.stringify({ hook_event_name: "Stop", cwd: ["/"] }),
    JSON.stringify({ hook_event_name: "Stop", cwd: "/a".repeat(500_000) }),
    JSON.stringify({ hook_event_name: "Stop", cwd: "relative/path" }),
    JSON.stringify({ hook_event_name: 7 }),
  ];
  for (const stdin of inputs) {
    const result = await runLibrarian(["stop"], { stdin, cwd: dir.path });
    assert.equal(messageOf(result), null, stdin.slice(0, 60));
  }
});

Deno.test("without HOME the hook still files (lock and journal in the plugin's data folder), and prints one systemMessage", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- no home\n",
  });
  const data = join(dir.path, "plugin-data");
  const result = await stop(p, { env: { HOME: "", CLAUDE_PLUGIN_DATA: data } });
  assert.equal(messageOf(result), "Librarian: 1 learning → tech.md");
  assert.deepEqual(await snapshot(p.outside), new Map());
  assert.deepEqual([...(await snapshot(p.lib)).keys()].sort(), [".scratch.md", "tech.md"]);
});

Deno.test("a .scratch.md that is a folder: exit 0, the user is told, pending memories sync later", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  await Deno.mkdir(p.scratch);
  await addMemory(p);
  const message = messageOf(await stop(p)) ?? "";
  assert.match(message, /scratch is a folder; nothing filed/);
  await Deno.remove(p.scratch);
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 1 auto memory synced; 1 learning → patterns.md",
  );
});

Deno.test({
  name: "a .scratch.md that is a FIFO does not hang the hook",
  ignore: skipOnWindows("needs FIFOs"),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    const made = await new Deno.Command("mkfifo", { args: [p.scratch] }).output();
    assert.ok(made.success, "mkfifo");
    await addMemory(p);
    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /scratch is not a regular file/);
  },
});

Deno.test("binary scratch: left byte for byte, the user is told", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x80, ...new TextEncoder().encode("## [TAG")]);
  await Deno.writeFile(p.scratch, bytes);
  assert.match(messageOf(await stop(p)) ?? "", /scratch is not UTF-8 text; nothing filed/);
  assert.deepEqual(await Deno.readFile(p.scratch), bytes);
});

Deno.test("a 50 MB scratch: nothing filed, scratch untouched, the user is told to run 'librarian route'", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const block = "## [TAG: global, type: tech]\n- one of very many learnings\n";
  const text = block.repeat(Math.ceil(50_000_000 / block.length));
  await Deno.writeTextFile(p.scratch, text);
  const message = messageOf(await stop(p)) ?? "";
  assert.match(
    message,
    /scratch is 50\.\d MB, over the \d+ MB one turn files; run 'librarian route'/,
  );
  assert.equal((await Deno.stat(p.scratch)).size, new TextEncoder().encode(text).length);
  assert.deepEqual([...(await snapshot(p.lib)).keys()], [".scratch.md"]);
});

Deno.test("pathological scratch and target text is handled within the hook's timeout", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    // Targets that were slow to append to: long runs of blank lines, fences that never close.
    "_memory_library/blanks.md": "# blanks\n" + "\n ".repeat(60_000) + "x\n",
    "_memory_library/fenced.md": "# fenced\n" + "```x\n".repeat(100_000),
  });
  const scratch = [
    "## [TAG: global, type: fences]\n- fences follow\n" + "```x\n".repeat(150_000),
    "## [TAG: global, type: words]\n- " + "a.".repeat(250_000) + "\n",
    "## [TAG: global, type: schemes]\n- " + "a+".repeat(250_000) + "\n",
    "## [TAG: global" + " ".repeat(300_000) + "x, type: spaces]\n- s\n",
    "## [TAG: global, type: blanks]\n- appended after blank lines\n",
    "## [TAG: global, type: fenced]\n- appended after open fences\n",
  ].join("");
  await Deno.writeTextFile(p.scratch, scratch);
  const message = messageOf(await stop(p)) ?? "";
  assert.match(message, /4 learnings → 4 files; 2 kept in scratch/);
  assert.match(
    await Deno.readTextFile(join(p.lib, "blanks.md")),
    /- appended after blank lines\n$/,
  );
  assert.match(
    await Deno.readTextFile(join(p.lib, "fenced.md")),
    /- appended after open fences\n$/,
  );
});

// ---------------------------------------------------------------------------------------------
// Read-only library.

/** Makes `path` unwritable (chattr +i as root, else chmod); returns the undo, or null if it cannot. */
async function makeReadOnly(path: string): Promise<(() => Promise<void>) | null> {
  if (IS_WINDOWS) return null;
  if (Deno.uid() === 0) {
    const set = await new Deno.Command("chattr", { args: ["+i", path], stderr: "null" }).output()
      .catch(() => null);
    if (!set?.success) return null;
    return async () => {
      await new Deno.Command("chattr", { args: ["-i", path], stderr: "null" }).output();
    };
  }
  await Deno.chmod(path, 0o555);
  return async () => await Deno.chmod(path, 0o755);
}

const READ_ONLY_WORKS = await (async () => {
  const dir = await Deno.makeTempDir();
  const undo = await makeReadOnly(dir);
  let works = false;
  try {
    await Deno.writeTextFile(join(dir, "probe"), "x");
  } catch {
    works = undo !== null;
  }
  await undo?.();
  await Deno.remove(dir, { recursive: true });
  return works;
})();

Deno.test({
  name: "a read-only library: exit 0, the user is told, nothing lost; once writable, filed once",
  ignore: skipOnWindows("needs POSIX permissions to make a folder read-only") ||
    !READ_ONLY_WORKS,
  fn: async () => {
    await using dir = await tempDir();
    const text = "## [TAG: global, type: tech]\n- a\n## [TAG: src, type: x]\n- b\n";
    const p = await makeProject(dir.path, { "_memory_library/.scratch.md": text });
    const undo = (await makeReadOnly(p.lib))!;
    try {
      const message = messageOf(await stop(p)) ?? "";
      assert.match(message, /could not write tech\.md/);
      assert.match(message, /could not update scratch/);
      assert.equal(await Deno.readTextFile(p.scratch), text);
    } finally {
      await undo();
    }
    assert.equal(messageOf(await stop(p)), "Librarian: 2 learnings → src/x.md, tech.md");
    assert.equal(messageOf(await stop(p)), null);
    assert.match(await Deno.readTextFile(join(p.lib, "tech.md")), /\n- a\n$/);
    assert.equal(await Deno.readTextFile(p.scratch), "");
  },
});

// ---------------------------------------------------------------------------------------------
// 5. Bounded work per turn.

Deno.test("the route planner files at most maxTargets files; later blocks wait, untouched", () => {
  const text = "## [TAG: a, type: t]\n- 1\n## [TAG: b, type: t]\n- 2\n" +
    "## [TAG: a, type: t]\n- 3\n## [TAG: c, type: t]\n- 4\n";
  const doc = parseScratch(text);
  const targets = new Map<string, TargetState>([
    ["a/t.md", { kind: "missing" }],
    ["b/t.md", { kind: "missing" }],
  ]);
  const plan = planRoute(doc, { today: TODAY, targets, maxTargets: 2 });
  assert.deepEqual(plan.writes.map((w) => w.relPath), ["a/t.md", "b/t.md"]);
  assert.equal(plan.scratchText, "## [TAG: c, type: t]\n- 4\n");
  assert.deepEqual(plan.decisions.map((d) => d.kind), ["route", "route", "route", "defer"]);
});

Deno.test("a scratch for more files than one turn writes: the rest waits for the next turn", async () => {
  await using dir = await tempDir();
  const count = 520;
  const text = Array.from({ length: count }, (_, i) => `## [TAG: f${i}, type: t]\n- l${i}\n`)
    .join("");
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": text });
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 500 learnings → 500 files; 20 blocks wait for the next turn",
  );
  assert.equal(messageOf(await stop(p)), "Librarian: 20 learnings → 20 files");
  for (let i = 0; i < count; i++) {
    assert.equal(
      await Deno.readTextFile(join(p.lib, `f${i}`, "t.md")),
      `# t\n\n## Learnings (${TODAY})\n\n<!-- librarian: ${TODAY} -->\n- l${i}\n`,
    );
  }
  assert.equal(await Deno.readTextFile(p.scratch), "");
});

Deno.test({
  name:
    "FIFOs for the sync record, both settings files and a worktree's commondir never hang the hook",
  ignore: IS_WINDOWS,
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path);
    const state = join(dir.path, "state");
    const gitDir = join(dir.path, "main", ".git", "worktrees", "proj");
    await Deno.mkdir(gitDir, { recursive: true });
    await Deno.mkdir(join(p.root, ".claude"), { recursive: true });
    await Deno.mkdir(join(p.home, ".claude"), { recursive: true });
    await Deno.writeTextFile(join(p.root, ".git"), `gitdir: ${gitDir}\n`);
    await addMemory(p);
    const memory = join(p.home, ".claude", "projects", encodeProjectDir(p.root), "memory");
    const record = recordPathOf(state, memory);
    await Deno.mkdir(join(state, "automemory"), { recursive: true });
    for (
      const fifo of [
        record,
        join(p.root, ".claude", "settings.local.json"),
        join(p.home, ".claude", "settings.json"),
        join(gitDir, "commondir"),
      ]
    ) {
      assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, fifo);
    }
    const message = messageOf(await stop(p, { env: { LIBRARIAN_STATE_DIR: state } })) ?? "";
    assert.match(message, /1 auto memory synced/);
    assert.match(message, /auto-memory sync record was damaged \(not a regular file\); set aside/);
    assert.match(await Deno.readTextFile(join(p.lib, "patterns.md")), /always run dbt build/);
  },
});
