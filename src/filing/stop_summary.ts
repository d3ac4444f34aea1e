/**
 * What the stop hook tells the user (the one `systemMessage` line) and writes to its log line.
 *
 * @module
 */

import { syncLogFields, syncMessages } from "../automemory/report.ts";
import type { MemoryScan, SyncReport } from "../automemory/sync.ts";
import type { LogValue } from "../core/log.ts";
import type { RouteReport } from "./report.ts";
import { plural } from "../core/words.ts";

/** The longest user message; the rest is cut with an ellipsis. */
export const MAX_MESSAGE_CHARS = 600;

/** What the auto-memory sync did, or why it failed (its entries then sync on a later turn). */
export type SyncOutcome = SyncReport & { error?: string };

/**
 * The one-line message for the user, or `""` when there is nothing worth saying: something was
 * filed, synced, newly kept back in scratch, or could not be written. Blocks kept on an earlier
 * turn (already marked in scratch) are not repeated every turn.
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
    if (report.duplicates > 0) {
      parts.push(`${plural(report.duplicates, "bullet")} already in the library`);
    }
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

function capped(message: string): string {
  return message.length > MAX_MESSAGE_CHARS
    ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`
    : message;
}

/** The message when a turn could file nothing at all (`why` says what to fix). */
export function nothingFiledMessage(why: string): string {
  return capped(`Librarian: nothing filed: ${why}`);
}

/** The log fields of a routing pass. */
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

/** The log fields of the auto-memory scan and sync. */
export function syncFields(
  scan: MemoryScan,
  sync: SyncOutcome | undefined,
): Record<string, LogValue> {
  return syncLogFields(scan, sync);
}

/** The message when the hook failed unexpectedly (`detail` names the error). */
export function failedMessage(detail: string): string {
  return capped(
    `Librarian: the stop hook failed (${detail}); what it did not file stays in scratch for the ` +
      "next turn",
  );
}
