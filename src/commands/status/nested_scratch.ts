/**
 * Scratch files of libraries nested in the project (`packages/a/_memory_library/.scratch.md`)
 * that hold something (effectful, read-only): `status` names them, so "nothing waiting" is never
 * said while blocks wait in one. The walk is bounded and says when it stopped.
 *
 * @module
 */

import {
  joinPath,
  type Library,
  LIBRARY_DIR_NAME,
  normalizePath,
  readFileBounded,
  SCRATCH_FILE_NAME,
} from "../../core/mod.ts";

/** The most folders looked at for nested libraries. */
export const MAX_WALKED_FOLDERS = 20_000;
const SKIPPED = new Set(["node_modules", "vendor", "target", "dist", "build"]);

/** A nested scratch that holds text, and how far the walk went. */
export interface NestedScratches {
  /** Project-relative paths of nested scratch files that hold more than white space. */
  paths: string[];
  /** True when the walk stopped at {@link MAX_WALKED_FOLDERS} folders. */
  truncated: boolean;
}

function holdsText(path: string): boolean {
  const read = readFileBounded(path, 64 * 1024);
  if (read.kind !== "bytes") return false;
  return new TextDecoder().decode(read.bytes).replace(/^\uFEFF/, "").trim() !== "";
}

/**
 * The nested libraries' scratch files below `library`'s project that hold text.
 *
 * @example Usage
 * ```ts
 * import { nestedScratches } from "./nested_scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.mkdirSync(`${root}/packages/a/_memory_library`, { recursive: true });
 * Deno.writeTextFileSync(`${root}/packages/a/_memory_library/.scratch.md`, "## [TAG: src, type: edge]\n- x\n");
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * assert.deepEqual(nestedScratches(library), {
 *   paths: ["packages/a/_memory_library/.scratch.md"],
 *   truncated: false,
 * });
 * ```
 */
export function nestedScratches(library: Library, max = MAX_WALKED_FOLDERS): NestedScratches {
  const paths: string[] = [];
  const own = normalizePath(library.root);
  const queue: string[] = [""];
  let walked = 0;
  while (queue.length > 0) {
    if (walked >= max) return { paths, truncated: true };
    const rel = queue.shift()!;
    walked++;
    let entries: Deno.DirEntry[];
    try {
      entries = [
        ...Deno.readDirSync(rel === "" ? library.projectRoot : joinPath(library.projectRoot, rel)),
      ];
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (!entry.isDirectory || entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.name === LIBRARY_DIR_NAME) {
        const abs = joinPath(library.projectRoot, path);
        if (normalizePath(abs) !== own && holdsText(joinPath(abs, SCRATCH_FILE_NAME))) {
          paths.push(`${path}/${SCRATCH_FILE_NAME}`);
        }
        continue;
      }
      queue.push(path);
    }
  }
  return { paths, truncated: false };
}
