/**
 * `librarian status`: the library, its folders, pending scratch blocks, hook runs, wiring.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const SCRATCH = [
  "## [TAG: ../elsewhere, type: patterns]",
  "- escape attempt",
  "## [TAG: src]",
  "- legacy block",
  "## [TAG: global, type: tech]",
  "- token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  "## [TAG: src/api, type: patterns]",
  "- retries need idempotency keys",
  "",
].join("\n");

/** Two runs in the project at `proj`, and runs of other projects around them. */
const LOG = (proj: string) =>
  [
    "2026-11-30T06:20:00.000Z inject event=PreToolUse tool=Read file=other.ts result=injected " +
    "ms=12 project=/elsewhere/repo",
    "2026-11-30T06:22:54.206Z inject event=PreToolUse tool=Read file=src/a.ts result=injected " +
    `chars=145 hits=0 ms=71.3 project=${proj}`,
    `2026-11-30T06:23:10.000Z stop event=Stop result=routed routed=2 project=${proj}/src ms=40.1`,
    `2026-11-30T06:24:00.000Z stop event=Stop result=routed routed=2 project=${proj}2 ms=9`,
    "2026-11-30T06:25:00.000Z stop event=Stop result=idle ms=8",
    "",
  ].join("\n");

async function project(root: string) {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "# Tech\n- Deno 2\n",
    "proj/_memory_library/src/api/patterns.md": "# Patterns\n- validate at the edge\n",
    "proj/_memory_library/src/api/edge.md": "# Edge\n- empty bodies are valid\n",
    "proj/_memory_library/.scratch.md": SCRATCH,
    "proj/src/api/handler.ts": "",
    "home/.claude/librarian.log": LOG(join(root, "proj")),
  });
  return {
    cwd: join(root, "proj/src/api"),
    home: join(root, "home"),
    env: { LIBRARIAN_LOG: join(root, "home/.claude/librarian.log") },
  };
}

Deno.test("status --json reports library, folders, scratch, runs and hooks", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["status", "--json"], options);
  assert.equal(result.code, 0, result.stderr);
  const status = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(status), [
    "version",
    "library",
    "tree",
    "scratch",
    "log",
    "hooks",
    "pluginDir",
  ]);
  assert.equal(status.pluginDir, null, "no hook ran from a --plugin-dir plugin");
  assert.deepEqual(status.library, {
    root: `${dir.path}/proj/_memory_library`,
    projectRoot: `${dir.path}/proj`,
    foundBy: "cwd",
  });
  assert.deepEqual(
    status.tree.map((f: { path: string; files: number }) => `${f.path || "(root)"}:${f.files}`),
    ["(root):1", "src:0", "src/api:2"],
  );
  assert.equal(status.tree[0].bytes, "# Tech\n- Deno 2\n".length);
  assert.deepEqual(status.scratch.counts, {
    routable: 1,
    legacy: 1,
    rejected: 1,
    secret: 1,
    empty: 0,
  });
  assert.deepEqual(
    status.scratch.blocks.map((b: { line: number; category: string }) => `${b.line} ${b.category}`),
    ["1 rejected", "3 legacy", "5 secret", "7 routable"],
  );
  assert.equal(status.scratch.blocks[3].target, "src/api/patterns.md");
  assert.match(status.scratch.blocks[0].reason, /'\.\.' segment/);
  assert.doesNotMatch(result.stdout, /ghp_abcdefghijklmnop/, "never echo a secret");
  assert.deepEqual(
    status.log.runs.map((r: { command: string; fields: { ms: string } }) =>
      `${r.command} ${r.fields.ms}`
    ),
    ["inject 71.3", "stop 40.1"],
    "only this project's runs (a subfolder counts; a sibling named like it does not)",
  );
  assert.equal(status.log.runs[0].fields.ms, 71.3, "numbers as JSON numbers");
  assert.equal(status.log.runs[0].fields.chars, 145);
  assert.equal(status.hooks.wired, false);
});

Deno.test("status prints each section for people", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["status"], options);
  assert.equal(result.code, 0, result.stderr);
  const out = result.stdout;
  assert.match(out, /^Library {2}.*proj\/_memory_library \(found above the current folder\)$/m);
  assert.match(out, /^Folders \(3 files, \d+ B\)$/m);
  assert.match(out, /^ {6}api\/ +2 files, \d+ B$/m);
  assert.match(out, /^ {2}1 routable, 1 legacy, 1 rejected, 1 held for a likely secret$/m);
  assert.match(
    out,
    /line 7 +routable ## \[TAG: src\/api, type: patterns\] +→ src\/api\/patterns\.md/,
  );
  assert.match(out, /line 5 +secret +## \[TAG: global, type: tech\] +likely GitHub token/);
  assert.match(
    out,
    /2026-11-30 06:22:54Z {2}inject {2}PreToolUse {2}Read {2}injected {2}src\/a\.ts {2}71\.3 ms/,
  );
  assert.match(out, /^ {2}not wired: no plugin installed/m);
  assert.ok(!out.includes("\x1b["), "no colour when not a terminal");
});

