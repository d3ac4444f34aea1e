/**
 * The client's own report of what it loaded (Claude Code's InstructionsLoaded event): a
 * `CLAUDE.md` or rule file it put into the context window by itself, at session start, on a
 * nested traversal after a Read (2.1.197) or a Read, a Write or some shell reads (2.1.332), or on a
 * `paths:` glob match. The file is recorded in the window's ledger as it is on disk, so the inject
 * hook never sends it again in that window (`native_sources.ts`). Nothing is sent: the event takes
 * no context.
 *
 * Observed with the real CLI (2.1.197 and 2.1.332): `file_path` (absolute), `memory_type`,
 * `load_reason` (`session_start`, `nested_traversal`, `path_glob_match`, ...), `globs`,
 * `trigger_file_path`. The root `AGENTS.md` that 2.1.332 loads (its built-in plugin) is not
 * reported. A rule `librarian export --format claude-rules` wrote also records the library files it
 * holds as they are now (`loaded_exports.ts`): they came into the window with it.
 *
 * @module
 */

import { isLibrary, type Library, lookUpLibraryForSession } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { basenameOf, dirnameOf, relativeInside, resolveLocalPath } from "../core/paths.ts";
import { collectLibraryFiles, type LibraryFile } from "../core/walk.ts";
import { fingerprintsOf, isGeneratedFile } from "./native_sources.ts";
import { heldByExports } from "./loaded_exports.ts";
import { decideOnce, ledgerKeyOf, type Outcome, windowStateDir } from "./window.ts";

/**
 * The library files a reported file holds when `librarian export` wrote it (loaded_exports.ts):
 * those of the folder the load was for (the touched file's, or the `AGENTS.md`'s own; the library
 * root's for a rule loaded at session start) that it holds as they are now.
 */
function heldByExport(reported: LibraryFile, library: Library, event: HookEvent): LibraryFile[] {
  if (!isGeneratedFile(reported.absPath)) return [];
  const raw = event.trigger_file_path;
  const trigger = typeof raw === "string" ? resolveLocalPath(raw) : null;
  const touched = trigger === null ? null : relativeInside(trigger, library.projectRoot);
  const folder = touched !== null && touched !== ""
    ? dirnameOf(touched)
    : basenameOf(reported.relPath) === "AGENTS.md"
    ? dirnameOf(reported.relPath)
    : "";
  return heldByExports(collectLibraryFiles(library.root, folder), [reported]);
}

/**
 * Records the file an InstructionsLoaded event reports in its context window's ledger, when it
 * lies in the project of a library (anything else is no source of the Librarian's).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { onInstructionsLoaded } from "./instructions_loaded.ts";
 * const outcome = onInstructionsLoaded({ hook_event_name: "InstructionsLoaded" }, envFrom({}));
 * assert.equal(outcome.result, "no-file-path");
 * ```
 */
export function onInstructionsLoaded(event: HookEvent, env: EnvReader): Outcome {
  const raw = event.file_path;
  const path = typeof raw === "string" ? resolveLocalPath(raw) : null;
  if (path === null) return { result: "no-file-path" };
  const library = lookUpLibraryForSession(event.cwd, env);
  if (!isLibrary(library)) return { result: "no-library" };
  const rel = relativeInside(path, library.projectRoot);
  const reason = typeof event.load_reason === "string" ? event.load_reason : undefined;
  if (rel === null || rel === "") return { result: "outside-project", file: path, reason };
  const reported = { relPath: rel, label: rel, absPath: path };
  const own = fingerprintsOf([reported]);
  if (Object.keys(own).length === 0) return { result: "unreadable", file: rel, reason };
  const loaded = { ...own, ...fingerprintsOf(heldByExport(reported, library, event)) };
  return decideOnce(
    event,
    env,
    windowStateDir(env),
    ledgerKeyOf(event),
    (ledger) =>
      ledger.files[path] === loaded[path]
        ? { outcome: { result: "already-recorded", file: rel, reason } }
        : { outcome: { result: "recorded", file: rel, reason }, record: { files: loaded } },
  );
}
