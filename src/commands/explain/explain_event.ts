/**
 * What one hook event does, and why (`librarian explain <path>`, `librarian explain --event`):
 * which library was found, the walk, what the context window's ledger already had and why each
 * file was sent, cut or left out (or, for a Stop event, what each scratch block would become).
 * Reads, never writes. With `--run` (and in the old form, a hook's own `--explain`) the
 * explanation goes to stderr and the hook itself then runs on the same event, so stdout stays
 * exactly what Claude Code would receive. Sample events are in `example_event.ts`.
 *
 * @module
 */

import {
  collectLibraryFiles,
  type EnvReader,
  findLibraryForSession,
  HookInputError,
  parseHookEvent,
  processEnv,
  provideStdinText,
  readAllSync,
  readBudget,
  safeText,
  scratchPathOf,
} from "../../core/mod.ts";
import {
  decideFileContext,
  FILE_TOOLS,
  ledgerKeyOf,
  loadLedger,
  locateFileContext,
  rootFilesAtStart,
  windowStateDir,
} from "../../inject/mod.ts";
import { reviewScratch } from "../scratch/scratch_review.ts";

/**
 * The explanation of one inject event, as lines for stderr (reads, never writes).
 *
 * @example Usage
 * ```ts
 * import { explainInject } from "./explain_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(explainInject("not json", envFrom({}))[0]!, /^bad input: /);
 * const lines = explainInject('{"hook_event_name":"PreToolUse","tool_name":"Read"}', envFrom({}));
 * assert.equal(lines[0], "event: PreToolUse (Read)");
 * const gemini = '{"hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{}}';
 * assert.equal(explainInject(gemini, envFrom({}))[1], "agent: gemini (sent as AfterTool, read_file)");
 * ```
 */
export function explainInject(text: string, env: EnvReader): string[] {
  let event;
  try {
    event = parseHookEvent(text, env);
  } catch (error) {
    return [`bad input: ${error instanceof HookInputError ? error.message : String(error)}`];
  }
  const lines = [
    `event: ${event.hook_event_name}${event.tool_name ? ` (${event.tool_name})` : ""}`,
  ];
  if (event.agent !== undefined && event.agent !== "claude") {
    const native = [event.agent_event, event.agent_tool].filter((n) => typeof n === "string");
    lines.push(
      `agent: ${event.agent}${native.length > 0 ? ` (sent as ${native.join(", ")})` : ""}`,
    );
  }
  const state = windowStateDir(env);
  const key = ledgerKeyOf(event);
  const ledger = state && key ? loadLedger(state, key) : undefined;
  const window = key ? `${key.sessionId}${key.agentId ? ` / subagent ${key.agentId}` : ""}` : "";
  lines.push(
    ledger
      ? `ledger: ${Object.keys(ledger.ledger.files).length} files already sent to ${window}` +
        (ledger.ledger.reminded ? ", reminder given" : "") +
        (ledger.discarded ? ` (the file on disk was discarded: ${ledger.discarded})` : "")
      : "ledger: none (no session given, or no state folder): everything counts as new",
  );
  const inputKey = FILE_TOOLS[event.tool_name ?? ""];
  const rawPath = inputKey ? event.tool_input?.[inputKey] : undefined;
  if (event.hook_event_name !== "PreToolUse" || typeof rawPath !== "string") {
    const library = findLibraryForSession(event.cwd, env);
    lines.push(
      library
        ? `library: ${library.root} (scratch ${scratchPathOf(library)})`
        : "library: none found from the session's folder: the hook sends nothing",
    );
    const name = event.hook_event_name;
    if (library && (name === "SessionStart" || name === "SubagentStart")) {
      if (!rootFilesAtStart(env)) lines.push("root files: off (LIBRARIAN_SESSION_START=off)");
      else {
        const sent = ledger?.ledger.files ?? {};
        const compacted = name === "SessionStart" &&
          (event.source === "compact" || event.source === "clear");
        for (const file of collectLibraryFiles(library.root, "")) {
          const had = sent[file.absPath] !== undefined && !compacted;
          lines.push(`  ${file.label}: ${had ? "already sent to this context window" : "sent"}`);
        }
        if (compacted) lines.push(`source ${event.source}: the window's ledger is reset first`);
        if (event.agent_type === "fork") {
          lines.push("a fork starts from its parent's ledger: what the parent had is not re-sent");
        }
      }
    }
    if (name === "UserPromptSubmit") {
      lines.push(ledger?.ledger.reminded ? "reminder: already given" : "reminder: given now");
    }
    lines.push("stdout shows exactly what this event sends");
    return lines.map(safeText);
  }
  const location = locateFileContext(rawPath, { env, cwd: event.cwd });
  if (location.kind === "none") {
    if (location.library) lines.push(`library: ${location.library.root}`);
    lines.push(`nothing to send: ${location.reason}`);
    return lines.map(safeText);
  }
  lines.push(`library: ${location.library.root} (found from the file, or LIBRARIAN_PATH)`);
  lines.push(`file: ${location.relPath}`);
  lines.push(`walk (most specific first): ${location.files.map((f) => f.label).join(", ")}`);
  const { budget } = readBudget(env);
  const sent = ledger?.ledger.files ?? {};
  const context = decideFileContext(location, budget, sent);
  const rendered = context.kind === "context" ? context.rendered : undefined;
  for (const file of location.files) {
    const why = rendered?.shown.includes(file.label)
      ? "sent"
      : rendered?.cut.includes(file.label)
      ? "cut to fit the budget (the closing line names it)"
      : rendered?.left.includes(file.label)
      ? "left out: the budget was spent (the closing line names it)"
      : rendered?.skipped.includes(file.label)
      ? "skipped: cannot be shown (binary, not UTF-8, unreadable or outside the library)"
      : sent[file.absPath] !== undefined
      ? "already sent to this context window, unchanged"
      : "not sent";
    lines.push(`  ${file.label}: ${why}`);
  }
  lines.push(
    rendered
      ? `${rendered.text.length} of ${budget} characters`
      : "nothing new to send: every file was already sent",
  );
  return lines.map(safeText);
}

