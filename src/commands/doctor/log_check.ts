/**
 * `librarian doctor`'s log check: have the hooks run in this project lately, and did any recent
 * run fail?
 *
 * @module
 */

import {
  ageOf,
  type EnvReader,
  logFile,
  type LogRecord,
  readProjectRuns,
  safeText,
} from "../../core/mod.ts";
import { type Check, ok, warn } from "./check.ts";

/** Hook runs older than this make the log check warn. */
const STALE_LOG_MS = 7 * 24 * 60 * 60 * 1000;

function describeLast(record: LogRecord): string {
  const f = record.fields;
  const what = [record.command, f.event, f.result].filter(Boolean).join(" ");
  return safeText(`last run ${ageOf(record.time)}: ${what}${f.ms ? `, ${f.ms} ms` : ""}`);
}

/**
 * The log check for `projectRoot`: warns when logging is off, when no hook has run in the project,
 * when a recent run failed, or when the last run is over a week old.
 *
 * @example Usage
 * ```ts
 * import { logCheck } from "./log_check.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const check = await logCheck(envFrom({ LIBRARIAN_LOG: "off" }), "/repo");
 * assert.equal(check.status, "warn");
 * assert.equal(check.message, "logging is off (LIBRARIAN_LOG=off)");
 * ```
 */
export async function logCheck(env: EnvReader, projectRoot: string): Promise<Check> {
  const path = logFile(env);
  if (!path) {
    return warn(
      "log",
      "logging is off (LIBRARIAN_LOG=off)",
      "unset LIBRARIAN_LOG to see hook runs",
    );
  }
  const records = await readProjectRuns(path, projectRoot, 200).catch(() => null);
  const last = records?.at(-1);
  if (!records || !last) {
    return warn(
      "log",
      `no hook has run in this project yet (${path} ${
        records ? `has no run for ${projectRoot}` : "does not exist"
      })`,
      "start Claude Code in the project and let it read a file, then rerun 'librarian doctor'; " +
        "if nothing appears, 'claude --debug' shows which hooks were registered",
    );
  }
  const failed = records.slice(-20).findLast((r) =>
    r.fields.result === "error" || r.fields.result === "bad-input"
  );
  if (failed) {
    const why = safeText(failed.fields.detail ?? failed.fields.result ?? "");
    return warn(
      "log",
      `${describeLast(last)}; a recent ${failed.command} run failed: ${why}`,
      `see ${path}`,
    );
  }
  if (Date.now() - Date.parse(last.time) > STALE_LOG_MS) {
    return warn(
      "log",
      `${describeLast(last)}; nothing for over a week`,
      "check that the hooks are registered, then use Claude Code in the project",
    );
  }
  return ok("log", describeLast(last));
}
