/**
 * The thread through a compaction (pure): which folders a context window touched last, and what
 * a `compact` session start sends again for them.
 *
 * Claude Code summarises the conversation when it compacts it (and re-reads recent files without
 * any PreToolUse), so the library files of the folders it was just working on are gone from the
 * window. The ledger keeps the code folders touched last ({@link MAX_RECENT}, most recent first);
 * on SessionStart `compact` their library files are sent again with the root files, most recent
 * folder first, the root last, under one budget (`inject/start.ts`).
 *
 * A touch moves its folders to the front; a touch of the folders already first (the common
 * repeat touch) changes nothing, so it still writes nothing.
 *
 * @module
 */

import type { LibraryFile } from "../core/walk.ts";
import { dirnameOf } from "../core/paths.ts";
import { MAX_RECENT } from "./ledger_format.ts";

/**
 * The recent folders after a touch of `folders` (absolute code folders), or `undefined` when the
 * list stays as it is (they are its first entries already). The touched folders go first, in the
 * order given (one touched again moves to the front); the list keeps at most `max`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { touchedRecently } from "./recent.ts";
 * assert.deepEqual(touchedRecently(undefined, ["/p/src/api"]), ["/p/src/api"]);
 * assert.deepEqual(touchedRecently(["/p/src/api"], ["/p/src/ui"]), ["/p/src/ui", "/p/src/api"]);
 * assert.equal(touchedRecently(["/p/src/ui", "/p/src/api"], ["/p/src/ui"]), undefined);
 * assert.deepEqual(touchedRecently(["/p/src/ui", "/p/src/api"], ["/p/src/api"]), ["/p/src/api", "/p/src/ui"]);
 * assert.deepEqual(touchedRecently(["/p/a", "/p/b"], ["/p/c"], 2), ["/p/c", "/p/a"]);
 * ```
 */
export function touchedRecently(
  recent: readonly string[] | undefined,
  folders: readonly string[],
  max: number = MAX_RECENT,
): string[] | undefined {
  const touched = [...new Set(folders)];
  if (touched.length === 0) return undefined;
  const moved = new Set(touched);
  const next = [...touched, ...(recent ?? []).filter((f) => !moved.has(f))].slice(0, max);
  const same = recent !== undefined && next.length === recent.length &&
    next.every((folder, i) => recent[i] === folder);
  return same ? undefined : next;
}

/**
 * The project-relative folders a touch is about: a touched file's folder, a touched folder itself
 * (written with a trailing `/`, as a Bash touch names it); the project root (`""`) is left out,
 * since its files come back with every session start anyway.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldersOfTouches } from "./recent.ts";
 * assert.deepEqual(foldersOfTouches(["src/api/x.ts", "src/ui/", "README.md", "src/api/y.ts"]), ["src/api", "src/ui"]);
 * ```
 */
export function foldersOfTouches(touched: readonly string[]): string[] {
  const folders = touched.map((t) => t.endsWith("/") ? t.slice(0, -1) : dirnameOf(t));
  return [...new Set(folders.filter((f) => f !== "" && f !== "."))];
}

/**
 * What a compaction sends again, in order: the library files of each recent folder (most recent
 * first, each folder's most specific first, each file once), then the library root's files.
 * `folderFiles` are the walks of the recent folders (as `core/walk.ts` gives them, root files
 * included: they are moved to the end).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactionFiles } from "./recent.ts";
 * const file = (relPath: string) => ({ relPath, label: relPath, absPath: `/l/${relPath}` });
 * const ui = [file("src/ui/patterns.md"), file("src/notes.md"), file("tech.md")];
 * const api = [file("src/api/edge.md"), file("src/notes.md"), file("tech.md")];
 * assert.deepEqual(
 *   compactionFiles([ui, api], [file("tech.md")]).map((f) => f.relPath),
 *   ["src/ui/patterns.md", "src/notes.md", "src/api/edge.md", "tech.md"],
 * );
 * ```
 */
export function compactionFiles(
  folderFiles: readonly (readonly LibraryFile[])[],
  rootFiles: readonly LibraryFile[],
): LibraryFile[] {
  const seen = new Set<string>();
  const out: LibraryFile[] = [];
  const add = (file: LibraryFile) => {
    if (seen.has(file.absPath)) return;
    seen.add(file.absPath);
    out.push(file);
  };
  for (const files of folderFiles) {
    for (const file of files) if (dirnameOf(file.relPath) !== "") add(file);
  }
  for (const file of rootFiles) add(file);
  return out;
}

/**
 * The header of a compaction's context when it brings folder files too.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactionHeader } from "./recent.ts";
 * assert.equal(
 *   compactionHeader(["src/api", "src/ui"]),
 *   "[Librarian] Memory library context for the folders worked on before the compaction " +
 *     "(src/api, src/ui) and the whole project:",
 * );
 * ```
 */
export function compactionHeader(folders: readonly string[]): string {
  return `[Librarian] Memory library context for the folders worked on before the compaction ` +
    `(${folders.join(", ")}) and the whole project:`;
}