/**
 * The explanation of one stop event: what each scratch block would become.
 *
 * @example Usage
 * ```ts
 * import { explainStop } from "./explain_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.writeTextFileSync(`${project}/_memory_library/.scratch.md`, "## [TAG: global, type: tech]\n- a\n");
 * const lines = explainStop(JSON.stringify({ hook_event_name: "Stop", cwd: project }), envFrom({}));
 * assert.equal(lines[0], `library: ${project}/_memory_library`);
 * assert.ok(lines.some((l) => l.includes("tech.md")));
 * ```
 */
export function explainStop(text: string, env: EnvReader): string[] {
  let cwd: string | undefined;
  try {
    cwd = parseHookEvent(text, env).cwd;
  } catch (error) {
    return [`bad input: ${error instanceof Error ? error.message : String(error)}`];
  }
  const library = findLibraryForSession(cwd, env);
  if (!library) return ["library: none found from the session's folder: nothing is filed"];
  const lines = [`library: ${library.root}`];
  let scratch = "";
  try {
    scratch = Deno.readTextFileSync(scratchPathOf(library));
  } catch {
    lines.push("scratch: none");
  }
  for (const review of reviewScratch(scratch)) {
    const what = review.kind === "routable"
      ? `filed into ${review.target}`
      : review.kind === "kept"
      ? `kept in scratch: ${review.reason}`
      : "empty: dropped";
    lines.push(`  line ${review.line} ${review.tag}: ${what}`);
  }
  lines.push("auto memory is synced into scratch first (not shown here)");
  return lines.map(safeText);
}

/**
 * Which hook takes the event in `text`: `stop` for a Stop or SubagentStop event (another agent's
 * name for one included), else `inject` (which also answers input it cannot read).
 *
 * @example Usage
 * ```ts
 * import { hookOfEvent } from "./explain_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(hookOfEvent('{"hook_event_name":"SubagentStop"}', envFrom({})), "stop");
 * assert.equal(hookOfEvent('{"hook_event_name":"SessionStart"}', envFrom({})), "inject");
 * assert.equal(hookOfEvent("not json", envFrom({})), "inject");
 * ```
 */
export function hookOfEvent(text: string, env: EnvReader): "inject" | "stop" {
  try {
    const name = parseHookEvent(text, env).hook_event_name;
    return name === "Stop" || name === "SubagentStop" ? "stop" : "inject";
  } catch {
    return "inject";
  }
}

/**
 * The explanation of the event in `text`, by the hook that takes it (see {@link hookOfEvent}), as
 * lines (reads, never writes).
 *
 * @example Usage
 * ```ts
 * import { explainEvent } from "./explain_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const cwd = Deno.makeTempDirSync();
 * const stop = explainEvent(JSON.stringify({ hook_event_name: "Stop", cwd }), envFrom({}));
 * assert.equal(stop[0], "library: none found from the session's folder: nothing is filed");
 * assert.equal(explainEvent('{"hook_event_name":"UserPromptSubmit"}', envFrom({}))[0], "event: UserPromptSubmit");
 * ```
 */
export function explainEvent(text: string, env: EnvReader): string[] {
  return hookOfEvent(text, env) === "stop" ? explainStop(text, env) : explainInject(text, env);
}

/** Reads the whole of stdin as text. */
export function readStdinText(): string {
  return new TextDecoder().decode(readAllSync(Deno.stdin));
}

/**
 * The explanation on stderr, each line behind `explain: `, then the same event handed to the hook
 * that runs next (it reads it as its stdin), whose stdout is exactly what Claude Code would
 * receive.
 */
export function explainToStderr(text: string, lines: readonly string[]): void {
  console.error(lines.map((l) => `explain: ${l}`).join("\n"));
  provideStdinText(text);
}

/**
 * A hook's own `--explain` (the old form of `librarian explain --event --run`): reads the event,
 * explains it as `hook` would take it on stderr, and hands it on to that hook.
 */
export function explainThenRun(hook: string, env: EnvReader = processEnv()): void {
  const text = readStdinText();
  explainToStderr(text, hook === "stop" ? explainStop(text, env) : explainInject(text, env));
}
