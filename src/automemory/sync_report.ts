/**
 * What the stop hook tells the user and logs about an auto-memory sync.
 *
 * @module
 */

import { plural } from "../core/words.ts";
import type { SyncReport } from "./sync.ts";
import { type MemoryScan, scanLogFields } from "./scan.ts";

/**
 * The parts of the user's one-line message about a sync (none when there is nothing to say):
 * entries synced or waiting for review, memories that could not be read, damaged records set
 * aside, why nothing was synced.
 *
 * @example Usage
 * ```ts
 * import { syncMessages } from "./sync_report.ts";
 * import assert from "node:assert/strict";
 *
 * const synced = [{ file: "a.md", name: "a", type: "feedback", mapped: "patterns" }];
 * assert.deepEqual(syncMessages({ synced, skipped: [], unchanged: 0 }), ["1 auto memory synced"]);
 * assert.deepEqual(syncMessages({ synced: [], skipped: [], unchanged: 0 }), []);
 * const skipped = [{ file: "b.md", why: "malformed" as const, detail: "a tab as indentation at line 2" }];
 * assert.deepEqual(syncMessages({ synced, skipped, unchanged: 0 }), [
 *   "1 auto memory synced",
 *   "auto memory b.md not synced: its front matter is not read (a tab as indentation at line 2)",
 * ]);
 * ```
 */
export function syncMessages(sync: SyncReport | undefined): string[] {
  if (!sync) return [];
  const parts: string[] = [];
  const n = sync.synced.length;
  if (n > 0 && sync.mode === "review") {
    parts.push(
      `${plural(n, "auto memory awaits", "auto memories await")} review in scratch ` +
        "(edit, then `librarian route --accept`)",
    );
  } else if (n > 0) parts.push(`${plural(n, "auto memory", "auto memories")} synced`);
  for (const damaged of sync.damaged ?? []) {
    const where = damaged.setAside ? `; set aside as ${damaged.setAside}` : "";
    parts.push(`auto-memory sync record was damaged (${damaged.reason})${where}; rebuilt`);
  }
  parts.push(...unreadable(sync.skipped));
  if (sync.warning && (n > 0 || sync.error)) parts.push(`${sync.warning}; using sync`);
  if (sync.error) parts.push(`auto memory not synced: ${sync.error}`);
  else if (sync.waiting) {
    parts.push(
      `${
        plural(sync.waiting, "more auto memory waits", "more auto memories wait")
      } for the next turn`,
    );
  }
  return parts;
}

/**
 * The memories that could not be read (malformed front matter, a file too large), named once:
 * the sync records them, so they are named again only when they change.
 */
function unreadable(skipped: SyncReport["skipped"]): string[] {
  const bad = skipped.filter((s) => s.why === "malformed" || s.why === "too-large");
  const first = bad[0];
  if (!first) return [];
  if (bad.length > 1) {
    const names = bad.map((s) => s.file).join(", ");
    return [
      `${bad.length} auto memories not synced (front matter not read or file too large): ${names}`,
    ];
  }
  const why = first.why === "too-large"
    ? "the file is too large"
    : `its front matter is not read (${first.detail ?? "malformed"})`;
  return [`auto memory ${first.file} not synced: ${why}`];
}

/**
 * The log fields of a scan and its sync (absent when there is nothing to say).
 *
 * @example Usage
 * ```ts
 * import { syncLogFields } from "./sync_report.ts";
 * import assert from "node:assert/strict";
 *
 * const fields = syncLogFields({ dirs: ["/m"], changed: [], stale: [], mode: "review" }, undefined);
 * assert.equal(fields.memory_dirs, 1);
 * assert.equal(fields.memory_mode, "review");
 * ```
 */
export function syncLogFields(
  scan: MemoryScan,
  sync: SyncReport | undefined,
): Record<string, string | number | undefined> {
  const skipped = sync?.skipped.map((s) => `${s.file}:${s.why}`).join(",");
  return {
    ...scanLogFields(scan),
    synced: sync?.synced.length || undefined,
    memory_skipped: skipped || undefined,
    memory_damaged: sync?.damaged?.map((d) => d.reason).join(",") || undefined,
    memory_error: sync?.error,
    memory_waiting: sync?.waiting,
  };
}
