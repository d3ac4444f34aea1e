/**
 * `librarian sessions`: the recent Claude Code sessions of this project that the Librarian sent
 * library files to, from the inject side's ledgers.
 *
 * @module
 */

import { ageOf, type EnvReader, plural, processEnv } from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  intOption,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
} from "../../cli/mod.ts";
import { projectSessions, type SessionLedgers } from "./ledgers.ts";

/** The command line of `librarian sessions`. */
export const SPEC: CommandSpec = {
  name: "sessions",
  synopsis: "[--limit <n>] [--json]",
  summary: "list recent sessions in this project and what they were sent",
  details: [
    "Lists, most recent first, the Claude Code sessions that were sent files of this project's",
    "library: when they were last active, their context windows (the main conversation and each",
    "subagent) and how many library files each had. 'librarian sent <session>' shows the files.",
    "Read from the ledgers in the state folder; sessions are forgotten after a week unused.",
  ],
  options: {
    limit: { type: "string", valueName: "<n>", description: "sessions to show (default 20)" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/**
 * A session as JSON: numbers as numbers, times as ISO strings.
 *
 * @example Usage
 * ```ts
 * import { sessionJson } from "./sessions.ts";
 * import assert from "node:assert/strict";
 *
 * const session = {
 *   session: "abc",
 *   stateDir: "/state",
 *   lastActive: new Date(0),
 *   windows: [
 *     { window: "main", files: { "/l/a.md": "1:2:h" }, held: [], reminded: false, modified: null },
 *     {
 *       window: "agent-1",
 *       files: { "/l/a.md": "1:2:h", "/l/b.md": "1:2:h" },
 *       held: [],
 *       reminded: false,
 *       modified: null,
 *     },
 *   ],
 * };
 * assert.deepEqual(sessionJson(session), {
 *   session: "abc",
 *   lastActive: "1970-01-01T00:00:00.000Z",
 *   windows: 2,
 *   subagents: 1,
 *   files: 2,
 * });
 * ```
 */
export function sessionJson(s: SessionLedgers): Record<string, unknown> {
  const files = new Set(s.windows.flatMap((w) => Object.keys(w.files)));
  return {
    session: s.session,
    lastActive: s.lastActive?.toISOString() ?? null,
    windows: s.windows.length,
    subagents: s.windows.filter((w) => w.window !== "main").length,
    files: files.size,
  };
}

/** Runs `librarian sessions`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const limit = intOption(parsed, "limit", 20, 1, 10_000);
    const library = await requireLibrary(env);
    const sessions = projectSessions(env, library.root).slice(0, limit);
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, library: library.root, sessions: sessions.map(sessionJson) });
      return EXIT_OK;
    }
    if (sessions.length === 0) {
      console.log(`No session has been sent files of ${library.root} yet (or in the last week).`);
      return EXIT_OK;
    }
    const style = makeStyle(env);
    const width = Math.max(...sessions.map((s) => s.session.length));
    for (const s of sessions) {
      const json = sessionJson(s);
      const when = s.lastActive ? ageOf(s.lastActive.toISOString()) : "unknown";
      const agents = json.subagents ? `, ${plural(json.subagents as number, "subagent")}` : "";
      console.log(
        `${s.session.padEnd(width)}  ${style.dim(when.padEnd(12))}  ` +
          `${plural(json.files as number, "library file")}${agents}`,
      );
    }
    console.log(style.dim("\n'librarian sent <session>' lists what a session was sent."));
    return EXIT_OK;
  });
}
