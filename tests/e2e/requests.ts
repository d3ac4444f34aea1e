/**
 * Reading what the model was sent (pure): hook context, tool calls and their results, in the
 * Messages API request bodies the Claude Code CLI posts.
 *
 * Where hook output lands differs between the supported Claude Code versions; every reader here
 * accepts both shapes:
 * - PreToolUse `additionalContext`, in the next request: on 2.1.197 a text block after the tool's
 *   `tool_result`, `<system-reminder>\nPreToolUse:Read hook additional context: ...\n</system-reminder>`;
 *   on 2.1.332 a message of its own right after the one holding the `tool_result`,
 *   `{"role": "system", "content": "PreToolUse:Read hook additional context: ..."}` (several hooks'
 *   contexts for one step joined in it with a blank line).
 * - UserPromptSubmit and SessionStart `additionalContext`: `UserPromptSubmit hook additional
 *   context: ...`, before the model's first turn (a `<system-reminder>` or a system message).
 * - A denied tool call: an `is_error` result holding the reason; on 2.1.332 it starts with
 *   `PreToolUse:Write hook error: ` ({@link deniedReason} takes that off).
 * - A Stop hook that blocks: a user message `Stop hook feedback:\n...` (2.1.197); on 2.1.332 the
 *   same inside a `<system-reminder>` after a preamble, and again in a system message
 *   `Stop hook blocking error from command "...": ...`.
 * - A Stop hook's `hookSpecificOutput.additionalContext` (2.1.332 only):
 *   `Stop hook additional context: ...`.
 *
 * @module
 */

/** One piece of hook context found in a request. */
export interface HookContext {
  /** `PreToolUse`, `UserPromptSubmit`, `SessionStart`, ... */
  event: string;
  /** The tool, for tool events (`PreToolUse:Read` gives `Read`). */
  tool?: string;
  /** The hook's text, as the model sees it. */
  text: string;
}

/** One tool call of the model and what came back with its result. */
export interface ToolStep {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** The tool result's text. */
  result: string;
  isError: boolean;
  /** Hook context delivered with this result (the text blocks after it in the same message). */
  contexts: HookContext[];
}

type Block = Record<string, unknown>;
type Message = { role?: unknown; content?: unknown };

function messagesOf(body: Record<string, unknown> | null): Message[] {
  const messages = body?.messages;
  return Array.isArray(messages) ? messages as Message[] : [];
}

function blocksOf(message: Message): Block[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return Array.isArray(message.content) ? message.content as Block[] : [];
}

function textOfResult(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: Block) => (typeof b?.text === "string" ? b.text : "")).join("\n");
}

const MARKER = /(^|\n)([A-Za-z]+)(?::([A-Za-z_]+))? hook additional context: /g;
const REMINDER_END = "\n</system-reminder>";

/** Every hook context in one text, in order. */
export function contextsInText(text: string): HookContext[] {
  const found: { event: string; tool?: string; start: number; markerStart: number }[] = [];
  for (const match of text.matchAll(MARKER)) {
    const markerStart = match.index + match[1]!.length;
    const entry: { event: string; tool?: string; start: number; markerStart: number } = {
      event: match[2]!,
      start: match.index + match[0].length,
      markerStart,
    };
    if (match[3] !== undefined) entry.tool = match[3];
    found.push(entry);
  }
  return found.map((entry, i) => {
    const next = found[i + 1]?.markerStart ?? text.length;
    const endTag = text.indexOf(REMINDER_END, entry.start);
    const end = endTag !== -1 && endTag < next ? endTag : next;
    const context: HookContext = {
      event: entry.event,
      text: text.slice(entry.start, end).trimEnd(),
    };
    if (entry.tool !== undefined) context.tool = entry.tool;
    return context;
  });
}

/** Every text string in a request's messages (text blocks and tool results), in order. */
export function textsOf(body: Record<string, unknown> | null): string[] {
  const texts: string[] = [];
  for (const message of messagesOf(body)) {
    for (const block of blocksOf(message)) {
      if (typeof block.text === "string") texts.push(block.text);
      else if (block.type === "tool_result") texts.push(textOfResult(block.content));
    }
  }
  return texts;
}

/** Every hook context in a request's messages, in order. */
export function hookContexts(body: Record<string, unknown> | null): HookContext[] {
  return textsOf(body).flatMap(contextsInText);
}

/**
 * The model's tool calls in a request's history, each with its result and hook context: the text
 * blocks after its result in the same message, and the system messages that follow that message.
 */
