/**
 * The project's own memory files, read where they lie (issue 33): a nested `CLAUDE.md` or
 * `AGENTS.md` and a `.claude/rules/*.md` rule with `paths:` reach the model on a Bash touch (the
 * client loads none there), labelled with their path, once per context window; never on a file
 * tool's touch where the client loads them itself, and never the root files the client loads at
 * session start. A rule keeps its scope on Bash too.
 */
import assert from "node:assert/strict";
import { parseLogLine } from "../src/core/log.ts";
import {
  hookContextOf,
  parseHookStdout,
  preToolUseEvent,
  runLibrarian,
  tempDir,
  writeTree,
} from "./helpers.ts";

const DB_RULE = "---\npaths:\n  - internal-packages/database/**\n---\n# Database\n- DB-RULE\n";

const PROJECT = {
  "_memory_library/tech.md": "# Tech\n- GLOBAL",
  "CLAUDE.md": "# Root\n- ROOT-CLAUDE",
  "AGENTS.md": "# Root agents\n- ROOT-AGENTS",
  "internal-packages/database/CLAUDE.md": "# Db\n- DB-CLAUDE",
  "internal-packages/database/AGENTS.md": "# Db agents\n- DB-AGENTS",
  "internal-packages/database/schema.prisma": "model A {}",
  "internal-packages/api/x.ts": "export {};",
  ".claude/rules/database.md": DB_RULE,
  ".claude/rules/api.md": "---\npaths: internal-packages/api/**\n---\n- API-RULE\n",
  ".claude/rules/everywhere.md": "# All\n- UNSCOPED-RULE\n",
};

async function project(extra: Record<string, string> = {}) {
  const dir = await tempDir();
  const root = dir.path;
  await writeTree(root, { ...PROJECT, ...extra });
  return { dir, root, log: `${root}/.librarian.log` };
}

async function inject(
  root: string,
  log: string,
  stdin: string,
  env: Record<string, string> = {},
): Promise<string> {
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin,
    env: { LIBRARIAN_LOG: log, ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /"(allow|ask|defer)"|updatedInput/);
  return hookContextOf(result);
}

async function logLines(log: string) {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => parseLogLine(l)!);
}

