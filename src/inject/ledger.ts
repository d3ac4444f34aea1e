/**
 * The per-context-window ledger: which library files (and which versions of them) a session, or
 * a subagent inside it, has already been sent, so that each is sent once per context window.
 *
 * Layout: `<state>/ledgers/<session>/<agent or "main">.json`, with a lock file beside each
 * (`.lock`; the paths are made in `ledger_paths.ts`). Every decision runs inside
 * {@link openLedger}: lock, load, choose, record, release, so concurrent hook runs for one context
 * window (parallel tool calls, hooks wired twice) never send a file twice. `/clear` starts a new
 * session id, so a new ledger; after `/compact` the window's ledger is reset (`inject/start.ts`).
 * Session folders untouched for {@link LEDGER_MAX_AGE_MS} are pruned.
 *
 * The file format is versioned ({@link LEDGER_FORMAT}); a ledger of another version, one that
 * fails validation, or one over {@link MAX_LEDGER_BYTES} is read as empty (the caller logs why).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { joinPath } from "../core/paths.ts";
import { removeOlderThan } from "../core/prune.ts";
import { type HeldLock, takeLock } from "../core/lock.ts";
import {
  type Ledger,
  LEDGER_FORMAT,
  MAX_EVENTS,
  MAX_HELD,
  MAX_HINTED,
  MAX_RECENT,
  parseLedger,
} from "./ledger_format.ts";
import { type LedgerKey, ledgerLockPath, ledgerPath } from "./ledger_paths.ts";

/**
 * How long an inject run waits for its context window's lock by default; past it the run sends
 * nothing rather than risk sending twice.
 */
export const INJECT_LOCK_TIMEOUT_MS = 2_000;

/** Ledgers older than this are pruned. */
export const LEDGER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** A ledger file larger than this is discarded unread (a sane one is a few kilobytes). */
export const MAX_LEDGER_BYTES = 1_000_000;

/** A loaded ledger, and why it was read as empty when it was. */
export interface LoadedLedger {
  ledger: Ledger;
  /** Set when a ledger file existed but was discarded: too large, damaged, another version. */
  discarded?: string;
  /** The file's text as read (`""` when there was none, or it was not read): two loads that
   * read the same text hold the same ledger. */
  source: string;
}

/**
 * Loads a ledger; a missing file is an empty ledger, and so is one that is not a regular file (a
 * FIFO would block the read), larger than {@link MAX_LEDGER_BYTES} (never parsed for seconds),
 * or not a valid ledger of this version (`discarded` says which). Sync: it is on the hot path.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLedger } from "./ledger.ts";
 * const { ledger, discarded } = loadLedger(Deno.makeTempDirSync(), { sessionId: "new" });
 * assert.deepEqual(ledger.files, {});
 * assert.equal(discarded, undefined);
 * ```
 */
export function loadLedger(stateDir: string, key: LedgerKey): LoadedLedger {
  const path = ledgerPath(stateDir, key);
  let info: Deno.FileInfo;
  const none = (discarded?: string): LoadedLedger =>
    discarded === undefined
      ? { ledger: parseLedger("").ledger, source: "" }
      : { ledger: parseLedger("").ledger, discarded, source: "" };
  try {
    info = Deno.statSync(path);
  } catch {
    return none();
  }
  if (!info.isFile) return none("not a regular file");
  if (info.size > MAX_LEDGER_BYTES) {
    return none(`${info.size} bytes, over the ${MAX_LEDGER_BYTES}-byte limit`);
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    return none(error instanceof Error ? error.name : "unreadable");
  }
  const parsed = parseLedger(text);
  return parsed.problem === undefined ? { ledger: parsed.ledger, source: text } : {
    ledger: parsed.ledger,
    discarded: parsed.problem,
    source: text,
  };
}

/** What one decision adds to a ledger. */
export interface LedgerUpdate {
  /** Library file's absolute path → fingerprint of what the context window now has. */
  files?: Record<string, string>;
  /** The tagging reminder was given. */
  reminded?: boolean;
  /** The event handled (a tool use id, a prompt), so a second run of it sends nothing. */
  event?: string;
  /** Tag folders whose tagging hint was given. */
  hinted?: string[];
  /** Code folders (absolute) whose first write was held. */
  held?: string[];
  /** The recently touched folders (absolute, most recent first): replaces the list. */
  recent?: string[];
}

/** `older` then `newer`, each once, an entry named again moved to the end. */
function newestLast(older: readonly string[] = [], newer: readonly string[] = []): string[] {
  const again = new Set(newer);
  return [...older.filter((entry) => !again.has(entry)), ...again];
}

