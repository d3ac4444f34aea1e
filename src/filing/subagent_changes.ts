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
 * One small JSON file per subagent under `<state>/subagent-changes/<session>/`; a note older than
 * a day is not taken (a session that never stopped again).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { safeId } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";

/** Notes older than this are dropped, not taken. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** At most this many files per note (the nudge names folders; provenance keeps the first 64). */
const MAX_FILES = 256;

function folderOf(state: string, sessionId: string): string {
  return joinPath(state, "subagent-changes", safeId(sessionId));
}

/**
 * Notes the project-relative code files a subagent changed, for its session's next Stop. Never
 * throws (a note that cannot be written loses only the nudge for those files).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { noteSubagentChanges, takeSubagentChanges } from "./subagent_changes.ts";
 * const state = Deno.makeTempDirSync();
 * noteSubagentChanges(state, "s1", "agent-1", ["src/a.ts"]);
 * noteSubagentChanges(state, "s1", "agent-2", ["src/b.ts", "src/a.ts"]);
 * assert.deepEqual(takeSubagentChanges(state, "s1"), ["src/a.ts", "src/b.ts"]);
 * assert.deepEqual(takeSubagentChanges(state, "s1"), [], "taken once");
 * ```
 */
export function noteSubagentChanges(
  state: string,
  sessionId: string,
  agentId: string,
  files: readonly string[],
): boolean {
  if (files.length === 0) return false;
  try {
    const folder = folderOf(state, sessionId);
    Deno.mkdirSync(folder, { recursive: true });
    const path = joinPath(folder, `${safeId(agentId)}.json`);
    writeTextAtomicSync(path, JSON.stringify({ files: files.slice(0, MAX_FILES) }));
    return true;
  } catch {
    return false;
  }
}

/**
 * The files the session's subagents changed since its last Stop took them, sorted, each once; each
 * note is claimed by renaming it first, so two Stops running at once take it once between them.
 * Never throws.
 */
export function takeSubagentChanges(state: string, sessionId: string, now = Date.now()): string[] {
  const folder = folderOf(state, sessionId);
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
