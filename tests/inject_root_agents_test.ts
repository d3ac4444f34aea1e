/**
 * The project's root `AGENTS.md` (issue 33): Claude Code 2.1.332 loads it where the project has no
 * `CLAUDE.md` (or beside it, or never, by its `instructionFiles` setting) and reports what it
 * loaded in the transcript (an `instructions` attachment); 2.1.197 never loads it. The Librarian
 * sends it exactly when the client did not: once per context window, never twice.
 */
import assert from "node:assert/strict";
import { hookContextOf, runLibrarian, tempDir, writeTree } from "./helpers.ts";

const CLIENT_332 = { CLAUDE_PID: "4242" };

async function project(files: Record<string, string>) {
  const dir = await tempDir();
  const root = dir.path;
  await writeTree(root, {
    "_memory_library/tech.md": "# Tech\n- GLOBAL",
    "AGENTS.md": "# Root agents\n- ROOT-AGENTS",
    "src/a.ts": "export {};",
    ...files,
  });
  return { dir, root, log: `${root}/.librarian.log`, transcript: `${root}/home/t.jsonl` };
}

async function hook(
  root: string,
  log: string,
  event: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<string> {
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin: JSON.stringify({ session_id: "s-1", cwd: root, ...event }),
    env: { LIBRARIAN_LOG: log, ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  return hookContextOf(result);
}

const start = (transcript?: string) => ({
  hook_event_name: "SessionStart",
  source: "startup",
  ...(transcript ? { transcript_path: transcript } : {}),
});
const read = (root: string, id: string, transcript?: string) => ({
  hook_event_name: "PreToolUse",
  tool_name: "Read",
  tool_use_id: id,
  tool_input: { file_path: `${root}/src/a.ts` },
  ...(transcript ? { transcript_path: transcript } : {}),
});
const bash = (id: string, transcript?: string) => ({
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_use_id: id,
  tool_input: { command: "wc -l src/a.ts" },
  ...(transcript ? { transcript_path: transcript } : {}),
});

/** A transcript's head as 2.1.332 writes it: the prompt, its report, the model's answer. */
async function writeTranscript(path: string, reported: string[] | null) {
  const lines = [
    { type: "user", message: { role: "user", content: "Go." } },
    ...(reported === null ? [] : [{
      type: "attachment",
      attachment: {
        type: "instructions",
        files: reported.map((p) => ({ path: p, type: "Project", content: "…" })),
      },
    }]),
    { type: "assistant", message: { role: "assistant", content: [] } },
  ];
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

Deno.test("2.1.197 (no CLAUDE_PID) never loads the root AGENTS.md: the session start sends it with the root files, labelled, and no touch sends it again", async () => {
  const { dir, root, log } = await project({});
  await using _ = dir;
  const started = await hook(root, log, start());
  assert.match(started, /ROOT-AGENTS/);
  assert.match(started, /AGENTS\.md \(the project's own root memory file/);
  assert.match(started, /GLOBAL/);
  assert.doesNotMatch(await hook(root, log, read(root, "t1")), /ROOT-AGENTS/);
  assert.doesNotMatch(await hook(root, log, bash("t2")), /ROOT-AGENTS/);
});

Deno.test("2.1.332 reports loading the root AGENTS.md (its transcript's instructions attachment): neither the start nor any touch sends it", async () => {
  const { dir, root, log, transcript } = await project({});
  await using _ = dir;
  assert.doesNotMatch(await hook(root, log, start(), CLIENT_332), /ROOT-AGENTS/);
  await writeTranscript(transcript, [`${root}/AGENTS.md`]);
  assert.doesNotMatch(
    await hook(root, log, read(root, "t1", transcript), CLIENT_332),
    /ROOT-AGENTS/,
  );
  assert.doesNotMatch(await hook(root, log, bash("t2", transcript), CLIENT_332), /ROOT-AGENTS/);
});

Deno.test("2.1.332 reporting only the root CLAUDE.md (its default where one exists) did not load the root AGENTS.md: the first touch sends it, once", async () => {
  const { dir, root, log, transcript } = await project({ "CLAUDE.md": "- ROOT-CLAUDE" });
  await using _ = dir;
  assert.doesNotMatch(await hook(root, log, start(), CLIENT_332), /ROOT-AGENTS/, "not known yet");
  await writeTranscript(transcript, [`${root}/CLAUDE.md`]);
  const first = await hook(root, log, bash("t1", transcript), CLIENT_332);
  assert.match(first, /ROOT-AGENTS/);
  assert.doesNotMatch(first, /ROOT-CLAUDE/, "the root CLAUDE.md is the client's");
  assert.doesNotMatch(
    await hook(root, log, read(root, "t2", transcript), CLIENT_332),
    /ROOT-AGENTS/,
  );
});

Deno.test("2.1.332 that loaded no instruction file (instructionFiles: claude-md, or its plugin disabled) reports none: the first touch sends the root AGENTS.md", async () => {
  const { dir, root, log, transcript } = await project({});
  await using _ = dir;
  await writeTranscript(transcript, null);
  assert.match(await hook(root, log, read(root, "t1", transcript), CLIENT_332), /ROOT-AGENTS/);
});

Deno.test("without a transcript a 2.1.332 touch assumes the default: the root AGENTS.md is the client's where there is no CLAUDE.md, the Librarian's beside one", async () => {
  {
    const { dir, root, log } = await project({});
    await using _ = dir;
    assert.doesNotMatch(await hook(root, log, bash("t1"), CLIENT_332), /ROOT-AGENTS/);
  }
  const { dir, root, log } = await project({ "CLAUDE.md": "- ROOT-CLAUDE" });
  await using _ = dir;
  assert.match(await hook(root, log, bash("t1"), CLIENT_332), /ROOT-AGENTS/);
});

Deno.test("a 2.1.332 touch before its transcript tells goes by the user's instructionFiles setting: loaded beside a CLAUDE.md, or never, or its plugin off", async () => {
  const settings = (value: Record<string, unknown>) => ({
    "home/.claude/settings.json": JSON.stringify(value),
  });
  const option = (instructionFiles: string) =>
    settings({
      pluginConfigs: { "cc-plugin-agents-md@builtin": { options: { instructionFiles } } },
    });
  const cases: [Record<string, string>, boolean][] = [
    // beside a CLAUDE.md, which the default would not do: the client's, not sent
    [{ "CLAUDE.md": "- ROOT-CLAUDE", ...option("claude-md-and-agents-md") }, false],
    // never, where the default would load it (no CLAUDE.md): the Librarian's
    [option("claude-md"), true],
    [option("managed-only"), true],
    [settings({ enabledPlugins: { "cc-plugin-agents-md@builtin": false } }), true],
    // a settings file that is not JSON: the default
    [{ "home/.claude/settings.json": "{ not json" }, false],
  ];
  for (const [files, sent] of cases) {
    const { dir, root, log, transcript } = await project(files);
    await using _ = dir;
    // the transcript holds the prompt only: the client has not written its report yet
    await Deno.writeTextFile(transcript, JSON.stringify({ type: "user" }) + "\n");
    const context = await hook(root, log, read(root, "t1", transcript), CLIENT_332);
    assert.equal(/ROOT-AGENTS/.test(context), sent, JSON.stringify(files));
  }
});

Deno.test("a 2.1.197 subagent gets the root AGENTS.md in its own window; a 2.1.332 one, which the client gives it, does not", async () => {
  const subagent = (transcript?: string) => ({
    hook_event_name: "SubagentStart",
    agent_id: "ag-1",
    agent_type: "general-purpose",
    ...(transcript ? { transcript_path: transcript } : {}),
  });
  {
    const { dir, root, log } = await project({});
    await using _ = dir;
    assert.match(await hook(root, log, subagent()), /ROOT-AGENTS/);
  }
  const { dir, root, log, transcript } = await project({});
  await using _ = dir;
  await writeTranscript(transcript, [`${root}/AGENTS.md`]);
  assert.doesNotMatch(await hook(root, log, subagent(transcript), CLIENT_332), /ROOT-AGENTS/);
});

Deno.test("another agent's touch (Codex, which reads AGENTS.md itself) never gets the root AGENTS.md", async () => {
  const { dir, root, log } = await project({});
  await using _ = dir;
  const sent = await hook(root, log, { ...bash("t1"), turn_id: "turn-1" });
  assert.doesNotMatch(sent, /ROOT-AGENTS/);
});

Deno.test("a CLAUDE.md that imports AGENTS.md (`@AGENTS.md`, a common one-line CLAUDE.md) has the client load it with the CLAUDE.md on every version: neither the start nor a touch sends it again", async () => {
  for (
    const [claude, env] of [
      ["CLAUDE.md", {}],
      ["CLAUDE.md", CLIENT_332],
      [".claude/CLAUDE.md", {}],
      ["CLAUDE.local.md", CLIENT_332],
    ] as const
  ) {
    const importLine = claude === ".claude/CLAUDE.md" ? "@../AGENTS.md" : "@AGENTS.md";
    const { dir, root, log } = await project({ [claude]: `${importLine}\n` });
    await using _ = dir;
    const texts = [
      await hook(root, log, start(), env),
      await hook(root, log, read(root, "t1"), env),
      await hook(root, log, bash("t2"), env),
    ];
    assert.match(texts[0]!, /GLOBAL/, "the library's root files still come");
    assert.doesNotMatch(texts.join("\n"), /ROOT-AGENTS/, `${claude}, ${JSON.stringify(env)}`);
  }
});

Deno.test("a nested CLAUDE.md that imports its folder's AGENTS.md: a Read leaves both to the client (which loads the import with it); a Bash touch in a new window sends both, once", async () => {
  const nested = {
    "pkg/CLAUDE.md": "@AGENTS.md\n",
    "pkg/AGENTS.md": "# Pkg\n- PKG-AGENTS",
    "pkg/a.ts": "export {};",
  };
  for (const env of [{}, CLIENT_332]) {
    const { dir, root, log } = await project(nested);
    await using _ = dir;
    const onRead = await hook(root, log, {
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_use_id: "t1",
      tool_input: { file_path: `${root}/pkg/a.ts` },
    }, env);
    assert.doesNotMatch(onRead, /PKG-AGENTS/, JSON.stringify(env));
    const onBash = await hook(root, log, {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_use_id: "t2",
      tool_input: { command: "sed -i 's/x/y/' pkg/a.ts" },
    }, env);
    assert.doesNotMatch(onBash, /PKG-AGENTS/, "recorded at the Read: never twice");

    const fresh = await hook(root, log, {
      session_id: "s-2",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_use_id: "t3",
      tool_input: { command: "sed -i 's/x/y/' pkg/a.ts" },
    }, env);
    assert.equal(fresh.split("PKG-AGENTS").length - 1, 1, "a Bash touch sends it, once");
  }
});
