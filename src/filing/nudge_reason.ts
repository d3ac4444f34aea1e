/**
 * The stop nudge's reason (pure): the folders the turn changed code in, a ready tag line for each,
 * and where to append. Loaded only when a nudge is sent (the rules are in `nudge.ts`), so an idle
 * turn never loads the tag rules.
 *
 * @module
 */

import { type Library, scratchPathOf } from "../core/discover.ts";
import { dirnameOf } from "../core/paths.ts";
import { tagFolderOf, tagLineFor } from "../format/tag_folder.ts";

/** At most this many folders get their own tag line in the reason. */
export const MAX_NUDGE_FOLDERS = 6;

/**
 * The tag folders of changed files, in first-seen order, each once (pure).
 *
 * @example Usage
 * ```ts
 * import { changedTagFolders } from "./nudge_reason.ts";
 * import assert from "node:assert/strict";
 * const files = ["src/api/b.ts", "README.md", "src/api/a.ts", "src/ui/c.ts"];
 * assert.deepEqual(changedTagFolders(files), ["src/api", "global", "src/ui"]);
 * ```
 */
export function changedTagFolders(files: readonly string[]): string[] {
  return [...new Set(files.map((file) => tagFolderOf(dirnameOf(file))))];
}

/**
 * The reason the model continues with: the folders it changed, ready tag lines, the scratch path,
 * and what to answer when there is nothing worth recording.
 *
 * @example Usage
 * ```ts
 * import { nudgeReason } from "./nudge_reason.ts";
 * import assert from "node:assert/strict";
 * const library = { root: "/r/_memory_library", projectRoot: "/r", foundBy: "cwd" as const };
 * const reason = nudgeReason(["src/api/billing/invoice.ts"], library);
 * assert.match(reason, /## \[TAG: src\/api\/billing, type: edge\]/);
 * assert.match(reason, /\/r\/_memory_library\/\.scratch\.md/);
 * ```
 */
export function nudgeReason(files: readonly string[], library: Library): string {
  const folders = changedTagFolders(files);
  const shown = folders.slice(0, MAX_NUDGE_FOLDERS);
  const more = folders.length - shown.length;
  const where = shown.map((f) => f === "global" ? "the project root" : f).join(", ") +
    (more > 0 ? ` and ${more} more folder${more === 1 ? "" : "s"}` : "");
  return [
    `[Librarian] This turn changed code in ${where} but recorded no learning.`,
    `If you learned something a teammate would need there (a gotcha, a constraint, a decision and`,
    `its reason; not what the code already says), append it to ${scratchPathOf(library)}:`,
    ...shown.map((folder) => tagLineFor(folder)),
    `- <one learning per bullet>`,
    `(type is the library file it goes to: edge for gotchas, patterns for conventions, tech for`,
    `stack and commands.) If there is nothing worth recording, reply only that there is nothing`,
    `worth recording this time.`,
  ].join("\n");
}
