/**
 * Where the per-context-window ledgers live: `<state>/ledgers/<session>/<agent or "main">.json`,
 * with a lock file beside each (`.lock`), and the file-safe form of the ids in those names.
 *
 * @module
 */

import { hashUtf8 } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";

/** Identifies one context window: the session, and the subagent when inside one. */
export interface LedgerKey {
  sessionId: string;
  agentId?: string | undefined;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,120}$/;

/**
 * Makes an id safe as a file name (the ids come from the hook input). A safe id is kept as it is;
 * any other gets a hash of the original after `.`, so two ids never share a file (`a/1` and
 * `a_1` are two sessions, and so are two long ids with the same first 120 characters).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeId } from "./ledger_paths.ts";
 * assert.equal(safeId("abc-123"), "abc-123");
 * assert.match(safeId("../x"), /^___x\.[0-9a-f]{16}$/);
 * ```
 */
export function safeId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const cleaned = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `${cleaned === "" ? "_" : cleaned}.${hashUtf8(id)}`;
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
