/**
 * The per-context-window ledger: which library files (and which versions of them) a session, or
 * a subagent inside it, has already been sent, so that each is sent once per context window.
 *
 * Layout: `<state>/ledgers/<session>/<agent or "main">.json`. Clearing a session (after
 * compaction or `/clear`) removes its folder; folders untouched for {@link LEDGER_MAX_AGE_MS} are
 * pruned. Writes replace the file atomically after merging with what is on disk, so concurrent
 * hook runs never corrupt a ledger (at worst a file is sent twice).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { hashText } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { isRegularFile } from "../core/read_text.ts";

/** Ledgers older than this are pruned. */
export const LEDGER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** What one context window has been sent. */
export interface Ledger {
  /** Library file's absolute path → fingerprint of the version sent. */
  files: Record<string, string>;
  /** Whether the tagging reminder was given (main ledger only). */
  reminded: boolean;
}

/** Identifies one context window: the session, and the subagent when inside one. */
export interface LedgerKey {
  sessionId: string;
  agentId?: string | undefined;
}

/**
 * A ledger fingerprint: `<size>:<mtime-ms>:<content hash>`. The stamp part lets an unchanged file
 * be recognised without reading it; the hash decides when the stamp moved (a checkout that
 * rewrote the file without changing it is not sent again).
 */
export function makeFingerprint(stamp: string, hash: string): string {
  return `${stamp}:${hash}`;
}

/** The `<size>:<mtime-ms>` part of a fingerprint. */
export function stampOf(fingerprint: string): string {
  const second = fingerprint.indexOf(":", fingerprint.indexOf(":") + 1);
  return second < 0 ? fingerprint : fingerprint.slice(0, second);
}

/** The content-hash part of a fingerprint. */
export function hashOf(fingerprint: string): string {
  const second = fingerprint.indexOf(":", fingerprint.indexOf(":") + 1);
  return second < 0 ? "" : fingerprint.slice(second + 1);
}

/** An empty ledger. */
export function emptyLedger(): Ledger {
  return { files: {}, reminded: false };
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,120}$/;

/**
 * Makes an id safe as a file name (the ids come from the hook input). A safe id is kept as it is;
 * any other gets a hash of the original after `.`, so two ids never share a file (`a/1` and
 * `a_1` are two sessions, and so are two long ids with the same first 120 characters).
 */
export function safeId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const cleaned = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `${cleaned === "" ? "_" : cleaned}.${hashText(id)}`;
}

/** The folder holding every ledger of one session. */
export function sessionLedgerDir(stateDir: string, sessionId: string): string {
  return joinPath(stateDir, "ledgers", safeId(sessionId));
}

/** The file of one context window's ledger. */
export function ledgerPath(stateDir: string, key: LedgerKey): string {
  const name = key.agentId ? `agent-${safeId(key.agentId)}` : "main";
  return joinPath(sessionLedgerDir(stateDir, key.sessionId), `${name}.json`);
}

/** Parses ledger JSON; anything malformed reads as an empty ledger. */
export function parseLedger(text: string): Ledger {
  try {
    const value = JSON.parse(text) as Partial<Ledger>;
    const files: Record<string, string> = {};
    if (value && typeof value.files === "object" && value.files !== null) {
      for (const [k, v] of Object.entries(value.files)) {
        if (typeof v === "string") files[k] = v;
      }
    }
    return { files, reminded: value?.reminded === true };
  } catch {
    return emptyLedger();
  }
}

/**
 * Loads a ledger; a missing or damaged file, or anything but a regular file (a FIFO would block the
 * read), is an empty ledger. (Sync: it is on the hot path.)
 */
export function loadLedger(stateDir: string, key: LedgerKey): Ledger {
  const path = ledgerPath(stateDir, key);
  if (!isRegularFile(path)) return emptyLedger();
  try {
    return parseLedger(Deno.readTextFileSync(path));
  } catch {
    return emptyLedger();
  }
}

/**
 * Records `sent` (path → fingerprint) and the reminder flag, merged with the ledger on disk, and
 * replaces the file atomically.
 */
export function recordInLedger(
  stateDir: string,
  key: LedgerKey,
  sent: Record<string, string>,
  reminded = false,
): void {
  const current = loadLedger(stateDir, key);
  const next: Ledger = {
    files: { ...current.files, ...sent },
    reminded: current.reminded || reminded,
  };
  writeTextAtomicSync(ledgerPath(stateDir, key), JSON.stringify(next));
}

/** Forgets everything a session (and its subagents) was sent. */
export async function clearSessionLedgers(stateDir: string, sessionId: string): Promise<void> {
  try {
    await Deno.remove(sessionLedgerDir(stateDir, sessionId), { recursive: true });
  } catch {
    // nothing recorded yet
  }
}

/** Removes session ledgers not written for `maxAgeMs`; returns how many were removed. */
export async function pruneLedgers(
  stateDir: string,
  now: number = Date.now(),
  maxAgeMs: number = LEDGER_MAX_AGE_MS,
): Promise<number> {
  const root = joinPath(stateDir, "ledgers");
  let removed = 0;
  try {
    for await (const entry of Deno.readDir(root)) {
      if (!entry.isDirectory) continue;
      const dir = joinPath(root, entry.name);
      try {
        const info = await Deno.stat(dir);
        if (info.mtime && now - info.mtime.getTime() > maxAgeMs) {
          await Deno.remove(dir, { recursive: true });
          removed++;
        }
      } catch {
        // raced with another pruner
      }
    }
  } catch {
    // no ledgers yet
  }
  return removed;
}
