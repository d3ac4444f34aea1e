/**
 * `librarian sessions`: what the sessions of this project were sent, from the inject side's
 * ledgers, in three views: the list of recent sessions, one session's context windows and files
 * (`sessions <session>|latest`), and per library file the sessions it reached
 * (`sessions --by-file`). The old names `sent` and `stats` run the same views for one release.
 *
 * @module
 */

import { type EnvReader, processEnv } from "../../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  intOption,
  requireLibrary,
  runCommand,
  UsageError,
} from "../../cli/mod.ts";
import { findSession, projectSessions } from "./ledgers.ts";
import { printSessionList } from "./session_list.ts";
import { printSessionFiles } from "./session_files.ts";
import { printByFile } from "./by_file.ts";

/** The command line of `librarian sessions`. */
export const SPEC: CommandSpec = {
  name: "sessions",
  synopsis: "[--limit <n> | <session> | latest | --by-file [--days <n>]] [--json]",
  summary: "list recent sessions, what one was sent, or which library files reach them",
  details: [
    "Read from the ledgers the inject hook keeps in the state folder (this machine's sessions;",
    "a session is forgotten after a week unused), this project's library files only.",
    "Without arguments: the sessions that were sent files of this project's library, most recent",
    "first: when they were last active, their context windows (the main conversation and each",
    "subagent) and how many library files each had.",
    "<session> (its id, or the start of it as the log shows; 'latest' for the most recent): each",
    "context window with the library files it was sent: the version (size and content hash) and",
    "whether the file is still that version ('current'), has changed since, or was deleted; and",
    "the folders whose first write was held once until their library files were sent.",
    "--by-file: for each library file, how many sessions it reached in the last <n> days",
    "(default 30) and of all kept, the last time it did, and the files never delivered.",
    "Why a file was or was not sent for a path: 'librarian explain <path> --session <id>'.",
  ],
  options: {
    limit: { type: "string", valueName: "<n>", description: "sessions to list (default 20)" },
    "by-file": { type: "boolean", description: "per library file: the sessions it reached" },
    days: {
      type: "string",
      valueName: "<n>",
      description: "with --by-file: the period in days (1-3650, default 30)",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<session>"],
  requiredPositionals: 0,
};

/** Runs `librarian sessions`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const wanted = parsed.positionals[0];
    const byFile = flag(parsed, "by-file");
    if (wanted !== undefined && byFile) {
      throw new UsageError("a session and --by-file do not go together");
    }
    if (parsed.values.limit !== undefined && (wanted !== undefined || byFile)) {
      throw new UsageError("--limit goes with the list (no <session>, no --by-file)");
    }
    if (parsed.values.days !== undefined && !byFile) {
      throw new UsageError("--days goes with --by-file");
    }
    const json = flag(parsed, "json");
    const limit = intOption(parsed, "limit", 20, 1, 10_000);
    const days = intOption(parsed, "days", 30, 1, 3650);
    const library = await requireLibrary(env);
    const sessions = projectSessions(env, library.root);
    if (byFile) await printByFile(library.root, sessions, days, json, env);
    else if (wanted !== undefined) {
      printSessionFiles(library.root, findSession(sessions, wanted), json, env);
    } else printSessionList(library.root, sessions.slice(0, limit), json, env);
    return EXIT_OK;
  });
}

/**
 * The old `sent [<session>]`'s command line as `sessions`' (`latest` when no session is given).
 *
 * @example Usage
 * ```ts
 * import { sentArgs } from "./sessions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(sentArgs(["--json"]), ["--json", "latest"]);
 * assert.deepEqual(sentArgs(["abc", "--json"]), ["abc", "--json"]);
 * ```
 */
export function sentArgs(args: readonly string[]): string[] {
  return args.some((a) => !a.startsWith("-")) ? [...args] : [...args, "latest"];
}

/**
 * The old `stats [--days N]`'s command line as `sessions`'.
 *
 * @example Usage
 * ```ts
 * import { statsArgs } from "./sessions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(statsArgs(["--days", "7"]), ["--by-file", "--days", "7"]);
 * ```
 */
export function statsArgs(args: readonly string[]): string[] {
  return ["--by-file", ...args];
}

/** Runs the old `librarian sent` (kept for one release): `sessions <session>|latest`. */
export async function runSent(args: string[]): Promise<number> {
  return await run(sentArgs(args));
}

/** Runs the old `librarian stats` (kept for one release): `sessions --by-file`. */
export async function runStats(args: string[]): Promise<number> {
  return await run(statsArgs(args));
}
