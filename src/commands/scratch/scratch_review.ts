/**
 * What is waiting in the scratch file, judged by the stop hook's own code: the parser
 * ({@link parseScratch}) and the planner's per-block verdict ({@link classifyBlock}: tag rules,
 * open fences, secrets). Used by `status` (pending blocks) and `lint` (findings).
 *
 * @module
 */

import { classifyBlock, type KeepCode } from "../../filing/mod.ts";
import { NOT_A_SECRET, parseScratch, tagLineFix } from "../../format/mod.ts";
import type { Finding } from "../lint/lint_checks.ts";

/** One pending scratch block and what the stop hook will do with it. */
export type BlockReview =
  | { kind: "routable"; line: number; tag: string; target: string }
  | { kind: "empty"; line: number; tag: string }
  | { kind: "kept"; line: number; tag: string; code: KeepCode; reason: string };

/**
 * Reviews every block of scratch text (pure). Text before the first tag is not a block.
 *
 * @example Usage
 * ```ts
 * import { reviewScratch } from "./scratch_review.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "note\n## [TAG: src, type: x]\n- a\n## [TAG: global, type: y]\n";
 * assert.deepEqual(reviewScratch(text), [
 *   { kind: "routable", line: 2, tag: "## [TAG: src, type: x]", target: "src/x.md" },
 *   { kind: "empty", line: 4, tag: "## [TAG: global, type: y]" },
 * ]);
 * ```
 */
export function reviewScratch(text: string): BlockReview[] {
  const reviews: BlockReview[] = [];
  for (const block of parseScratch(text).blocks) {
    if (block.kind === "preamble") continue;
    const base = { line: block.startLine, tag: block.tagLine.trim() };
    const verdict = classifyBlock(block);
    if (verdict.kind === "route") {
      reviews.push({ ...base, kind: "routable", target: verdict.target.relPath });
    } else if (verdict.kind === "keep") {
      reviews.push({ ...base, kind: "kept", code: verdict.code, reason: verdict.reason });
    } else if (verdict.kind === "drop") {
      reviews.push({ ...base, kind: "empty" });
    }
  }
  return reviews;
}

/**
 * Lint findings for the blocks that the stop hook will keep in scratch (pure).
 *
 * @example Usage
 * ```ts
 * import { scratchFindings } from "./scratch_review.ts";
 * import assert from "node:assert/strict";
 *
 * const findings = scratchFindings("## [TAG: ../up, type: x]\n- b\n", ".scratch.md");
 * assert.equal(findings.length, 1);
 * assert.equal(findings[0]?.line, 1);
 * assert.match(findings[0]?.message ?? "", /stays in scratch/);
 * assert.deepEqual(scratchFindings("## [TAG: global, type: x]\n- fine\n", ".scratch.md"), []);
 * ```
 */
export function scratchFindings(text: string, relPath: string): Finding[] {
  const findings: Finding[] = [];
  for (const review of reviewScratch(text)) {
    // Auto memories awaiting review wait for a person on purpose (`librarian route --accept`).
    if (review.kind !== "kept" || review.code === "review") continue;
    const where = { path: relPath, line: review.line };
    const message = `block ${review.tag} stays in scratch: ${review.reason}`;
    if (review.code === "secret") {
      findings.push({
        check: "scratch-secret",
        ...where,
        message,
        fix: "remove the credential (rotate it if it was real); if it is not a secret, add the " +
          `line ${NOT_A_SECRET} to the block`,
      });
    } else if (review.code === "unclosed-fence") {
      findings.push({ check: "scratch-fence", ...where, message, fix: "close the code fence" });
    } else {
      findings.push({ check: "scratch-tag", ...where, message, fix: tagLineFix(review.reason) });
    }
  }
  return findings;
}
