/**
 * Running a hook by hand: `librarian inject --example [<event>]` / `librarian stop --example`
 * print a ready sample event for this project (real paths, a fresh session id) that can be piped
 * straight back in, and `--explain` tells on stderr, for one event, which library was found, the
 * walk, what the ledger already had and why each file was sent, cut or left out; stdout stays
 * exactly what Claude Code would receive (the hook itself runs on the same event).
 *
 * @module
 */

import { findLibraryForSession, type Library, scratchPathOf } from "../core/discover.ts";
import { type EnvReader, processEnv, readBudget } from "../core/env.ts";
import { HookInputError, parseHookEvent, provideStdinText } from "../core/hook_io.ts";
import { joinPath, normalizePath } from "../core/paths.ts";
import { scanLibrary } from "../core/library_scan.ts";
import { readAllSync } from "../core/read_all.ts";
import { decideFileContext, locateFileContext } from "../inject/file_context.ts";
import { FILE_TOOLS } from "../inject/hook.ts";
import { rootFilesAtStart } from "../inject/start.ts";
import { collectLibraryFiles } from "../core/walk.ts";
import { loadLedger } from "../inject/ledger.ts";
import { ledgerKeyOf, windowStateDir } from "../inject/window.ts";
import { safeText } from "./log_tail.ts";
import { reviewScratch } from "./scratch_review.ts";

/** The events `--example` can make, per hook. */
export const EXAMPLE_EVENTS: Readonly<Record<string, readonly string[]>> = {
  inject: ["PreToolUse", "UserPromptSubmit", "SessionStart", "SubagentStart"],
  stop: ["Stop"],
};

/**
 * The one stderr line a hook prints when started on a terminal.
 *
 * @example Usage
 * ```ts
 * import { terminalHint } from "./hook_debug.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(terminalHint("stop"), /librarian stop --example \| librarian stop/);
 * assert.match(terminalHint("inject"), /librarian inject --example PreToolUse \|/);
 * ```
 */
export function terminalHint(hook: string): string {
  const example = hook === "stop" ? "--example" : "--example PreToolUse";
  return `librarian ${hook}: reading one hook event (JSON) from stdin; paste it and press ` +
    `Ctrl-D, or pipe one in: librarian ${hook} ${example} | librarian ${hook} [--explain]`;
}

/** A code file for the sample event: one in the deepest library folder that holds files. */
async function sampleFile(library: Library | null, cwd: string): Promise<string> {
  if (!library) return joinPath(cwd, "example.ts");
  const folders = await scanLibrary(library.root);
  const withFiles = folders.filter((f) => f.files.some((file) => file.served));
  const deepest = withFiles.sort((a, b) => b.depth - a.depth)[0]?.relDir ?? "";
  const codeDir = deepest === "" ? library.projectRoot : joinPath(library.projectRoot, deepest);
  try {
    for (const entry of Deno.readDirSync(codeDir)) {
      if (entry.isFile && !entry.name.startsWith(".")) return joinPath(codeDir, entry.name);
    }
  } catch {
    // the code folder does not exist (yet): the sample names a new file in it
  }
  return joinPath(codeDir, "example.ts");
}

/**
 * A sample hook event for `event` in the project around `cwd`, as Claude Code 2.1.197 sends it
 * (a fresh session id each time).
 *
 * @example Usage
 * ```ts
 * import { exampleEvent } from "./hook_debug.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const cwd = Deno.makeTempDirSync();
 * const event = await exampleEvent("Stop", envFrom({}), cwd);
 * assert.equal(event.hook_event_name, "Stop");
 * assert.equal(event.cwd, cwd);
 * assert.notEqual((await exampleEvent("Stop", envFrom({}), cwd)).session_id, event.session_id);
 * ```
 */
