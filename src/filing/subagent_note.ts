/**
 * SubagentStop's note of the code files a subagent changed, for its session's next Stop, which
 * takes it (`subagent_changes.ts`). Loaded only at SubagentStop (`stop/steps/subagent_note_step.ts`).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { safeId } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { MAX_FILES, subagentChangesFolder } from "./subagent_changes.ts";

/**
 * Notes the project-relative code files a subagent changed, for its session's next Stop. Never
 * throws (a note that cannot be written loses only the nudge for those files).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { noteSubagentChanges } from "./subagent_note.ts";
 * import { takeSubagentChanges } from "./subagent_changes.ts";
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
    const folder = subagentChangesFolder(state, sessionId);
    Deno.mkdirSync(folder, { recursive: true });
    const path = joinPath(folder, `${safeId(agentId)}.json`);
    writeTextAtomicSync(path, JSON.stringify({ files: files.slice(0, MAX_FILES) }));
    return true;
  } catch {
    return false;
  }
}
