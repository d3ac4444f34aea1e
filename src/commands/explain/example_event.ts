/**
 * Running a hook by hand: `librarian explain --example [<event>]` prints a ready sample event for
 * this project (real paths, a fresh session id) that can be piped straight back into a hook or
 * into `librarian explain --event`, and a hook started from a terminal says how to feed it one.
 * The old form, a hook's own `--example` (`librarian inject --example`), makes only that hook's
 * events. What an event does and why is in `explain_event.ts`.
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

/** Every event `librarian explain --example` can make, the first the default. */
export const ALL_EXAMPLE_EVENTS: readonly string[] = Object.values(EXAMPLE_EVENTS).flat();

/**
 * The one stderr line a hook prints when started on a terminal.
 *
 * @example Usage
 * ```ts
 * import { terminalHint } from "./example_event.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(terminalHint("stop"), /librarian explain --example Stop \| librarian stop/);
 * assert.match(terminalHint("inject"), /librarian explain --example \| librarian inject/);
 * ```
 */
export function terminalHint(hook: string): string {
  const example = hook === "stop" ? "--example Stop" : "--example";
  return `librarian ${hook}: reading one hook event (JSON) from stdin; paste it and press ` +
    `Ctrl-D, or pipe one in: librarian explain ${example} | librarian ${hook} ` +
    `(why it does what it does: librarian explain --help)`;
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
 * import { exampleEvent } from "./example_event.ts";
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
 * Prints a sample `event` (default: the first of `events`) for the project around the current
 * folder; returns the exit code (2, and a line on stderr naming `command`, for an event not in
 * `events`).
 *
 * @example Usage
 * ```ts
 * import { printExample } from "./example_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await printExample("stop", ["Stop"], "NoSuchEvent", envFrom({})), 2);
 * ```
 */
export async function printExample(
  command: string,
  events: readonly string[],
  event: string | undefined,
  env: EnvReader = processEnv(),
): Promise<number> {
  const asked = event ?? events[0]!;
  if (!events.includes(asked)) {
    console.error(
      `librarian ${command}: unknown event '${asked}' for --example; one of ${events.join(", ")}`,
    );
    return 2;
  }
  console.log(JSON.stringify(await exampleEvent(asked, env, normalizePath(Deno.cwd()))));
  return 0;
}

/**
 * A hook's own `--example [<event>]` (the old form of `librarian explain --example`): that hook's
 * events only, as before; returns the exit code.
 *
 * @example Usage
 * ```ts
 * import { printHookExample } from "./example_event.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await printHookExample("inject", ["--example", "Stop"], envFrom({})), 2);
 * ```
 */
export async function printHookExample(
  hook: string,
  args: readonly string[],
  env: EnvReader = processEnv(),
): Promise<number> {
  const at = args.indexOf("--example");
  const next = args[at + 1];
  const asked = next !== undefined && !next.startsWith("-") ? next : undefined;
  return await printExample(hook, EXAMPLE_EVENTS[hook] ?? [], asked, env);
}
