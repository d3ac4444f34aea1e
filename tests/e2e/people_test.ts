/**
 * The people's side with the real client (issue 13): after a real session, `librarian status`
 * shows that project's hook runs (and another project's status does not), and `librarian
 * sessions` / `librarian sessions latest` find the session in the plugin's data folder from a
 * plain shell, and `librarian explain <path> --session latest` reads its ledger.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runLibrarian, tempDir, writeTree } from "../helpers.ts";
import { text, toolUse } from "./model_server.ts";
import { scenario } from "./scenario.ts";

scenario("a real session's runs and sends: status, sessions, explain", async (open) => {
  const project = await open({
    "_memory_library/.scratch.md": "",
    "_memory_library/tech.md": "# tech\n- PEOPLE-ROOT: Deno 2.\n",
    "_memory_library/src/api/patterns.md": "# patterns\n- PEOPLE-API: validate at the edge.\n",
    "src/api/handler.ts": "export const H = 1;\n",
  });
  const run = await project.run("Look at the handler.", [
    [toolUse("Read", { file_path: project.path("src/api/handler.ts") })],
    [text("Done.")],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const records = await project.log();
  assert.ok(records.length > 0);
  for (const record of records) {
    assert.equal(record.fields.project, project.root, `${record.command} ${record.fields.event}`);
  }
  // From a plain shell: no CLAUDE_PLUGIN_DATA, only HOME.
  const shell = {
    cwd: project.root,
    home: project.home,
    env: { LIBRARIAN_LOG: project.logPath },
  };
  const status = JSON.parse((await runLibrarian(["status", "--json"], shell)).stdout);
  assert.ok(status.log.runs.some((r: { command: string }) => r.command === "inject"));
  const sessions = await runLibrarian(["sessions", "--json"], shell);
  assert.equal(sessions.code, 0, sessions.stderr);
  const listed = JSON.parse(sessions.stdout).sessions;
  assert.equal(listed.length, 1, sessions.stdout);
  const sent = JSON.parse((await runLibrarian(["sessions", "latest", "--json"], shell)).stdout);
  const files = sent.windows[0].files.map((f: { path: string }) => f.path);
  assert.ok(files.includes("src/api/patterns.md"), JSON.stringify(sent));
  const why = await runLibrarian(["explain", "src/api/handler.ts", "--session", "latest"], shell);
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /^ {2}src\/api\/patterns\.md: already sent to this context window/m);

  await using other = await tempDir();
  await writeTree(other.path, { "_memory_library/.scratch.md": "" });
  const elsewhere = await runLibrarian(["status", "--json"], {
    cwd: other.path,
    home: project.home,
    env: { LIBRARIAN_LOG: project.logPath },
  });
  assert.deepEqual(JSON.parse(elsewhere.stdout).log.runs, [], "another project's runs");
});