Deno.test("status --runs limits the hook runs shown", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["status", "--json", "--runs", "1"], options);
  const runs = JSON.parse(result.stdout).log.runs;
  assert.deepEqual(runs.map((r: { command: string }) => r.command), ["stop"]);
  const none = await runLibrarian(["status", "--json", "--runs", "0"], options);
  assert.deepEqual(JSON.parse(none.stdout).log.runs, []);
});

Deno.test("status shows hooks wired by the installed plugin", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  await writeTree(dir.path, {
    "home/.claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { "librarian@tools": [{ scope: "user", installPath: "/x", version: "0.1.0" }] },
    }),
    "home/.claude/settings.json": JSON.stringify({ enabledPlugins: { "librarian@tools": true } }),
  });
  const status = JSON.parse((await runLibrarian(["status", "--json"], options)).stdout);
  assert.equal(status.hooks.wired, true);
  assert.deepEqual(status.hooks.plugin.ids, ["librarian@tools"]);
  assert.equal(status.hooks.plugin.enabled, true);
  const text = await runLibrarian(["status"], options);
  assert.match(text.stdout, /wired: plugin librarian@tools is installed and enabled/);
});

Deno.test("status with an empty scratch and no log says so", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.scratch.md": "" });
  const result = await runLibrarian(["status"], {
    cwd: dir.path,
    env: { LIBRARIAN_LOG: `${dir.path}/none.log` },
  });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /empty: nothing waiting/);
  assert.match(result.stdout, /none yet \(.*none\.log\)/);
});

Deno.test("status finds the library from LIBRARIAN_PATH and says so", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "lib/_memory_library/.scratch.md": "" });
  const result = await runLibrarian(["status", "--json"], {
    cwd: "/",
    env: { LIBRARIAN_PATH: `${dir.path}/lib/_memory_library` },
  });
  assert.equal(JSON.parse(result.stdout).library.foundBy, "LIBRARIAN_PATH");
});

Deno.test("status with no library exits 1 and says how to create one", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["status"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no memory library found.*librarian init/);
  const json = await runLibrarian(["status", "--json"], { cwd: dir.path });
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.stdout).library, null);
});

Deno.test("status with bad arguments exits 2 with a usage line", async () => {
  for (const args of [["status", "x"], ["status", "--runs", "many"], ["status", "--runs"]]) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(
      result.stderr,
      /^Usage: librarian status \[--depth <n>\] \[--runs <n>\] \[--json\]$/m,
    );
  }
});

Deno.test("status shows scratch and hooks before the folders, in natural order, collapsed by --depth", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "_memory_library/m10/a.md": "x",
    "_memory_library/m2/a.md": "x",
    "_memory_library/m1/a.md": "x",
    "_memory_library/m1/deep/er/b.md": "yy",
  });
  const result = await runLibrarian(["status", "--depth", "1"], {
    cwd: dir.path,
    env: { LIBRARIAN_LOG: "off" },
  });
  assert.equal(result.code, 0, result.stderr);
  const out = result.stdout;
  const at = (text: string) => out.indexOf(text);
  assert.ok(at("Scratch") < at("Hooks") && at("Hooks") < at("Folders"), out);
  const folderLines = out.slice(at("Folders")).split("\n").filter((l) => /^ {4}m\d+\//.test(l));
  assert.deepEqual(folderLines.map((l) => l.trim().split("/")[0]), ["m1", "m2", "m10"]);
  assert.match(out, /m1\/ +1 file, 1 B \(\+2 folders below: 1 file, 2 B\)/);
  assert.match(out, /2 folders deeper than level 1 counted above; --depth 2 shows more/);
  const json = await runLibrarian(["status", "--json"], { cwd: dir.path });
  const tree = JSON.parse(json.stdout).tree;
  assert.deepEqual(tree.map((f: { path: string }) => f.path), [
    "",
    "m1",
    "m1/deep",
    "m1/deep/er",
    "m2",
    "m10",
  ]);
  assert.equal(typeof tree[1].files, "number");
});
