/**
 * Routing scratch into the library (effectful): read, plan, write, rewrite scratch, under a
 * cross-process lock (taken by `routeScratch` in `route_scratch.ts`, or by the Stop hook).
 *
 * Exactly once, whatever happens:
 * - The read-route-rewrite cycle runs under one lock per library (shared by every session's hook
 *   and by `librarian route`), so two runs never file the same block.
 * - Every file is replaced by temp-file-and-rename, so a reader or a crash never sees half a file.
 * - Scratch is rewritten by removing exactly the blocks that were filed (matched by raw text) from
 *   whatever scratch holds at that moment: anything appended meanwhile stays (scratch_rewrite.ts).
 * - The journal, written before the targets, records which blocks are being filed. A later run
 *   that finds such a block still in scratch (the previous run was killed before rewriting
 *   scratch, or a concurrent writer put it back) and every item of it already in the target
 *   leaves it out, so paragraphs are not appended twice either. Bullets already present are
 *   always skipped.
 * - Every target path is resolved through symlinks (targets.ts) and must stay inside the library;
 *   a target that escapes keeps its blocks in scratch.
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import {
  type Library,
  realPathOfNearest,
  scratchPathOf,
  trustsOwnersOf,
} from "../core/discover.ts";
import { type EnvReader, processEnv } from "../core/env.ts";
import { messageOf } from "../core/errors.ts";
import { isCaseInsensitiveOs } from "../core/paths.ts";
import { scratchFileProblem, scratchOwnerProblem } from "../core/scratch_file.ts";
import { localDay } from "./append.ts";
import { carryOverScratch } from "./carry_over.ts";
import { classifyBlocks, targetsToRead } from "./classify.ts";
import { carryPlaceOf, coordinationPaths, existingJournal } from "./coordination_paths.ts";
import { crashPoint, faultFires } from "../core/fault.ts";
import {
  type Journal,
  JOURNAL_VERSION,
  JournalError,
  type JournalLoad,
  loadJournal,
  saveJournal,
  withFiled,
} from "./journal.ts";
import { sweepAfterCrash } from "./crash_sweep.ts";
import { type PlanOptions, planRoute, rawHash, type TargetState } from "./route_plan.ts";
import { withFailedTargets } from "./write_failures.ts";
import { emptyReport, reportOf, type RouteReport } from "./route_report.ts";
import { parseScratch } from "../format/scratch.ts";
import { scratchEditsOf } from "./scratch_edits.ts";
import { existingSpelling } from "./spelling.ts";
import { rewriteScratch } from "./scratch_rewrite.ts";
import { deadFolderReason } from "./real_folder.ts";
import { readTextFile, type ResolvedTarget, resolveTarget } from "./targets.ts";
import { visibleFiles } from "./visible.ts";

/** Options for `routeScratch` (`route_scratch.ts`). */
export interface RouteOptions {
  /** Plan and report without writing anything (and without taking the lock). */
  dryRun?: boolean;
  /** The current time (its local calendar day dates the sections); default: now. */
  now?: Date;
  /** The environment (lock and journal location, `LIBRARIAN_LOCK_TIMEOUT_MS`). */
  env?: EnvReader;
  /** Lock timeout in ms; default `LIBRARIAN_LOCK_TIMEOUT_MS`, else 5 s. */
  lockTimeoutMs?: number;
  /** A larger scratch is not read (status `too-large`); default: no limit. */
  maxScratchBytes?: number;
  /** The most target files one pass writes; later blocks wait (see `PlanOptions.maxTargets`). */
  maxTargets?: number;
  /** File auto-memory blocks awaiting review too (`librarian route --accept`). */
  acceptReview?: boolean;
  /**
   * The journal (beside the lock the caller holds, see `acquireCoordination`); default: the
   * preferred one for the environment.
   */
  journal?: string;
  /** The provenance comment above each filed block (see `PlanOptions.provenanceFor`). */
  provenanceFor?: PlanOptions["provenanceFor"];
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}

/** Why scratch is too large to route in one pass, or null. */
function scratchTooLarge(path: string, maxBytes: number): string | null {
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch {
    return null;
  }
  if (size <= maxBytes) return null;
  return `scratch is ${megabytes(size)} MB, over the ${
    Math.round(maxBytes / 1_000_000)
  } MB one turn files; run 'librarian route' to file it`;
}

