/**
 * What subagents changed, carried to their session's next Stop: a subagent's Write, Edit or Bash
 * write is in its own transcript (`agent_transcript_path`), never in its parent's turn. SubagentStop
 * notes the code files it changed; the parent's next Stop takes them (once: they are removed as they
 * are read) and counts them with its own turn, for the nudge and for provenance.
 *
 * That Stop is the same turn's for a subagent in the foreground (2.1.197, or `run_in_background:
 * false`). On 2.1.332 a subagent runs in the background by default: its parent's Stop comes before
 * its writes, and its result arrives as a `<task-notification>` prompt whose turn ends with another
 * Stop, which takes them.
 *
 * One small JSON file per subagent under `<state>/subagent-changes/<session>/`, written at
 * SubagentStop (`subagent_note.ts`, loaded only then: every Stop reads here, and its start-up
 * graph stays without the atomic writer); a note older than a day is not taken (a session that
 * never stopped again).
 *
 * @module
 */

import { safeId } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";

/** Notes older than this are dropped, not taken. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** At most this many files per note (the nudge names folders; provenance keeps the first 64). */
export const MAX_FILES = 256;

/**
 * The folder of a session's subagent notes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { subagentChangesFolder } from "./subagent_changes.ts";
 * assert.equal(subagentChangesFolder("/state", "s1"), "/state/subagent-changes/s1");
 * ```
 */
export function subagentChangesFolder(state: string, sessionId: string): string {
  return joinPath(state, "subagent-changes", safeId(sessionId));
}

/**
 * The files the session's subagents changed since its last Stop took them, sorted, each once; each
 * note is claimed by renaming it first, so two Stops running at once take it once between them.
 * Never throws.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { takeSubagentChanges } from "./subagent_changes.ts";
 * assert.deepEqual(takeSubagentChanges(Deno.makeTempDirSync(), "s1"), [], "none noted");
 * ```
 */
export function takeSubagentChanges(state: string, sessionId: string, now = Date.now()): string[] {
  const folder = subagentChangesFolder(state, sessionId);
  const files = new Set<string>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(folder)];
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const path = joinPath(folder, entry.name);
    const claimed = `${path}.${crypto.randomUUID()}.taken`;
    try {
      Deno.renameSync(path, claimed);
    } catch {
      continue; // another Stop took it
    }
    try {
      const fresh = now - (Deno.statSync(claimed).mtime?.getTime() ?? 0) <= MAX_AGE_MS;
      const note = JSON.parse(Deno.readTextFileSync(claimed)) as { files?: unknown };
      if (fresh && Array.isArray(note.files)) {
        for (const file of note.files) if (typeof file === "string") files.add(file);
      }
    } catch {
      // a damaged note: nothing known
    } finally {
      try {
        Deno.removeSync(claimed);
      } catch {
        // already gone
      }
    }
  }
  return [...files].sort();
}
