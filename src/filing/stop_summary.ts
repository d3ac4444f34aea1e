/**
 * What the stop hook tells the user (the one `systemMessage` line) and writes to its log line.
 *
 * @module
 */

import { syncLogFields, syncMessages } from "../automemory/sync_report.ts";
import type { SyncReport } from "../automemory/sync.ts";
import type { MemoryScan } from "../automemory/scan.ts";
import type { LogValue } from "../core/log.ts";
import type { RouteReport } from "./route_report.ts";
import type { KnownAt } from "./known.ts";
import { plural } from "../core/words.ts";

/** The longest user message; the rest is cut with an ellipsis. */
export const MAX_MESSAGE_CHARS = 600;

/** What the auto-memory sync did, or why it failed (its entries then sync on a later turn). */
export type SyncOutcome = SyncReport & { error?: string };

/**
 * The one-line message for the user, or `""` when there is nothing worth saying: something was
 * filed, synced, newly kept back in scratch, or could not be written. Blocks kept on an earlier
 * turn (already marked in scratch) are not repeated every turn.
 *
 * @example Usage
 * ```ts
 * import { summarize } from "./stop_summary.ts";
 * import { emptyReport } from "./route_report.ts";
 * import assert from "node:assert/strict";
 *
 * const report = { ...emptyReport("routed", "/lib/.scratch.md"), learnings: 2 };
 * report.targets = [{ target: "tech.md", added: 2, created: false }];
 * assert.equal(summarize(report, undefined), "Librarian: 2 learnings → tech.md");
 * assert.equal(summarize(emptyReport("empty", "/lib/.scratch.md"), undefined), "");
 * ```
 */
export function summarize(
  report: RouteReport | undefined,
  sync: SyncOutcome | undefined,
): string {
  const parts: string[] = [];
  parts.push(...syncMessages(sync));
  if (report) {
    if (report.learnings > 0) {
      const names = report.targets.map((t) => t.target);
      const where = names.length <= 3 ? names.join(", ") : plural(names.length, "file");
      parts.push(`${plural(report.learnings, "learning")} → ${where}`);
    }
    if (report.duplicates > 0) parts.push(alreadyKnown(report.known, report.duplicates));
    const newly = report.kept.filter((k) => k.newly);
    const secrets = newly.filter((k) => k.code === "secret");
    // Write failures are reported on their own below.
    const others = newly.filter((k) => k.code !== "secret" && k.code !== "write-failed");
    if (secrets.length > 0) {
      parts.push(
        `${plural(secrets.length, "block")} held in scratch (${secrets[0]!.reason}${
          secrets.length > 1 ? "; …" : ""
        })`,
      );
    }
    if (others.length > 0) {
      parts.push(
        `${others.length} kept in scratch (${others[0]!.reason}${others.length > 1 ? "; …" : ""})`,
      );
    }
    // A failure that persists is told once, like any block kept back (its marker is in scratch).
    const newlyFailed = new Set(
      newly.filter((k) => k.code === "write-failed").map((k) => k.reason),
    );
    for (const failure of report.failures) {
      const reason = `could not write ${failure.target}: ${failure.error}`;
      if (newlyFailed.has(reason)) parts.push(reason);
    }
    if (report.deferred > 0) {
      const verb = report.deferred === 1 ? "waits" : "wait";
      parts.push(`${plural(report.deferred, "block")} ${verb} for the next turn`);
    }
    parts.push(...report.notices);
    if (report.status === "failed" && report.error) {
      parts.push(`nothing filed: ${report.error}`);
    } else if (report.status === "unreadable" && report.error) {
      parts.push(`${report.error}; nothing filed`);
    } else if (report.error) parts.push(report.error);
  }
  if (parts.length === 0) return "";
  return capped(`Librarian: ${parts.join("; ")}`);
}

/** At most this many places are named for learnings already known. */
const MAX_KNOWN_NAMED = 3;

