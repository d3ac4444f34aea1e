/**
 * Every agent's input (pure): `core/agent_event.ts` tells Claude Code, Codex CLI, Copilot CLI and
 * Gemini CLI apart and reads each one's event in Claude Code's shape (the fields observed from the
 * real CLIs: ../shared/reference/other-agents-hooks.md), `core/patch_files.ts` reads a patch's
 * files, and `core/turn_record.ts` turns tool events into the calls a turn record keeps.
 */
import assert from "node:assert/strict";
import { agentOf, canHold, contextOutput, normalizeAgentEvent } from "../src/core/agent_event.ts";
import { envFrom } from "../src/core/env.ts";
import { parseHookEvent } from "../src/core/hook_io.ts";
import { normalizePath } from "../src/core/paths.ts";
import { isPatch, MAX_PATCH_FILES, patchFiles } from "../src/core/patch_files.ts";
import { turnToolsOf } from "../src/core/turn_record.ts";

const NONE = envFrom({});

Deno.test("agentOf: Claude Code's events stay Claude Code's, even under another agent's variables", () => {
  const claude = {
    hook_event_name: "PreToolUse",
    session_id: "s",
    transcript_path: "/home/a/.claude/projects/p/s.jsonl",
    tool_name: "Read",
    tool_input: { file_path: "/p/a.ts" },
  };
  assert.equal(agentOf(claude, NONE), "claude");
  assert.equal(agentOf(claude, envFrom({ GEMINI_SESSION_ID: "g", COPILOT_CLI: "1" })), "claude");
  assert.equal(agentOf({ hook_event_name: "Stop", transcript_path: "/t.jsonl" }, NONE), "claude");
});

Deno.test("agentOf: Codex by its turn id, its rollout transcript or apply_patch", () => {
  const rollout = "/h/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-abc.jsonl";
  assert.equal(
    agentOf({ hook_event_name: "SessionStart", transcript_path: rollout }, NONE),
    "codex",
  );
  assert.equal(agentOf({ hook_event_name: "PreToolUse", turn_id: "t1" }, NONE), "codex");
  assert.equal(
    agentOf({ hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: {} }, NONE),
    "codex",
  );
});

Deno.test("agentOf: Copilot by COPILOT_CLI, a bare-string input or its camelCase session", () => {
  const env = envFrom({ COPILOT_CLI: "1" });
  assert.equal(agentOf({ hook_event_name: "SessionStart", session_id: "s" }, env), "copilot");
  assert.equal(
    agentOf({
      hook_event_name: "Stop",
      transcript_path: "/h/.copilot/session-state/s/events.jsonl",
    }, env),
    "copilot",
  );
  assert.equal(
    agentOf({ hook_event_name: "PreToolUse", tool_input: "*** Begin Patch" }, NONE),
    "copilot",
  );
  assert.equal(agentOf({ sessionId: "s", agentName: "reader" }, NONE), "copilot");
});

Deno.test("agentOf: Gemini by its event names, or SessionStart under GEMINI_SESSION_ID", () => {
  for (const name of ["AfterTool", "BeforeTool", "BeforeAgent", "AfterAgent"]) {
    assert.equal(agentOf({ hook_event_name: name }, NONE), "gemini", name);
  }
  assert.equal(
    agentOf({ hook_event_name: "SessionStart" }, envFrom({ GEMINI_SESSION_ID: "g" })),
    "gemini",
  );
  assert.equal(agentOf({ hook_event_name: "SessionStart" }, NONE), "claude");
});

Deno.test("normalizeAgentEvent: Codex shell reads and patches keep their shape, the rollout is set aside", () => {
  const patch = "*** Begin Patch\n*** Update File: notes/README.md\n@@\n-a\n+b\n*** End Patch\n";
  const event = normalizeAgentEvent({
    hook_event_name: "PreToolUse",
    session_id: "s",
    turn_id: "t",
    transcript_path: "/h/.codex/sessions/rollout-x.jsonl",
    tool_name: "apply_patch",
    tool_input: { command: patch },
  }, NONE);
  assert.equal(event.agent, "codex");
  assert.equal(event.tool_name, "apply_patch");
  assert.deepEqual(event.tool_input, { command: patch });
  assert.equal(event.transcript_path, undefined, "a rollout is not a Claude transcript");
  assert.equal(event.agent_transcript_path, "/h/.codex/sessions/rollout-x.jsonl");
  assert.equal(canHold(event), false);
});

