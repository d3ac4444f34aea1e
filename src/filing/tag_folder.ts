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
 * segments starting with `.` are refused), else `global`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tagFolderOf("src/api/billing"), "src/api/billing");
 * assert.equal(tagFolderOf(""), "global");
 * assert.equal(tagFolderOf("src/.generated/x"), "src");
 * ```
 */
export function tagFolderOf(relDir: string): string {
  const segments = relDir.split("/").filter((s) => s !== "");
  for (let n = segments.length; n > 0; n--) {
    const path = segments.slice(0, n).join("/");
    if (path !== GLOBAL_PATH && checkTagPath(path).ok) return path;
  }
  return GLOBAL_PATH;
}

/**
 * The tag line for a code folder.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tagLineFor("src/api"), "## [TAG: src/api, type: edge]");
 * ```
 */
export function tagLineFor(relDir: string, type: string = SUGGESTED_TYPE): string {
  return `## [TAG: ${tagFolderOf(relDir)}, type: ${type}]`;
}