Deno.test("a Bash touch gets the touched folder's nested CLAUDE.md and AGENTS.md and the rules whose paths: cover it, labelled with their paths; never the root CLAUDE.md the client loads at start", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const command = "cat internal-packages/database/schema.prisma";
  const sent = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"));
  assert.match(sent, /DB-CLAUDE/);
  assert.match(sent, /DB-AGENTS/);
  assert.match(sent, /DB-RULE/);
  assert.match(sent, /--- \[internal-packages\/database\/CLAUDE\.md \(the project's own memory/);
  assert.match(
    sent,
    /--- \[\.claude\/rules\/database\.md \(the project's rule for internal-packages\/database\/\*\*/,
  );
  assert.match(sent, /GLOBAL/, "the library's own files as before");
  assert.doesNotMatch(sent, /ROOT-CLAUDE/, "the client loads the root CLAUDE.md itself");
  // 2.1.197 (no CLAUDE_PID, no report) never loads the root AGENTS.md: inject_root_agents_test.ts
  assert.match(sent, /ROOT-AGENTS/);
  assert.doesNotMatch(sent, /API-RULE/, "a rule keeps its scope on Bash");
  assert.doesNotMatch(sent, /UNSCOPED-RULE/, "a rule without paths: is loaded at start");
});

Deno.test("a rule's globs decide on Bash: a sed -i under the rule's folder gets it, a touch elsewhere does not", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const api = await inject(
    root,
    log,
    preToolUseEvent(root, "Bash", { command: "sed -n 1p internal-packages/api/x.ts" }, "t1"),
  );
  assert.match(api, /API-RULE/);
  assert.doesNotMatch(api, /DB-RULE|DB-CLAUDE/);
  const db = await inject(
    root,
    log,
    preToolUseEvent(
      root,
      "Bash",
      { command: "sed -i 's/A/B/' internal-packages/database/schema.prisma" },
      "t2",
    ),
  );
  assert.match(db, /DB-RULE/);
  assert.doesNotMatch(db, /API-RULE/, "already in the window, and out of scope");
});

Deno.test("a native source reaches a context window once: the second Bash touch sends nothing again", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const command = "cat internal-packages/database/schema.prisma";
  const first = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"));
  assert.match(first, /DB-CLAUDE/);
  const second = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t2"));
  assert.equal(second, "");
  await Deno.writeTextFile(`${root}/internal-packages/database/CLAUDE.md`, "# Db\n- DB-CHANGED");
  const third = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t3"));
  assert.match(third, /DB-CHANGED/, "a changed file is sent again");
  assert.doesNotMatch(third, /DB-RULE|DB-AGENTS/);
});

Deno.test("a Read leaves the nested CLAUDE.md and matching rules to the client (recorded as in the window), and sends the nested AGENTS.md the client never loads", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const file = `${root}/internal-packages/database/schema.prisma`;
  const read = await inject(root, log, preToolUseEvent(root, "Read", { file_path: file }, "t1"));
  assert.match(read, /DB-AGENTS/);
  assert.doesNotMatch(read, /DB-CLAUDE|DB-RULE/, "the client loads these on a Read itself");
  const [line] = await logLines(log);
  assert.equal(line?.fields.client_loaded, "2");
  const bash = await inject(
    root,
    log,
    preToolUseEvent(
      root,
      "Bash",
      { command: "cat internal-packages/database/schema.prisma" },
      "t2",
    ),
  );
  assert.doesNotMatch(bash, /DB-CLAUDE|DB-RULE|DB-AGENTS/, "never twice in one window");
});

Deno.test("a Read into a folder whose only memory is the client's own records it, and sends nothing", async () => {
  const { dir, root, log } = await project({
    "internal-packages/database/AGENTS.md": "",
    "_memory_library/tech.md": "",
  });
  await using _ = dir;
  await Deno.remove(`${root}/internal-packages/database/AGENTS.md`);
  await Deno.remove(`${root}/_memory_library/tech.md`);
  await Deno.remove(`${root}/AGENTS.md`); // no client version this test runs as loads it
  const file = `${root}/internal-packages/database/schema.prisma`;
  assert.equal(
    await inject(root, log, preToolUseEvent(root, "Read", { file_path: file }, "t1")),
    "",
  );
  const bash = await inject(
    root,
    log,
    preToolUseEvent(
      root,
      "Bash",
      { command: "cat internal-packages/database/schema.prisma" },
      "t2",
    ),
  );
  assert.equal(bash, "", "the client already sent the CLAUDE.md and the rule");
});

Deno.test("a native file too large for the budget is cut, and the closing line says where to read it", async () => {
  const big = "# Db\n" + Array.from({ length: 400 }, (_, i) => `- DB-LINE ${i} ${"x".repeat(40)}`)
    .join("\n");
  const { dir, root, log } = await project({ "internal-packages/database/CLAUDE.md": big });
  await using _ = dir;
  const command = "cat internal-packages/database/schema.prisma";
  const sent = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"));
  assert.ok(sent.length <= 9000);
  assert.match(sent, /DB-LINE 0 /);
  assert.match(
    sent,
    new RegExp(`Not shown in full[^\\n]*${root}/internal-packages/database/CLAUDE\\.md \\(cut\\)`),
  );
});

Deno.test("a linked nested CLAUDE.md is never followed", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  await Deno.writeTextFile(`${root}/secret.md`, "- SECRET");
  await Deno.remove(`${root}/internal-packages/database/CLAUDE.md`);
  await Deno.symlink(`${root}/secret.md`, `${root}/internal-packages/database/CLAUDE.md`);
  const command = "cat internal-packages/database/schema.prisma";
  const sent = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"));
  assert.doesNotMatch(sent, /SECRET/);
  assert.match(sent, /DB-AGENTS/);
});

Deno.test("what the client reports loading (InstructionsLoaded) is in the window: a later Bash touch does not send it again; nothing is printed for the event", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const loaded = JSON.stringify({
    session_id: "s-1",
    hook_event_name: "InstructionsLoaded",
    file_path: `${root}/internal-packages/database/CLAUDE.md`,
    memory_type: "Project",
    load_reason: "nested_traversal",
    trigger_file_path: `${root}/internal-packages/database/schema.prisma`,
    cwd: root,
  });
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin: loaded,
    env: { LIBRARIAN_LOG: log },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "");
  const [line] = await logLines(log);
  assert.equal(line?.fields.result, "recorded");
  assert.equal(line?.fields.reason, "nested_traversal");
  const bash = await inject(
    root,
    log,
    preToolUseEvent(
      root,
      "Bash",
      { command: "cat internal-packages/database/schema.prisma" },
      "t2",
    ),
  );
  assert.doesNotMatch(bash, /DB-CLAUDE/, "the client sent it");
  assert.match(bash, /DB-RULE/, "the client did not report the rule: it is sent");
});

