/**
 * Scratch edits (pure): the blocks a pass removes from scratch and the blocks it marks as kept,
 * applied to whatever scratch holds by the time they are written.
 *
 * @module
 */

import type { BlockDecision } from "./classify.ts";
import { markKept } from "../format/markers.ts";
import { parseScratch, renderScratch, type ScratchDocument } from "../format/scratch.ts";

/** Changes to apply to scratch text: blocks to remove and blocks to replace (by raw text). */
export interface ScratchEdits {
  /** Raw texts of blocks that leave scratch (one removal per entry). */
  remove: string[];
  /** Raw text → replacement (a block marked with why it stays). */
  replace: Array<[string, string]>;
}

/**
 * The scratch edits implied by decisions.
 *
 * @example Usage
 * ```ts
 * import { scratchEditsOf } from "./scratch_edits.ts";
 * import { planRoute } from "./route_plan.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("## [TAG: global, type: tech]\n- a\n## [TAG: ../x, type: y]\n- b\n");
 * const plan = planRoute(doc, { today: "2026-11-30", targets: new Map([["tech.md", { kind: "missing" as const }]]) });
 * const edits = scratchEditsOf(plan.decisions);
 * assert.deepEqual(edits.remove, ["## [TAG: global, type: tech]\n- a\n"]);
 * assert.equal(edits.replace.length, 1);
 * ```
 */
export function scratchEditsOf(decisions: readonly BlockDecision[]): ScratchEdits {
  const edits: ScratchEdits = { remove: [], replace: [] };
  for (const decision of decisions) {
    if (decision.kind === "route" || decision.kind === "drop") {
      edits.remove.push(decision.block.raw);
    } else if (decision.kind === "keep") {
      const marked = markKept(decision.block, decision.reason);
      if (marked !== decision.block.raw) edits.replace.push([decision.block.raw, marked]);
    }
  }
  return edits;
}

/**
 * Whether a kept decision changes scratch (it was not already marked with this reason).
 *
 * @example Usage
 * ```ts
 * import { isNewlyKept } from "./scratch_edits.ts";
 * import { planRoute } from "./route_plan.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("## [TAG: ../x, type: y]\n- b\n");
 * const [decision] = planRoute(doc, { today: "2026-11-30", targets: new Map() }).decisions;
 * assert.equal(isNewlyKept(decision!), true);
 * const again = parseScratch(scratchEditsOf([decision!]).replace[0]![1]);
 * assert.equal(isNewlyKept(planRoute(again, { today: "2026-11-30", targets: new Map() }).decisions[0]!), false);
 * ```
 */
export function isNewlyKept(decision: BlockDecision): boolean {
  return decision.kind === "keep" &&
    markKept(decision.block, decision.reason) !== decision.block.raw;
}

/**
 * Applies edits to the scratch text as it is now (which may have grown or changed since the
 * plan was made): blocks are matched by their exact raw text, so text appended meanwhile stays,
 * and a block edited meanwhile stays too (it is planned again next time).
 *
 * @example Usage
 * ```ts
 * import { applyScratchEdits } from "./scratch_edits.ts";
 * import assert from "node:assert/strict";
 *
 * const filed = "## [TAG: global, type: tech]\n- a\n";
 * const later = "## [TAG: global, type: tech]\n- b\n";
 * assert.equal(applyScratchEdits(filed + later, { remove: [filed], replace: [] }), later);
 * ```
 */
export function applyScratchEdits(text: string, edits: ScratchEdits): string {
  if (edits.remove.length === 0 && edits.replace.length === 0) return text;
  return applyScratchEditsTo(parseScratch(text), edits);
}

/**
 * {@link applyScratchEdits} to a scratch text already parsed (`doc` is `parseScratch` of it): a
 * plan applies its edits to the document it was made from without parsing it again.
 *
 * @example Usage
 * ```ts
 * import { applyScratchEditsTo } from "./scratch_edits.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const filed = "## [TAG: global, type: tech]\n- a\n";
 * const later = "## [TAG: global, type: tech]\n- b\n";
 * const doc = parseScratch(filed + later);
 * assert.equal(applyScratchEditsTo(doc, { remove: [filed], replace: [] }), later);
 * assert.equal(applyScratchEditsTo(doc, { remove: [], replace: [] }), filed + later);
 * ```
 */
export function applyScratchEditsTo(doc: ScratchDocument, edits: ScratchEdits): string {
  if (edits.remove.length === 0 && edits.replace.length === 0) return renderScratch(doc);
  const removals = new Map<string, number>();
  for (const raw of edits.remove) removals.set(raw, (removals.get(raw) ?? 0) + 1);
  const replacements = new Map<string, string[]>();
  for (const [raw, next] of edits.replace) {
    replacements.set(raw, [...(replacements.get(raw) ?? []), next]);
  }
  let removed = false;
  const kept: string[] = [];
  for (const block of doc.blocks) {
    const count = block.kind === "preamble" ? 0 : removals.get(block.raw) ?? 0;
    if (count > 0) {
      removals.set(block.raw, count - 1);
      removed = true;
      continue;
    }
    // One edit per block it was planned for: an identical block appended later is left alone.
    const replacement = block.kind === "preamble"
      ? undefined
      : replacements.get(block.raw)?.shift();
    kept.push(replacement ?? block.raw);
  }
  const body = kept.join("");
  if (removed && body.trim() === "") return "";
  return doc.bom + body;
}
