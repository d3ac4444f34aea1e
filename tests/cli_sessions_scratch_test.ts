/**
 * Seeing what happened: `librarian sessions` (the list) and `librarian sessions <session>` (what
 * one was sent) read the inject side's ledgers (this project's sessions only), and
 * `librarian scratch` lists the kept blocks with the reason and the fix, and drops one after
 * confirmation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { projectWithSessions } from "./session_fixtures.ts";

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
  assert.match(text.stdout, /'librarian sessions <session>' lists what a session was sent/);
});

Deno.test("sessions <session> shows each context window's files and whether each version is still current", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  Deno.writeTextFileSync(join(options.lib, "tech.md"), "- Deno 2\n- and more\n");
  const result = await runLibrarian(["sessions", "sess-new", "--json"], options);
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
  const latest = await runLibrarian(["sessions", "latest"], options);
  assert.match(latest.stdout, /^Session sess-new-2222$/m);
  assert.match(latest.stdout, /^subagent abc/m);
  const unknown = await runLibrarian(["sessions", "nope"], options);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /^librarian sessions: no session 'nope' .*'librarian sessions' lists them/,
  );
});

Deno.test("sessions: a session, --by-file and --limit do not mix; --days goes with --by-file", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  for (
    const [args, message] of [
      [["sess-new", "--by-file"], /a session and --by-file do not go together/],
      [["sess-new", "--limit", "2"], /--limit goes with the list/],
      [["--by-file", "--limit", "2"], /--limit goes with the list/],
      [["--days", "7"], /--days goes with --by-file/],
    ] as const
  ) {
    const result = await runLibrarian(["sessions", ...args], options);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, message);
    assert.match(result.stderr, /^Usage: librarian sessions /m);
  }
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
