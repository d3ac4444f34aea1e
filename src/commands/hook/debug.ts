/**
 * Running a hook by hand: `librarian inject --example [<event>]` / `librarian stop --example`
 * print a ready sample event for this project (real paths, a fresh session id) that can be piped
 * straight back in, and a hook started from a terminal says how to feed it one. `--explain` is in
 * `hook_explain.ts`.
 *
 * @module
 */

import {
  type EnvReader,
  findLibraryForSession,
  joinPath,
  type Library,
  normalizePath,
  processEnv,
  scanLibrary,
} from "../../core/mod.ts";

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
 * import { terminalHint } from "./debug.ts";
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
 * import { exampleEvent } from "./debug.ts";
 * import { envFrom } from "../../core/env.ts";
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
 * import { printExample } from "./debug.ts";
 * import { envFrom } from "../../core/env.ts";
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
