/**
 * Whether a tag's folder is a real place (effectful, read-only): a tag that names a file
 * (`src/api/a.ts`) or a folder that exists nowhere (`src/apu`) would file into a library folder
 * no touch ever reaches, so its block stays in scratch with the nearest real folder named.
 *
 * A folder is real when the project has it as a code folder (one created during the turn
 * included: it is on disk by the Stop) or the library already has it as a folder.
 *
 * @module
 */

import { type Library, LIBRARY_DIR_NAME } from "../core/discover.ts";
import { joinPath } from "../core/paths.ts";
import { editDistance } from "../core/words.ts";

/**
 * The name among `names` closest to `wanted` (case ignored; at most a third of its letters off,
 * at least one), or `null`.
 *
 * @example Usage
 * ```ts
 * import { nearestName } from "./real_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nearestName("apu", ["api", "web"]), "api");
 * assert.equal(nearestName("Billing", ["billing"]), "billing");
 * assert.equal(nearestName("zzz", ["api", "web"]), null);
 * ```
 */
export function nearestName(wanted: string, names: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(wanted.toLowerCase(), name.toLowerCase());
    if (best === null || distance < best.distance) best = { name, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(1, Math.floor(wanted.length / 3)) ? best.name : null;
}

type Kind = "folder" | "file" | "none";

function kindOf(path: string): Kind {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? "folder" : "file";
  } catch {
    return "none";
  }
}

/** The folders in `dir` a tag could name (no dot folders, never the library itself). */
function folderNames(dir: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name.startsWith(".") || entry.name === LIBRARY_DIR_NAME) continue;
      if (
        entry.isDirectory || (entry.isSymlink && kindOf(joinPath(dir, entry.name)) === "folder")
      ) {
        names.push(entry.name);
      }
      if (names.length >= 10_000) break;
    }
  } catch {
    // unreadable: nothing to suggest from it
  }
  return names;
}

const shown = (segments: readonly string[]) =>
  segments.length === 0 ? "global" : segments.join("/");

/**
 * Why blocks tagged with `folder` (library-relative segments) must not be filed, naming the
 * nearest real folder, or `null` when the folder is real (or `global`).
 *
 * @example Usage
 * ```ts
 * import { deadFolderReason } from "./real_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const projectRoot = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${projectRoot}/src/api`, { recursive: true });
 * Deno.writeTextFileSync(`${projectRoot}/src/api/a.ts`, "");
 * const library = { root: `${projectRoot}/_memory_library`, projectRoot, foundBy: "cwd" as const };
 * assert.equal(deadFolderReason(library, ["src", "api"]), null);
 * assert.equal(
 *   deadFolderReason(library, ["src", "api", "a.ts"]),
 *   "src/api/a.ts is a file, not a folder: tag its folder, src/api",
 * );
 * assert.equal(
 *   deadFolderReason(library, ["src", "apu"]),
 *   "no folder src/apu in the project: did you mean src/api?",
 * );
 * ```
 */
export function deadFolderReason(library: Library, folder: readonly string[]): string | null {
  if (folder.length === 0) return null;
  if (kindOf(joinPath(library.root, ...folder)) === "folder") return null;
  const code = kindOf(joinPath(library.projectRoot, ...folder));
  if (code === "folder") return null;
  if (code === "file") {
    return `${shown(folder)} is a file, not a folder: tag its folder, ${
      shown(folder.slice(0, -1))
    }`;
  }
  // The deepest folder that exists, then the nearest name at the first one that does not.
  let depth = 0;
  while (
    depth < folder.length &&
    kindOf(joinPath(library.projectRoot, ...folder.slice(0, depth + 1))) === "folder"
  ) {
    depth++;
  }
  const base = folder.slice(0, depth);
  const near = nearestName(folder[depth]!, folderNames(joinPath(library.projectRoot, ...base)));
  if (near !== null) {
    const fixed = [...base, near, ...folder.slice(depth + 1)];
    const suggestion = kindOf(joinPath(library.projectRoot, ...fixed)) === "folder"
      ? fixed
      : [...base, near];
    return `no folder ${shown(folder)} in the project: did you mean ${shown(suggestion)}?`;
  }
  return `no folder ${shown(folder)} in the project: the nearest real folder is ${shown(base)}`;
}