export async function exampleEvent(
  event: string,
  env: EnvReader,
  cwd: string,
): Promise<Record<string, unknown>> {
  const library = findLibraryForSession(cwd, env);
  const project = library?.projectRoot ?? cwd;
  const session = crypto.randomUUID();
  const base = {
    session_id: session,
    transcript_path: `/tmp/librarian-example/${session}.jsonl`,
    cwd: project,
    hook_event_name: event,
  };
  switch (event) {
    case "PreToolUse":
      return {
        ...base,
        permission_mode: "default",
        tool_name: "Read",
        tool_input: { file_path: await sampleFile(library, project) },
        tool_use_id: `toolu_example_${session.slice(0, 8)}`,
      };
    case "UserPromptSubmit":
      return { ...base, permission_mode: "default", prompt: "Where do learnings go?" };
    case "SessionStart":
      return { ...base, source: "startup" };
    case "SubagentStart":
      return { ...base, agent_id: `agent-${session.slice(0, 8)}`, agent_type: "general-purpose" };
    default:
      return { ...base, stop_hook_active: false };
  }
}

/**
 * Prints `--example`'s event; returns the exit code (2 for an event this hook does not take).
 *
 * @example Usage
 * ```ts
 * import { printExample } from "./hook_debug.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await printExample("stop", ["--example", "NoSuchEvent"], envFrom({})), 2);
 * ```
 */
export async function printExample(
  hook: string,
  args: readonly string[],
  env: EnvReader = processEnv(),
): Promise<number> {
  const events = EXAMPLE_EVENTS[hook] ?? [];
  const at = args.indexOf("--example");
  const asked = args[at + 1] !== undefined && !args[at + 1]!.startsWith("-")
    ? args[at + 1]!
    : events[0]!;
  if (!events.includes(asked)) {
    console.error(
      `librarian ${hook}: unknown event '${asked}' for --example; one of ${events.join(", ")}`,
    );
    return 2;
  }
  console.log(JSON.stringify(await exampleEvent(asked, env, normalizePath(Deno.cwd()))));
  return 0;
}

/**
 * The explanation of one inject event, as lines for stderr (reads, never writes).
 *
 * @example Usage
 * ```ts
 * import { explainInject } from "./hook_debug.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(explainInject("not json", envFrom({}))[0]!, /^bad input: /);
 * const lines = explainInject('{"hook_event_name":"PreToolUse","tool_name":"Read"}', envFrom({}));
 * assert.equal(lines[0], "event: PreToolUse (Read)");
 * ```
 */
export function explainInject(text: string, env: EnvReader): string[] {
  let event;
  try {
    event = parseHookEvent(text);
  } catch (error) {
    return [`bad input: ${error instanceof HookInputError ? error.message : String(error)}`];
  }
  const lines = [
    `event: ${event.hook_event_name}${event.tool_name ? ` (${event.tool_name})` : ""}`,
  ];
  const state = windowStateDir(env);
  const key = ledgerKeyOf(event);
  const ledger = state && key ? loadLedger(state, key) : undefined;
  const window = key ? `${key.sessionId}${key.agentId ? ` / subagent ${key.agentId}` : ""}` : "";
  lines.push(
    ledger
      ? `ledger: ${Object.keys(ledger.ledger.files).length} files already sent to ${window}` +
        (ledger.ledger.reminded ? ", reminder given" : "") +
        (ledger.discarded ? ` (the file on disk was discarded: ${ledger.discarded})` : "")
      : "ledger: none (no session id or no state folder): everything counts as new",
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
 * import { explainStop } from "./hook_debug.ts";
 * import { envFrom } from "../core/env.ts";
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
    cwd = parseHookEvent(text).cwd;
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
 * `--explain`: reads the event, writes the explanation to stderr, then hands the same event to
 * the hook, which writes exactly what Claude Code would receive on stdout.
 */
export function explainThenRun(hook: string, env: EnvReader = processEnv()): void {
  const text = new TextDecoder().decode(readAllSync(Deno.stdin));
  const lines = hook === "stop" ? explainStop(text, env) : explainInject(text, env);
  console.error(lines.map((l) => `explain: ${l}`).join("\n"));
  provideStdinText(text);
}
