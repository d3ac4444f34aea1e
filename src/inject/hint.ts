/**
 * The just-in-time tagging hint: when a file is first edited in a folder during a context window,
 * the injected context ends with one line giving the exact tag to use, so the model can record a
 * learning without recalling the reminder it saw at the start. The tag is at the level where the
 * knowledge belongs ({@link suggestedTagFolder}): the nearest folder with library files, else the
 * package root, else the file's folder.
 *
 * Only edits (Edit, Write, MultiEdit, NotebookEdit) get it, once per suggested tag per context
 * window (the ledger remembers the tags given and the folders handled, so the level is looked up
 * once per folder), inside the budget, and also when the folder has no library
 * files yet (then the hint is the whole output). `LIBRARIAN_HINT=off` turns it off.
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import { scratchPathOf } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf } from "../core/paths.ts";
import { knowledgeLevelOf, packageFolderOf } from "../core/package_root.ts";
import type { LibraryFile } from "../core/walk.ts";
import { GLOBAL_PATH } from "../format/tag_rules.ts";
import { tagFolderOf, tagLineFor } from "../format/tag_folder.ts";
import type { FileLocation } from "./file_context.ts";

/** The tools whose first use in a folder gets the hint (reads do not). */
export const HINT_TOOLS: ReadonlySet<string> = new Set([
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
]);

/**
 * Whether hints are on (`LIBRARIAN_HINT=off`, `0`, `false` or `no` turns them off).
 *
 * @example Usage
 * ```ts
 * import { hintEnabled } from "./hint.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * assert.equal(hintEnabled(envFrom({})), true);
 * assert.equal(hintEnabled(envFrom({ LIBRARIAN_HINT: " OFF " })), false);
 * assert.equal(hintEnabled(envFrom({ LIBRARIAN_HINT: "no" })), false);
 * ```
 */
export function hintEnabled(env: EnvReader): boolean {
  const value = env("LIBRARIAN_HINT")?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false" || value === "no");
}

/**
 * The tag folder a project-relative file's hint is about (its folder, or the nearest taggable).
 *
 * @example Usage
 * ```ts
 * import { hintFolderOf } from "./hint.ts";
 * import assert from "node:assert/strict";
 * assert.equal(hintFolderOf("src/api/billing/invoice.ts"), "src/api/billing");
 * assert.equal(hintFolderOf("README.md"), "global");
 * ```
 */
export function hintFolderOf(relPath: string): string {
  return tagFolderOf(dirnameOf(relPath));
}

/**
 * The tag folder a hint suggests for a project-relative file, at the level where its knowledge
 * belongs (`core/package_root.ts`): the nearest folder on its path that already has library files
 * (beyond the root's), else its package's root, else its own folder.
 *
 * @example Usage
 * ```ts
 * import { suggestedTagFolder } from "./hint.ts";
 * import assert from "node:assert/strict";
 * const file = (relPath: string) => ({ relPath, label: relPath, absPath: `/l/${relPath}` });
 * const path = "services/core/src/controllers/user.ts";
 * assert.equal(suggestedTagFolder(path, [file("services/core/patterns.md"), file("tech.md")], () => null), "services/core");
 * assert.equal(suggestedTagFolder(path, [file("tech.md")], () => "services/core"), "services/core");
 * assert.equal(suggestedTagFolder(path, [], () => null), "services/core/src/controllers");
 * ```
 */
export function suggestedTagFolder(
  relPath: string,
  files: readonly LibraryFile[],
  packageFolder: (relDir: string) => string | null,
): string {
  return tagFolderOf(knowledgeLevelOf(dirnameOf(relPath), files, packageFolder));
}

/**
 * The hint for a tag folder.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   hintText("src/api/billing", "/r/_memory_library/.scratch.md"),
 *   "[Librarian] Learned something non-obvious about src/api/billing? Add to " +
 *     "/r/_memory_library/.scratch.md:\n## [TAG: src/api/billing, type: edge]",
 * );
 * ```
 */
export function hintText(folder: string, scratchPath: string): string {
  // Quoted as data: a folder name cannot start a line of its own.
  const about = folder === GLOBAL_PATH ? "the project root" : encodeName(folder);
  return `[Librarian] Learned something non-obvious about ${about}? Add to ` +
    `${encodeName(scratchPath)}:\n${tagLineFor(encodeName(folder))}`;
}

/**
 * The text a context ends with for `hint` (a blank line, then the hint; nothing without one). It
 * is rendered inside the budget, after the line naming what did not fit.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(hintEnding("H"), "\n\nH");
 * assert.equal(hintEnding(undefined), "");
 * ```
 */
export function hintEnding(hint: string | undefined): string {
  return hint === undefined ? "" : `\n\n${hint}`;
}

/** The folder a hint would be about, the tag it suggests, and the scratch file it names. */
export interface HintTarget {
  /** The edited file's own folder as a tag: the ledger's key for "this folder was handled". */
  folder: string;
  /**
   * The tag the hint suggests, at its level ({@link suggestedTagFolder}); looked up on first
   * call (it may read the disk), so a folder already handled costs nothing.
   */
  tag: () => string;
  scratchPath: string;
}

/**
 * Where a tool's touch could get a hint: an edit tool, hints on, and a file in a project with a
 * library (whether or not its folder has library files); `undefined` otherwise.
 *
 * @example Usage
 * ```ts
 * import { hintTarget } from "./hint.ts";
 * import { envFrom } from "../core/env.ts";
 * import { locateFileContext } from "./file_context.ts";
 * import assert from "node:assert/strict";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library`);
 * const location = locateFileContext(`${p}/src/a.ts`, { env: envFrom({}) });
 * const scratchPath = `${p}/_memory_library/.scratch.md`;
 * const target = hintTarget("Edit", location, envFrom({}));
 * assert.equal(target?.folder, "src");
 * assert.equal(target?.tag(), "src");
 * assert.equal(target?.scratchPath, scratchPath);
 * assert.equal(hintTarget("Read", location, envFrom({})), undefined);
 * ```
 */
export function hintTarget(
  tool: string,
  location: FileLocation,
  env: EnvReader,
): HintTarget | undefined {
  if (!HINT_TOOLS.has(tool) || !hintEnabled(env)) return undefined;
  const usable = location.kind === "located" || location.reason === "no-library-files";
  if (!usable || !location.library || location.relPath === undefined) return undefined;
  const { projectRoot } = location.library;
  const relPath = location.relPath;
  const files = location.kind === "located" ? location.files : [];
  let tag: string | undefined;
  return {
    folder: hintFolderOf(relPath),
    tag: () =>
      tag ??= suggestedTagFolder(
        relPath,
        files,
        (dir) => packageFolderOf(projectRoot, dir, location.listings),
      ),
    scratchPath: scratchPathOf(location.library),
  };
}