/**
 * One routing pass; the caller holds the lock (see `routeScratch` in `route_scratch.ts`), or
 * passes `dryRun`.
 * Exported for the stop hook, which syncs auto memory under the same lock first.
 *
 * @example Usage
 * ```ts
 * import { routeLocked } from "./route.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "## [TAG: global, type: tech]\n- use deno\n");
 * const library = { root, projectRoot: "/", foundBy: "cwd" as const };
 * const report = await routeLocked(library, { dryRun: true, journal: `${root}.filed.json` });
 * assert.equal(report.status, "dry-run");
 * assert.deepEqual(report.targets.map((t) => t.target), ["tech.md"]);
 * assert.ok(Deno.readTextFileSync(`${root}/.scratch.md`).includes("use deno"));
 * ```
 */
export async function routeLocked(
  library: Library,
  options: RouteOptions = {},
): Promise<RouteReport> {
  if (faultFires("route-throws")) throw new Error("routing failed (fault point)");
  const env = options.env ?? processEnv();
  const now = options.now ?? new Date();
  const scratchPath = scratchPathOf(library);
  const journalPath = options.journal ??
    (options.dryRun
      // None yet: the preferred one is read (as missing), for the old journals' window beside it.
      ? existingJournal(library, env) ?? coordinationPaths(library, env)?.journal
      : coordinationPaths(library, env)?.journal);
  if (!journalPath && !options.dryRun) {
    return emptyReport(
      "failed",
      scratchPath,
      "no folder for the lock and journal; set HOME or CLAUDE_CONFIG_DIR to a writable folder",
    );
  }
  const realRoot = realPathOfNearest(library.root) ?? library.root;
  const resolved = new Map<string, ResolvedTarget>();
  const resolve = (relPath: string) => {
    let target = resolved.get(relPath);
    if (!target) resolved.set(relPath, target = resolveTarget(library, realRoot, relPath));
    return target;
  };
  let load: JournalLoad;
  try {
    load = journalPath
      ? loadJournal(journalPath, { now: now.getTime(), setAside: !options.dryRun })
      : { journal: { version: JOURNAL_VERSION, filed: [] } };
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return emptyReport("failed", scratchPath, error.message);
  }
  const notices = !load.setAside
    ? []
    : options.dryRun
    ? [`the journal ${load.setAside.path} is damaged (${load.setAside.why}); a run sets it aside`]
    : [`the journal was damaged (${load.setAside.why}) and is set aside as ${load.setAside.path}`];
  const withNotices = (report: RouteReport) => {
    report.notices.push(...notices);
    return report;
  };
  let journal: Journal = load.journal;
  if (!options.dryRun && journalPath && journal.active) {
    // The previous run was killed while writing: clear its temp files before going on.
    sweepAfterCrash([
      scratchPath,
      journalPath,
      ...journal.active.map((target) => resolve(target).realPath),
    ]);
    const { active: _done, ...rest } = journal;
    journal = rest;
    try {
      saveJournal(journalPath, journal);
    } catch (error) {
      if (!(error instanceof JournalError)) throw error;
      return withNotices(emptyReport("failed", scratchPath, error.message));
    }
  }

  // another user's scratch in the user's library: neither carried into nor filed
  const trusts = trustsOwnersOf(library);
  const foreign = scratchOwnerProblem(scratchPath, trusts);
  if (foreign) return withNotices(emptyReport("unreadable", scratchPath, foreign));
  const carryPlaces = journalPath ? [carryPlaceOf(journalPath), scratchPath] : [scratchPath];
  if (!options.dryRun) {
    try {
      // What writers appended to scratch files earlier passes replaced (scratch_rewrite.ts).
      carryOverScratch(scratchPath, carryPlaces);
    } catch (error) {
      notices.push(`could not carry over late appends to scratch: ${messageOf(error)}`);
    }
  }

  const problem = scratchFileProblem(scratchPath, trusts);
  if (problem) return withNotices(emptyReport("unreadable", scratchPath, problem));
  const tooLarge = options.maxScratchBytes === undefined
    ? null
    : scratchTooLarge(scratchPath, options.maxScratchBytes);
  if (tooLarge) return withNotices(emptyReport("too-large", scratchPath, tooLarge));
  const read = readTextFile(scratchPath);
  if (read.kind === "error") {
    return withNotices(emptyReport("unreadable", scratchPath, `scratch ${read.reason}`));
  }
  const text = read.kind === "text" ? read.text : "";
  if (text.replace(/^\uFEFF/, "").trim() === "") {
    return withNotices(emptyReport(options.dryRun ? "dry-run" : "empty", scratchPath));
  }

  const doc = parseScratch(text);
  const foldCase = isCaseInsensitiveOs();
  const states = new Map<string, TargetState>();
  const maxTargets = options.maxTargets ?? Infinity;
  const acceptReview = options.acceptReview ?? false;
  const classes = classifyBlocks(doc, { acceptReview });
  for (
    const relPath of targetsToRead(doc, foldCase, { acceptReview }, classes).slice(0, maxTargets)
  ) {
    // Keyed by the spelling on disk: the planner matches it to the tag's NFC path (foldKey).
    const spelled = existingSpelling(library, relPath);
    // A tag that names a file or a folder that exists nowhere stays in scratch (real_folder.ts).
    const dead = deadFolderReason(library, spelled.split("/").slice(0, -1));
    states.set(spelled, dead ? { kind: "blocked", reason: dead } : resolve(spelled).state);
  }
  const plan = planRoute(doc, {
    today: localDay(now),
    targets: states,
    foldCase,
    filedBefore: new Set(journal.filed.map(([hash]) => hash)),
    maxTargets,
    acceptReview,
    visible: visibleFiles(library.root, states.keys(), foldCase),
    classes,
    ...(options.provenanceFor ? { provenanceFor: options.provenanceFor } : {}),
  });
  if (options.dryRun || !journalPath) {
    return withNotices(reportOf("dry-run", scratchPath, doc, plan, plan.decisions, new Map()));
  }
  const writesScratch = plan.edits.remove.length > 0 || plan.edits.replace.length > 0;
  if (plan.writes.length === 0 && !writesScratch) {
    return withNotices(reportOf("routed", scratchPath, doc, plan, plan.decisions, new Map()));
  }

  // Record what is about to be filed before touching any target: if this run is killed after
  // some targets are written, the next run knows those blocks are in (see PlanOptions).
  const routed = plan.decisions.filter((d) => d.kind === "route").map((d) => rawHash(d.block.raw));
  journal = withFiled(journal, routed, now.getTime());
  try {
    saveJournal(journalPath, { ...journal, active: plan.writes.map((w) => w.relPath) });
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return withNotices(emptyReport("failed", scratchPath, error.message));
  }
  crashPoint("after-journal-write");

  const failures = new Map<string, string>();
  for (const write of plan.writes) {
    const realPath = resolve(write.relPath).realPath;
    try {
      if (!realPath) throw new Error("target was not resolved");
      writeTextAtomicSync(realPath, write.after);
    } catch (error) {
      failures.set(write.relPath, messageOf(error));
    }
    crashPoint("after-target-write");
  }
  crashPoint("after-targets");
  const decisions = withFailedTargets(plan.decisions, failures, foldCase);
  let scratchError: string | undefined;
  try {
    await rewriteScratch(scratchPath, scratchEditsOf(decisions), {
      places: carryPlaces,
      // the plan's edits, unchanged when every write went in: their result is worked out
      ...(failures.size === 0 ? { known: { text, next: plan.scratchText } } : {}),
    });
  } catch (error) {
    // The filed blocks stay in scratch; the journal lets the next pass drop them, not refile them.
    scratchError = `could not update scratch: ${messageOf(error)}`;
  }
  crashPoint("after-scratch-rename");
  const report = withNotices(reportOf("routed", scratchPath, doc, plan, decisions, failures));
  try {
    saveJournal(journalPath, journal);
  } catch (error) {
    // Filed: the next run only sweeps temp files that are not there.
    scratchError ??= messageOf(error);
  }
  if (scratchError !== undefined) report.error = scratchError;
  return report;
}
