/**
 * Seeing what happened: `librarian sessions` and `librarian sent` read the inject side's ledgers
 * (this project's sessions only), and `librarian scratch` lists the kept blocks with the reason
 * and the fix, and drops one after confirmation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { normalizePath } from "../src/core/paths.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

/** A ledger (the inject side's format) saying `files` were sent. */
function ledger(files: string[], reminded = true): string {
  const entries = files.map((path) => {
    const info = Deno.statSync(path);
    // Keyed as the inject side keys them: the path in the program's normal form.
    return [normalizePath(path), `${info.size}:${info.mtime!.getTime()}:0123456789abcdef`];
  });
  return JSON.stringify({ version: 2, files: Object.fromEntries(entries), reminded, events: [] });
}

async function projectWithSessions(root: string) {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "- Deno 2\n",
    "proj/_memory_library/src/api/patterns.md": "- validate at the edge\n",
    "other/_memory_library/tech.md": "- elsewhere\n",
  });
  const lib = join(root, "proj/_memory_library");
  const state = join(root, "state");
  const write = (session: string, window: string, text: string, mtime: Date) => {
    const dir = join(state, "ledgers", session);
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(join(dir, `${window}.json`), text);
    Deno.utimeSync(join(dir, `${window}.json`), mtime, mtime);
  };
  write("sess-old-1111", "main", ledger([join(lib, "tech.md")]), new Date(Date.now() - 3600_000));
  write(
    "sess-new-2222",
    "main",
    ledger([join(lib, "tech.md"), join(lib, "src/api/patterns.md")]),
    new Date(),
  );
  write("sess-new-2222", "agent-abc", ledger([join(lib, "tech.md")], false), new Date());
  write(
    "sess-elsewhere",
    "main",
    ledger([join(root, "other/_memory_library/tech.md")]),
    new Date(),
  );
  return { cwd: join(root, "proj"), env: { LIBRARIAN_STATE_DIR: state }, lib };
}

Deno.test("sessions lists this project's sessions, most recent first, with numbers as numbers", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  const result = await runLibrarian(["sessions", "--json"], options);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(typeof report.version, "string");
  assert.deepEqual(
    report.sessions.map((s: { session: string; files: number; subagents: number }) =>
      `${s.session} ${s.files} ${s.subagents}`
    ),
    ["sess-new-2222 2 1", "sess-old-1111 1 0"],
  );
  const text = await runLibrarian(["sessions"], options);
  assert.match(text.stdout, /^sess-new-2222 +\d+ s ago +2 library files, 1 subagent$/m);
  assert.doesNotMatch(text.stdout, /sess-elsewhere/);
});

Deno.test("sent shows each context window's files and whether each version is still current", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  Deno.writeTextFileSync(join(options.lib, "tech.md"), "- Deno 2\n- and more\n");
  const result = await runLibrarian(["sent", "sess-new", "--json"], options);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.session, "sess-new-2222");
  assert.deepEqual(
    report.windows.map((w: { window: string; files: { path: string; state: string }[] }) =>
      `${w.window}: ${w.files.map((f) => `${f.path}=${f.state}`).join(", ")}`
    ),
    ["main: src/api/patterns.md=current, tech.md=changed", "agent-abc: tech.md=changed"],
  );
  assert.equal(typeof report.windows[0].files[0].bytes, "number");
  const latest = await runLibrarian(["sent"], options);
  assert.match(latest.stdout, /^Session sess-new-2222$/m);
  assert.match(latest.stdout, /^subagent abc/m);
  const unknown = await runLibrarian(["sent", "nope"], options);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /^librarian sent: no session 'nope' .*'librarian sessions' lists them/,
  );
});

const SCRATCH = [
  "## [TAG: ../outside, type: tech]",
  "- escapes",
  "## [TAG: src/api]",
  "- legacy, no type",
  "## [TAG: src/api, type: patterns]",
  "- retries need idempotency keys",
  "",
].join("\n");

Deno.test("scratch lists the kept blocks, numbered, with the reason and the fix", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.scratch.md": SCRATCH });
  const result = await runLibrarian(["scratch"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^1\. line 1 +## \[TAG: \.\.\/outside, type: tech\]$/m);
  assert.match(result.stdout, /kept: .*'\.\.' segment/);
  assert.match(result.stdout, /^2\. line 3 +## \[TAG: src\/api\]$/m);
  assert.match(result.stdout, /fix: +add the file the learning belongs in/);
  assert.match(result.stdout, /1 block will be filed at the end of the next turn/);
  const json = JSON.parse((await runLibrarian(["scratch", "--json"], { cwd: dir.path })).stdout);
  assert.deepEqual(json.kept.map((k: { n: number; code: string }) => `${k.n} ${k.code}`), [
    "1 bad-tag",
    "2 legacy",
  ]);
  assert.equal(json.routable, 1);
});

Deno.test("scratch --drop asks first: without a terminal it needs --yes, and drops only that block", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.scratch.md": SCRATCH });
  const scratch = join(dir.path, "_memory_library/.scratch.md");
  const refused = await runLibrarian(["scratch", "--drop", "2"], { cwd: dir.path });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /add --yes when not on a terminal/);
  assert.equal(Deno.readTextFileSync(scratch), SCRATCH);
  const dropped = await runLibrarian(["scratch", "--drop", "2", "--yes"], { cwd: dir.path });
  assert.equal(dropped.code, 0, dropped.stderr);
  assert.match(dropped.stdout, /^Dropped block 2 \(## \[TAG: src\/api\]\) from scratch\.$/m);
  assert.equal(
    Deno.readTextFileSync(scratch),
    SCRATCH.replace("## [TAG: src/api]\n- legacy, no type\n", ""),
  );
  const missing = await runLibrarian(["scratch", "--drop", "5", "--yes"], { cwd: dir.path });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no kept block 5; 'librarian scratch' numbers them 1 to 1/);
});
