/**
 * The old names keep working for one release: `sent`, `stats`, and a hook's `--example` and
 * `--explain` do what they did (the same stdout as the new form), and each prints one line on
 * stderr naming the new form; `librarian --help` lists only the new forms.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { closestCommand } from "../src/command_table.ts";
import { runLibrarian, tempDir } from "./helpers.ts";
import { apiProject, projectWithSessions } from "./session_fixtures.ts";

/** The stderr lines that are not the pointer to the new form. */
function withoutPointer(stderr: string, old: string, now: string): string {
  const lines = stderr.split("\n");
  const pointer = `librarian ${old}: now 'librarian ${now}'; the old form goes in the next release`;
  assert.equal(lines.filter((l) => l === pointer).length, 1, `one pointer line in: ${stderr}`);
  return lines.filter((l) => l !== pointer).join("\n");
}

Deno.test("sent is sessions <session>: the same output, and one line naming the new form", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  const old = await runLibrarian(["sent", "sess-new", "--json"], options);
  const now = await runLibrarian(["sessions", "sess-new", "--json"], options);
  assert.equal(old.code, 0, old.stderr);
  assert.deepEqual(JSON.parse(old.stdout), JSON.parse(now.stdout));
  assert.equal(withoutPointer(old.stderr, "sent", "sessions <session>"), "");
  const latest = await runLibrarian(["sent"], options);
  assert.equal(latest.stdout, (await runLibrarian(["sessions", "latest"], options)).stdout);
  withoutPointer(latest.stderr, "sent", "sessions <session>");
  const unknown = await runLibrarian(["sent", "nope"], options);
  assert.equal(unknown.code, 1);
  assert.match(
    withoutPointer(unknown.stderr, "sent", "sessions <session>"),
    /^librarian sent: no session 'nope' .*'librarian sessions' lists them/,
  );
});

Deno.test("stats is sessions --by-file: the same output, and one line naming the new form", async () => {
  await using dir = await tempDir();
  const options = await projectWithSessions(dir.path);
  for (const extra of [[], ["--days", "7"]]) {
    const old = await runLibrarian(["stats", ...extra, "--json"], options);
    const now = await runLibrarian(["sessions", "--by-file", ...extra, "--json"], options);
    assert.equal(old.code, 0, old.stderr);
    assert.deepEqual(JSON.parse(old.stdout), JSON.parse(now.stdout));
    assert.equal(withoutPointer(old.stderr, "stats", "sessions --by-file"), "");
  }
  const text = await runLibrarian(["stats"], options);
  assert.match(text.stdout, /^ {2}tech\.md +2 \/ +2 /m);
});

Deno.test("inject --example and stop --example are explain --example, with a pointer", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const inject = await runLibrarian(["inject", "--example", "SessionStart"], options);
  assert.equal(inject.code, 0, inject.stderr);
  assert.equal(JSON.parse(inject.stdout).hook_event_name, "SessionStart");
  withoutPointer(inject.stderr, "inject --example", "explain --example [<event>]");
  const plain = JSON.parse((await runLibrarian(["inject", "--example"], options)).stdout);
  assert.equal(plain.tool_input.file_path, `${dir.path}/src/api/handler.ts`);
  const stop = await runLibrarian(["stop", "--example"], options);
  assert.equal(JSON.parse(stop.stdout).hook_event_name, "Stop");
  withoutPointer(stop.stderr, "stop --example", "explain --example Stop");
  const bad = await runLibrarian(["inject", "--example", "Stop"], options);
  assert.equal(bad.code, 2, "inject's --example makes only inject's events, as before");
});

Deno.test("inject --explain is explain --event --run: the same stdout and why, with a pointer", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const event = (session: string) =>
    JSON.stringify({
      session_id: session,
      cwd: dir.path,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(dir.path, "src/api/handler.ts") },
    });
  const old = await runLibrarian(["inject", "--explain"], { ...options, stdin: event("s-old") });
  const now = await runLibrarian(["explain", "--event", "--run"], {
    ...options,
    stdin: event("s-new"),
  });
  assert.equal(old.code, 0);
  assert.equal(old.stdout, now.stdout);
  assert.match(old.stdout, /validate at the edge/);
  assert.equal(
    withoutPointer(old.stderr, "inject --explain", "explain --event --run").replaceAll(
      "s-old",
      "s-new",
    ),
    now.stderr,
  );
  assert.match(now.stderr, /^explain: {3}src\/api\/patterns\.md: sent$/m);
});

Deno.test("librarian --help lists only the new forms; a typo never suggests an old name", async () => {
  const help = (await runLibrarian(["--help"])).stdout;
  assert.match(help, /^ {2}sessions +\S/m);
  assert.match(help, /^ {2}explain +\S/m);
  assert.doesNotMatch(help, /^ {2}(sent|stats) /m);
  assert.doesNotMatch(help, /--explain|--example/);
  assert.notEqual(closestCommand("snt"), "sent");
  assert.notEqual(closestCommand("stas"), "stats");
  assert.equal(closestCommand("sesions"), "sessions");
  const hook = (await runLibrarian(["inject", "--help"])).stdout;
  assert.match(hook, /librarian explain --example \| librarian inject/);
  assert.doesNotMatch(hook, /inject --explain|inject --example/);
});
