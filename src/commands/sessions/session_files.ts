/**
 * `librarian sessions <session>`: which library files, and which versions, a session's context
 * windows were sent, from the inject side's ledgers; each version compared with the file now.
 *
 * @module
 */

import { type EnvReader, safeText } from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import { makeStyle, printJson } from "../../cli/mod.ts";
import { type SessionLedgers, versionState } from "./ledgers.ts";

/** Prints each context window of `session` with the files of `libraryRoot` it was sent. */
export function printSessionFiles(
  libraryRoot: string,
  session: SessionLedgers,
  json: boolean,
  env: EnvReader,
): void {
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
          path: path.slice(libraryRoot.length + 1),
          bytes: Number(size),
          hash: hash ?? "",
          state: versionState(path, fingerprint),
        };
      }),
  }));
  if (json) {
    printJson({ version: VERSION, library: libraryRoot, session: session.session, windows });
    return;
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
}