/**
 * Merges `update` into `ledger` (pure): the newest events last, at most {@link MAX_EVENTS}; the
 * newest hinted and held folders, at most {@link MAX_HINTED} and {@link MAX_HELD}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeLedger } from "./ledger.ts";
 * import { emptyLedger } from "./ledger_format.ts";
 * const merged = mergeLedger(emptyLedger(), { files: { "/l/a.md": "1:2:ab" }, event: "tool:t1" });
 * assert.deepEqual(merged.files, { "/l/a.md": "1:2:ab" });
 * assert.deepEqual(merged.events, ["tool:t1"]);
 * ```
 */
export function mergeLedger(
  ledger: Ledger,
  update: LedgerUpdate,
  maxEvents: number = MAX_EVENTS,
): Ledger {
  const events = update.event === undefined || ledger.events.includes(update.event)
    ? ledger.events
    : [...ledger.events, update.event].slice(-maxEvents);
  const merged: Ledger = {
    files: update.files ? { ...ledger.files, ...update.files } : ledger.files,
    reminded: ledger.reminded || update.reminded === true,
    events,
  };
  // past the caps the oldest make room: what was hinted or held last is what a next touch asks
  const hinted = newestLast(ledger.hinted, update.hinted).slice(-MAX_HINTED);
  if (hinted.length > 0) merged.hinted = hinted;
  const held = newestLast(ledger.held, update.held).slice(-MAX_HELD);
  if (held.length > 0) merged.held = held;
  const recent = update.recent ?? ledger.recent;
  if (recent && recent.length > 0) merged.recent = recent.slice(0, MAX_RECENT);
  return merged;
}

/** Writes `ledger` to its file, replacing it atomically. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLedger, saveLedger } from "./ledger.ts";
 * import { emptyLedger } from "./ledger_format.ts";
 * const state = Deno.makeTempDirSync();
 * saveLedger(state, { sessionId: "s" }, { ...emptyLedger(), reminded: true });
 * assert.equal(loadLedger(state, { sessionId: "s" }).ledger.reminded, true);
 * ```
 */
export function saveLedger(stateDir: string, key: LedgerKey, ledger: Ledger): void {
  writeTextAtomicSync(
    ledgerPath(stateDir, key),
    JSON.stringify({ version: LEDGER_FORMAT, ...ledger }),
  );
}

/** One context window's ledger, held under its lock until released. */
export interface OpenLedger extends Disposable {
  /** The ledger as loaded, then as recorded. */
  ledger: Ledger;
  /** Why the file on disk was read as empty, if it was. */
  discarded?: string;
  /** The file's text as loaded under the lock ({@link LoadedLedger.source}). */
  source: string;
  /** How long the lock took, ms. */
  waitedMs: number;
  /** Merges `update` in and writes the ledger (atomically). */
  record(update: LedgerUpdate): void;
  /** Replaces the ledger with `ledger` and writes it. */
  replace(ledger: Ledger): void;
  /** Releases the lock (idempotent). */
  release(): void;
}

/**
 * Locks one context window's ledger and loads it; `null` when the lock could not be had within
 * `timeoutMs` (the caller then sends nothing, and logs it).
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors creating the lock file
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLedger, openLedger } from "./ledger.ts";
 * const state = Deno.makeTempDirSync();
 * {
 *   using open = openLedger(state, { sessionId: "s" }, 100)!;
 *   open.record({ files: { "/l/a.md": "1:2:ab" } });
 * }
 * assert.deepEqual(loadLedger(state, { sessionId: "s" }).ledger.files, { "/l/a.md": "1:2:ab" });
 * ```
 */
export function openLedger(
  stateDir: string,
  key: LedgerKey,
  timeoutMs: number = INJECT_LOCK_TIMEOUT_MS,
  maxEvents: number = MAX_EVENTS,
): OpenLedger | null {
  const lock: HeldLock | null = takeLock(ledgerLockPath(stateDir, key), timeoutMs);
  if (lock === null) return null;
  const loaded = loadLedger(stateDir, key);
  const open: OpenLedger = {
    ledger: loaded.ledger,
    source: loaded.source,
    waitedMs: lock.waitedMs,
    record(update) {
      open.replace(mergeLedger(open.ledger, update, maxEvents));
    },
    replace(ledger) {
      saveLedger(stateDir, key, ledger);
      open.ledger = ledger;
    },
    release: lock.release,
    [Symbol.dispose]: lock.release,
  };
  if (loaded.discarded !== undefined) open.discarded = loaded.discarded;
  return open;
}

/** Removes session ledgers not written for `maxAgeMs`; returns how many were removed. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { pruneLedgers } from "./ledger.ts";
 * assert.equal(await pruneLedgers(Deno.makeTempDirSync()), 0);
 * ```
 */
export async function pruneLedgers(
  stateDir: string,
  now: number = Date.now(),
  maxAgeMs: number = LEDGER_MAX_AGE_MS,
): Promise<number> {
  const isLedgerFolder = (entry: Deno.DirEntry) => entry.isDirectory;
  return await removeOlderThan(joinPath(stateDir, "ledgers"), isLedgerFolder, now, maxAgeMs);
}
