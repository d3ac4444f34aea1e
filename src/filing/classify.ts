/**
 * Classifying scratch blocks (pure): which route, which stay in scratch and why, which are empty,
 * and the decision vocabulary the planner and the report share.
 *
 * A block stays in scratch, marked with a one-line reason, when its tag is legacy, malformed or
 * unsafe, when it holds a likely credential, or when a code fence in it is never closed.
 *
 * @module
 */

import { bodyLines } from "./items.ts";
import type { KnownAt } from "./known.ts";
import {
  awaitsReview,
  NOT_SECRET_MARKER,
  REVIEW_REASON,
  withoutKeptMarkers,
} from "../format/markers.ts";
import {
  fenceMap,
  type HeadedBlock,
  lineContent,
  type PreambleBlock,
  type ScratchBlock,
  type ScratchDocument,
  splitLinesKeepingEnds,
  type TaggedBlock,
} from "../format/scratch.ts";
import { nearMissFix } from "../format/near_miss.ts";
import { describeSecrets, findSecrets } from "../format/secrets.ts";
import { type TagTarget, tagTarget } from "../format/tag_rules.ts";

/** Why a block stays in scratch. */
export type KeepCode =
  | "malformed"
  | "legacy"
  | "bad-tag"
  | "unclosed-fence"
  | "secret"
  | "target"
  | "write-failed"
  | "review";

/** What happens to one scratch block. */
export type BlockDecision =
  | {
    kind: "route";
    block: TaggedBlock;
    target: TagTarget;
    /** Items (bullets, paragraphs) appended to the target. */
    added: number;
    /**
     * Learnings left out because the library already has them (the target, or a file sent
     * along with it), in normalised form.
     */
    duplicates: number;
    /** Where each learning left out is already (one entry per learning). */
    known: KnownAt[];
  }
  | { kind: "keep"; block: HeadedBlock; code: KeepCode; reason: string }
  | { kind: "drop"; block: HeadedBlock; why: "empty" | "already-filed" }
  | {
    kind: "defer";
    block: TaggedBlock;
    /** Its target is beyond `PlanOptions.maxTargets`: the block waits, untouched. */
    target: TagTarget;
  }
  | { kind: "stay"; block: PreambleBlock };

/** The decision for a block on its own (before target files are known). */
export type BlockClass =
  | { kind: "route"; target: TagTarget }
  | { kind: "keep"; code: KeepCode; reason: string }
  | { kind: "drop"; why: "empty" }
  | { kind: "stay" };

/** How blocks are classified. */
export interface ClassifyOptions {
  /** File blocks awaiting review (`librarian route --accept`) instead of keeping them. */
  acceptReview?: boolean;
}

/**
 * Classifies one block from its own text: awaiting review, tag checks, empty body, open fences,
 * secrets.
 *
 * @example Usage
 * ```ts
 * import { classifyBlock } from "./classify.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const [block] = parseScratch("## [TAG: src/api, type: patterns]\n- retry twice\n").blocks;
 * const decision = classifyBlock(block!);
 * assert.equal(decision.kind, "route");
 * ```
 */
