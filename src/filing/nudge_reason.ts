/**
 * The stop nudge's reason: the folders the turn changed code in, a ready tag line for each (at the
 * level the edit hint suggests: {@link tagLevels}, the one part that reads the disk), and where to
 * append. Loaded only when a nudge is sent (the rules are in `nudge.ts`), so an idle turn never
 * loads the tag rules.
 *
 * @module
 */

import { type Library, scratchPathOf } from "../core/discover.ts";
import { dirnameOf } from "../core/paths.ts";
import { knowledgeLevelOf, packageFolderOf } from "../core/package_root.ts";
import { collectLibraryFiles } from "../core/walk.ts";
import { tagFolderOf, tagLineFor } from "../format/tag_folder.ts";

/** At most this many folders get their own tag line in the reason. */
export const MAX_NUDGE_FOLDERS = 6;

/**
 * The tag folders of changed files, in first-seen order, each once (pure). `levelOf` gives a
 * code folder's tag (by default the folder itself, or its nearest taggable ancestor); the Stop
 * hook gives the level the edit hint suggests too (`core/package_root.ts`).
 *
 * @example Usage
 * ```ts
 * import { changedTagFolders } from "./nudge_reason.ts";
 * import assert from "node:assert/strict";
 * const files = ["src/api/b.ts", "README.md", "src/api/a.ts", "src/ui/c.ts"];
 * assert.deepEqual(changedTagFolders(files), ["src/api", "global", "src/ui"]);
 * ```
 */
export function changedTagFolders(
  files: readonly string[],
  levelOf: (relDir: string) => string = tagFolderOf,
): string[] {
  return [...new Set(files.map((file) => levelOf(dirnameOf(file))))];
}

/**
 * A code folder's tag at the level where its knowledge belongs, as the edit hint suggests it
 * (`core/package_root.ts`): the nearest folder on its path with library files, else its package's
 * root, else the folder itself. Reads the library's mirror folders and the manifests on the path.
 *
 * @example Usage
 * ```ts
 * import { tagLevels } from "./nudge_reason.ts";
 * import assert from "node:assert/strict";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library/svc/core`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/_memory_library/svc/core/edge.md`, "- e");
 * const levelOf = tagLevels({ root: `${p}/_memory_library`, projectRoot: p, foundBy: "cwd" });
 * assert.equal(levelOf("svc/core/src/api"), "svc/core");
 * assert.equal(levelOf("web/ui"), "web/ui");
 * ```
 */
export function tagLevels(library: Library): (relDir: string) => string {
  return (relDir) =>
    tagFolderOf(
      knowledgeLevelOf(
        relDir,
        collectLibraryFiles(library.root, relDir),
        (dir) => packageFolderOf(library.projectRoot, dir),
      ),
    );
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
export function nudgeReason(
  files: readonly string[],
  library: Library,
  levelOf?: (relDir: string) => string,
): string {
  const folders = changedTagFolders(files, levelOf);
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
