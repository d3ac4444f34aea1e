/**
 * `librarian sent [<session>]`: which library files, and which versions, a session's context
 * windows were sent, from the inject side's ledgers; each version compared with the file now.
 *
 * @module
 */

import { type EnvReader, LibrarianError, processEnv, safeText } from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
} from "../../cli/mod.ts";
import { projectSessions, type SessionLedgers, versionState } from "./ledgers.ts";

/** The command line of `librarian sent`. */
export const SPEC: CommandSpec = {
  name: "sent",
  synopsis: "[<session>] [--json]",
  summary: "show which library files (and versions) a session was sent",
  details: [
    "For <session> (its id, or the start of it as the log shows; default: the most recent",
    "session in this project), lists each context window (the main conversation, each",
    "subagent) with the library files it was sent: the version (size and content hash) and",
    "whether the file is still that version ('current'), has changed since, or was deleted;",
    "and the folders whose first write was held once until their library files were sent.",
  ],
  options: {
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: ["<session>"],
  requiredPositionals: 0,
};

function pick(sessions: SessionLedgers[], wanted: string | undefined): SessionLedgers {
  if (wanted === undefined) {
    const latest = sessions[0];
    if (!latest) throw new LibrarianError("no session of this project was sent library files yet");
    return latest;
  }
  const exact = sessions.find((s) => s.session === wanted);
  if (exact) return exact;
  const matches = sessions.filter((s) => s.session.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new LibrarianError(
      `'${wanted}' starts ${matches.length} sessions (${
        matches.slice(0, 3).map((s) => s.session).join(", ")
      }); give more of the id`,
    );
  }
  throw new LibrarianError(
    `no session '${wanted}' in this project's ledgers; 'librarian sessions' lists them`,
  );
}

/** Runs `librarian sent`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const library = await requireLibrary(env);
    const session = pick(projectSessions(env, library.root), parsed.positionals[0]);
    const windows = session.windows.map((w) => ({
      window: w.window,
      reminded: w.reminded,
      held: w.held,
      lastWrite: w.modified?.toISOString() ?? null,
      files: Object.entries(w.files)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, fingerprint]) => {
          const [size, , hash] = fingerprint.split(":");
          return {
            path: path.slice(library.root.length + 1),
            bytes: Number(size),
            hash: hash ?? "",
            state: versionState(path, fingerprint),
          };
        }),
    }));
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, library: library.root, session: session.session, windows });
      return EXIT_OK;
    }
    const style = makeStyle(env);
    console.log(`${style.bold("Session")} ${session.session}`);
    for (const w of windows) {
      const title = w.window === "main" ? "main conversation" : `subagent ${w.window.slice(6)}`;
      console.log(`\n${style.bold(title)}${w.reminded ? style.dim(" (reminded to tag)") : ""}`);
      if (w.held.length > 0) {
        console.log(
          `  held once (first write waited for its notes): ${w.held.map(safeText).join(", ")}`,
        );
      }
      const width = Math.max(...w.files.map((f) => f.path.length));
      for (const f of w.files) {
        const state = f.state === "current"
          ? style.green(f.state)
          : f.state === "changed"
          ? style.yellow("changed since")
          : style.red(f.state);
        console.log(
          `  ${safeText(f.path).padEnd(width)}  ${String(f.bytes).padStart(7)} B  ` +
            `${style.dim(f.hash.slice(0, 12))}  ${state}`,
        );
      }
    }
    return EXIT_OK;
  });
}