export function toolSteps(body: Record<string, unknown> | null): ToolStep[] {
  const steps: ToolStep[] = [];
  const byId = new Map<string, ToolStep>();
  let current: ToolStep | undefined;
  for (const message of messagesOf(body)) {
    // a system message belongs to the tool result before it (2.1.332); any other message starts over
    if (message.role !== "system") current = undefined;
    for (const block of blocksOf(message)) {
      if (block.type === "tool_use" && typeof block.id === "string") {
        const step: ToolStep = {
          id: block.id,
          name: String(block.name),
          input: (block.input ?? {}) as Record<string, unknown>,
          result: "",
          isError: false,
          contexts: [],
        };
        steps.push(step);
        byId.set(step.id, step);
      } else if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
        current = byId.get(block.tool_use_id);
        if (current) {
          current.result = textOfResult(block.content);
          current.isError = block.is_error === true;
        }
      } else if (current && typeof block.text === "string") {
        current.contexts.push(...contextsInText(block.text));
      }
    }
  }
  return steps;
}

/** The prefix Claude Code 2.1.332 puts before a hook's deny reason: `PreToolUse:Write hook error: `. */
const DENY_PREFIX = /^[A-Za-z]+(?::[A-Za-z_]+)? hook error: /;

/** A denied call's result as the hook wrote its reason: without 2.1.332's `... hook error: `. */
export function deniedReason(result: string): string {
  return result.replace(DENY_PREFIX, "");
}

const FEEDBACK = "Stop hook feedback:\n";
const BLOCKING = /^Stop hook blocking error from command:? "(?:[^"\\]|\\.)*": ?/;

/**
 * What Stop hooks made the model continue with, one entry per time the model was sent it (the
 * text without Claude Code's framing): a `decision: "block"` reason as a user message
 * `Stop hook feedback:\n<reason>` (2.1.197), the same inside a `<system-reminder>` and again in a
 * system message `Stop hook blocking error from command: "...": <reason>` (2.1.332: twice), and a
 * Stop's `additionalContext`, `Stop hook additional context: <text>` (once on both).
 */
export function stopFeedback(body: Record<string, unknown> | null): string[] {
  const found: string[] = [];
  for (const text of textsOf(body)) {
    if (text.startsWith(FEEDBACK)) found.push(text.slice(FEEDBACK.length));
    else if (text.startsWith("<system-reminder>") && text.includes(`\n${FEEDBACK}`)) {
      const start = text.indexOf(`\n${FEEDBACK}`) + FEEDBACK.length + 1;
      const end = text.indexOf(REMINDER_END, start);
      found.push(text.slice(start, end === -1 ? text.length : end));
    } else {
      const blocking = BLOCKING.exec(text);
      const rest = blocking ? text.slice(blocking[0].length) : text;
      const contexts = contextsInText(rest).filter((c) => c.event === "Stop");
      // 2.1.332 joins a block's reason and a Stop context in one system message
      const reason = blocking ? rest.split(/\n\nStop hook additional context: /)[0]! : undefined;
      if (reason !== undefined) found.push(reason);
      found.push(...contexts.map((c) => c.text));
    }
  }
  return found;
}

/** How many times `needle` occurs in everything a request sent the model (system prompt too). */
export function occurrences(body: Record<string, unknown> | null, needle: string): number {
  if (needle === "") return 0;
  return [systemText(body), ...textsOf(body)].reduce(
    (n, text) => n + text.split(needle).length - 1,
    0,
  );
}

/** The text of the system prompt. */
export function systemText(body: Record<string, unknown> | null): string {
  const system = body?.system;
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  return system.map((b: Block) => (typeof b?.text === "string" ? b.text : "")).join("\n");
}

/** A library section of Librarian context: `--- [label] ---` and its body. */
export interface ContextSectionSeen {
  label: string;
  body: string;
}

/** The `--- [label] ---` sections of a Librarian context text, in order. */
export function contextSections(text: string): ContextSectionSeen[] {
  const heads = [...text.matchAll(/\n--- \[([^\]\n]+)\] ---\n/g)];
  return heads.map((head, i) => {
    const start = head.index + head[0].length;
    const end = heads[i + 1]?.index ?? text.length;
    return {
      label: head[1]!,
      body: text.slice(start, end).replace(/\n\n\[Librarian\][\s\S]*$/, ""),
    };
  });
}
