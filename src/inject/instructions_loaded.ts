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
 * reported.
 *
 * @module
 */

import { isLibrary, lookUpLibraryForSession } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { relativeInside, resolveLocalPath } from "../core/paths.ts";
import { fingerprintsOf } from "./native_sources.ts";
import { decideOnce, ledgerKeyOf, type Outcome, windowStateDir } from "./window.ts";

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
  const loaded = fingerprintsOf([{ relPath: rel, label: rel, absPath: path }]);
  if (Object.keys(loaded).length === 0) return { result: "unreadable", file: rel, reason };
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
