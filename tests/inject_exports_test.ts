/**
 * The Librarian's own exports never make library text reach the model twice (issue 33): a file
 * `librarian export` wrote is never read back as a native source, and where the client loads it
 * itself (a `claude-rules` rule on a Read or an Edit, on a Write under 2.1.332; a generated
 * `AGENTS.md` through 2.1.332's built-in loader after a Read) the library files it holds as they
 * are now are in the context window: not sent on that touch, recorded for the later ones. Where
 * the client loads no export (Bash, another agent) the library files are sent as always, and an
 * export older than the library never hides the newer text.
 */
import assert from "node:assert/strict";
import {
  hookContextOf,
  parseHookStdout,
  preToolUseEvent,
  runLibrarian,
  tempDir,
  writeTree,
} from "./helpers.ts";

const RULE = "- API-RULE: every handler validates its input with zod before anything else.";

async function exported(format: string, extra: Record<string, string> = {}) {
  const dir = await tempDir();
  const root = dir.path;
  await writeTree(root, {
    "_memory_library/src/api/patterns.md": `${RULE}\n`,
    "src/api/a.ts": "export {};\n",
    ...extra,
  });
  const result = await runLibrarian(["export", "--format", format], {
    cwd: root,
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr + result.stdout);
  return { dir, root, log: `${root}/.librarian.log` };
}

async function inject(root: string, log: string, stdin: string, env: Record<string, string> = {}) {
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin,
    env: { LIBRARIAN_LOG: log, LIBRARIAN_HOLD: "0", ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  return hookContextOf(result);
}

const NEW = { CLAUDE_PID: "4242" }; // 2.1.3xx (2.1.332); without it, 2.1.197
const count = (text: string) => text.split("API-RULE").length - 1;
const read = (root: string, id: string) =>
  preToolUseEvent(root, "Read", { file_path: `${root}/src/api/a.ts` }, id);
const sed = (root: string, id: string) =>
  preToolUseEvent(root, "Bash", { command: "sed -i s/x/y/ src/api/a.ts" }, id);

Deno.test("a generated AGENTS.md is never read back as the project's own memory: under 2.1.197 a Read sends the library file once, not the export, and a later Bash touch nothing", async () => {
  const { dir, root, log } = await exported("agents-md");
  await using _ = dir;
  const first = await inject(root, log, read(root, "t1"));
  assert.equal(count(first), 1, first);
  assert.doesNotMatch(first, /src\/api\/AGENTS\.md/);
  assert.equal(count(await inject(root, log, sed(root, "t2"))), 0);
});

Deno.test("a Bash touch first sends the library file once and never the generated AGENTS.md", async () => {
  const { dir, root, log } = await exported("agents-md");
  await using _ = dir;
  const sent = await inject(root, log, sed(root, "t1"), NEW);
  assert.equal(count(sent), 1, sent);
  assert.doesNotMatch(sent, /AGENTS\.md/);
});

Deno.test("under 2.1.332 without a CLAUDE.md a Read leaves the folder's text to the built-in loader, which loads the generated AGENTS.md: nothing sent, recorded, so a later Bash touch sends nothing", async () => {
  const { dir, root, log } = await exported("agents-md");
  await using _ = dir;
  assert.equal(count(await inject(root, log, read(root, "t1"), NEW)), 0);
  assert.equal(count(await inject(root, log, sed(root, "t2"), NEW)), 0);
});

Deno.test("an export older than the library never hides the newer text: the changed file is sent on the Read", async () => {
  const { dir, root, log } = await exported("agents-md");
  await using _ = dir;
  await Deno.writeTextFile(`${root}/_memory_library/src/api/patterns.md`, `${RULE}\n- NEWER\n`);
  const sent = await inject(root, log, read(root, "t1"), NEW);
  assert.match(sent, /NEWER/);
  assert.equal(count(sent), 1);
});

Deno.test("a claude-rules export covering the file is loaded by the client on a Read (both versions): the library file is not sent then, nor on a later Bash touch", async () => {
  for (const env of [{}, NEW]) {
    const { dir, root, log } = await exported("claude-rules");
    await using _ = dir;
    assert.equal(count(await inject(root, log, read(root, "t1"), env)), 0);
    assert.equal(count(await inject(root, log, sed(root, "t2"), env)), 0);
  }
});

Deno.test("a claude-rules export: a Bash touch (the client loads no rule there) sends the library file once, never the rule file", async () => {
  const { dir, root, log } = await exported("claude-rules");
  await using _ = dir;
  const sent = await inject(root, log, sed(root, "t1"));
  assert.equal(count(sent), 1, sent);
  assert.doesNotMatch(sent, /\.claude\/rules/);
  assert.equal(count(await inject(root, log, read(root, "t2"))), 0);
});

Deno.test("a claude-rules export on a Write: 2.1.197 loads nothing after it (sent); 2.1.332 loads the rule and reports it (InstructionsLoaded records the library file: a later Bash touch sends nothing)", async () => {
  {
    const { dir, root, log } = await exported("claude-rules");
    await using _ = dir;
    const write = preToolUseEvent(
      root,
      "Write",
      { file_path: `${root}/src/api/b.ts`, content: "" },
      "t1",
    );
    assert.equal(count(await inject(root, log, write)), 1);
  }
  const { dir, root, log } = await exported("claude-rules");
  await using _ = dir;
  const write = preToolUseEvent(
    root,
    "Write",
    { file_path: `${root}/src/api/b.ts`, content: "" },
    "t1",
  );
  assert.equal(count(await inject(root, log, write, NEW)), 0);
  const loaded = JSON.stringify({
    session_id: "s-1",
    hook_event_name: "InstructionsLoaded",
    file_path: `${root}/.claude/rules/librarian-src--api.md`,
    load_reason: "path_glob_match",
    trigger_file_path: `${root}/src/api/b.ts`,
    cwd: root,
  });
  assert.equal(await inject(root, log, loaded, NEW), "");
  assert.equal(count(await inject(root, log, sed(root, "t2"), NEW)), 0);
});

Deno.test("another agent's Read (Codex: turn_id) loads no Claude Code rule: the library file is sent", async () => {
  const { dir, root, log } = await exported("claude-rules");
  await using _ = dir;
  const codex = JSON.stringify({ ...JSON.parse(read(root, "t1")), turn_id: "turn-1" });
  assert.equal(count(await inject(root, log, codex)), 1);
});

const ROOT = "- ROOT-RULE: money is integer cents everywhere, never floats.";
const rootCount = (text: string) => text.split("ROOT-RULE").length - 1;
const startEvent = (root: string, transcript?: string) =>
  JSON.stringify({
    session_id: "s-1",
    hook_event_name: "SessionStart",
    source: "startup",
    cwd: root,
    ...(transcript ? { transcript_path: transcript } : {}),
  });

async function startContext(root: string, log: string, env: Record<string, string> = {}) {
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin: startEvent(root),
    env: { LIBRARIAN_LOG: log, ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific?.additionalContext === "string" ? specific.additionalContext : "";
}

Deno.test("the library root's claude-rules export (no paths:) is loaded by the client at every start: the start and later touches leave its root files to it", async () => {
  for (const env of [{}, NEW]) {
    const { dir, root, log } = await exported("claude-rules", {
      "_memory_library/money.md": `${ROOT}\n`,
    });
    await using _ = dir;
    assert.equal(rootCount(await startContext(root, log, env)), 0);
    assert.equal(rootCount(await inject(root, log, sed(root, "t1"), env)), 0);
    assert.equal(rootCount(await inject(root, log, read(root, "t2"), env)), 0);
  }
});

Deno.test("without a session start, a touch leaves the root files a claude-rules export (no paths:) holds to the client, as the start would", async () => {
  // a Read and a Bash command, each the first touch of its session
  for (const env of [{}, NEW]) {
    for (const touch of [read, sed]) {
      const { dir, root, log } = await exported("claude-rules", {
        "_memory_library/money.md": `${ROOT}\n`,
      });
      await using _ = dir;
      const first = await inject(root, log, touch(root, "t1"), env);
      assert.equal(rootCount(first), 0, first);
    }
  }
});

Deno.test("a generated root AGENTS.md: 2.1.197 never loads it, so the start sends the root files once and never the export; 2.1.332 without a CLAUDE.md loads it, so neither the start nor a touch sends them", async () => {
  {
    const { dir, root, log } = await exported("agents-md", {
      "_memory_library/money.md": `${ROOT}\n`,
    });
    await using _ = dir;
    const sent = await startContext(root, log);
    assert.equal(rootCount(sent), 1, sent);
    assert.doesNotMatch(sent, /AGENTS\.md/);
    assert.equal(rootCount(await inject(root, log, sed(root, "t1"))), 0);
  }
  const { dir, root, log } = await exported("agents-md", {
    "_memory_library/money.md": `${ROOT}\n`,
  });
  await using _ = dir;
  assert.equal(rootCount(await startContext(root, log, NEW)), 0);
  assert.equal(rootCount(await inject(root, log, read(root, "t1"), NEW)), 0);
  assert.equal(rootCount(await inject(root, log, sed(root, "t2"), NEW)), 0);
});

Deno.test("under 2.1.332 a project with a CLAUDE.md: the built-in loader loads no generated root AGENTS.md, so the first touch sends the root files the start left", async () => {
  const { dir, root, log } = await exported("agents-md", {
    "_memory_library/money.md": `${ROOT}\n`,
    "CLAUDE.md": "# Ours\n",
  });
  await using _ = dir;
  const start = await startContext(root, log, NEW);
  const touch = await inject(root, log, sed(root, "t1"), NEW);
  assert.equal(rootCount(start) + rootCount(touch), 1, start + touch);
});

Deno.test("under 2.1.332 a cat of a file a claude-rules export covers is the client's read (it loads the rule): the library file is left to it; under 2.1.197 the cat sends it", async () => {
  const cat = (root: string) =>
    preToolUseEvent(root, "Bash", { command: "cat src/api/a.ts" }, "t1");
  {
    const { dir, root, log } = await exported("claude-rules");
    await using _ = dir;
    assert.equal(count(await inject(root, log, cat(root), NEW)), 0);
  }
  const { dir, root, log } = await exported("claude-rules");
  await using _ = dir;
  assert.equal(count(await inject(root, log, cat(root))), 1);
});
