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

const LOG = [
  "2026-11-30T06:22:54.206Z inject event=PreToolUse tool=Read file=src/a.ts result=injected " +
  "chars=145 hits=0 ms=71.3",
  "2026-11-30T06:23:10.000Z stop event=Stop result=routed routed=2 ms=40.1",
  "",
].join("\n");

async function project(root: string) {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "# Tech\n- Deno 2\n",
    "proj/_memory_library/src/api/patterns.md": "# Patterns\n- validate at the edge\n",
    "proj/_memory_library/src/api/edge.md": "# Edge\n- empty bodies are valid\n",
    "proj/_memory_library/.scratch.md": SCRATCH,
    "proj/src/api/handler.ts": "",
    "home/.claude/librarian.log": LOG,
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
  assert.deepEqual(Object.keys(status), ["library", "tree", "scratch", "log", "hooks"]);
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
  );
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
    assert.match(result.stderr, /^Usage: librarian status \[--runs <n>\] \[--json\]$/m);
  }
});
