/**
 * `librarian sessions --by-file`: which library knowledge is used, from the inject side's ledgers
 * (no network, no model): per library file, the sessions it reached in the last days, the last
 * time it did, and the files never delivered (their code folder gone, or never touched).
 *
 * @module
 */

import { type EnvReader, nowFrom, safeText, scanLibrary, servedFiles } from "../../core/mod.ts";
import { VERSION } from "../../version.ts";
import { makeStyle, printJson } from "../../cli/mod.ts";
import { type SessionLedgers } from "./ledgers.ts";
import { fileUse } from "./file_use.ts";

/** Prints the use of each served file of the library at `libraryRoot` over the last `days`. */
export async function printByFile(
  libraryRoot: string,
  sessions: readonly SessionLedgers[],
  days: number,
  json: boolean,
  env: EnvReader,
): Promise<void> {
  const files = servedFiles(await scanLibrary(libraryRoot)).map((f) => f.relPath);
  const use = fileUse(libraryRoot, files, sessions, nowFrom(env), days);
  const never = use.filter((u) => u.sessions === 0).map((u) => u.path);
  if (json) {
    printJson({
      version: VERSION,
      library: libraryRoot,
      days,
      sessions: sessions.length,
      files: use.map((u) => ({ ...u, last: u.last?.toISOString() ?? null })),
      neverDelivered: never,
    });
    return;
  }
  const style = makeStyle(env);
  console.log(
    `${style.bold("Library")} ${safeText(libraryRoot)}: ${files.length} files, ` +
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
}
