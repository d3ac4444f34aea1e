/**
 * What a routing pass did, for the user and the log: built from the plan and the decisions
 * that held after the writes.
 *
 * @module
 */

import { type BlockDecision, type KeepCode } from "./classify.ts";
import type { RoutePlan } from "./route_plan.ts";
import type { ScratchDocument } from "../format/scratch.ts";
import { isNewlyKept } from "./scratch_edits.ts";
import type { KnownAt } from "./known.ts";
import { stripMetadata } from "../format/library_doc.ts";

/** One block filed into a target. */
export interface RoutedEntry {
  /** 1-based line of the block's tag line in scratch. */
  line: number;
  /** The tag line. */
  tag: string;
  /** Library-relative target path. */
  target: string;
  /** Items appended. */
  added: number;
  /** Learnings left out because the library already had them. */
  duplicates: number;
  /** Where each of those is (library file and line). */
  known: KnownAt[];
}

/** One block that stays in scratch. */
export interface KeptEntry {
  line: number;
  tag: string;
  code: KeepCode;
  /** One line for a person. */
  reason: string;
  /** False when the block already carried this reason (the user was told before). */
  newly: boolean;
}

/** One target file written (or, in a dry run, to be written). */
export interface TargetEntry {
  target: string;
  /** Items appended. */
  added: number;
  /** True when the file did not exist. */
  created: boolean;
}

/** What a routing pass did (or, with `dryRun`, would do). */
export interface RouteReport {
  /**
   * - `routed`: the pass ran (it may have found nothing to file);
   * - `dry-run`: planned only;
   * - `empty`: no scratch file, or only whitespace;
   * - `locked`: another run held the lock past the timeout; nothing was touched;
   * - `unreadable`: scratch is not UTF-8 text, cannot be read, or is not a plain file (a
   *   symlink, a folder, a FIFO, a file with other hard links); nothing was touched;
   * - `too-large`: scratch is over `RouteOptions.maxScratchBytes`; nothing was touched;
   * - `failed`: the lock or the journal could not be used (`error` says why and what to fix);
   *   nothing was filed.
   */
  status: "routed" | "dry-run" | "empty" | "locked" | "unreadable" | "too-large" | "failed";
  /** The scratch file. */
  scratchPath: string;
  /** Blocks filed, in scratch order. */
  routed: RoutedEntry[];
  /** Target files written, by path. */
  targets: TargetEntry[];
  /**
   * The knowledge (characters without metadata lines) of each target written, before and after:
   * what the Stop hook compares with the file's fair share of the budget.
   */
  grown: { target: string; before: number; after: number }[];
  /** Blocks that stay in scratch, and why. */
  kept: KeptEntry[];
  /** How many kept blocks hold a likely credential. */
  secretsHeld: number;
  /** Empty tagged blocks removed from scratch. */
  emptyDropped: number;
  /**
   * Blocks removed from scratch without appending, because everything in them was filed already
   * (by an earlier run that was killed before rewriting scratch, or as an identical block above).
   */
  recovered: number;
  /** Blocks left in scratch, untouched, for a later pass (see `RouteOptions.maxTargets`). */
  deferred: number;
  /** Non-blank lines before the first tag (never routed). */
  untaggedLines: number;
  /** Items appended in all. */
  learnings: number;
  /** Learnings left out because the library already had them. */
  duplicates: number;
  /** Where each of those is, in scratch order (library file and 1-based line; 0: unknown). */
  known: KnownAt[];
  /** Targets that could not be written (their blocks stay in scratch). */
  failures: Array<{ target: string; error: string }>;
  /** Things the user must hear about besides the filing (a damaged journal set aside). */
  notices: string[];
  /** Milliseconds spent waiting for the lock. */
  lockWaitMs?: number;
  /**
   * Why the pass could not run (`locked`, `unreadable`, `too-large`), or, after a pass that
   * filed, why scratch could not be updated (its blocks are then dropped by the next pass).
   */
  error?: string;
}

/**
 * A report of a pass that filed nothing (`status`, and why, when it did not run).
 *
 * @example Usage
 * ```ts
 * import { emptyReport } from "./route_report.ts";
 * import assert from "node:assert/strict";
 *
 * const report = emptyReport("locked", "/lib/.scratch.md", "another run holds the lock");
 * assert.equal(report.status, "locked");
 * assert.equal(report.error, "another run holds the lock");
 * assert.deepEqual([report.routed, report.kept, report.learnings], [[], [], 0]);
 * ```
 */
export function emptyReport(
  status: RouteReport["status"],
  scratchPath: string,
  error?: string,
): RouteReport {
  const report: RouteReport = {
    status,
    scratchPath,
    routed: [],
    targets: [],
    grown: [],
    kept: [],
    secretsHeld: 0,
    emptyDropped: 0,
    recovered: 0,
    deferred: 0,
    untaggedLines: 0,
    learnings: 0,
    duplicates: 0,
    known: [],
    failures: [],
    notices: [],
  };
  if (error !== undefined) report.error = error;
  return report;
}

/**
 * The report of a pass: its plan, the decisions after the writes, and the write failures.
 *
 * @example Usage
 * ```ts
 * import { reportOf } from "./route_report.ts";
 * import { planRoute } from "./route_plan.ts";
 * import { parseScratch } from "../format/scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("note\n## [TAG: global, type: tech]\n- use deno\n");
 * const plan = planRoute(doc, { today: "2026-11-30", targets: new Map([["tech.md", { kind: "missing" as const }]]) });
 * const report = reportOf("routed", "/lib/.scratch.md", doc, plan, plan.decisions, new Map());
 * assert.deepEqual(report.targets, [{ target: "tech.md", added: 1, created: true }]);
 * assert.equal(report.learnings, 1);
 * assert.equal(report.untaggedLines, 1);
 * ```
 */
export function reportOf(
  status: RouteReport["status"],
  scratchPath: string,
  doc: ScratchDocument,
  plan: RoutePlan,
  decisions: readonly BlockDecision[],
  failures: ReadonlyMap<string, string>,
): RouteReport {
  const report = emptyReport(status, scratchPath);
  for (const block of doc.blocks) {
    if (block.kind === "preamble") {
      report.untaggedLines += block.raw.split("\n").filter((l) => l.trim() !== "").length;
    }
  }
  for (const decision of decisions) {
    if (decision.kind === "route") {
      report.routed.push({
        line: decision.block.startLine,
        tag: decision.block.tagLine.trim(),
        target: decision.target.relPath,
        added: decision.added,
        duplicates: decision.duplicates,
        known: decision.known,
      });
      report.duplicates += decision.duplicates;
      report.known.push(...decision.known);
    } else if (decision.kind === "keep") {
      report.kept.push({
        line: decision.block.startLine,
        tag: decision.block.tagLine.trim(),
        code: decision.code,
        reason: decision.reason,
        newly: isNewlyKept(decision),
      });
      if (decision.code === "secret") report.secretsHeld++;
    } else if (decision.kind === "drop") {
      if (decision.why === "empty") report.emptyDropped++;
      else report.recovered++;
    } else if (decision.kind === "defer") {
      report.deferred++;
    }
  }
  for (const write of plan.writes) {
    if (failures.has(write.relPath)) continue;
    report.targets.push({
      target: write.relPath,
      added: write.added,
      created: write.before === null,
    });
    report.learnings += write.added;
    report.grown.push({
      target: write.relPath,
      before: write.before === null ? 0 : stripMetadata(write.before).length,
      after: stripMetadata(write.after).length,
    });
  }
  report.failures = [...failures].map(([target, error]) => ({ target, error }));
  return report;
}
