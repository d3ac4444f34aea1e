/**
 * One hook program, every agent's input (pure): which coding agent called a hook, and its event
 * rewritten into the Claude Code shape the hooks read, so that the same library, budget, ledger,
 * boundary rules and filing apply to all of them.
 *
 * - **Claude Code**: the shape itself; nothing changes.
 * - **Codex CLI**: Claude's event names and fields. Reads go through the shell (`Bash`), edits
 *   through `apply_patch` with the patch text in `tool_input.command`; its transcript is a rollout
 *   in its own format, set aside (`agent_transcript_path`).
 * - **GitHub Copilot CLI**: Claude's event and tool names with its own argument names (`path`,
 *   `old_str`), `apply_patch` as a bare string, a SubagentStart without `hook_event_name`
 *   (`sessionId`, `agentName`), and an `events.jsonl` transcript, set aside.
 * - **Gemini CLI**: its own event names (`AfterTool`, `BeforeAgent`, `AfterAgent`) and tools
 *   (`read_file`, `write_file`, `replace`, `run_shell_command`, `glob`, `grep_search`,
 *   `list_directory`). Only the after-tool event's context reaches the model, so `AfterTool` is
 *   served as a tool touch that already ran (`tool_ran`); `BeforeTool` is left unserved.
 *
 * The agent is told from the event's shape first and the environment each one sets second
 * (`GEMINI_SESSION_ID`, `COPILOT_CLI=1`), so that a variable inherited from a parent agent does not
 * mislabel another's event.
 *
 * @module
 */

import type { EnvReader } from "./env.ts";
import { isObject, type Json } from "./json.ts";
import { isPatch } from "./patch_files.ts";

/** The coding agents whose hook events the Librarian reads. */
export type AgentName = "claude" | "codex" | "copilot" | "gemini";

/** Gemini CLI's own event names and the Claude Code events they are served as. */
const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  AfterTool: "PreToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  BeforeTool: "BeforeTool",
  PreCompress: "PreCompact",
  BeforeModel: "BeforeModel",
  AfterModel: "AfterModel",
  BeforeToolSelection: "BeforeToolSelection",
};

/**
 * Copilot CLI's native (camelCase) event names and the Claude Code events they are served as.
 * Its native hooks are also observed to send no event name at all; {@link copilotEventName} then
 * tells the event from its fields.
 */
const COPILOT_EVENTS: Readonly<Record<string, string>> = {
  sessionStart: "SessionStart",
  userPromptSubmitted: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  agentStop: "Stop",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  sessionEnd: "SessionEnd",
  preCompact: "PreCompact",
};

/** Events only Claude Code, Codex and Copilot send (Gemini has other names for them). */
const CLAUDE_ONLY_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
]);

/** Gemini CLI's tools: the Claude tool each is served as, and its path argument. */
const GEMINI_TOOLS: Readonly<Record<string, { tool: string; from: string; to: string }>> = {
  read_file: { tool: "Read", from: "file_path", to: "file_path" },
  write_file: { tool: "Write", from: "file_path", to: "file_path" },
  replace: { tool: "Edit", from: "file_path", to: "file_path" },
  run_shell_command: { tool: "Bash", from: "command", to: "command" },
  glob: { tool: "Glob", from: "dir_path", to: "path" },
  grep_search: { tool: "Grep", from: "dir_path", to: "path" },
  search_file_content: { tool: "Grep", from: "dir_path", to: "path" },
  list_directory: { tool: "Glob", from: "dir_path", to: "path" },
};

/** Copilot CLI's native tool names (its camelCase hook events) and the Claude tools they are. */
const COPILOT_TOOLS: Readonly<Record<string, string>> = {
  view: "Read",
  create: "Write",
  edit: "Edit",
  bash: "Bash",
  grep: "Grep",
  rg: "Grep",
  glob: "Glob",
  apply_patch: "apply_patch",
};

