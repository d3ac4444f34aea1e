/**
 * Where the per-context-window ledgers live: `<state>/ledgers/<session>/<agent or "main">.json`,
 * with a lock file beside each (`.lock`) and its quiet repeats' records in `<agent or "main">.quiet/`;
 * the ids are made file-safe by `core/hash.ts` `safeId`.
 *
 * @module
 */

import { safeId } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";

/** Identifies one context window: the session, and the subagent when inside one. */
export interface LedgerKey {
  sessionId: string;
  agentId?: string | undefined;
}

/** The folder holding every ledger of one session. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionLedgerDir } from "./ledger_paths.ts";
 * assert.equal(sessionLedgerDir("/state", "s1"), "/state/ledgers/s1");
 * ```
 */
export function sessionLedgerDir(stateDir: string, sessionId: string): string {
  return joinPath(stateDir, "ledgers", safeId(sessionId));
}

function ledgerStem(stateDir: string, key: LedgerKey): string {
  const name = key.agentId ? `agent-${safeId(key.agentId)}` : "main";
  return joinPath(sessionLedgerDir(stateDir, key.sessionId), name);
}

/** The file of one context window's ledger. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerPath } from "./ledger_paths.ts";
 * assert.equal(ledgerPath("/state", { sessionId: "s1" }), "/state/ledgers/s1/main.json");
 * assert.equal(ledgerPath("/state", { sessionId: "s1", agentId: "a" }), "/state/ledgers/s1/agent-a.json");
 * ```
 */
export function ledgerPath(stateDir: string, key: LedgerKey): string {
  return `${ledgerStem(stateDir, key)}.json`;
}

/** The lock file of one context window's ledger. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerLockPath } from "./ledger_paths.ts";
 * assert.equal(ledgerLockPath("/state", { sessionId: "s1" }), "/state/ledgers/s1/main.lock");
 * ```
 */
export function ledgerLockPath(stateDir: string, key: LedgerKey): string {
  return `${ledgerStem(stateDir, key)}.lock`;
}

/**
 * The record of a quiet repeat of one context window (`quiet_repeat.ts`), by the digest of the
 * event it stands for: in a folder beside the window's ledger, so it goes when the session does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { quietRecordPath } from "./ledger_paths.ts";
 * assert.equal(quietRecordPath("/state", { sessionId: "s1" }, "0a1b"), "/state/ledgers/s1/main.quiet/0a1b.json");
 * ```
 */
export function quietRecordPath(stateDir: string, key: LedgerKey, digest: string): string {
  return joinPath(`${ledgerStem(stateDir, key)}.quiet`, `${digest}.json`);
}
