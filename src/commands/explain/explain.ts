/**
 * `librarian explain`: the one place for "why did (or would) the hook send this": for a path (as
 * a Read of it, in a new context window or in one of this project's sessions), for one hook event
 * read on stdin (optionally running the hook on it too), and a sample event to start from.
 *
 * @module
 */

import {
  type EnvReader,
  isDirectory,
  joinPath,
  loadLater,
  normalizePath,
  processEnv,
} from "../../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  pathArgument,
  printJson,
  requireLibrary,
  runCommand,
  stringOption,
  UsageError,
} from "../../cli/mod.ts";
import { VERSION } from "../../version.ts";
import { findSession, projectSessions } from "../sessions/ledgers.ts";
import { ALL_EXAMPLE_EVENTS, printExample } from "./example_event.ts";
import {
  explainEvent,
  explainInject,
  explainToStderr,
  hookOfEvent,
  readStdinText,
} from "./explain_event.ts";

/** The command line of `librarian explain`. */
export const SPEC: CommandSpec = {
  name: "explain",
  synopsis: "<path> [--session <id>] [--json] | --event [--run | --json] | --example [<event>]",
  summary: "say why the hook sends (or sent) what it does, for a path or one hook event",
  details: [
    "<path>: why the inject hook sends what it does before a Read of <path> (a file relative to",
    "the current folder or absolute; for a folder, a file directly inside it): the library found,",
    "the walk, and for each library file whether it is sent, cut to fit the budget, left out, or",
    "already sent to the context window. Without --session, as for a new context window; with",
    "--session <id> (or the start of it, or 'latest'; 'librarian sessions' lists them), as in",
    "that session's main conversation now: what it already had is not sent again.",
    "--event: the same for one hook event (JSON, as Claude Code sends it) read on stdin; for a",
    "Stop event, what each scratch block would become. With --run the hook then runs on the same",
    "event: the explanation goes to stderr and stdout is exactly what Claude Code would receive.",
    "--example [<event>]: print a sample event for this project, with a fresh session id, one",
    `of ${ALL_EXAMPLE_EVENTS.join(", ")} (default: a PreToolUse`,
    "that reads a file of this project). Pipe it on:",
    "  librarian explain --example | librarian explain --event",
    "  librarian explain --example Stop | librarian explain --event --run",
    "With --json, the explanation as {version, hook, explanation: [lines]} (an --example event",
    "is JSON already). Reads and never writes (but for the hook --run runs); exits 0 unless the",
    "command line or the session is wrong.",
  ],
  options: {
    session: {
      type: "string",
      valueName: "<id>",
      description: "as in this session's context window ('latest': the most recent)",
    },
    event: { type: "boolean", description: "explain the hook event read on stdin" },
    run: { type: "boolean", description: "with --event: then run the hook on it" },
    example: { type: "boolean", description: "print a sample hook event for this project" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<path>"],
  requiredPositionals: 0,
};

/** A hook's module: `run` reads the event from stdin and returns the exit code. */
interface HookModule {
  run(args: string[]): Promise<number>;
}

/** The mode the command line asks for, after checking that its options go together. */
function modeOf(
  parsed: { positionals: string[] },
  flags: { event: boolean; example: boolean; run: boolean; session: boolean; json: boolean },
): "path" | "event" | "example" {
  const given = parsed.positionals.length > 0;
  if (flags.event && (given || flags.example)) {
    throw new UsageError("<path>, --event and --example do not go together");
  }
  if (flags.session && (flags.event || flags.example)) {
    throw new UsageError("--session goes with a <path>");
  }
  if (flags.run && !flags.event) throw new UsageError("--run goes with --event");
  if (flags.run && flags.json) {
    throw new UsageError("--run and --json do not go together: stdout is the hook's");
  }
  if (flags.event) return "event";
  if (flags.example) return "example";
  if (!given) throw new UsageError("give a <path>, --event or --example");
  return "path";
}

/** The PreToolUse event of a Read of `path`, in `session` when given. */
function readEventOf(path: string, cwd: string, session: string | undefined): string {
  return JSON.stringify({
    ...(session === undefined ? {} : { session_id: session }),
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: path },
  });
}

/** Prints an explanation: its lines, or with `json` an object naming the hook that takes it. */
function printExplanation(hook: "inject" | "stop", lines: string[], json: boolean): void {
  if (json) printJson({ version: VERSION, hook, explanation: lines });
  else console.log(lines.join("\n"));
}

/** Runs `librarian explain`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const wanted = stringOption(parsed, "session");
    const mode = modeOf(parsed, {
      event: flag(parsed, "event"),
      example: flag(parsed, "example"),
      run: flag(parsed, "run"),
      session: wanted !== undefined,
      json: flag(parsed, "json"),
    });
    if (mode === "example") {
      return await printExample("explain", ALL_EXAMPLE_EVENTS, parsed.positionals[0], env);
    }
    if (mode === "event") {
      const text = readStdinText();
      const lines = explainEvent(text, env);
      if (!flag(parsed, "run")) {
        printExplanation(hookOfEvent(text, env), lines, flag(parsed, "json"));
        return EXIT_OK;
      }
      explainToStderr(text, lines);
      const hook = hookOfEvent(text, env) === "stop"
        ? await loadLater<HookModule>("stop/stop_hook.ts")
        : await loadLater<HookModule>("inject/inject_hook.ts");
      return await hook.run([]);
    }
    const cwd = normalizePath(Deno.cwd());
    const raw = parsed.positionals[0]!;
    const resolved = pathArgument(raw, cwd);
    // A folder (`src/api/`, or a folder on disk): what a file directly in it gets, as `read` says.
    const path = /[\\/]$/.test(raw) || isDirectory(resolved) ? joinPath(resolved, "*") : resolved;
    let session: string | undefined;
    if (wanted !== undefined) {
      const library = await requireLibrary(env);
      session = findSession(projectSessions(env, library.root), wanted).session;
    }
    printExplanation(
      "inject",
      explainInject(readEventOf(path, cwd, session), env),
      flag(parsed, "json"),
    );
    return EXIT_OK;
  });
}
