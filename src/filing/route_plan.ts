/**
 * The route planner (pure): parsed scratch + today's date + the current texts of the target
 * files → the new text of each target file, the blocks that stay in scratch and why, and the
 * scratch edits.
 *
 * Its steps live beside it: {@link classifyBlock} (classify.ts), items and duplicates
 * (items.ts), the dated append (append.ts) and the scratch edits (scratch_edits.ts). A bullet
 * already in the target file (same text after trimming) is not appended again; a block whose
 * target cannot be written stays in scratch with a reason (write_failures.ts).
 *
 * The effectful side (`route.ts`) reads the targets, checks them against symlink escapes, writes
 * the results and applies the edits to whatever scratch holds by then.
 *
 * @module
 */

import { hashUtf8 } from "../core/hash.ts";
import { parseProvenance, type Provenance } from "../format/provenance.ts";
import { appendLearnings, lastProvenanceToday } from "./append.ts";
import { type BlockClass, type BlockDecision, classifyBlock, foldKey } from "./classify.ts";
import {
  bodyLines,
  isBulletPresent,
  isItemPresent,
  type Item,
  type PresentItems,
  presentItems,
  remember,
  splitItems,
  vouchedMarkerItem,
} from "./items.ts";
import { analysisLines } from "../format/markdown.ts";
import {
  comparableKey,
  keyLines,
  type KnownAt,
  KnownLearnings,
  type VisibleFile,
} from "./known.ts";
import { applyScratchEditsTo, type ScratchEdits, scratchEditsOf } from "./scratch_edits.ts";
import { type ScratchBlock, type ScratchDocument, type TaggedBlock } from "../format/scratch.ts";
import type { TagTarget } from "../format/tag_rules.ts";

/** The current state of a target file, as read by the caller. */
export type TargetState =
  | { kind: "missing" }
  | { kind: "text"; text: string }
  | { kind: "blocked"; reason: string };

/** Inputs of {@link planRoute} besides the document. */
export interface PlanOptions {
  /** The local calendar day, `YYYY-MM-DD`. */
  today: string;
  /** Target states by library-relative path, as listed by `targetsToRead` (classify.ts). */
  targets: ReadonlyMap<string, TargetState>;
  /**
   * Hashes ({@link rawHash}) of blocks an earlier run filed (or was about to file when it was
   * killed). Such a block whose every item is already in its target leaves scratch without
   * being appended again, so paragraphs are not duplicated by a rerun after a crash, or when a
   * filed block reappears in scratch because a concurrent writer put it back.
   */
  filedBefore?: ReadonlySet<string>;
  /** Treat target paths that differ only in case as one file (macOS, Windows). */
  foldCase?: boolean;
  /**
   * The most target files this pass writes, in the order scratch first names them; blocks for
   * later targets are deferred (they stay in scratch as they are). Default: no limit.
   */
  maxTargets?: number;
  /** File blocks awaiting review instead of keeping them (`librarian route --accept`). */
  acceptReview?: boolean;
  /**
   * The provenance comment line written above each filed block (none when absent or when it
   * returns `undefined`). `own` is the provenance comment the block carries itself, if any (blocks
   * synced from auto memory say where they came from).
   */
  provenanceFor?: (target: TagTarget, own: Provenance | undefined) => string | undefined;
  /**
   * The library files sent along with each target (the other files of its folder and of the
   * folders above), by target path as in {@link targets}: a learning already in one of them, or
   * in the target, is not filed again (compared in normalised form, see `known.ts`).
   */
  visible?: ReadonlyMap<string, readonly VisibleFile[]>;
  /**
   * The blocks' classes, when the caller made them already for the same options
   * (`classify.ts` `classifyBlocks`); a block without one is classified here.
   */
  classes?: ReadonlyMap<ScratchBlock, BlockClass>;
}

/**
 * The provenance comment a block carries in its body, if any (pure).
 *
 * @example Usage
 * ```ts
 * import { ownProvenance } from "./route_plan.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "## [TAG: global, type: tech]\n<!-- librarian: 2026-11-30 from:auto-memory/a.md -->\n- x\n";
 * const block = parseScratch(text).blocks[0]!;
 * assert.equal(block.kind, "tagged");
 * if (block.kind === "tagged") assert.equal(ownProvenance(block)?.origin, "auto-memory/a.md");
 * ```
 */