Deno.test("normalizeAgentEvent: Copilot's argument names, bare patches and SubagentStart", () => {
  const env = envFrom({ COPILOT_CLI: "1" });
  const read = normalizeAgentEvent({
    hook_event_name: "PreToolUse",
    session_id: "s",
    tool_name: "Read",
    tool_input: { path: "/p/notes/README.md" },
  }, env);
  assert.deepEqual(read.tool_input, { file_path: "/p/notes/README.md" });
  const edit = normalizeAgentEvent({
    hook_event_name: "PreToolUse",
    session_id: "s",
    tool_name: "Edit",
    tool_input: { path: "/p/a.ts", old_str: "x", new_str: "y" },
  }, env);
  assert.deepEqual(edit.tool_input, { file_path: "/p/a.ts", old_str: "x", new_str: "y" });
  const patch = "*** Begin Patch\n*** Update File: /p/a.ts\n*** End Patch";
  const patched = normalizeAgentEvent({
    hook_event_name: "PreToolUse",
    session_id: "s",
    tool_name: "Edit",
    tool_input: patch,
  }, env);
  assert.equal(patched.tool_name, "apply_patch");
  assert.deepEqual(patched.tool_input, { command: patch });
  assert.equal(patched.agent_tool, "Edit");
  const sub = normalizeAgentEvent({
    sessionId: "child",
    timestamp: 1,
    cwd: "/p",
    transcriptPath: "/h/.copilot/session-state/child/events.jsonl",
    agentName: "reader",
    agent_id: "a1",
    agent_type: "general-purpose",
  }, env);
  assert.equal(sub.hook_event_name, "SubagentStart");
  assert.equal(sub.session_id, "child");
  assert.equal(sub.agent_id, "a1");
  // camelCase (native) tool events name Copilot's own tools
  const native = normalizeAgentEvent({
    hook_event_name: "preToolUse",
    sessionId: "s",
    toolName: "view",
    toolArgs: { path: "/p/a.ts" },
  }, env);
  assert.equal(native.hook_event_name, "PreToolUse", "served as Claude Code's event");
  assert.equal(native.agent_event, "preToolUse");
  assert.equal(native.tool_name, "Read");
  assert.deepEqual(native.tool_input, { file_path: "/p/a.ts" });
  const unnamed = normalizeAgentEvent({ sessionId: "s", toolName: "view", toolArgs: {} }, env);
  assert.equal(unnamed.hook_event_name, "PreToolUse");
  const result = { resultType: "success", textResultForLlm: "x" };
  const after = normalizeAgentEvent({ sessionId: "s", toolName: "view", toolResult: result }, env);
  assert.equal(after.hook_event_name, "PostToolUse");
  const inherited = normalizeAgentEvent(
    { hook_event_name: "preToolUse", session_id: "s" },
    envFrom({}),
  );
  assert.equal(inherited.agent, "copilot", "a camelCase name is Copilot's, whatever the env");
});

Deno.test("normalizeAgentEvent: Gemini's after-tool events are tool touches that already ran", () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["read_file", { file_path: "notes/README.md" }, "Read", { file_path: "notes/README.md" }],
    ["write_file", { file_path: "a.ts", content: "x" }, "Write", {
      file_path: "a.ts",
      content: "x",
    }],
    ["replace", { file_path: "a.ts", old_string: "x", new_string: "y" }, "Edit", {
      file_path: "a.ts",
      old_string: "x",
      new_string: "y",
    }],
    ["run_shell_command", { command: "cat a.ts" }, "Bash", { command: "cat a.ts" }],
    ["grep_search", { pattern: "x", dir_path: "src" }, "Grep", { pattern: "x", path: "src" }],
    ["list_directory", { dir_path: "src" }, "Glob", { path: "src" }],
  ];
  for (const [tool, input, claude, expected] of cases) {
    const event = normalizeAgentEvent({
      hook_event_name: "AfterTool",
      session_id: "s",
      cwd: "/p",
      tool_name: tool,
      tool_input: input,
      tool_response: { llmContent: "..." },
    }, NONE);
    assert.equal(event.hook_event_name, "PreToolUse", tool);
    assert.equal(event.agent_event, "AfterTool");
    assert.equal(event.tool_name, claude, tool);
    assert.deepEqual(event.tool_input, expected, tool);
    assert.equal(event.tool_ran, true);
    assert.equal(canHold(event), false, "a tool that ran cannot be held");
  }
  const shell = normalizeAgentEvent({
    hook_event_name: "AfterTool",
    cwd: "/p",
    tool_name: "run_shell_command",
    tool_input: { command: "cat README.md", dir_path: "notes" },
  }, NONE);
  assert.equal(shell.cwd, "/p/notes", "the command ran in its dir_path");
  assert.equal(
    normalizeAgentEvent({ hook_event_name: "BeforeAgent", prompt: "x" }, NONE).hook_event_name,
    "UserPromptSubmit",
  );
  const stop = normalizeAgentEvent({
    hook_event_name: "AfterAgent",
    prompt_response: "Done.",
    stop_hook_active: false,
    transcript_path: "/h/.gemini/tmp/p/chats/session-1.jsonl",
  }, NONE);
  assert.equal(stop.hook_event_name, "Stop");
  assert.equal(stop.last_assistant_message, "Done.");
  assert.equal(stop.transcript_path, undefined);
  // the before-tool event is left unserved: its context never reaches the model
  assert.equal(
    normalizeAgentEvent({ hook_event_name: "BeforeTool" }, NONE).hook_event_name,
    "BeforeTool",
  );
});

