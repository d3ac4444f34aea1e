/**
 * The filing step that files every tagged scratch block into its library file, with the
 * provenance of the turn (the day, `HEAD`, the code files it changed): the filing core
 * (`filing/route.ts`). Always due once the library is locked.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import { nowFrom } from "../../core/env.ts";
import { fileDigest } from "../../core/file_digest.ts";
import { joinPath } from "../../core/paths.ts";
import type { FilingContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/**
 * The largest scratch one turn files (a larger one is left for `librarian route`), so a turn
 * stays well inside the hook's timeout in hooks/hooks.json.
 */
export const MAX_SCRATCH_BYTES = 4_000_000;
/** The most target files one turn writes; blocks for further files wait for the next turn. */
export const MAX_TARGETS_PER_TURN = 500;

/** Each changed file's digest as the turn left it (what its learnings' provenance records). */
function digestsOf(projectRoot: string, changed: readonly string[]): Map<string, string> {
  const digests = new Map<string, string>();
  for (const file of changed.slice(0, 64)) {
    const digest = fileDigest(joinPath(projectRoot, file));
    if (digest !== undefined) digests.set(file, digest);
  }
  return digests;
}

/** Routes the scratch, and records the report, its log fields, the summary and what it wrote. */
export const ROUTING: Step<FilingContext> = {
  name: "routing",
  due: () => true,
  async run(context) {
    const { library, env, held, changed, scan, sync } = context;
    const [
      { routeFields, summarize, syncFields },
      { routeLocked },
      { localDay },
      { provenanceStamper },
      { headCommit },
    ] = await Promise.all([
      loadLater<typeof import("../../filing/stop_summary.ts")>("filing/stop_summary.ts"),
      loadLater<typeof import("../../filing/route.ts")>("filing/route.ts"),
      loadLater<typeof import("../../format/provenance.ts")>("format/provenance.ts"),
      loadLater<typeof import("../../filing/provenance_stamp.ts")>("filing/provenance_stamp.ts"),
      loadLater<typeof import("../../git/head.ts")>("git/head.ts"),
    ]);
    const now = nowFrom(env);
    const report = await routeLocked(library, {
      env,
      journal: held.paths.journal,
      now,
      maxScratchBytes: MAX_SCRATCH_BYTES,
      maxTargets: MAX_TARGETS_PER_TURN,
      provenanceFor: provenanceStamper(
        localDay(now),
        headCommit(library.projectRoot),
        changed,
        changed === undefined ? undefined : digestsOf(library.projectRoot, changed),
      ),
    });
    report.lockWaitMs = held.lock.waitedMs;
    context.report = report;
    Object.assign(context.fields, {
      result: report.status,
      ...syncFields(scan, sync),
      ...routeFields(report),
    });
    context.message = summarize(report, sync);
    // The turn recorded something (or auto memory did): this Stop filed or newly kept a block.
    context.tagged = report.routed.length > 0 || report.kept.some((k) => k.newly) ||
      (sync !== undefined && sync.synced.length > 0);
    context.written = report.targets.map((t) => t.target);
  },
};
