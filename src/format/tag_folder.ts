/**
 * Ready-to-use tag lines for a code folder (pure): what the just-in-time hint and the stop nudge
 * tell the model to write, so that the block it writes is filed where the folder's library
 * context is read from.
 *
 * @module
 */

import { checkTagPath, GLOBAL_PATH } from "./tag_rules.ts";

/** The type the hint and the nudge suggest (a file name stem; any other type works too). */
export const SUGGESTED_TYPE = "edge";

/**
 * The tag path for a project-relative code folder: the folder itself when filing accepts it, else
 * its nearest ancestor that filing accepts (a folder such as `.github/workflows` cannot be a tag:
 * segments starting with `.` are refused), else `global`. A code folder named `global` at the
 * project root is `./global` (`global` alone is the library root).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tagFolderOf("src/api/billing"), "src/api/billing");
 * assert.equal(tagFolderOf(""), "global");
 * assert.equal(tagFolderOf("src/.generated/x"), "src");
 * assert.equal(tagFolderOf("global"), "./global");
 * ```
 */
export function tagFolderOf(relDir: string): string {
  const segments = relDir.split("/").filter((s) => s !== "");
  for (let n = segments.length; n > 0; n--) {
    const joined = segments.slice(0, n).join("/");
    const path = joined === GLOBAL_PATH ? `./${GLOBAL_PATH}` : joined;
    if (checkTagPath(path).ok) return path;
  }
  return GLOBAL_PATH;
}

/**
 * The tag line for a tag folder (as {@link tagFolderOf} gives it).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tagLineFor("src/api"), "## [TAG: src/api, type: edge]");
 * assert.equal(tagLineFor(tagFolderOf("")), "## [TAG: global, type: edge]");
 * ```
 */
export function tagLineFor(tagFolder: string, type: string = SUGGESTED_TYPE): string {
  return `## [TAG: ${tagFolder}, type: ${type}]`;
}