/**
 * The part of the message for learnings not filed because the library has them: how many, and
 * where (file and line, the first few).
 *
 * @example Usage
 * ```ts
 * import { alreadyKnown } from "./stop_summary.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(alreadyKnown([{ file: "tech.md", line: 4 }], 1), "1 learning already known (tech.md:4)");
 * const known = [1, 2, 3, 4].map((line) => ({ file: "src/edge.md", line }));
 * assert.equal(
 *   alreadyKnown(known, 4),
 *   "4 learnings already known (src/edge.md:1, src/edge.md:2, src/edge.md:3, …)",
 * );
 * ```
 */
export function alreadyKnown(known: readonly KnownAt[], count: number): string {
  const places = known.slice(0, MAX_KNOWN_NAMED).map((k) =>
    k.line > 0 ? `${k.file}:${k.line}` : k.file
  );
  const more = known.length > MAX_KNOWN_NAMED ? ", …" : "";
  const where = places.length > 0 ? ` (${places.join(", ")}${more})` : "";
  return `${plural(count, "learning")} already known${where}`;
}

function capped(message: string): string {
  return message.length > MAX_MESSAGE_CHARS
    ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`
    : message;
}

/**
 * The message when a turn could file nothing at all (`why` says what to fix).
 *
 * @example Usage
 * ```ts
 * import { nothingFiledMessage } from "./stop_summary.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nothingFiledMessage("no home folder"), "Librarian: nothing filed: no home folder");
 * assert.ok(nothingFiledMessage("x".repeat(2000)).length <= 600);
 * ```
 */
export function nothingFiledMessage(why: string): string {
  return capped(`Librarian: nothing filed: ${why}`);
}

/**
 * The log fields of a routing pass.
 *
 * @example Usage
 * ```ts
 * import { routeFields } from "./stop_summary.ts";
 * import { emptyReport } from "./route_report.ts";
 * import assert from "node:assert/strict";
 *
 * const fields = routeFields({ ...emptyReport("routed", "/lib/.scratch.md"), learnings: 3 });
 * assert.equal(fields.learnings, 3);
 * assert.equal(fields.dup, undefined);
 * ```
 */
export function routeFields(report: RouteReport): Record<string, LogValue> {
  return {
    routed: report.routed.length,
    learnings: report.learnings,
    files: report.targets.length,
    dup: report.duplicates || undefined,
    kept: report.kept.length || undefined,
    newly_kept: report.kept.filter((k) => k.newly).length || undefined,
    secrets: report.secretsHeld || undefined,
    empty: report.emptyDropped || undefined,
    recovered: report.recovered || undefined,
    deferred: report.deferred || undefined,
    failed: report.failures.length || undefined,
    error: report.error,
    lock_ms: report.lockWaitMs,
  };
}

/**
 * The log fields of the auto-memory scan and sync.
 *
 * @example Usage
 * ```ts
 * import { syncFields } from "./stop_summary.ts";
 * import assert from "node:assert/strict";
 *
 * const scan = { dirs: ["/memory"], changed: [], stale: [], mode: "review" as const };
 * const sync = { synced: [], skipped: [], unchanged: 0, error: "disk full" };
 * assert.deepEqual(syncFields(scan, sync), {
 *   memory_dirs: 1,
 *   memory_mode: "review",
 *   memory_warning: undefined,
 *   synced: undefined,
 *   memory_skipped: undefined,
 *   memory_damaged: undefined,
 *   memory_waiting: undefined,
 *   memory_error: "disk full",
 * });
 * ```
 */
export function syncFields(
  scan: MemoryScan,
  sync: SyncOutcome | undefined,
): Record<string, LogValue> {
  return syncLogFields(scan, sync);
}

/**
 * The message when the hook failed unexpectedly (`detail` names the error).
 *
 * @example Usage
 * ```ts
 * import { failedMessage } from "./stop_summary.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(failedMessage("disk full"), /^Librarian: the stop hook failed \(disk full\); /);
 * ```
 */
export function failedMessage(detail: string): string {
  return capped(
    `Librarian: the stop hook failed (${detail}); what it did not file stays in scratch for the ` +
      "next turn",
  );
}
