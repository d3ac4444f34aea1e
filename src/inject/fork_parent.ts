/**
 * A forked session's parent, whose context window it inherits (`--resume <id> --fork-session`):
 * the fork holds its parent's conversation under a new session id, so its ledger starts as a copy
 * of the parent's and nothing the parent was sent is sent again.
 *
 * Neither client names the parent to the fork's hooks, and the fork's transcript is not written
 * yet when they run (both observed with the real CLIs), so the parent is found among the other
 * sessions of the project's transcript folder (`dirname(transcript_path)`):
 * - Claude Code 2.1.332 starts the fork as SessionStart `source: "fork"` with
 *   `seconds_since_last_response`: the parent is the session whose transcript was last written
 *   right after that response (its transcript's modification time closest after it).
 * - Claude Code 2.1.197 starts it as `resume` under the parent's id (recorded in the parent's
 *   ledger as a `start:resume-…@<ms>` event), then sends the prompt under the new id: the parent
 *   is the session of the folder whose ledger recorded a resume start within the last minute. Its
 *   resumed conversation holds the parent's start and prompt contexts but not the contexts that
 *   came with tool results (observed), so only the former are inherited.
 *
 * @module
 */

import { basenameOf, dirnameOf, joinPath, normalizePath } from "../core/paths.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { loadLedger } from "./ledger.ts";
import type { Ledger } from "./ledger_format.ts";

/** A resume start this recent (ms) may be the parent of a session that starts without one. */
export const RESUME_WINDOW_MS = 60_000;

/** How far (ms) before the parent's last response its transcript may have been written last. */
const WRITE_SLACK_MS = 2_000;

/** Another session of the transcript folder and its transcript's modification time. */
export interface SessionFile {
  id: string;
  mtimeMs: number;
}

/**
 * The session last written right after the moment `secondsSince` before `now` (pure): the one
 * whose transcript's modification time is the earliest at or after it (less a little slack).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { parentByLastResponse } from "./fork_parent.ts";
 * const files = [{ id: "old", mtimeMs: 1_000 }, { id: "parent", mtimeMs: 95_500 }, { id: "busy", mtimeMs: 99_000 }];
 * assert.equal(parentByLastResponse(files, 100_000, 5), "parent");
 * assert.equal(parentByLastResponse(files, 100_000, 0.5), "busy");
 * assert.equal(parentByLastResponse([{ id: "old", mtimeMs: 1_000 }], 100_000, 5), undefined);
 * ```
 */
export function parentByLastResponse(
  files: readonly SessionFile[],
  now: number,
  secondsSince: number,
): string | undefined {
  const responded = now - secondsSince * 1000;
  const after = files.filter((f) => f.mtimeMs >= responded - WRITE_SLACK_MS - 1000);
  after.sort((a, b) => a.mtimeMs - b.mtimeMs);
  return after[0]?.id;
}

/**
 * The time (ms) of the latest resume start a ledger recorded (`start:resume-<size>@<ms>`), or
 * `undefined` (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastResumeStart } from "./fork_parent.ts";
 * assert.equal(lastResumeStart(["start:startup-0@5", "start:resume-800@90", "tool:t"]), 90);
 * assert.equal(lastResumeStart(["start:startup-0@5"]), undefined);
 * ```
 */
export function lastResumeStart(events: readonly string[]): number | undefined {
  let latest: number | undefined;
  for (const event of events) {
    const match = /^start:resume-\d+@(\d+)$/.exec(event);
    if (match) latest = Math.max(latest ?? 0, Number(match[1]));
  }
  return latest;
}

/** The other sessions of the folder holding `transcriptPath`, newest transcript first. */
function otherSessions(transcriptPath: unknown, ownId: string): SessionFile[] {
  if (typeof transcriptPath !== "string" || transcriptPath === "") return [];
  const folder = dirnameOf(normalizePath(transcriptPath));
  const found: SessionFile[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
      const id = basenameOf(entry.name).slice(0, -".jsonl".length);
      if (id === ownId || id === "") continue;
      try {
        found.push({
          id,
          mtimeMs: Deno.statSync(joinPath(folder, entry.name)).mtime?.getTime() ?? 0,
        });
      } catch {
        // gone meanwhile
      }
      if (found.length >= 2000) break; // a bound on a huge folder
    }
  } catch {
    return [];
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** Whether a ledger has recorded nothing yet (a session's first hook). */
export function isUntouched(ledger: Ledger): boolean {
  return !ledger.reminded && ledger.events.length === 0 && Object.keys(ledger.files).length === 0;
}

/**
 * The session a fork was made from, or `undefined` when none can be told (never this session).
 * For SessionStart `fork` by the last response's time; for another event (the first of a session
 * that had no start of its own) by a resume start recorded within {@link RESUME_WINDOW_MS}.
 */
export function findForkParent(
  event: HookEvent,
  state: string,
  now: number = Date.now(),
): string | undefined {
  const own = event.session_id;
  if (!own) return undefined;
  const sessions = otherSessions(event.transcript_path, own);
  if (event.hook_event_name === "SessionStart") {
    const since = event.seconds_since_last_response;
    if (typeof since !== "number" || !Number.isFinite(since) || since < 0) return undefined;
    return parentByLastResponse(sessions, now, since);
  }
  let best: { id: string; at: number } | undefined;
  for (const session of sessions.slice(0, 50)) {
    const at = lastResumeStart(loadLedger(state, { sessionId: session.id }).ledger.events);
    if (at === undefined || now - at > RESUME_WINDOW_MS || at > now + 1000) continue;
    if (!best || at > best.at) best = { id: session.id, at };
  }
  return best?.id;
}

/**
 * A fork's ledger: what its parent's window was sent, reminded and held, with no events of its
 * own (pure). With `rootOnly` (the library root folder), only what a resumed conversation keeps
 * on Claude Code 2.1.197: the session-start and prompt contexts (the root files, the reminder)
 * and tool results (holds); it drops the contexts that came with tool results (folder files,
 * hints), so those are sent again.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { inheritedLedger } from "./fork_parent.ts";
 * const files = { "/l/tech.md": "1:2:ab", "/l/src/edge.md": "3:4:cd" };
 * const parent = { files, reminded: true, events: ["tool:t"], held: ["/p/src"], hinted: ["src"] };
 * assert.deepEqual(inheritedLedger(parent), { files, reminded: true, events: [], hinted: ["src"], held: ["/p/src"] });
 * assert.deepEqual(inheritedLedger(parent, "/l"), {
 *   files: { "/l/tech.md": "1:2:ab" }, reminded: true, events: [], held: ["/p/src"],
 * });
 * ```
 */
export function inheritedLedger(parent: Ledger, rootOnly?: string): Ledger {
  const files = rootOnly === undefined ? { ...parent.files } : Object.fromEntries(
    Object.entries(parent.files).filter(([path]) => dirnameOf(path) === rootOnly),
  );
  const inherited: Ledger = { files, reminded: parent.reminded, events: [] };
  if (parent.hinted && rootOnly === undefined) inherited.hinted = [...parent.hinted];
  if (parent.held) inherited.held = [...parent.held];
  if (parent.recent && rootOnly === undefined) inherited.recent = [...parent.recent];
  return inherited;
}