Deno.test("a Write under 2.1.332 records nothing as loaded by the client (it reports what it loads: InstructionsLoaded), so a later Bash touch it does not take for a read sends them; under 2.1.197 they come with the Write, once", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const file = `${root}/internal-packages/database/new.prisma`;
  const written = await inject(
    root,
    log,
    preToolUseEvent(root, "Write", { file_path: file, content: "x" }, "t1"),
    CLIENT_332,
  );
  assert.doesNotMatch(written, /DB-CLAUDE|DB-RULE/);
  const bash = await inject(
    root,
    log,
    preToolUseEvent(
      root,
      "Bash",
      { command: "wc -l internal-packages/database/schema.prisma" },
      "t2",
    ),
    CLIENT_332,
  );
  assert.match(bash, /DB-CLAUDE/);
  assert.match(bash, /DB-RULE/);
  const { dir: dir2, root: root2, log: log2 } = await project();
  await using _2 = dir2;
  const file2 = `${root2}/internal-packages/database/new.prisma`;
  const old = await inject(
    root2,
    log2,
    preToolUseEvent(root2, "Write", { file_path: file2, content: "x" }, "t1"),
  );
  assert.match(old, /DB-CLAUDE/);
  const again = await inject(
    root2,
    log2,
    preToolUseEvent(
      root2,
      "Bash",
      { command: "wc -l internal-packages/database/schema.prisma" },
      "t2",
    ),
  );
  assert.doesNotMatch(again, /DB-CLAUDE|DB-RULE/, "once per context window");
});

Deno.test("another agent's Read (Codex: turn_id) is not taken as Claude Code's load: its later shell touch still gets the nested CLAUDE.md and the rule", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const codex = (tool: string, input: Record<string, unknown>, id: string) =>
    JSON.stringify({ ...JSON.parse(preToolUseEvent(root, tool, input, id)), turn_id: "turn-1" });
  const file = `${root}/internal-packages/database/schema.prisma`;
  await inject(root, log, codex("Read", { file_path: file }, "t1"));
  const [line] = await logLines(log);
  assert.equal(line?.fields.client, "codex");
  assert.equal(line?.fields.client_loaded, undefined);
  const shell = await inject(
    root,
    log,
    codex("Bash", { command: "cat internal-packages/database/schema.prisma" }, "t2"),
  );
  assert.match(shell, /DB-CLAUDE/);
  assert.match(shell, /DB-RULE/);
});

/** The hook's environment under Claude Code 2.1.3xx, which loads a Bash read's memory itself. */
const CLIENT_332 = { CLAUDE_PID: "4242" };

Deno.test("under a client that loads a Bash read's nested memory itself (2.1.332: CLAUDE_PID), a `cat` or `grep` of a file leaves its nested CLAUDE.md and rule to the client: sent once, by the client", async () => {
  for (
    const command of [
      "cat internal-packages/database/schema.prisma",
      "grep -n model internal-packages/database/schema.prisma",
    ]
  ) {
    const { dir, root, log } = await project();
    await using _ = dir;
    const sent = await inject(
      root,
      log,
      preToolUseEvent(root, "Bash", { command }, "t1"),
      CLIENT_332,
    );
    assert.doesNotMatch(sent, /DB-CLAUDE|DB-RULE/, command);
    assert.match(sent, /DB-AGENTS/, `${command}: the client never loads a nested AGENTS.md`);
    assert.match(sent, /GLOBAL/, `${command}: the library's own files as before`);
  }
});

Deno.test("under 2.1.332 a Bash command the client does not take for a read (sed -i, ls, a pipe) still brings the nested CLAUDE.md and rule; under 2.1.197 (no CLAUDE_PID) a cat does too", async () => {
  const commands = [
    "sed -i 's/A/B/' internal-packages/database/schema.prisma",
    "ls internal-packages/database",
    "cat internal-packages/database/schema.prisma | wc -l",
  ];
  for (const command of commands) {
    const { dir, root, log } = await project();
    await using _ = dir;
    const sent = await inject(
      root,
      log,
      preToolUseEvent(root, "Bash", { command }, "t1"),
      CLIENT_332,
    );
    assert.match(sent, /DB-CLAUDE/, command);
    assert.match(sent, /DB-RULE/, command);
  }
  const { dir, root, log } = await project();
  await using _ = dir;
  const command = "cat internal-packages/database/schema.prisma";
  const old = await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"));
  assert.match(old, /DB-CLAUDE/);
  assert.match(old, /DB-RULE/);
});

