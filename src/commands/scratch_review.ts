/**
 * What is waiting in the scratch file, judged by the stop hook's own rules: the parser
 * ({@link parseScratch}), the tag rules ({@link tagTarget}) and the secret detector
 * ({@link findSecrets}). Used by `status` (pending blocks) and `lint` (findings).
 *
 * @module
 */

import { parseScratch } from "../stop/scratch.ts";
import { describeSecrets, findSecrets } from "../stop/secrets.ts";
import { tagTarget } from "../stop/tag_rules.ts";
import type { Finding } from "./lint_checks.ts";

/** One pending scratch block and what the stop hook will do with it. */
export type BlockReview =
  | { kind: "routable"; line: number; tag: string; target: string }
  | { kind: "legacy"; line: number; tag: string; reason: string }
  | { kind: "rejected"; line: number; tag: string; reason: string }
  | { kind: "secret"; line: number; tag: string; reason: string };

/** Reviews every block of scratch text (pure). Text before the first tag is not a block. */
export function reviewScratch(text: string): BlockReview[] {
  const reviews: BlockReview[] = [];
  for (const block of parseScratch(text).blocks) {
    if (block.kind === "preamble") continue;
    const base = { line: block.startLine, tag: block.tagLine.trim() };
    if (block.kind === "malformed") {
      reviews.push({ ...base, kind: "rejected", reason: block.problem });
      continue;
    }
    if (block.kind === "legacy") {
      reviews.push({
        ...base,
        kind: "legacy",
        reason: "the tag has no type",
      });
      continue;
    }
    if (block.unclosedFenceLine !== undefined) {
      reviews.push({
        ...base,
        kind: "rejected",
        reason: `the code fence opened on line ${block.unclosedFenceLine} is never closed`,
      });
      continue;
    }
    const target = tagTarget(block.path, block.type);
    if (!target.ok) {
      reviews.push({ ...base, kind: "rejected", reason: target.reason });
      continue;
    }
    const secrets = findSecrets(block.body).map((s) => ({ ...s, line: s.line + block.startLine }));
    if (secrets.length > 0) {
      reviews.push({ ...base, kind: "secret", reason: describeSecrets(secrets) });
      continue;
    }
    reviews.push({ ...base, kind: "routable", target: target.value.relPath });
  }
  return reviews;
}

/** Lint findings for the blocks that the stop hook will not file (pure). */
export function scratchFindings(text: string, relPath: string): Finding[] {
  const findings: Finding[] = [];
  for (const review of reviewScratch(text)) {
    if (review.kind === "routable") continue;
    if (review.kind === "secret") {
      findings.push({
        check: "scratch-secret",
        path: relPath,
        line: review.line,
        message: `block ${review.tag} is held back: ${review.reason}`,
        fix: "remove the credential from the block (and rotate it if it was real); the block is " +
          "filed on the next turn",
      });
      continue;
    }
    findings.push({
      check: "scratch-tag",
      path: relPath,
      line: review.line,
      message: `block ${review.tag} stays in scratch: ${review.reason}`,
      fix: review.kind === "legacy"
        ? "add the file name: ## [TAG: <folder>, type: <patterns|tech|product|...>]"
        : "fix the tag line: ## [TAG: <folder inside the library, or global>, type: <file name>]",
    });
  }
  return findings;
}
