/**
 * Routing scratch under the library's lock: take the cross-process lock and the journal beside it
 * (`coordination.ts`), run one pass ({@link routeLocked} in `route.ts`), release, and report; a
 * lock held past the timeout, or no folder for the lock, touches nothing and says so.
 *
 * @module
 */

import { type Library, processEnv, scratchPathOf } from "../core/mod.ts";
import { acquireCoordination, CoordinationError } from "./coordination.ts";
import { LockTimeoutError, lockTimeoutFrom } from "./library_lock.ts";
import { emptyReport, type RouteReport } from "./route_report.ts";
import { routeLocked, type RouteOptions } from "./route.ts";

/**
 * Files every routable scratch block of `library` into its target file, under the library's
 * lock, and reports what moved where, what stayed and why.
 *
 * With `dryRun`, nothing is written and no lock is taken: the report is the plan.
 * If another run holds the lock past the timeout, nothing is touched and the status is `locked`;
 * if no folder can hold the lock and journal, nothing is touched and the status is `failed`.
 *
 * @example Usage
 * ```ts
 * import { routeScratch } from "./route_scratch.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const projectRoot = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${projectRoot}/src/api`, { recursive: true }); // a tag names a real folder
 * const root = `${projectRoot}/_memory_library`;
 * Deno.mkdirSync(root);
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "## [TAG: src/api, type: patterns]\n- retry on 429\n");
 * const library = { root, projectRoot, foundBy: "cwd" as const };
 * const env = envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() });
 * const report = await routeScratch(library, { env, now: new Date("2026-11-30T12:00:00Z") });
 * assert.equal(report.status, "routed");
 * assert.match(Deno.readTextFileSync(`${root}/src/api/patterns.md`), /\n- retry on 429\n/);
 * assert.equal(Deno.readTextFileSync(`${root}/.scratch.md`), "");
 * ```
 */
export async function routeScratch(
  library: Library,
  options: RouteOptions = {},
): Promise<RouteReport> {
  if (options.dryRun) return await routeLocked(library, options);
  const env = options.env ?? processEnv();
  const timeoutMs = options.lockTimeoutMs ?? lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  let coordination;
  try {
    coordination = await acquireCoordination(library, env, { timeoutMs });
  } catch (error) {
    if (error instanceof LockTimeoutError) {
      return emptyReport("locked", scratchPathOf(library), error.message);
    }
    if (error instanceof CoordinationError) {
      return emptyReport("failed", scratchPathOf(library), error.message);
    }
    throw error;
  }
  await using held = coordination;
  const report = await routeLocked(library, { ...options, env, journal: held.paths.journal });
  report.lockWaitMs = held.lock.waitedMs;
  return report;
}
