/**
 * `librarian export` as a person runs it: exit codes, `--check` for CI, usage errors, `--json`,
 * and `init --export`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

async function project(root: string, extra: Record<string, string> = {}) {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "# tech\n- Deno 2 only\n",
    "proj/_memory_library/src/api/patterns.md": "- retries need idempotency keys\n",
    "proj/src/api/handler.ts": "",
    ...extra,
  });
  return { cwd: join(root, "proj"), home: join(root, "home") };
}

Deno.test("export --check exits 1 listing what is stale, export writes it, then --check exits 0", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const stale = await runLibrarian(["export", "--format", "cursor", "--check"], options);
  assert.equal(stale.code, 1, stale.stderr);
  assert.match(stale.stdout, /create +\.cursor\/rules\/librarian-src--api\.mdc/);
  assert.match(stale.stdout, /2 export files out of date: run 'librarian export'/);
  const write = await runLibrarian(["export", "--format", "cursor"], options);
  assert.equal(write.code, 0, write.stderr);
  assert.match(write.stdout, /created +\.cursor\/rules\/librarian\.mdc/);
  const fresh = await runLibrarian(["export", "--format", "cursor", "--check"], options);
  assert.equal(fresh.code, 0, fresh.stdout);
  assert.match(fresh.stdout, /Exports are up to date\./);
});

Deno.test("export names a colliding file of the person's, leaves it untouched and exits 1", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, { "proj/AGENTS.md": "# Our own agent notes\n" });
  const result = await runLibrarian(["export", "--format", "agents-md"], options);
  assert.equal(result.code, 1, result.stdout);
  assert.match(
    result.stdout,
    /collision AGENTS\.md \(agents-md\): .*no Librarian marker.*left alone/,
  );
  assert.equal(
    await Deno.readTextFile(join(dir.path, "proj/AGENTS.md")),
    "# Our own agent notes\n",
  );
  assert.match(await Deno.readTextFile(join(dir.path, "proj/src/api/AGENTS.md")), /idempotency/);
});

Deno.test("export refuses an unknown format, and no format at all when none is recorded (exit 2)", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const bogus = await runLibrarian(["export", "--format", "vim"], options);
  assert.equal(bogus.code, 2);
  assert.match(
    bogus.stderr,
    /unknown format 'vim' \(formats: agents-md, cursor, copilot, claude-rules/,
  );
  const none = await runLibrarian(["export"], options);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no format given and none recorded/);
  const both = await runLibrarian(["export", "--format", "all", "--check", "--clean"], options);
  assert.equal(both.code, 2);
});

Deno.test("export --json reports version, formats and every action", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(
    ["export", "--format", "copilot", "--dry-run", "--json"],
    options,
  );
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(typeof report.version, "string"); // the program version, as in every --json
  assert.deepEqual(report.formats, ["copilot"]);
  assert.equal(report.dryRun, true);
  assert.deepEqual(
    report.actions.map((a: { kind: string; path: string }) => `${a.kind} ${a.path}`),
    [
      "create .github/copilot-instructions.md",
      "create .github/instructions/librarian-src--api.instructions.md",
    ],
  );
  const written = await Deno.stat(join(dir.path, "proj/.github")).catch(() => null);
  assert.equal(written, null, "a dry run writes nothing");
});

Deno.test("init --export records the formats, exports at once, and export then needs no --format", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const init = await runLibrarian(["init", "--export", "claude-rules"], options);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /created +_memory_library\/\.librarian\.json/);
  assert.match(init.stdout, /created +\.claude\/rules\/librarian-src--api\.md/);
  const config = JSON.parse(
    await Deno.readTextFile(join(dir.path, "proj/_memory_library/.librarian.json")),
  );
  assert.deepEqual(config, { version: 1, export: ["claude-rules"] });
  const check = await runLibrarian(["export", "--check"], options);
  assert.equal(check.code, 0, check.stdout);
});

Deno.test("the Stop hook re-exports the folders it filed into, in the recorded formats", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, { "proj/src/ui/view.ts": "" });
  assert.equal((await runLibrarian(["init", "--export", "agents-md"], options)).code, 0);
  await Deno.writeTextFile(
    join(dir.path, "proj/_memory_library/.scratch.md"),
    "## [TAG: src/ui, type: patterns]\n- tokens, never hex colours\n",
  );
  const event = JSON.stringify({
    session_id: "export-session",
    transcript_path: join(dir.path, "none.jsonl"),
    cwd: options.cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
  });
  const stop = await runLibrarian(["stop"], { ...options, stdin: event });
  assert.equal(stop.code, 0, stop.stderr);
  assert.match(
    await Deno.readTextFile(join(dir.path, "proj/src/ui/AGENTS.md")),
    /^<!-- Generated by the Librarian from _memory_library\/src\/ui\.[\s\S]*tokens, never hex/,
  );
  const check = await runLibrarian(["export", "--check"], options);
  assert.equal(check.code, 0, check.stdout);
});

Deno.test("route keeps the recorded exports current too", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  assert.equal((await runLibrarian(["init", "--export", "cursor"], options)).code, 0);
  await Deno.writeTextFile(
    join(dir.path, "proj/_memory_library/.scratch.md"),
    "## [TAG: src/api, type: edge]\n- 429s carry Retry-After\n",
  );
  const route = await runLibrarian(["route"], options);
  assert.equal(route.code, 0, route.stderr + route.stdout);
  assert.match(route.stdout, /Exports updated: 1 file\./);
  assert.match(
    await Deno.readTextFile(join(dir.path, "proj/.cursor/rules/librarian-src--api.mdc")),
    /429s carry Retry-After/,
  );
});
