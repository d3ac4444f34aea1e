/**
 * `librarian explain`: why the inject hook sends (or sent) what it does for a path, in a fresh
 * context window or in one of this project's sessions, and the same for one hook event read on
 * stdin; it reads and never writes (no ledger, no scratch change) unless `--run` runs the hook.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { apiProject, projectWithSessions } from "./session_fixtures.ts";

function readEvent(cwd: string, session: string, file: string): string {
  return JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: file },
  });
}

Deno.test("explain <path> says where each library file comes from and that a new window gets it", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const result = await runLibrarian(["explain", "src/api/handler.ts"], options);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^event: PreToolUse \(Read\)$/m);
  assert.match(result.stdout, /^library: .*_memory_library/m);
  assert.match(result.stdout, /^file: src\/api\/handler\.ts$/m);
  assert.match(
    result.stdout,
    /^walk \(most specific first\): src\/api\/patterns\.md, tech\.md \(library root\)$/m,
  );
  assert.match(result.stdout, /^ {2}src\/api\/patterns\.md: sent$/m);
  assert.match(result.stdout, /^ledger: none .*everything counts as new$/m);
  assert.equal(result.stderr, "");
  const json = JSON.parse(
    (await runLibrarian(["explain", "src/api/handler.ts", "--json"], options)).stdout,
  );
  assert.equal(typeof json.version, "string");
  assert.equal(json.hook, "inject");
  assert.ok(json.explanation.includes("  src/api/patterns.md: sent"), json.explanation);
  let ledgers = false;
  try {
    ledgers = Deno.statSync(join(dir.path, ".state", "ledgers")).isDirectory;
  } catch {
    // no state written: what explain must do
  }
  assert.equal(ledgers, false, "explain writes no ledger");
});

Deno.test("explain <path> --session reads that session's ledger: what it already had is not sent again", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const file = join(dir.path, "src/api/handler.ts");
  const hook = await runLibrarian(["inject"], {
    ...options,
    stdin: readEvent(dir.path, "s-1", file),
  });
  assert.equal(hook.code, 0, hook.stderr);
  for (const session of ["s-1", "latest", "s-"]) {
    const result = await runLibrarian(
      ["explain", "src/api/handler.ts", "--session", session],
      options,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ledger: \d+ files already sent to s-1/m, session);
    assert.match(
      result.stdout,
      /^ {2}src\/api\/patterns\.md: already sent to this context window, unchanged$/m,
      session,
    );
    assert.match(result.stdout, /^nothing new to send: every file was already sent$/m, session);
  }
  const unknown = await runLibrarian(
    ["explain", "src/api/handler.ts", "--session", "nope"],
    options,
  );
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^librarian explain: no session 'nope' .*'librarian sessions'/);
});

Deno.test("explain <path> --session latest picks the session 'librarian sessions' lists first", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  await writeTree(options.cwd, { "src/api/x.ts": "" });
  const listed = JSON.parse((await runLibrarian(["sessions", "--json"], options)).stdout);
  const result = await runLibrarian(["explain", "src/api/x.ts", "--session", "latest"], options);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`already sent to ${listed.sessions[0].session}`));
});

Deno.test("explain --event explains a hook event on stdin and writes nothing, for inject and stop", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const scratch = "## [TAG: src/api, type: patterns]\n- retry on 429\n";
  await writeTree(dir.path, { "_memory_library/.scratch.md": scratch });
  const file = join(dir.path, "src/api/handler.ts");
  const inject = await runLibrarian(["explain", "--event"], {
    ...options,
    stdin: readEvent(dir.path, "s-2", file),
  });
  assert.equal(inject.code, 0, inject.stderr);
  assert.match(inject.stdout, /^ {2}src\/api\/patterns\.md: sent$/m);
  const again = await runLibrarian(["explain", "--event"], {
    ...options,
    stdin: readEvent(dir.path, "s-2", file),
  });
  assert.match(again.stdout, /^ {2}src\/api\/patterns\.md: sent$/m, "the first run wrote nothing");
  const stop = await runLibrarian(["explain", "--event"], {
    ...options,
    stdin: JSON.stringify({ hook_event_name: "Stop", cwd: dir.path, session_id: "s-2" }),
  });
  assert.equal(stop.code, 0, stop.stderr);
  const stopJson = await runLibrarian(["explain", "--event", "--json"], {
    ...options,
    stdin: JSON.stringify({ hook_event_name: "Stop", cwd: dir.path, session_id: "s-2" }),
  });
  assert.equal(JSON.parse(stopJson.stdout).hook, "stop");
  assert.match(
    stop.stdout,
    /^ {2}line 1 ## \[TAG: src\/api, type: patterns\]: filed into src\/api\/patterns\.md$/m,
  );
  assert.equal(Deno.readTextFileSync(join(dir.path, "_memory_library/.scratch.md")), scratch);
  const bad = await runLibrarian(["explain", "--event"], { ...options, stdin: "{" });
  assert.equal(bad.code, 0);
  assert.match(bad.stdout, /^bad input: /);
});

Deno.test("explain --event --run on a Stop event files as the Stop hook does, the why on stderr", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: src/api, type: patterns]\n- retry on 429\n",
  });
  const result = await runLibrarian(["explain", "--event", "--run"], {
    ...options,
    stdin: JSON.stringify({ hook_event_name: "Stop", cwd: dir.path, session_id: "s-3" }),
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /^explain: {3}line 1 .*: filed into src\/api\/patterns\.md$/m);
  assert.match(
    Deno.readTextFileSync(join(dir.path, "_memory_library/src/api/patterns.md")),
    /retry on 429/,
  );
});

Deno.test("explain: one of <path>, --event, --example; options only where they apply", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  for (
    const [args, message] of [
      [[], /give a <path>, --event or --example/],
      [["src/a.ts", "--event"], /<path>, --event and --example do not go together/],
      [["--event", "--example"], /<path>, --event and --example do not go together/],
      [["--event", "--session", "s"], /--session goes with a <path>/],
      [["src/a.ts", "--run"], /--run goes with --event/],
    ] as const
  ) {
    const result = await runLibrarian(["explain", ...args], { ...options, stdin: "" });
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, message, args.join(" "));
    assert.match(result.stderr, /^Usage: librarian explain /m);
  }
  const json = await runLibrarian(["explain", "--event", "--run", "--json"], {
    ...options,
    stdin: "",
  });
  assert.equal(json.code, 2);
  assert.match(JSON.parse(json.stdout).error, /--run and --json do not go together/);
});