Deno.test("parseHookEvent with an environment reads other agents; without one it is unchanged", () => {
  const text = JSON.stringify({
    hook_event_name: "AfterTool",
    tool_name: "read_file",
    tool_input: {},
  });
  assert.equal(parseHookEvent(text, NONE).hook_event_name, "PreToolUse");
  assert.equal(parseHookEvent(text).hook_event_name, "AfterTool");
  assert.equal(parseHookEvent(text, NONE).agent, "gemini");
});

Deno.test("contextOutput: each agent's form", () => {
  const claude = contextOutput(
    { hook_event_name: "PreToolUse", agent: "claude" },
    "PreToolUse",
    "C",
  );
  assert.deepEqual(claude, {
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "C" },
  });
  const codex = contextOutput({ hook_event_name: "PreToolUse", agent: "codex" }, "PreToolUse", "C");
  assert.deepEqual(codex, claude);
  assert.deepEqual(
    contextOutput(
      { hook_event_name: "SessionStart", agent: "copilot" },
      "SessionStart",
      "C",
      "warn",
    ),
    {
      systemMessage: "warn",
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "C" },
      additionalContext: "C",
    },
  );
  assert.deepEqual(
    contextOutput(
      { hook_event_name: "PreToolUse", agent: "gemini", agent_event: "AfterTool" },
      "PreToolUse",
      "C",
    ),
    { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "C" } },
  );
  assert.deepEqual(
    contextOutput({ hook_event_name: "SessionStart" }, "SessionStart", undefined, "w"),
    {
      systemMessage: "w",
    },
  );
});

Deno.test("patchFiles: every file line, moves, CRLF, a bound; isPatch only for patches", () => {
  const patch = [
    "*** Begin Patch",
    "*** Add File: a/new.ts",
    "+x",
    "*** Delete File: a/old.ts",
    "*** Update File: b/c.ts",
    "*** Move to: d/c.ts",
    "@@",
    "-y",
    "+z",
    "*** End Patch",
  ].join("\r\n");
  assert.deepEqual(patchFiles(patch), [
    { path: "a/new.ts", action: "add" },
    { path: "a/old.ts", action: "delete" },
    { path: "b/c.ts", action: "update" },
    { path: "d/c.ts", action: "move" },
  ]);
  // a context line that happens to look like a file line inside a hunk is still a line of
  // the patch format: only lines starting with "*** " count, so "+*** Add File:" does not
  assert.deepEqual(patchFiles("*** Begin Patch\n*** Add File: x\n+*** Add File: y\n"), [
    { path: "x", action: "add" },
  ]);
  const many = Array.from({ length: MAX_PATCH_FILES + 10 }, (_, i) => `*** Add File: f${i}`);
  assert.equal(patchFiles(many.join("\n")).length, MAX_PATCH_FILES);
  assert.equal(isPatch(patch), true);
  assert.equal(isPatch("cat *** Begin Patch"), false);
});

Deno.test("turnToolsOf: edits, patches and commands are kept with absolute paths; reads are not", () => {
  const cwd = normalizePath(Deno.cwd());
  assert.deepEqual(
    turnToolsOf({ tool_name: "Edit", tool_input: { file_path: "src/a.ts" }, cwd }),
    [{ name: "Edit", input: { file_path: `${cwd}/src/a.ts` } }],
  );
  const patch = "*** Begin Patch\n*** Update File: src/a.ts\n*** Delete File: b.ts\n*** End Patch";
  assert.deepEqual(turnToolsOf({ tool_name: "apply_patch", tool_input: { command: patch }, cwd }), [
    { name: "Edit", input: { file_path: `${cwd}/src/a.ts` } },
    { name: "Edit", input: { file_path: `${cwd}/b.ts` } },
  ]);
  assert.deepEqual(turnToolsOf({ tool_name: "Bash", tool_input: { command: "sed -i s/a/b/ x" } }), [
    { name: "Bash", input: { command: "sed -i s/a/b/ x" } },
  ]);
  assert.deepEqual(turnToolsOf({ tool_name: "Glob", tool_input: { path: cwd } }), []);
  assert.deepEqual(turnToolsOf({ tool_name: "Read", tool_input: { file_path: "a.ts" }, cwd }), []);
  assert.deepEqual(turnToolsOf({ tool_name: "Edit", tool_input: {} }), []);
});
