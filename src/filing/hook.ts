/**
 * `librarian stop`: the Stop hook, run at the end of every assistant turn.
 *
 * 1. Auto-memory sync: new or edited Claude Code memories (not `user`) become scratch blocks.
 * 2. Routing: every tagged scratch block is filed into `_memory_library/<path>/<type>.md`.
 *
 * Cheap when there is nothing to do (no scratch content, no changed memory file: a few `stat`
 * calls, no YAML parser, no lock). Safe when several run at once (one lock per library).
 * Prints at most one `{"systemMessage": ...}` line for the user, never a decision or context
 * that would continue the turn, and always exits 0.
 *
 * @module
 */

import { findLibraryForSession, type Library, scratchPathOf } from "../core/discover.ts";
import { type EnvReader, logFile, processEnv } from "../core/env.ts";
import {
  HookInputError,
  parseHookEvent,
  readStdinTextSync,
  writeSystemMessage,
} from "../core/hook_io.ts";
import { appendLog, elapsedMs, type LogValue } from "../core/log.ts";
import {
  type MemoryScan,
  scanAutoMemory,
  syncAutoMemory,
  type SyncReport,
} from "../automemory/sync.ts";
import type { RouteReport } from "./route.ts";

/** The longest user message; the rest is cut with an ellipsis. */
export const MAX_MESSAGE_CHARS = 600;
/**
 * The largest scratch one turn files (a larger one is left for `librarian route`), so a turn
 * stays well inside the hook's timeout in hooks/hooks.json.
 */
export const MAX_SCRATCH_BYTES = 4_000_000;
/** The most target files one turn writes; blocks for further files wait for the next turn. */
export const MAX_TARGETS_PER_TURN = 500;

/** The time of this run: `LIBRARIAN_NOW` (ISO time, for tests) when valid, else now. */
export function nowFrom(env: EnvReader): Date {
  const raw = env("LIBRARIAN_NOW")?.trim();
  if (raw) {
    const date = new Date(raw);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

/** True when scratch exists and holds more than whitespace (read only when it is small). */
export function scratchHasContent(library: Library): boolean {
  const path = scratchPathOf(library);
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch {
    return false;
  }
  if (size === 0) return false;
  if (size > 4096) return true;
  try {
    return Deno.readTextFileSync(path).replace(/^\uFEFF/, "").trim() !== "";
  } catch {
    return true; // let the routing pass report what is wrong with it
  }
}

/** What the auto-memory sync did, or why it failed (its entries then sync on a later turn). */
type SyncOutcome = SyncReport & { error?: string };

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

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
  if (sync && sync.synced.length > 0) {
    parts.push(`${plural(sync.synced.length, "auto memory", "auto memories")} synced`);
  }
  if (sync?.error) parts.push(`auto memory not synced: ${sync.error}`);
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
    if (report.status === "unreadable" && report.error) {
      parts.push(`${report.error}; nothing filed`);
    } else if (report.error) parts.push(report.error);
  }
  if (parts.length === 0) return "";
  const message = `Librarian: ${parts.join("; ")}`;
  return message.length > MAX_MESSAGE_CHARS
    ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`
    : message;
}

function routeFields(report: RouteReport): Record<string, LogValue> {
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

function syncFields(
  scan: MemoryScan,
  sync: SyncOutcome | undefined,
): Record<string, LogValue> {
  const skipped = sync?.skipped.map((s) => `${s.file}:${s.why}`).join(",");
  return {
    memory_dirs: scan.dirs.length || undefined,
    synced: sync?.synced.length || undefined,
    memory_skipped: skipped || undefined,
    memory_error: sync?.error,
  };
}

async function onStop(
  cwd: string | undefined,
  env: EnvReader,
): Promise<{ fields: Record<string, LogValue>; message: string }> {
  const library = findLibraryForSession(cwd, env);
  if (!library) return { fields: { result: "no-library" }, message: "" };
  const scan = scanAutoMemory(library, env);
  const memoryWork = scan.changed.length > 0 || scan.stale.length > 0;
  if (!memoryWork && !scratchHasContent(library)) {
    return { fields: { result: "nothing-to-do", ...syncFields(scan, undefined) }, message: "" };
  }
  const [{ coordinationPaths, routeLocked }, { acquireLock, LockTimeoutError, lockTimeoutFrom }] =
    await Promise.all([import("./route.ts"), import("./lock.ts")]);
  const timeoutMs = lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  let lock;
  try {
    lock = await acquireLock(coordinationPaths(library, env).lock, { timeoutMs });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    // Another run is busy (or stuck): everything stays for the next turn.
    return { fields: { result: "locked", detail: error.message }, message: "" };
  }
  let sync: SyncOutcome | undefined;
  let report: RouteReport;
  try {
    if (memoryWork) {
      try {
        sync = await syncAutoMemory(library, env, scan);
      } catch (error) {
        // Records are written after scratch: whatever was not synced is synced on a later turn.
        sync = { synced: [], skipped: [], unchanged: 0, error: errorText(error) };
      }
    }
    report = await routeLocked(library, {
      env,
      now: nowFrom(env),
      maxScratchBytes: MAX_SCRATCH_BYTES,
      maxTargets: MAX_TARGETS_PER_TURN,
    });
    report.lockWaitMs = lock.waitedMs;
  } finally {
    lock.release();
  }
  return {
    fields: { result: report.status, ...syncFields(scan, sync), ...routeFields(report) },
    message: summarize(report, sync),
  };
}

/** Runs the stop hook on the event read from stdin. Always resolves to exit code 0. */
export async function run(_args: string[], env: EnvReader = processEnv()): Promise<number> {
  let fields: Record<string, LogValue>;
  let session: string | undefined;
  let active: boolean | undefined;
  try {
    const event = parseHookEvent(readStdinTextSync());
    session = event.session_id?.slice(0, 8);
    // Routing is idempotent, so a turn continued by another Stop hook is handled like any other;
    // this hook never continues a turn itself (no decision, no additionalContext).
    active = event.stop_hook_active === true || undefined;
    const outcome = await onStop(event.cwd, env);
    fields = outcome.fields;
    if (outcome.message) writeSystemMessage(outcome.message);
  } catch (error) {
    const detail = error instanceof HookInputError ? error.message : errorText(error);
    fields = { result: error instanceof HookInputError ? "bad-input" : "error", detail };
  }
  appendLog(logFile(env), "stop", {
    ...fields,
    session,
    stop_hook_active: active,
    ms: elapsedMs(),
  });
  return 0;
}
