/**
 * Keeps a library's stale record (`git/stale_record.ts`) current, where git may be asked: the
 * Stop hook after each turn and `librarian lint`. Cheap when nothing moved: the record is remade
 * only when `HEAD` moved, a library file it knows changed, a code file a learning cites changed
 * (a few `stat` calls, no git), or when told to (the turn filed something); then git is asked its
 * fixed handful of questions once for the whole library (`git/stale_scan.ts`).
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { writeTextAtomicSync } from "../core/atomic.ts";
import { formatStaleRecord } from "./stale_record.ts";
import { type RemakeNeed, staleRecordNeed } from "./stale_check.ts";
import { makeStaleRecord } from "./stale_make.ts";

/** What a refresh did. */
export type RefreshOutcome =
  | { kind: "fresh" }
  | { kind: "written"; stale: number; git: string }
  | { kind: "skipped"; why: string };

/**
 * Remakes the library's stale record when it may no longer hold (or always, with `force`).
 * Never throws: a failure is reported as skipped.
 *
 * @example Usage
 * ```ts
 * import { refreshStaleRecord } from "./stale_refresh.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.writeTextFileSync(`${root}/_memory_library/patterns.md`, "# patterns\n- Use UTC.\n");
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const env = envFrom({ CLAUDE_PLUGIN_DATA: `${root}/state` });
 * assert.equal((await refreshStaleRecord(library, env)).kind, "written");
 * assert.deepEqual(await refreshStaleRecord(library, env), { kind: "fresh" }); // nothing moved
 * ```
 */
export async function refreshStaleRecord(
  library: Library,
  env: EnvReader,
  options: { force?: boolean } = {},
): Promise<RefreshOutcome> {
  try {
    const need = staleRecordNeed(library, env, options.force === true);
    if (need === null) return { kind: "fresh" };
    return await remakeStaleRecord(library, need);
  } catch (error) {
    return { kind: "skipped", why: error instanceof Error ? error.name : String(error) };
  }
}

/**
 * Remakes the record where `need` says (asks git once for the whole library; not at all when no
 * learning cites code). Never throws: a failure is reported as skipped.
 *
 * @example Usage
 * ```ts
 * import { remakeStaleRecord } from "./stale_refresh.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.writeTextFileSync(`${root}/_memory_library/patterns.md`, "# patterns\n- Use UTC.\n");
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const outcome = await remakeStaleRecord(library, { path: `${root}/record.json`, head: "" });
 * assert.deepEqual(outcome, { kind: "written", stale: 0, git: "not-needed" });
 * assert.equal(JSON.parse(Deno.readTextFileSync(`${root}/record.json`)).head, "");
 * ```
 */
export async function remakeStaleRecord(
  library: Library,
  need: RemakeNeed,
): Promise<RefreshOutcome> {
  try {
    const made = await makeStaleRecord(library, need.head);
    writeTextAtomicSync(need.path, formatStaleRecord(made.record));
    return { kind: "written", stale: made.stale, git: made.git };
  } catch (error) {
    return { kind: "skipped", why: error instanceof Error ? error.name : String(error) };
  }
}