export function ownProvenance(block: TaggedBlock): Provenance | undefined {
  for (const line of block.body.split("\n")) {
    const found = parseProvenance(line);
    if (found) return found;
  }
  return undefined;
}

/** The new content of one target file. */
export interface TargetWrite {
  /** Library-relative path (`/`-separated). */
  relPath: string;
  /** The file-name stem (the tag type). */
  name: string;
  /** The text before, or `null` when the file is new. */
  before: string | null;
  /** The text to write. */
  after: string;
  /** How many items this write appends. */
  added: number;
}

/** Changes to apply to scratch text: blocks to remove and blocks to replace (by raw text). */

/** A complete plan. */
export interface RoutePlan {
  /** One decision per block, in document order. */
  decisions: BlockDecision[];
  /** Target files whose text changes, sorted by path. */
  writes: TargetWrite[];
  /** The scratch edits the decisions imply. */
  edits: ScratchEdits;
  /** The new scratch text, when scratch has not changed since it was read. */
  scratchText: string;
}

// The plan.

/**
 * The identity of a block's raw text (for {@link PlanOptions.filedBefore}): line endings and
 * trailing whitespace do not count, so a block that gained a final line break (another block was
 * appended after it) or was saved with other line endings is still the block that was filed.
 * XXH32-based ({@link hashUtf8}).
 *
 * @example Usage
 * ```ts
 * import { rawHash } from "./route_plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(rawHash("## [TAG: global, type: tech]\r\n- a  \n\n"), rawHash("## [TAG: global, type: tech]\n- a"));
 * assert.notEqual(rawHash("- a"), rawHash("- b"));
 * assert.match(rawHash("- a"), /^[0-9a-f]{16}$/);
 * ```
 */
export function rawHash(raw: string): string {
  return hashUtf8(raw.replaceAll("\r\n", "\n").trimEnd());
}

/**
 * Plans one routing pass.
 *
 * @example Usage
 * ```ts
 * import { planRoute } from "./route_plan.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("## [TAG: global, type: tech]\n- use deno\n");
 * const targets = new Map([["tech.md", { kind: "missing" as const }]]);
 * const plan = planRoute(doc, { today: "2026-11-30", targets });
 * assert.equal(plan.writes[0]!.after, "# tech\n\n## Learnings (2026-11-30)\n\n- use deno\n");
 * assert.equal(plan.scratchText, "");
 * ```
 */
