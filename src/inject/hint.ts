/**
 * The just-in-time tagging hint (pure): when a file is first edited in a folder during a context
 * window, the injected context ends with one line giving the exact tag for that folder, so the
 * model can record a learning without recalling the reminder it saw at the start.
 *
 * Only edits (Edit, Write, MultiEdit, NotebookEdit) get it, once per folder per context window
 * (the ledger remembers the folders), inside the budget, and also when the folder has no library
 * files yet (then the hint is the whole output). `LIBRARIAN_HINT=off` turns it off.
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import { scratchPathOf } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf } from "../core/paths.ts";
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

/** The folder a hint would be about, and the scratch file it names. */
export interface HintTarget {
  folder: string;
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
 * assert.deepEqual(hintTarget("Edit", location, envFrom({})), { folder: "src", scratchPath });
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
  return { folder: hintFolderOf(location.relPath), scratchPath: scratchPathOf(location.library) };
}
