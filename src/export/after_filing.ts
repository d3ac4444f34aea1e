/**
 * Keeping exports current without anyone running a command: after the Stop hook files learnings,
 * the folders it filed into are exported again in the formats recorded in the library's
 * settings (`librarian init --export <formats>`). Off unless formats are recorded; costs one
 * `stat` when they are not.
 *
 * @module
 */

import { removeIfPresent } from "../core/atomic.ts";
import { type Library, trustsOwnersOf } from "../core/discover.ts";
import { messageOf } from "../core/errors.ts";
import { isFile } from "../core/fs_probe.ts";
import { dirnameOf, joinPath } from "../core/paths.ts";
import { CONFIG_FILE_NAME } from "./config.ts";

/** What the re-export did, for the hook's log line and its message. */
export interface ReexportOutcome {
  /** Files written or removed. */
  changed: number;
  /** Set when the export could not run or a write failed: shown to the user. */
  error?: string;
}

/**
 * The library folders of the files filed into (`src/api/edge.md` → `src/api`, `tech.md` → the
 * root `""`), each once.
 *
 * @example Usage
 * ```ts
 * import { foldersOfTargets } from "./after_filing.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(foldersOfTargets(["src/api/edge.md", "tech.md", "src/api/x.md"]), [
 *   "src/api",
 *   "",
 * ]);
 * ```
 */
export function foldersOfTargets(targets: readonly string[]): string[] {
  const folders = targets.map((t) => (t.includes("/") ? t.slice(0, t.lastIndexOf("/")) : ""));
  return [...new Set(folders)];
}

/** Leaves the mark that a re-export is under way; false when it cannot be left. */
function markPending(pending: string): boolean {
  try {
    Deno.mkdirSync(dirnameOf(pending), { recursive: true });
    Deno.writeTextFileSync(pending, `${new Date().toISOString()}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Re-exports the folders of `targets` (library-relative files just filed into), or does nothing
 * when the library records no export formats. Never throws. With no targets, it only finishes a
 * re-export an earlier run left due (the Stop hook calls it so in a turn that filed nothing).
 *
 * Exports converge: `pending` (a file in the state folder, `exportPending` of the library's
 * coordination paths) is left while the re-export runs and removed when it wrote everything. A
 * run that finds it (the one before was killed, or a write failed) exports every folder, not
 * just the ones filed into, and clears the temp files a killed write left beside the exports.
 */
export async function reexportFiled(
  library: Library,
  targets: readonly string[],
  pending?: string,
): Promise<ReexportOutcome | null> {
  const interrupted = pending !== undefined && isFile(pending);
  if (targets.length === 0 && !interrupted) return null;
  // nothing to export any more (the settings were removed): nothing is due either
  const settled = (): null => {
    if (interrupted) removeIfPresent(pending!);
    return null;
  };
  if (!isFile(joinPath(library.root, CONFIG_FILE_NAME))) return settled();
  try {
    const [{ readLibraryConfig }, { runExport }] = await Promise.all([
      import("./config.ts"),
      import("./export_run.ts"),
    ]);
    const formats = readLibraryConfig(library.root, trustsOwnersOf(library)).export;
    if (formats.length === 0) return settled();
    const marked = interrupted || (pending !== undefined && markPending(pending));
    const report = await runExport(
      library,
      interrupted ? { formats, sweepTemps: true } : { formats, folders: foldersOfTargets(targets) },
    );
    if (marked && report.failures.length === 0) removeIfPresent(pending!);
    const changed = report.actions.filter((a) => a.kind !== "unchanged" && a.kind !== "collision")
      .length;
    const problems = [
      ...report.failures.map((f) => `${f.path}: ${f.error}`),
      ...report.actions.flatMap((a) => (a.kind === "collision" ? [`${a.path}: ${a.reason}`] : [])),
    ];
    return problems.length === 0
      ? { changed }
      : { changed, error: `export not updated for ${problems.join("; ")}` };
  } catch (error) {
    return { changed: 0, error: `export not updated: ${messageOf(error)}` };
  }
}