export function planRoute(doc: ScratchDocument, options: PlanOptions): RoutePlan {
  const foldCase = options.foldCase ?? false;
  const filedBefore = options.filedBefore ?? new Set<string>();
  const routedInRun = new Set<string>();
  const spelling = new Map<string, string>();
  for (const relPath of options.targets.keys()) spelling.set(foldKey(relPath, foldCase), relPath);

  interface Pending {
    relPath: string;
    name: string;
    before: string | null;
    present: PresentItems;
    items: Item[];
    /** How many of `items` are not-a-secret markers (not learnings). */
    markers: number;
    /** The provenance line written last for this target in this pass. */
    provenance?: string;
  }
  const pending = new Map<string, Pending>();
  const known = new KnownLearnings();
  const toPlace: { at: KnownAt; key: string }[] = [];
  const decisions: BlockDecision[] = [];
  const maxTargets = options.maxTargets ?? Infinity;
  const admitted = new Set<string>();

  for (const block of doc.blocks) {
    if (block.kind === "preamble") {
      decisions.push({ kind: "stay", block });
      continue;
    }
    const cls = options.classes?.get(block) ??
      classifyBlock(block, { acceptReview: options.acceptReview ?? false });
    if (cls.kind === "drop") {
      decisions.push({ kind: "drop", block, why: cls.why });
      continue;
    }
    if (cls.kind === "keep") {
      decisions.push({ kind: "keep", block, code: cls.code, reason: cls.reason });
      continue;
    }
    if (cls.kind !== "route" || block.kind !== "tagged") continue; // not reachable: only tagged blocks route
    const key = foldKey(cls.target.relPath, foldCase);
    if (!admitted.has(key)) {
      if (admitted.size >= maxTargets) {
        decisions.push({ kind: "defer", block, target: cls.target });
        continue;
      }
      admitted.add(key);
    }
    const relPath = spelling.get(key);
    const state = relPath === undefined ? undefined : options.targets.get(relPath);
    if (relPath === undefined || state === undefined) {
      decisions.push({ kind: "keep", block, code: "target", reason: "target file was not read" });
      continue;
    }
    if (state.kind === "blocked") {
      decisions.push({ kind: "keep", block, code: "target", reason: state.reason });
      continue;
    }
    let target = pending.get(key);
    if (!target) {
      const before = state.kind === "text" ? state.text : null;
      target = {
        relPath,
        name: cls.target.name,
        before,
        present: presentItems(before === null ? [] : analysisLines(before)),
        items: [],
        markers: 0,
      };
      const earlier = lastProvenanceToday(before, options.today);
      if (earlier !== undefined) target.provenance = earlier;
      pending.set(key, target);
      known.addTarget(relPath, before, options.visible?.get(relPath) ?? []);
    }
    const items = splitItems(bodyLines(block.body));
    const hash = rawHash(block.raw);
    if (
      (filedBefore.has(hash) || routedInRun.has(hash)) &&
      items.every((item) => isItemPresent(item, target.present))
    ) {
      decisions.push({ kind: "drop", block, why: "already-filed" });
      continue;
    }
    routedInRun.add(hash);
    const knownAt: KnownAt[] = [];
    const fresh: Item[] = [];
    items.forEach((item, index) => {
      const comparable = comparableKey(item);
      const already = comparable === undefined ? undefined : known.find(target.relPath, comparable);
      if (already) {
        knownAt.push(already);
        if (already.line === 0) toPlace.push({ at: already, key: comparable! });
        return;
      }
      if (item.bullet && isBulletPresent(item, target.present)) {
        knownAt.push({ file: target.relPath, line: 0 });
        return;
      }
      // The first item of a block continues the list only if both are bullets.
      fresh.push(index === 0 ? { ...item, gapBefore: false } : item);
      remember(item, target.present);
      if (comparable !== undefined) known.remember(target.relPath, comparable);
    });
    const duplicates = knownAt.length;
    const added = fresh.length;
    const provenance = added > 0
      ? options.provenanceFor?.(cls.target, ownProvenance(block))
      : undefined;
    // One comment covers the items below it up to the next one: an identical one is not repeated.
    if (provenance !== undefined && provenance !== target.provenance) {
      target.items.push({ lines: [provenance], bullet: false, gapBefore: true, attached: true });
      target.provenance = provenance;
    }
    const marker = added > 0 ? vouchedMarkerItem(block.body) : null;
    if (marker && !isItemPresent(marker, target.present)) {
      target.items.push(marker);
      remember(marker, target.present);
      target.markers++;
    }
    target.items.push(...fresh);
    decisions.push({ kind: "route", block, target: cls.target, added, duplicates, known: knownAt });
  }

  const writes: TargetWrite[] = [];
  for (const target of pending.values()) {
    const added = target.items.filter((item) => !item.attached).length - target.markers;
    if (added <= 0) continue;
    writes.push({
      relPath: target.relPath,
      name: target.name,
      before: target.before,
      after: appendLearnings(target.before, target.name, options.today, target.items),
      added,
    });
  }
  writes.sort((a, b) => a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  placeKnown(toPlace, writes);
  const edits = scratchEditsOf(decisions);
  return { decisions, writes, edits, scratchText: applyScratchEditsTo(doc, edits) };
}

/**
 * Gives a line to each learning found known because this pass files it too (line 0): the line
 * of the first learning with its key in the new text of the file it was filed into.
 */
function placeKnown(
  toPlace: readonly { at: KnownAt; key: string }[],
  writes: readonly TargetWrite[],
): void {
  const lines = new Map<string, Map<string, number>>();
  for (const { at, key } of toPlace) {
    let found = lines.get(at.file);
    if (!found) {
      const write = writes.find((w) => w.relPath === at.file);
      lines.set(at.file, found = keyLines(write?.after ?? ""));
    }
    const line = found.get(key);
    if (line !== undefined) at.line = line;
  }
}