Deno.test("under 2.1.332 each read of a list of reads (cat && sed -n) is the client's; a list with a command it does not take for a read (sed -i) leaves every file of it to the Librarian", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const command =
    "cat internal-packages/database/schema.prisma && sed -n 1p internal-packages/api/x.ts";
  const sent = await inject(
    root,
    log,
    preToolUseEvent(root, "Bash", { command }, "t1"),
    CLIENT_332,
  );
  assert.doesNotMatch(sent, /DB-CLAUDE|DB-RULE|API-RULE/, "both are reads the client serves");
  const mixed =
    "sed -i 's/A/B/' internal-packages/api/x.ts && cat internal-packages/database/schema.prisma";
  const { dir: dir2, root: root2, log: log2 } = await project();
  await using _2 = dir2;
  const other = await inject(
    root2,
    log2,
    preToolUseEvent(root2, "Bash", { command: mixed }, "t1"),
    CLIENT_332,
  );
  assert.match(other, /DB-CLAUDE/, "a list with sed -i: the client serves none of it");
  assert.match(other, /API-RULE/);
});

Deno.test("a Write into a folder brings its nested CLAUDE.md and rule under 2.1.197, which loads nothing after a Write; under 2.1.332 (CLAUDE_PID), which loads them itself after it, it does not", async () => {
  const write = (root: string) =>
    preToolUseEvent(root, "Write", {
      file_path: `${root}/internal-packages/database/new.prisma`,
      content: "x",
    }, "t1");
  const { dir, root, log } = await project();
  await using _ = dir;
  const old = await inject(root, log, write(root));
  assert.match(old, /DB-CLAUDE/);
  assert.match(old, /DB-RULE/);
  assert.match(old, /DB-AGENTS/);
  const { dir: dir2, root: root2, log: log2 } = await project();
  await using _2 = dir2;
  const current = await inject(root2, log2, write(root2), CLIENT_332);
  assert.doesNotMatch(current, /DB-CLAUDE|DB-RULE/);
  assert.match(current, /DB-AGENTS/, "no client loads a nested AGENTS.md");
});

Deno.test("a project's settings cannot make the Librarian take the client for one that loads a Bash read's memory: CLAUDE_PID named in its env is refused, and the cat still brings them", async () => {
  const settings = JSON.stringify({ env: { CLAUDE_PID: "1" } });
  const { dir, root, log } = await project({ ".claude/settings.json": settings });
  await using _ = dir;
  const command = "cat internal-packages/database/schema.prisma";
  const sent = await inject(
    root,
    log,
    preToolUseEvent(root, "Bash", { command }, "t1"),
    CLIENT_332,
  );
  assert.match(sent, /DB-CLAUDE/);
  assert.match(sent, /DB-RULE/);
});

/** A PostToolUse (Bash) event: the command ran and printed `stdout`. */
function afterBash(root: string, command: string, stdout: string, id: string): string {
  return JSON.stringify({
    session_id: "s-1",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_use_id: id,
    tool_input: { command },
    tool_response: {
      stdout,
      stderr: "",
      interrupted: false,
      isImage: false,
      ...(stdout === "" ? { returnCodeInterpretation: "No matches found" } : {}),
      noOutputExpected: false,
    },
    cwd: root,
  });
}

