/**
 * Filing one library's learnings at the end of a turn: when there is work (new or edited auto
 * memory, scratch with content, or something an earlier run left: `work.ts`), the filing code is
 * loaded, the library is locked, and the filing steps run in order under the lock:
 *
 * 1. `auto-memory-sync` (optional): changed Claude Code memories become scratch blocks.
 * 2. `routing`: every tagged scratch block is filed, with its provenance (the filing core).
 * 3. `over-share` (optional): a file that crossed its fair share of the budget is named.
 * 4. `re-export` (optional): the exports `librarian init --export` recorded are kept current.
 *
 * An idle turn loads none of it: a few `stat` calls and one listing.
 *
 * @module
 */

import { loadLater } from "../core/load_later.ts";
import type { Library } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import type { LogValue } from "../core/log.ts";
import { scanAutoMemory, scanLogFields } from "../automemory/scan.ts";
import type { TurnSource } from "../filing/stop_nudge.ts";
import type { FilingContext } from "./stop_context.ts";
import { runSteps, type Step } from "./step.ts";
import { leftOverOf, scratchHasContent } from "./work.ts";
import { AUTO_MEMORY_SYNC } from "./steps/auto_memory_sync_step.ts";
import { ROUTING } from "./steps/routing_step.ts";
import { OVER_SHARE } from "./steps/over_share_step.ts";
import { RE_EXPORT } from "./steps/re_export_step.ts";

/** The steps of filing one library, in their order, run under its lock. */
export const FILING_STEPS: readonly Step<FilingContext>[] = [
  AUTO_MEMORY_SYNC,
  ROUTING,
  OVER_SHARE,
  RE_EXPORT,
];

/** What filing one library did: log fields, the user's message, and what it recorded. */
export interface FilingOutcome {
  fields: Record<string, LogValue>;
  /** What the user is told (`""` for nothing). */
  message: string;
  /** Whether this Stop filed or newly kept a block (or auto memory did). */
  tagged?: boolean;
  /** The library files written. */
  written?: string[];
}

/**
 * Files `library`'s learnings (syncing auto memory into it unless `memory` is false), when there
 * is anything to file. Never throws for a busy or broken lock: that is a log field, and a message
 * when nothing can be filed until the user fixes it.
 *
 * @example An idle library: nothing loaded, nothing locked
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileLibrary } from "./file_library.ts";
 *
 * const root = Deno.makeTempDirSync();
 * const library = { root, projectRoot: root, foundBy: "cwd" as const };
 * const turn = { changes: () => Promise.resolve(undefined), fields: () => ({}) };
 * const filed = await fileLibrary(library, () => undefined, turn, { memory: false });
 * assert.equal(filed.fields.result, "nothing-to-do");
 * assert.equal(filed.message, "");
 * ```
 */
export async function fileLibrary(
  library: Library,
  env: EnvReader,
  turn: TurnSource,
  options: { memory?: boolean } = {},
): Promise<FilingOutcome> {
  const scan = options.memory === false
    ? { dirs: [], changed: [], stale: [] }
    : scanAutoMemory(library, env);
  const memoryWork = scan.changed.length > 0 || scan.stale.length > 0;
  const scratchWork = scratchHasContent(library);
  const left = leftOverOf(library, env);
  if (!memoryWork && !scratchWork && !left.carry && !left.exportDue) {
    return { fields: { result: "nothing-to-do", ...scanLogFields(scan) }, message: "" };
  }
  // Something to file. The turn is read before the lock is taken: the transcript may need a
  // moment to catch up. Only now is the filing code loaded (an idle turn loads none of it), all
  // of it at once, before the lock: the steps find their modules loaded.
  const changed = scratchWork ? (await turn.changes())?.files : undefined;
  const [
    { nothingFiledMessage },
    { acquireCoordination, CoordinationError },
    { LockTimeoutError, lockTimeoutFrom },
  ] = await Promise.all([
    loadLater<typeof import("../filing/stop_summary.ts")>("filing/stop_summary.ts"),
    loadLater<typeof import("../filing/coordination.ts")>("filing/coordination.ts"),
    loadLater<typeof import("../filing/library_lock.ts")>("filing/library_lock.ts"),
    loadLater<typeof import("../automemory/sync.ts")>("automemory/sync.ts"),
    loadLater<typeof import("../filing/route.ts")>("filing/route.ts"),
    loadLater<typeof import("../format/provenance.ts")>("format/provenance.ts"),
    loadLater<typeof import("../filing/provenance_stamp.ts")>("filing/provenance_stamp.ts"),
    loadLater<typeof import("../git/head.ts")>("git/head.ts"),
  ]);
  const timeoutMs = lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  let coordination;
  try {
    coordination = await acquireCoordination(library, env, { timeoutMs });
  } catch (error) {
    if (error instanceof LockTimeoutError) {
      // Another run is busy (or stuck): everything stays for the next turn.
      return { fields: { result: "locked", detail: error.message }, message: "" };
    }
    if (!(error instanceof CoordinationError)) throw error;
    // Told every turn: nothing can be filed until it is fixed.
    return {
      fields: { result: "failed", detail: error.message },
      message: nothingFiledMessage(error.message),
    };
  }
  await using held = coordination;
  const context: FilingContext = {
    library,
    env,
    scan,
    left,
    changed,
    held,
    fields: {},
    message: "",
    tagged: false,
    written: [],
  };
  const { fields, message, tagged, written } = await runSteps(FILING_STEPS, context);
  return { fields, message, tagged, written: [...written] };
}