/** The tools whose Copilot input names its file `path` where Claude's says `file_path`. */
const PATH_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit"]);

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A transcript path in Codex's rollout form (`.../sessions/YYYY/MM/DD/rollout-....jsonl`). */
function isRollout(path: unknown): boolean {
  return typeof path === "string" && /(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(path);
}

/**
 * Which agent sent this event.
 *
 * @example Usage
 * ```ts
 * import { agentOf } from "./agent_event.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const none = envFrom({});
 * assert.equal(agentOf({ hook_event_name: "PreToolUse", transcript_path: "/h/.claude/p/s.jsonl" }, none), "claude");
 * assert.equal(agentOf({ hook_event_name: "AfterTool" }, none), "gemini");
 * assert.equal(agentOf({ hook_event_name: "PreToolUse", turn_id: "t" }, none), "codex");
 * assert.equal(agentOf({ hook_event_name: "PreToolUse" }, envFrom({ COPILOT_CLI: "1" })), "copilot");
 * // an inherited variable does not make Claude Code's event Gemini's
 * assert.equal(agentOf({ hook_event_name: "PreToolUse" }, envFrom({ GEMINI_SESSION_ID: "g" })), "claude");
 * ```
 */
export function agentOf(event: Json, env: EnvReader): AgentName {
  const name = text(event.hook_event_name);
  if (name !== undefined && COPILOT_EVENTS[name] !== undefined) return "copilot";
  if (name !== undefined && GEMINI_EVENTS[name] !== undefined) return "gemini";
  if (name !== undefined && !CLAUDE_ONLY_EVENTS.has(name) && text(env("GEMINI_SESSION_ID"))) {
    return "gemini";
  }
  if (
    name === undefined || typeof event.tool_input === "string" ||
    (text(event.sessionId) !== undefined && event.session_id === undefined)
  ) {
    return "copilot";
  }
  if (
    text(event.turn_id) !== undefined || isRollout(event.transcript_path) ||
    event.tool_name === "apply_patch"
  ) {
    return "codex";
  }
  const transcript = text(event.transcript_path);
  if (
    env("COPILOT_CLI") === "1" && (transcript === undefined || /events\.jsonl$/.test(transcript))
  ) {
    return "copilot";
  }
  return "claude";
}

/** A copy of `input` with `to` set from `from` when only `from` is there. */
function renamed(input: Json, from: string, to: string): Json {
  if (from === to || input[to] !== undefined || input[from] === undefined) return input;
  const out: Json = { ...input, [to]: input[from] };
  delete out[from];
  return out;
}

/** A Gemini tool call as the Claude tool it is, its shell command's folder in `cwd`. */
function geminiTool(event: Json): void {
  const tool = text(event.tool_name);
  const known = tool === undefined ? undefined : GEMINI_TOOLS[tool];
  if (known === undefined) return;
  const input = isObject(event.tool_input) ? event.tool_input : {};
  event.agent_tool = tool;
  event.tool_name = known.tool;
  event.tool_input = renamed(input, known.from, known.to);
  const dir = text(input.dir_path);
  const cwd = text(event.cwd);
  if (known.tool === "Bash" && dir !== undefined && cwd !== undefined) {
    event.cwd = /^([\\/]|[A-Za-z]:)/.test(dir) ? dir : `${cwd.replace(/[\\/]+$/, "")}/${dir}`;
  }
}

/**
 * The Claude Code event a Copilot event is: its camelCase name's, or, where its native hooks
 * send no name, the one its fields tell (a native tool with its result: after the tool; a native
 * tool: before it; an agent's name: a subagent's start). `undefined` when neither tells.
 */
function copilotEventName(event: Json, name: string | undefined): string | undefined {
  if (name !== undefined) return COPILOT_EVENTS[name] ?? name;
  // a name of the wrong type is bad input, not a native event: nothing is served for it
  if (event.hook_event_name !== undefined) return undefined;
  if (text(event.toolName) !== undefined) {
    return event.toolResult !== undefined ? "PostToolUse" : "PreToolUse";
  }
  if ((text(event.agentName) ?? text(event.agent_id)) !== undefined) return "SubagentStart";
  return undefined;
}

/** A Copilot tool call with Claude's argument names; a bare patch string as `apply_patch`. */
function copilotTool(event: Json): void {
  if (event.tool_name === undefined && text(event.toolName) !== undefined) {
    const native = event.toolName as string;
    event.agent_tool = native;
    event.tool_name = COPILOT_TOOLS[native] ?? native;
    if (event.tool_input === undefined) event.tool_input = event.toolArgs;
  }
  const input = event.tool_input;
  if (typeof input === "string") {
    event.agent_tool ??= event.tool_name;
    if (isPatch(input)) event.tool_name = "apply_patch";
    event.tool_input = { command: input };
    return;
  }
  const tool = text(event.tool_name);
  if (tool !== undefined && PATH_TOOLS.has(tool) && isObject(input)) {
    event.tool_input = renamed(input, "path", "file_path");
  }
}

/**
 * The event in Claude Code's shape, with `agent` naming who sent it; `agent_event` keeps a
 * renamed event's own name, `agent_tool` a renamed tool's, `agent_transcript_path` a transcript
 * in another agent's format (the Librarian reads only Claude Code's). `tool_ran` marks a tool
 * event that comes after the tool ran (Gemini's `AfterTool`): its context arrives with the
 * result, and nothing can be held. The input object is changed and returned.
 *
 * @example Usage
 * ```ts
 * import { normalizeAgentEvent } from "./agent_event.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const gemini = normalizeAgentEvent({
 *   hook_event_name: "AfterTool", session_id: "s", tool_name: "read_file",
 *   tool_input: { file_path: "src/a.ts" },
 * }, envFrom({}));
 * assert.equal(gemini.hook_event_name, "PreToolUse");
 * assert.equal(gemini.tool_name, "Read");
 * assert.deepEqual(gemini.tool_input, { file_path: "src/a.ts" });
 * assert.equal(gemini.tool_ran, true);
 *
 * const copilot = normalizeAgentEvent({
 *   hook_event_name: "PreToolUse", session_id: "s", tool_name: "Edit",
 *   tool_input: { path: "/p/a.ts", old_str: "x", new_str: "y" },
 * }, envFrom({ COPILOT_CLI: "1" }));
 * assert.equal(copilot.agent, "copilot");
 * assert.equal((copilot.tool_input as { file_path: string }).file_path, "/p/a.ts");
 * ```
 */
export function normalizeAgentEvent(event: Json, env: EnvReader): Json {
  const agent = agentOf(event, env);
  event.agent = agent;
  if (event.session_id === undefined && text(event.sessionId) !== undefined) {
    event.session_id = event.sessionId;
  }
  if (agent === "claude") return event;
  if (event.transcript_path !== undefined || event.transcriptPath !== undefined) {
    event.agent_transcript_path = event.transcript_path ?? event.transcriptPath;
    delete event.transcript_path;
  }
  const name = text(event.hook_event_name);
  if (agent === "gemini") {
    const served = name === undefined ? undefined : GEMINI_EVENTS[name];
    if (served !== undefined && served !== name) {
      event.agent_event = name;
      event.hook_event_name = served;
    }
    if (name === "AfterTool") {
      event.tool_ran = true;
      geminiTool(event);
    }
    if (name === "AfterAgent" && event.last_assistant_message === undefined) {
      event.last_assistant_message = event.prompt_response;
    }
    return event;
  }
  if (agent === "copilot") {
    // Copilot's native hooks name their events in camelCase or not at all (its SubagentStart:
    // `sessionId`, `agentName`, `agent_id`)
    const served = copilotEventName(event, name);
    if (served !== undefined && served !== name) {
      if (name !== undefined) event.agent_event = name;
      event.hook_event_name = served;
    }
    if (served === "SubagentStart") event.agent_id ??= event.agentName;
    copilotTool(event);
  }
  return event;
}

/**
 * Whether a tool event can be held (denied once with its context, `inject/hold.ts`): only where
 * the denial and its reason are verified to reach the model, Claude Code's PreToolUse. An
 * event of another agent, or one that comes after its tool ran, goes through with its context.
 *
 * @example Usage
 * ```ts
 * import { canHold } from "./agent_event.ts";
 * import assert from "node:assert/strict";
 * assert.equal(canHold({ hook_event_name: "PreToolUse", agent: "claude" }), true);
 * assert.equal(canHold({ hook_event_name: "PreToolUse" }), true);
 * assert.equal(canHold({ hook_event_name: "PreToolUse", agent: "codex" }), false);
 * ```
 */
export function canHold(event: Json): boolean {
  return (event.agent === undefined || event.agent === "claude") && event.tool_ran !== true;
}

/**
 * The hook output that carries `additionalContext` (and a user-facing `systemMessage`) in the
 * form the event's agent reads: Claude Code, Codex and Gemini read
 * `hookSpecificOutput.additionalContext` (Gemini under its own event name); Copilot reads it
 * there only for PreToolUse and at the top level everywhere, so it gets both (verified: no
 * duplicate). `undefined` when there is nothing to say.
 *
 * @example Usage
 * ```ts
 * import { contextOutput } from "./agent_event.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(contextOutput({ hook_event_name: "SessionStart" }, "SessionStart", "ctx"), {
 *   hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" },
 * });
 * assert.equal(
 *   contextOutput({ hook_event_name: "SessionStart", agent: "copilot" }, "SessionStart", "ctx")
 *     ?.additionalContext,
 *   "ctx",
 * );
 * assert.equal(contextOutput({ hook_event_name: "Stop" }, "Stop", undefined), undefined);
 * ```
 */
export function contextOutput(
  event: Json,
  hookEventName: string,
  additionalContext: string | undefined,
  systemMessage?: string,
): Json | undefined {
  const output: Json = {};
  if (systemMessage !== undefined) output.systemMessage = systemMessage;
  if (additionalContext !== undefined) {
    const name = event.agent === "gemini"
      ? text(event.agent_event) ?? hookEventName
      : hookEventName;
    output.hookSpecificOutput = { hookEventName: name, additionalContext };
    if (event.agent === "copilot") output.additionalContext = additionalContext;
  }
  return Object.keys(output).length > 0 ? output : undefined;
}
