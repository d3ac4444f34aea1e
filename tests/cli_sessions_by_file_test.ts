/**
 * Which knowledge is used: `librarian sessions --by-file` reads the inject side's ledgers (written
 * here by the real hook through the launcher) and shows per library file the sessions it reached,
 * the last time, and the files never delivered.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

function touchEvent(cwd: string, session: string, file: string): string {
  return JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: file },
  });
}

Deno.test("sessions --by-file counts the sessions each library file reached and names the never delivered", async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "proj");
  await writeTree(root, {
    "_memory_library/tech.md": "- Deno 2\n",
    "_memory_library/src/api/patterns.md": "- validate at the edge\n",
    "_memory_library/old/gone/edge.md": "- about code long gone\n",
    "src/api/a.ts": "",
    "src/web/b.ts": "",
  });
  const env = { LIBRARIAN_STATE_DIR: join(dir.path, "state"), LIBRARIAN_SESSION_START: "off" };
  for (const [session, file] of [["s1", "src/api/a.ts"], ["s2", "src/web/b.ts"]] as const) {
    const run = await runLibrarian(["inject"], {
      cwd: root,
      env,
      stdin: touchEvent(root, session, join(root, file)),
    });
    assert.equal(run.code, 0, run.stderr);
  }
  const result = await runLibrarian(["sessions", "--by-file", "--json"], { cwd: root, env });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  const row = (path: string) =>
    report.files.find((f: { path: string }) => f.path === path) as {
      recentSessions: number;
      sessions: number;
      last: string | null;
    };
  assert.equal(row("tech.md").recentSessions, 2);
  assert.equal(row("src/api/patterns.md").recentSessions, 1);
  assert.ok(Date.now() - Date.parse(row("tech.md").last!) < 600_000);
  assert.deepEqual(report.neverDelivered, ["old/gone/edge.md"]);
  const text = await runLibrarian(["sessions", "--by-file"], { cwd: root, env });
  assert.match(text.stdout, /^ {2}tech\.md +2 \/ +2 +\d{4}-\d\d-\d\dT/m);
  assert.match(text.stdout, /never delivered[^\n]*\n {2}old\/gone\/edge\.md$/m);
  const week = JSON.parse(
    (await runLibrarian(["sessions", "--by-file", "--days", "7", "--json"], { cwd: root, env }))
      .stdout,
  );
  assert.equal(week.days, 7);
});
