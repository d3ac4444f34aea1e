/**
 * Running a hook by hand: a sample event for this project (`librarian explain --example`), an
 * explanation on stderr (`librarian explain --event --run`) that leaves stdout exactly as Claude
 * Code would get it, and one hint line when a hook's stdin is a terminal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LAUNCHER, runLibrarian, tempDir } from "./helpers.ts";
import { apiProject } from "./session_fixtures.ts";

Deno.test("explain --example prints a PreToolUse event for a real file of this project, fresh each time", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const first = await runLibrarian(["explain", "--example"], options);
  assert.equal(first.code, 0, first.stderr);
  const event = JSON.parse(first.stdout);
  assert.equal(event.hook_event_name, "PreToolUse");
  assert.equal(event.tool_name, "Read");
  assert.equal(event.cwd, dir.path);
  assert.equal(event.tool_input.file_path, `${dir.path}/src/api/handler.ts`);
  const second = JSON.parse((await runLibrarian(["explain", "--example"], options)).stdout);
  assert.notEqual(second.session_id, event.session_id);
  const hook = await runLibrarian(["inject"], { ...options, stdin: first.stdout });
  const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext;
  assert.match(context, /validate at the edge/);
});

Deno.test("every --example event is one the hooks take, and --example Stop is a Stop event", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  for (const name of ["PreToolUse", "UserPromptSubmit", "SessionStart", "SubagentStart"]) {
    const example = await runLibrarian(["explain", "--example", name], options);
    assert.equal(example.code, 0, example.stderr);
    assert.equal(JSON.parse(example.stdout).hook_event_name, name);
    const hook = await runLibrarian(["inject"], { ...options, stdin: example.stdout });
    assert.equal(hook.code, 0);
    if (hook.stdout.trim() !== "") JSON.parse(hook.stdout);
  }
  const stop = await runLibrarian(["explain", "--example", "Stop"], options);
  assert.equal(JSON.parse(stop.stdout).hook_event_name, "Stop");
  const bad = await runLibrarian(["explain", "--example", "Bogus"], options);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown event 'Bogus' for --example; one of PreToolUse, .*, Stop$/m);
});

Deno.test("explain --event --run says why on stderr and leaves stdout exactly what Claude Code gets", async () => {
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
  const plain = await runLibrarian(["inject"], { ...options, stdin: event("s-plain") });
  const explained = await runLibrarian(["explain", "--event", "--run"], {
    ...options,
    stdin: event("s-explained"),
  });
  assert.equal(explained.code, 0);
  assert.equal(explained.stdout, plain.stdout);
  assert.match(explained.stderr, /^explain: library: .*_memory_library/m);
  assert.match(
    explained.stderr,
    /^explain: walk \(most specific first\): src\/api\/patterns\.md, /m,
  );
  assert.match(explained.stderr, /^explain: {3}src\/api\/patterns\.md: sent$/m);
  const again = await runLibrarian(["explain", "--event", "--run"], {
    ...options,
    stdin: event("s-explained"),
  });
  assert.equal(again.stdout, "");
  assert.match(again.stderr, /src\/api\/patterns\.md: already sent to this context window/);
});

Deno.test({
  name: "a hook started on a terminal prints one line on stderr saying how to feed it an event",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const which = await new Deno.Command("sh", { args: ["-c", "command -v script"] }).output();
    if (which.code !== 0) return; // util-linux `script` gives the hook a terminal
    await using dir = await tempDir();
    const out = await new Deno.Command("script", {
      args: ["-qec", `sh ${LAUNCHER} inject < /dev/tty`, "/dev/null"],
      cwd: dir.path,
      env: { LIBRARIAN_LOG: "off", HOME: dir.path },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.match(text, /librarian inject: reading one hook event \(JSON\) from stdin/);
  },
});

Deno.test("explain --event --run on SessionStart names the root files and whether the window has them", async () => {
  await using dir = await tempDir();
  const options = await apiProject(dir.path);
  const example = await runLibrarian(["explain", "--example", "SessionStart"], options);
  const explained = await runLibrarian(["explain", "--event", "--run"], {
    ...options,
    stdin: example.stdout,
  });
  assert.equal(explained.code, 0);
  assert.match(explained.stderr, /^explain: {3}tech\.md.*: sent$/m);
  assert.doesNotMatch(explained.stderr, /src\/api\/patterns\.md/, "only the root level at start");
});
