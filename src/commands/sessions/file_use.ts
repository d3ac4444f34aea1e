/**
 * Which library files are used (pure): from the inject side's ledgers, per library file, how many
 * sessions it reached in the last days, when it last did, and the files never delivered at all.
 *
 * @module
 */

import type { SessionLedgers } from "./ledgers.ts";

/** One library file's use. */
export interface FileUse {
  /** Library-relative path. */
  path: string;
  /** Sessions whose windows were sent it and that were active within the period. */
  recentSessions: number;
  /** Sessions (in the ledgers kept) that were ever sent it. */
  sessions: number;
  /** The newest write of a ledger that holds it (`null`: never delivered). */
  last: Date | null;
}

/**
 * The use of each of `files` (library-relative), given the sessions' ledgers, most used first
 * (never delivered last, by path).
 *
 * @example Usage
 * ```ts
 * import { fileUse } from "./file_use.ts";
 * import assert from "node:assert/strict";
 *
 * const now = new Date("2026-12-02T00:00:00Z");
 * const window = (files: string[], day: string) => ({
 *   window: "main", reminded: true, held: [], modified: new Date(day),
 *   files: Object.fromEntries(files.map((f) => [`/lib/${f}`, "1:2:h"])),
 * });
 * const sessions = [
 *   { session: "a", stateDir: "/s", lastActive: null, windows: [window(["tech.md", "src/edge.md"], "2026-12-01")] },
 *   { session: "b", stateDir: "/s", lastActive: null, windows: [window(["tech.md"], "2026-09-01")] },
 * ];
 * const use = fileUse("/lib", ["tech.md", "src/edge.md", "old/edge.md"], sessions, now, 30);
 * assert.deepEqual(use.map((u) => [u.path, u.recentSessions, u.sessions]), [
 *   ["tech.md", 1, 2], ["src/edge.md", 1, 1], ["old/edge.md", 0, 0],
 * ]);
 * assert.equal(use[2]!.last, null);
 * ```
 */
export function fileUse(
  libraryRoot: string,
  files: readonly string[],
  sessions: readonly SessionLedgers[],
  now: Date,
  days: number,
): FileUse[] {
  const since = now.getTime() - days * 86_400_000;
  const prefix = libraryRoot.replace(/\/+$/, "") + "/";
  const use = new Map<string, FileUse>(
    files.map((path) => [path, { path, recentSessions: 0, sessions: 0, last: null }]),
  );
  for (const session of sessions) {
    const reached = new Map<string, Date | null>();
    for (const window of session.windows) {
      for (const abs of Object.keys(window.files)) {
        if (!abs.startsWith(prefix)) continue;
        const path = abs.slice(prefix.length);
        const before = reached.get(path);
        const at = window.modified;
        if (before === undefined || (at !== null && (before === null || at > before))) {
          reached.set(path, at);
        }
      }
    }
    for (const [path, at] of reached) {
      const entry = use.get(path);
      if (entry === undefined) continue; // a file since deleted
      entry.sessions++;
      if (at !== null && at.getTime() >= since) entry.recentSessions++;
      if (at !== null && (entry.last === null || at > entry.last)) entry.last = at;
    }
  }
  return [...use.values()].sort((a, b) =>
    b.recentSessions - a.recentSessions || b.sessions - a.sessions ||
    (b.last?.getTime() ?? 0) - (a.last?.getTime() ?? 0) || a.path.localeCompare(b.path)
  );
}
