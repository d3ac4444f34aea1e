/**
 * The same hooks for Codex CLI, Copilot CLI and Gemini CLI, through the hook process
 * (`sh bin/librarian inject|stop`) with the events those CLIs send (fields as observed:
 * ../shared/reference/other-agents-hooks.md): a read their way, an edit their way, a tagged
 * learning, the end of the turn. The folder's library file is sent once, in the form the agent
 * reads; the learning is filed; a turn that changed code and tagged nothing is nudged once, from
 * what inject saw (no foreign transcript is read); nothing is ever held outside Claude Code.
 */
import assert from "node:assert/strict";
import { parseLogLine } from "../src/core/log.ts";
import { parseHookStdout, runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: deno 2\n",
  "proj/_memory_library/notes/conventions.md": "# Notes\n- NOTES-CONVENTIONS: keep it short.\n",
  "proj/notes/README.md": "PROJECT-FILE-CONTENT\n",
};

const LEARNING =
  "## [TAG: notes/, type: conventions]\n- NOTES-LEARNED: the README stays one line.\n";

interface Hooked {
  out: Record<string, unknown> | null;
}

async function hook(
  p: TempProject,
  command: "inject" | "stop",
  event: Record<string, unknown>,
  env: Record<string, string> = {},
  shell = false,
): Promise<Hooked> {
  const result = await runLibrarian(shell ? [command, "--shell"] : [command], {
    stdin: JSON.stringify({ cwd: p.root, ...event }),
    home: p.home,
    cwd: p.root,
    env: {
      LIBRARIAN_LOG: `${p.dir.path}/librarian.log`,
      LIBRARIAN_HINT: "off",
      LIBRARIAN_NUDGE: "session",
      ...env,
    },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /permissionDecision/, "never held, never approved");
  return { out: parseHookStdout(result.stdout) };
}

function contextOf(out: Record<string, unknown> | null): string {
  const specific = out?.hookSpecificOutput as { additionalContext?: string } | undefined;
  return specific?.additionalContext ?? "";
}

async function logOf(p: TempProject) {
  const text = await Deno.readTextFile(`${p.dir.path}/librarian.log`);
  return text.split("\n").map(parseLogLine).filter((r) => r !== null);
}

Deno.test("Codex CLI: a shell read, an apply_patch edit, a learning, Stop", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const base = { session_id: "codex-1", turn_id: "turn-1", model: "gpt-5.5" };
  const read = await hook(
    p,
    "inject",
    {
      ...base,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_use_id: "c1",
      tool_input: { command: "cat notes/README.md" },
    },
    {},
    true,
  );
  assert.match(contextOf(read.out), /NOTES-CONVENTIONS/);
  assert.deepEqual(Object.keys(read.out!), ["hookSpecificOutput"]);
  const patch = "*** Begin Patch\n*** Update File: notes/README.md\n@@\n-PROJECT-FILE-CONTENT\n" +
    "+EDITED\n*** End Patch\n";
  const edit = await hook(p, "inject", {
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_use_id: "c2",
    tool_input: { command: patch },
  });
  assert.equal(edit.out, null, "the folder's file was sent once already");
  // the turn changed code and tagged nothing: nudged once, from what inject saw
  const stop = await hook(p, "stop", {
    ...base,
    hook_event_name: "Stop",
    stop_hook_active: false,
    transcript_path: `${p.home}/.codex/sessions/2026/12/02/rollout-x.jsonl`,
    last_assistant_message: "Done.",
  });
  assert.equal(stop.out?.decision, "block");
  assert.match(String(stop.out?.reason), /notes/);
  await Deno.writeTextFile(`${p.root}/_memory_library/.scratch.md`, LEARNING);
  const again = await hook(p, "stop", {
    ...base,
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: "Recorded.",
  });
  assert.equal(again.out?.decision, undefined, "continued once only");
  const filed = await Deno.readTextFile(`${p.root}/_memory_library/notes/conventions.md`);
  assert.match(filed, /NOTES-LEARNED/);
  const stops = (await logOf(p)).filter((r) => r.command === "stop").map((r) => r.fields);
  assert.equal(stops[0]?.client, "codex");
  assert.equal(stops[0]?.transcript, "turn-record");
  assert.equal(stops[0]?.nudge, "sent");
});

Deno.test("Codex CLI: a patch into a folder never sent brings its context, not a hold", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const patch = "*** Begin Patch\n*** Add File: notes/new.md\n+x\n*** End Patch\n";
  const edit = await hook(p, "inject", {
    session_id: "codex-2",
    turn_id: "t",
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_use_id: "c1",
    tool_input: { command: patch },
  });
  assert.match(contextOf(edit.out), /NOTES-CONVENTIONS/);
});

