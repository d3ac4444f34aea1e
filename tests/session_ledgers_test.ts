/**
 * Reading the inject side's ledgers for `librarian sessions` and `sent`
 * (`src/commands/sessions/ledgers.ts`): only this library's files, main window first, newest
 * session first, and whether each file sent is still the version the session saw.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { saveLedger } from "../src/inject/ledger.ts";
import {
  candidateStateDirs,
  projectSessions,
  versionState,
} from "../src/commands/sessions/ledgers.ts";
import { tempDir } from "./helpers.ts";

function ledger(files: Record<string, string>) {
  return { files, reminded: false, events: [] };
}

Deno.test("sessions list only this library's files, main window first, newest session first", async () => {
  await using dir = await tempDir();
  const state = dir.path;
  const library = "/repo/_memory_library";
  saveLedger(state, { sessionId: "old" }, ledger({ [`${library}/tech.md`]: "1:1:h" }));
  saveLedger(state, { sessionId: "other" }, ledger({ "/elsewhere/_memory_library/a.md": "1:1:h" }));
  saveLedger(
    state,
    { sessionId: "new", agentId: "a1" },
    ledger({ [`${library}/src/a.md`]: "1:1:h" }),
  );
  saveLedger(state, { sessionId: "new" }, ledger({ [`${library}/tech.md`]: "1:1:h" }));
  const past = new Date(Date.now() - 60_000);
  Deno.utimeSync(`${state}/ledgers/old/main.json`, past, past);
  const sessions = projectSessions(envFrom({ LIBRARIAN_STATE_DIR: state }), `${library}/`);
  assert.deepEqual(sessions.map((s) => s.session), ["new", "old"]);
  assert.deepEqual(sessions[0]!.windows.map((w) => w.window), ["main", "agent-a1"]);
  assert.deepEqual(Object.keys(sessions[0]!.windows[1]!.files), [`${library}/src/a.md`]);
});

Deno.test("no ledgers folder: no sessions, no error", async () => {
  await using dir = await tempDir();
  assert.deepEqual(projectSessions(envFrom({ LIBRARIAN_STATE_DIR: dir.path }), "/repo/lib"), []);
});

Deno.test("state folders: where the hooks keep ledgers (LIBRARIAN_STATE_DIR, else ~/.claude/librarian), when it exists", async () => {
  await using dir = await tempDir();
  const home = dir.path;
  assert.deepEqual(candidateStateDirs(envFrom({ HOME: home })), []);
  Deno.mkdirSync(`${home}/.claude/librarian`, { recursive: true });
  Deno.mkdirSync(`${home}/.claude/plugins/data/librarian-team`, { recursive: true });
  assert.deepEqual(candidateStateDirs(envFrom({ HOME: home })), [`${home}/.claude/librarian`]);
  assert.deepEqual(
    candidateStateDirs(envFrom({ HOME: home, LIBRARIAN_STATE_DIR: `${home}/.claude/librarian` })),
    [`${home}/.claude/librarian`],
  );
});

Deno.test("a file sent is current, changed since, or deleted", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/tech.md`;
  Deno.writeTextFileSync(path, "12345");
  const stamp = `5:${Deno.statSync(path).mtime!.getTime()}`;
  assert.equal(versionState(path, `${stamp}:hash`), "current");
  Deno.writeTextFileSync(path, "123456");
  assert.equal(versionState(path, `${stamp}:hash`), "changed");
  Deno.removeSync(path);
  assert.equal(versionState(path, `${stamp}:hash`), "deleted");
});
