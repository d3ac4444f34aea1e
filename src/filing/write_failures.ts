/**
 * After the writes: a block whose target file could not be written is turned from "route" into
 * "kept" (with the reason), so it stays in scratch and nothing is lost.
 *
 * @module
 */

import { type BlockDecision, foldKey } from "./classify.ts";

/**
 * Turns the route decisions for the given target paths into "kept" (their write failed).
 *
 * @example Usage
 * ```ts
 * import { planRoute } from "./route_plan.ts";
 * import { withFailedTargets } from "./write_failures.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("## [TAG: global, type: tech]\n- use deno\n");
 * const plan = planRoute(doc, { today: "2026-11-30", targets: new Map([["tech.md", { kind: "missing" as const }]]) });
 * const after = withFailedTargets(plan.decisions, new Map([["TECH.md", "disk full"]]), true);
 * assert.equal(after[0]?.kind, "keep");
 * assert.equal(withFailedTargets(plan.decisions, new Map())[0]?.kind, "route");
 * ```
 */
export function withFailedTargets(
  decisions: readonly BlockDecision[],
  failures: ReadonlyMap<string, string>,
  foldCase = false,
): BlockDecision[] {
  if (failures.size === 0) return [...decisions];
  const folded = new Map([...failures].map(([path, why]) => [foldKey(path, foldCase), why]));
  return decisions.map((decision) => {
    if (decision.kind !== "route") return decision;
    const why = folded.get(foldKey(decision.target.relPath, foldCase));
    if (why === undefined) return decision;
    return {
      kind: "keep",
      block: decision.block,
      code: "write-failed",
      reason: `could not write ${decision.target.relPath}: ${why}`,
    };
  });
}
