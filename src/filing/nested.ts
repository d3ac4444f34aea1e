/**
 * Libraries nested in the session's project (`packages/a/_memory_library/`) that a turn worked
 * in (effectful, read-only): an edit below one gets a hint naming that library's scratch, so its
 * Stop must file that scratch too, or learnings written as told would wait there for ever.
 *
 * @module
 */

import { isLibrary, type Library, lookUpLibraryAbove } from "../core/discover.ts";
import { dirnameOf, joinPath, normalizePath } from "../core/paths.ts";

/** The most nested libraries one Stop files (a turn rarely works in more). */
export const MAX_NESTED_PER_TURN = 16;

/**
 * The libraries below the session library's project that the turn's changed files
 * (project-relative, as `turnChanges` gives them) sit in, nearest library per file, in order;
 * never the session library itself and never a library another user owns.
 *
 * @example Usage
 * ```ts
 * import { nestedLibrariesOf } from "./nested.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.mkdirSync(`${root}/packages/a/_memory_library`, { recursive: true });
 * Deno.mkdirSync(`${root}/packages/a/src`);
 * const session = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const nested = nestedLibrariesOf(session, ["packages/a/src/x.ts", "src/y.ts"]);
 * assert.deepEqual(nested.map((l) => l.root), [`${root}/packages/a/_memory_library`]);
 * ```
 */
export function nestedLibrariesOf(session: Library, files: readonly string[]): Library[] {
  const found = new Map<string, Library>();
  const sessionRoot = normalizePath(session.root);
  for (const file of files) {
    if (found.size >= MAX_NESTED_PER_TURN) break;
    const dir = dirnameOf(joinPath(session.projectRoot, file));
    const library = lookUpLibraryAbove(dir, "file");
    if (!isLibrary(library)) continue;
    const root = normalizePath(library.root);
    if (root === sessionRoot || found.has(root)) continue;
    // only below the session's project: a library above it is another project's
    if (!root.startsWith(`${normalizePath(session.projectRoot)}/`)) continue;
    found.set(root, library);
  }
  return [...found.values()];
}
