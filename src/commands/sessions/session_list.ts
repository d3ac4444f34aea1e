/**
 * `librarian sessions`: the recent Claude Code sessions of this project that the Librarian sent
 * library files to, most recent first, from the inject side's ledgers.
 *
 * @module
 */

import { ageOf, type EnvReader, plural } from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import { makeStyle, printJson } from "../../cli/mod.ts";
import { type SessionLedgers } from "./ledgers.ts";

/**
 * A session as JSON: numbers as numbers, times as ISO strings.
 *
 * @example Usage
 * ```ts
 * import { sessionJson } from "./session_list.ts";
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

/** Prints the list of `sessions` (already cut to the limit) of the library at `libraryRoot`. */
export function printSessionList(
  libraryRoot: string,
  sessions: readonly SessionLedgers[],
  json: boolean,
  env: EnvReader,
): void {
  if (json) {
    printJson({ version: VERSION, library: libraryRoot, sessions: sessions.map(sessionJson) });
    return;
  }
  if (sessions.length === 0) {
    console.log(`No session has been sent files of ${libraryRoot} yet (or in the last week).`);
    return;
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
  console.log(
    style.dim(
      "\n'librarian sessions <session>' lists what a session was sent; 'latest' is the first.",
    ),
  );
}