Deno.test("Copilot CLI: top-level context at session start, its argument names, a bare patch", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const env = { COPILOT_CLI: "1" };
  const base = { session_id: "copilot-1", timestamp: "2026-12-02T01:00:00.000Z" };
  const start = await hook(p, "inject", {
    ...base,
    hook_event_name: "SessionStart",
    source: "new",
  }, env);
  assert.match(String(start.out?.additionalContext), /GLOBAL-TECH/, "top level: Copilot's form");
  const read = await hook(p, "inject", {
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { path: `${p.root}/notes/README.md` },
  }, env);
  assert.match(String(read.out?.additionalContext), /NOTES-CONVENTIONS/);
  assert.match(contextOf(read.out), /NOTES-CONVENTIONS/);
  const patch =
    `*** Begin Patch\n*** Update File: ${p.root}/notes/README.md\n@@\n-a\n+b\n*** End Patch\n`;
  const edit = await hook(p, "inject", {
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: patch,
  }, env);
  assert.equal(edit.out, null, "sent once");
  const stop = await hook(p, "stop", {
    ...base,
    hook_event_name: "Stop",
    stop_hook_active: false,
    stop_reason: "end_turn",
    transcript_path: `${p.home}/.copilot/session-state/copilot-1/events.jsonl`,
  }, env);
  assert.equal(stop.out?.decision, "block");
  const sub = await hook(p, "inject", {
    sessionId: "child-1",
    timestamp: 1,
    agentName: "reader",
    agent_id: "reader-1",
    agent_type: "general-purpose",
  }, env);
  assert.match(String(sub.out?.additionalContext), /GLOBAL-TECH/, "a subagent's own root files");
});

Deno.test("Copilot CLI, native camelCase hooks: preToolUse (named or not) is served like PreToolUse", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const env = { COPILOT_CLI: "1" };
  // the native shape: `sessionId`, `toolName` (Copilot's own tool), `toolArgs`; the event's
  // name in camelCase, or (as observed) none at all
  const named = await hook(p, "inject", {
    hook_event_name: "preToolUse",
    sessionId: "copilot-native-1",
    timestamp: 1,
    toolName: "view",
    toolArgs: { path: `${p.root}/notes/README.md` },
  }, env);
  assert.match(String(named.out?.additionalContext), /NOTES-CONVENTIONS/);
  const unnamed = await hook(p, "inject", {
    sessionId: "copilot-native-2",
    timestamp: 1,
    toolName: "view",
    toolArgs: { path: `${p.root}/notes/README.md` },
  }, env);
  assert.match(String(unnamed.out?.additionalContext), /NOTES-CONVENTIONS/);
  const after = await hook(p, "inject", {
    sessionId: "copilot-native-3",
    timestamp: 1,
    toolName: "view",
    toolArgs: { path: `${p.root}/notes/README.md` },
    toolResult: { resultType: "success", textResultForLlm: "x" },
  }, env);
  assert.equal(after.out, null, "postToolUse is not a touch to serve");
});

Deno.test("Gemini CLI: after-tool context under its own event, BeforeTool unserved, AfterAgent files and nudges", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const env = { GEMINI_SESSION_ID: "gemini-1", GEMINI_PROJECT_DIR: "" };
  const base = { session_id: "gemini-1", timestamp: "2026-12-02T01:00:00.000Z" };
  const before = await hook(p, "inject", {
    ...base,
    hook_event_name: "BeforeTool",
    tool_name: "read_file",
    tool_input: { file_path: "notes/README.md" },
  }, env);
  assert.equal(before.out, null, "BeforeTool's context would be dropped: none is spent there");
  const read = await hook(p, "inject", {
    ...base,
    hook_event_name: "AfterTool",
    tool_name: "read_file",
    tool_input: { file_path: "notes/README.md" },
    tool_response: { llmContent: "PROJECT-FILE-CONTENT" },
  }, env);
  assert.equal(
    (read.out?.hookSpecificOutput as { hookEventName: string }).hookEventName,
    "AfterTool",
  );
  assert.match(contextOf(read.out), /NOTES-CONVENTIONS/);
  const edit = await hook(p, "inject", {
    ...base,
    hook_event_name: "AfterTool",
    tool_name: "replace",
    tool_input: { file_path: "notes/README.md", old_string: "a", new_string: "b" },
  }, env);
  assert.equal(edit.out, null, "sent once");
  const stop = await hook(p, "stop", {
    ...base,
    hook_event_name: "AfterAgent",
    prompt: "edit it",
    prompt_response: "Done.",
    stop_hook_active: false,
  }, env);
  assert.equal(stop.out?.decision, "block");
  await Deno.writeTextFile(`${p.root}/_memory_library/.scratch.md`, LEARNING);
  const prompt = await hook(p, "inject", {
    ...base,
    hook_event_name: "BeforeAgent",
    prompt: String(stop.out?.reason),
  }, env);
  assert.match(contextOf(prompt.out), /\.scratch\.md/, "the tagging reminder");
  const again = await hook(p, "stop", {
    ...base,
    hook_event_name: "AfterAgent",
    prompt_response: "Recorded.",
    stop_hook_active: true,
  }, env);
  assert.equal(again.out?.decision, undefined);
  const filed = await Deno.readTextFile(`${p.root}/_memory_library/notes/conventions.md`);
  assert.match(filed, /NOTES-LEARNED/);
});

Deno.test("another agent's turn without an edit is not nudged; a new prompt starts a new turn", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const base = { session_id: "codex-3", turn_id: "t" };
  const patch = "*** Begin Patch\n*** Update File: notes/README.md\n*** End Patch\n";
  await hook(p, "inject", {
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_use_id: "c1",
    tool_input: { command: patch },
  });
  // a new prompt: the edit belonged to an earlier turn whose Stop never came
  await hook(p, "inject", { ...base, hook_event_name: "UserPromptSubmit", prompt: "hi" });
  const stop = await hook(p, "stop", {
    ...base,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Hi.",
  });
  assert.equal(stop.out?.decision, undefined);
  const stops = (await logOf(p)).filter((r) => r.command === "stop").map((r) => r.fields);
  assert.equal(stops[0]?.nudge, "no-code-changed");
});
