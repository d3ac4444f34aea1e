/**
 * Hook input and output: read one event from stdin, write one JSON object to stdout.
 *
 * Claude Code reads a hook's stdout as JSON only when it starts with `{`, so the hooks print
 * exactly one object or nothing at all.
 *
 * @module
 */

import { readAllSync } from "./read_all.ts";
import { LibrarianError, messageOf } from "./errors.ts";
import { isObject } from "./json.ts";
import { type AgentName, contextOutput, normalizeAgentEvent } from "./agent_event.ts";
import type { EnvReader } from "./env.ts";

/** The fields of a Claude Code hook event that the Librarian reads. */
export interface HookEvent {
  hook_event_name: string;
  session_id?: string;
  agent_id?: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  source?: string;
  stop_hook_active?: boolean;
  /** Which agent sent it (`agent_event.ts`); its event is read in Claude Code's shape. */
  agent?: AgentName;
  /** True for a tool event sent after the tool ran (Gemini's `AfterTool`). */
  tool_ran?: boolean;
  [key: string]: unknown;
}

/** Why an input could not be used as a hook event. */
export class HookInputError extends LibrarianError {
  constructor(message: string) {
    super(message);
    this.name = "HookInputError";
  }
}

/**
 * Reads all of stdin as text with blocking reads: in a short-lived hook this is a few
 * milliseconds sooner than reading `Deno.stdin.readable` (no stream machinery to start up).
 *
 * @example Usage
 * ```ts
 * import { provideStdinText, readStdinTextSync } from "./hook_io.ts";
 * import assert from "node:assert/strict";
 *
 * provideStdinText('{"hook_event_name":"Stop"}');
 * assert.equal(readStdinTextSync(), '{"hook_event_name":"Stop"}');
 * ```
 */
export function readStdinTextSync(): string {
  if (providedText !== undefined) {
    const text = providedText;
    providedText = undefined;
    return text;
  }
  return new TextDecoder().decode(readAllSync(Deno.stdin));
}

let providedText: string | undefined;

/**
 * Hands the next {@link readStdinTextSync} this text instead of stdin: `librarian inject
 * --explain` reads the event first to explain it, then runs the hook on the same event.
 *
 * @example Usage
 * ```ts
 * import { parseHookEvent, provideStdinText, readStdinTextSync } from "./hook_io.ts";
 * import assert from "node:assert/strict";
 *
 * provideStdinText('{"hook_event_name":"SessionStart"}');
 * assert.equal(parseHookEvent(readStdinTextSync()).hook_event_name, "SessionStart");
 * ```
 */
export function provideStdinText(text: string): void {
  providedText = text;
}

/**
 * Parses hook input text into an event. With `env`, the event of another agent (Codex CLI,
 * Copilot CLI, Gemini CLI) is read in Claude Code's shape first (`agent_event.ts`).
 *
 * @throws {HookInputError} when the text is empty, not JSON, not an object, or has no
 *   `hook_event_name`.
 *
 * @example Usage
 * ```ts
 * import { HookInputError, parseHookEvent } from "./hook_io.ts";
 * import assert from "node:assert/strict";
 *
 * const event = parseHookEvent('{"hook_event_name":"PreToolUse","tool_name":"Read"}');
 * assert.equal(event.tool_name, "Read");
 * assert.throws(() => parseHookEvent("not json"), HookInputError);
 * assert.throws(() => parseHookEvent("{}"), HookInputError);
 * ```
 */
export function parseHookEvent(text: string, env?: EnvReader): HookEvent {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") throw new HookInputError("empty input: expected one hook event as JSON");
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    const detail = messageOf(error);
    throw new HookInputError(`input is not JSON: ${detail}`);
  }
  if (!isObject(value)) throw new HookInputError("input is not a JSON object");
  const event = env ? normalizeAgentEvent(value, env) : value;
  if (typeof event.hook_event_name !== "string" || event.hook_event_name === "") {
    throw new HookInputError("input has no hook_event_name");
  }
  for (const key of ["session_id", "agent_id", "cwd", "tool_name", "source"] as const) {
    if (event[key] !== undefined && typeof event[key] !== "string") delete event[key];
  }
  if (
    event.tool_input !== undefined &&
    (event.tool_input === null || typeof event.tool_input !== "object" ||
      Array.isArray(event.tool_input))
  ) {
    delete event.tool_input;
  }
  return event as HookEvent;
}

/**
 * Writes one JSON object and a newline to stdout, every byte of it, before returning.
 * Synchronous: the hook prints once and exits, and a blocking write is the cheapest and the
 * surest way to get all of it out (an un-awaited async write can be lost at exit).
 */
export function writeJsonLine(value: unknown): void {
  const bytes = new TextEncoder().encode(JSON.stringify(value) + "\n");
  let written = 0;
  while (written < bytes.length) {
    written += Deno.stdout.writeSync(bytes.subarray(written));
  }
}

/** Writes a hook's `additionalContext` for `hookEventName`. */
export function writeAdditionalContext(hookEventName: string, additionalContext: string): void {
  writeJsonLine({ hookSpecificOutput: { hookEventName, additionalContext } });
}

/**
 * Writes a hook's output: `additionalContext` for `hookEventName` when `additionalContext` is
 * given, and a warning for the user (`systemMessage`) when `systemMessage` is; nothing when
 * neither is. In the form the agent that sent `event` reads (`agent_event.ts`).
 */
export function writeHookOutput(
  hookEventName: string,
  additionalContext: string | undefined,
  systemMessage: string | undefined,
  event: HookEvent = { hook_event_name: hookEventName },
): void {
  const output = contextOutput(event, hookEventName, additionalContext, systemMessage);
  if (output !== undefined) writeJsonLine(output);
}

/**
 * Writes a PreToolUse denial of the tool call with its reason for the model: the hold of a blind
 * first write (`inject/hold.ts`), the only permission decision the Librarian ever makes.
 */
export function writeToolDenial(reason: string): void {
  writeJsonLine({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  });
}

/** Writes a message for the user (`systemMessage`), which the model does not act on. */
export function writeSystemMessage(message: string): void {
  writeJsonLine({ systemMessage: message });
}