export function classifyBlock(block: ScratchBlock, options: ClassifyOptions = {}): BlockClass {
  if (block.kind === "preamble") return { kind: "stay" };
  if (!options.acceptReview && awaitsReview(block.body)) {
    return { kind: "keep", code: "review", reason: REVIEW_REASON };
  }
  if (block.kind === "malformed") {
    const fix = nearMissFix(block.problem, block.intended);
    return { kind: "keep", code: "malformed", reason: `malformed tag: ${fix}` };
  }
  if (block.kind === "legacy") {
    return {
      kind: "keep",
      code: "legacy",
      reason: "tag has no type (legacy form); add ', type: <name>' to file it",
    };
  }
  const lines = bodyLines(block.body);
  if (lines.length === 0) return { kind: "drop", why: "empty" };
  const notASecret = NOT_SECRET_MARKER.test(block.body);
  // Checked before the tag rules, whose reasons quote the path: a tag becomes folder and file
  // names in the library, so a credential in it must not get there (nor into a reason).
  const inTag = notASecret ? undefined : findSecrets(block.tagLine)[0];
  if (inTag) {
    return {
      kind: "keep",
      code: "secret",
      reason: `likely ${inTag.kind} in the tag line: remove it to file this block`,
    };
  }
  const target = tagTarget(block.path, block.type);
  if (!target.ok) return { kind: "keep", code: "bad-tag", reason: target.reason };
  if (block.unclosedFenceLine !== undefined) {
    // Counted from the tag line, without our markers, so the reason is stable across turns.
    const body = splitLinesKeepingEnds(withoutKeptMarkers(block.body)).map(lineContent);
    const line = (fenceMap(body).unclosed[0] ?? block.unclosedFenceLine - block.startLine - 1) + 1;
    return {
      kind: "keep",
      code: "unclosed-fence",
      reason: `code fence opened on line ${line} under the tag is never closed`,
    };
  }
  if (!notASecret) {
    // Lines count from the tag line, without our own markers, so the reason stays the same
    // from turn to turn (the user is told once).
    const findings = findSecrets(withoutKeptMarkers(block.body));
    if (findings.length > 0) {
      return {
        kind: "keep",
        code: "secret",
        reason: `${describeSecrets(findings)} under the tag: remove it to file this block`,
      };
    }
  }
  return { kind: "route", target: target.value };
}

/**
 * The key that identifies a target file: its path in NFC (a folder spelled NFD on disk is the
 * same folder), lower-cased when `foldCase`.
 *
 * @example Usage
 * ```ts
 * import { foldKey } from "./classify.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(foldKey("Src/Caf\u0065\u0301.md", true), "src/caf\u00e9.md");
 * assert.equal(foldKey("Src/a.md", false), "Src/a.md");
 * ```
 */
export function foldKey(relPath: string, foldCase: boolean): string {
  const nfc = relPath.normalize("NFC");
  return foldCase ? nfc.toLowerCase() : nfc;
}

/**
 * Each block of `doc` with its {@link classifyBlock} class (pure): made once for a routing pass,
 * whose target list ({@link targetsToRead}) and plan (`route_plan.ts`) both need it (the secret
 * scan of every block body is most of a class's cost).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyBlocks } from "./classify.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * const doc = parseScratch("## [TAG: src, type: a]\n- x\n## [TAG: src]\n- y\n");
 * const classes = classifyBlocks(doc);
 * assert.deepEqual(doc.blocks.map((b) => classes.get(b)?.kind), ["route", "keep"]);
 * ```
 */
export function classifyBlocks(
  doc: ScratchDocument,
  options: ClassifyOptions = {},
): Map<ScratchBlock, BlockClass> {
  return new Map(doc.blocks.map((block) => [block, classifyBlock(block, options)]));
}

/**
 * The target files the routable blocks of `doc` need, as library-relative paths (one spelling
 * per file when `foldCase`), in first-use order.
 *
 * @example Usage
 * ```ts
 * import { targetsToRead } from "./classify.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("## [TAG: src, type: a]\n- x\n## [TAG: SRC, type: A]\n- y\n");
 * assert.deepEqual(targetsToRead(doc, true), ["src/a.md"]);
 * ```
 */
export function targetsToRead(
  doc: ScratchDocument,
  foldCase = false,
  options: ClassifyOptions = {},
  classes: ReadonlyMap<ScratchBlock, BlockClass> = classifyBlocks(doc, options),
): string[] {
  const seen = new Map<string, string>();
  for (const block of doc.blocks) {
    const decision = classes.get(block) ?? classifyBlock(block, options);
    if (decision.kind !== "route") continue;
    const key = foldKey(decision.target.relPath, foldCase);
    if (!seen.has(key)) seen.set(key, decision.target.relPath);
  }
  return [...seen.values()];
}
