/**
 * `librarian stats`: which library knowledge is used, from the inject side's ledgers (no network,
 * no model): per library file, the sessions it reached in the last days, the last time it did,
 * and the files never delivered (their code folder gone, or never touched).
 *
 * @module
 */

import {
  type EnvReader,
  normalizePath,
  nowFrom,
  processEnv,
  safeText,
  scanLibrary,
  servedFiles,
} from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  intOption,
  locateLibrary,
  makeStyle,
  noLibraryError,
  printJson,
  runCommand,
} from "../../cli/mod.ts";
import { projectSessions } from "../sessions/ledgers.ts";
import { fileUse } from "./usage.ts";

/** The command line of `librarian stats`. */
export const SPEC: CommandSpec = {
  name: "stats",
  synopsis: "[--days N] [--json]",
  summary: "show which library files reach sessions, and which are never delivered",
  details: [
    "From the ledgers the inject hook keeps (this machine's sessions), for each library file:",
    "how many sessions it reached in the last N days (default 30), the last time it did, and",
    "the files never delivered in any session the ledgers still hold.",
  ],
  options: {
    days: { type: "string", description: "the period in days (1-3650, default 30)" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
  requiredPositionals: 0,
};

/** Runs `librarian stats`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const cwd = normalizePath(Deno.cwd());
    const located = await locateLibrary(env, cwd);
    const { library } = located;
    if (!library) throw noLibraryError(cwd, located);
    const days = intOption(parsed, "days", 30, 1, 3650);
    const files = servedFiles(await scanLibrary(library.root)).map((f) => f.relPath);
    const sessions = projectSessions(env, library.root);
    const use = fileUse(library.root, files, sessions, nowFrom(env), days);
    const never = use.filter((u) => u.sessions === 0).map((u) => u.path);
    if (flag(parsed, "json")) {
      printJson({
        version: VERSION,
        library: library.root,
        days,
        sessions: sessions.length,
        files: use.map((u) => ({ ...u, last: u.last?.toISOString() ?? null })),
        neverDelivered: never,
      });
      return EXIT_OK;
    }
    const style = makeStyle(env);
    console.log(
      `${style.bold("Library")} ${safeText(library.root)}: ${files.length} files, ` +
        `${sessions.length} sessions in the ledgers`,
    );
    const used = use.filter((u) => u.sessions > 0);
    if (used.length > 0) {
      const width = Math.max(...used.map((u) => u.path.length));
      console.log(`\n${style.bold(`sessions reached (last ${days} days / all kept), last time`)}`);
      for (const u of used) {
        console.log(
          `  ${safeText(u.path).padEnd(width)}  ${String(u.recentSessions).padStart(4)} /` +
            `${String(u.sessions).padStart(4)}  ${u.last?.toISOString().slice(0, 16) ?? "-"}`,
        );
      }
    }
    if (never.length > 0) {
      console.log(
        `\n${style.bold("never delivered")} ${
          style.dim("(code folder gone or never touched: 'librarian lint')")
        }`,
      );
      for (const path of never) console.log(`  ${safeText(path)}`);
    }
    return EXIT_OK;
  });
}
