/**
 * One `librarian doctor` check's outcome ({@link Check}) and the three ways to make one: fine,
 * worth a warning, or failed; the last two carry the fix.
 *
 * @module
 */

/** One check's outcome. */
export interface Check {
  id: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

/**
 * A check that found nothing wrong.
 *
 * @example Usage
 * ```ts
 * import { ok } from "./check.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(ok("budget", "6000 characters"), {
 *   id: "budget",
 *   status: "ok",
 *   message: "6000 characters",
 * });
 * ```
 */
export const ok = (id: string, message: string): Check => ({ id, status: "ok", message });

/**
 * A check that found something worth fixing, with the fix.
 *
 * @example Usage
 * ```ts
 * import { warn } from "./check.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(warn("log", "logging is off", "unset LIBRARIAN_LOG").status, "warn");
 * ```
 */
export const warn = (id: string, message: string, fix: string): Check => ({
  id,
  status: "warn",
  message,
  fix,
});

/**
 * A check that failed: the Librarian cannot work this way. Carries the fix.
 *
 * @example Usage
 * ```ts
 * import { fail } from "./check.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fail("hooks", "not wired", "run setup-hooks").fix, "run setup-hooks");
 * ```
 */
export const fail = (id: string, message: string, fix: string): Check => ({
  id,
  status: "fail",
  message,
  fix,
});