/** The `hookSpecificOutput.hookEventName` of a run's answer, when it printed one. */
async function answeredEvent(
  root: string,
  log: string,
  stdin: string,
  env: Record<string, string> = CLIENT_332,
) {
  const result = await runLibrarian(["inject", "--shell"], {
    cwd: root,
    stdin,
    env: { LIBRARIAN_LOG: log, ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  return { event: specific?.hookEventName, text: hookContextOf(result) };
}

Deno.test("under 2.1.332 a lone grep that matches nothing: the client loads nothing after it, so the PostToolUse sends the nested CLAUDE.md and rule the PreToolUse left to it, once; after a grep that matched, nothing", async () => {
  const grep = "grep -n NOPE internal-packages/database/schema.prisma";
  const { dir, root, log } = await project();
  await using _ = dir;
  const before = await inject(
    root,
    log,
    preToolUseEvent(root, "Bash", { command: grep }, "t1"),
    CLIENT_332,
  );
  assert.doesNotMatch(before, /DB-CLAUDE|DB-RULE/, "left to the client before it ran");
  const after = await answeredEvent(root, log, afterBash(root, grep, "", "t1"));
  assert.equal(after.event, "PostToolUse");
  assert.match(after.text, /DB-CLAUDE/);
  assert.match(after.text, /DB-RULE/);
  assert.doesNotMatch(after.text, /DB-AGENTS|GLOBAL/, "the PreToolUse sent those");
  const again = await answeredEvent(root, log, afterBash(root, grep, "", "t2"));
  assert.equal(again.text, "", "once per context window");

  const { dir: dir2, root: root2, log: log2 } = await project();
  await using _2 = dir2;
  const hit = "grep -n model internal-packages/database/schema.prisma";
  await inject(root2, log2, preToolUseEvent(root2, "Bash", { command: hit }, "t1"), CLIENT_332);
  const matched = await answeredEvent(root2, log2, afterBash(root2, hit, "1:model A {}", "t1"));
  assert.equal(matched.text, "", "the client loads them itself after a grep that matched");
});

Deno.test("a PostToolUse sends nothing where the PreToolUse left nothing to the client: under 2.1.197 (no CLAUDE_PID), after a cat, after a grep in a list", async () => {
  const cases: [string, string, Record<string, string>][] = [
    ["grep -n NOPE internal-packages/database/schema.prisma", "", {}],
    ["cat internal-packages/database/schema.prisma", "", CLIENT_332],
    ["grep -n NOPE internal-packages/database/schema.prisma && echo", "", CLIENT_332],
  ];
  for (const [command, stdout, env] of cases) {
    const { dir, root, log } = await project();
    await using _ = dir;
    await inject(root, log, preToolUseEvent(root, "Bash", { command }, "t1"), env);
    const after = await answeredEvent(root, log, afterBash(root, command, stdout, "t1"), env);
    assert.equal(after.text, "", command);
  }
});

/** A Codex-style project: no `CLAUDE.md` anywhere, nested `AGENTS.md` files. */
const AGENTS_ONLY = {
  "_memory_library/tech.md": "# Tech\n- GLOBAL",
  "AGENTS.md": "# Root agents\n- ROOT-AGENTS",
  "sdk/AGENTS.md": "# Sdk\n- SDK-AGENTS",
  "sdk/ts/AGENTS.md": "# Ts\n- TS-AGENTS",
  "sdk/ts/CLAUDE.md": "# Ts claude\n- TS-CLAUDE",
  "sdk/ts/src/index.ts": "export {};",
};

Deno.test("under 2.1.332 in a project without a CLAUDE.md, a Read leaves the nested AGENTS.md files to the client's built-in loader (folders without a CLAUDE.md of their own) and records them: a later Bash touch does not send them again", async () => {
  const dir = await tempDir();
  await using _ = dir;
  const root = dir.path;
  await writeTree(root, AGENTS_ONLY);
  const log = `${root}/.librarian.log`;
  const file = `${root}/sdk/ts/src/index.ts`;
  const read = await inject(
    root,
    log,
    preToolUseEvent(root, "Read", { file_path: file }, "t1"),
    CLIENT_332,
  );
  assert.doesNotMatch(read, /SDK-AGENTS/, "the client's built-in loads sdk/AGENTS.md after a Read");
  assert.match(read, /TS-AGENTS/, "beside a CLAUDE.md the client loads the CLAUDE.md instead");
  const bash = await inject(
    root,
    log,
    preToolUseEvent(root, "Bash", { command: "sed -i 's/x/y/' sdk/ts/src/index.ts" }, "t2"),
    CLIENT_332,
  );
  assert.doesNotMatch(bash, /SDK-AGENTS|TS-AGENTS|TS-CLAUDE/, "never twice in one window");
});

Deno.test("a nested AGENTS.md is the Librarian's to send on a Read under 2.1.197 (no built-in loader), and under 2.1.332 where the project has a root CLAUDE.md (the built-in then loads none)", async () => {
  for (
    const [extra, env] of [
      [{}, {}],
      [{ "CLAUDE.md": "# Root\n- ROOT-CLAUDE" }, CLIENT_332],
      [{ ".claude/CLAUDE.md": "# Root\n- ROOT-CLAUDE" }, CLIENT_332],
      [{ "CLAUDE.local.md": "# Mine\n- LOCAL-CLAUDE" }, CLIENT_332],
    ] as const
  ) {
    const dir = await tempDir();
    await using _ = dir;
    const root = dir.path;
    await writeTree(root, { ...AGENTS_ONLY, ...extra });
    const file = `${root}/sdk/ts/src/index.ts`;
    const read = await inject(
      root,
      `${root}/.librarian.log`,
      preToolUseEvent(root, "Read", { file_path: file }, "t1"),
      env,
    );
    assert.match(read, /SDK-AGENTS/, JSON.stringify(extra));
  }
});
