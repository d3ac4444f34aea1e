/**
 * Routing scratch into the library (effectful): read, plan, write, rewrite scratch, under a
 * cross-process lock.
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
import { type Library, realPathOfNearest, scratchPathOf } from "../core/discover.ts";
import { type EnvReader, processEnv } from "../core/env.ts";
import { messageOf } from "../core/errors.ts";
import { isCaseInsensitiveOs } from "../core/paths.ts";
import { scratchFileProblem } from "../core/scratch_file.ts";
import { localDay } from "./append.ts";
import { targetsToRead } from "./classify.ts";
import { coordinationPaths } from "./coordination.ts";
import { loadJournal, saveJournal, sweepAfterCrash, withFiled } from "./journal.ts";
import { acquireLock, LockTimeoutError, lockTimeoutFrom } from "./lock.ts";
import { planRoute, rawHash, type TargetState, withFailedTargets } from "./plan.ts";
import { emptyReport, reportOf, type RouteReport } from "./report.ts";
import { parseScratch } from "./scratch.ts";
import { scratchEditsOf } from "./scratch_edits.ts";
import { rewriteScratch } from "./scratch_rewrite.ts";
import { readTextFile, type ResolvedTarget, resolveTarget } from "./targets.ts";

/** Options for {@link routeScratch}. */
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
 * One routing pass; the caller holds the lock (see {@link routeScratch}), or passes `dryRun`.
 * Exported for the stop hook, which syncs auto memory under the same lock first.
 */
export async function routeLocked(
  library: Library,
  options: RouteOptions = {},
): Promise<RouteReport> {
  const env = options.env ?? processEnv();
  const now = options.now ?? new Date();
  const scratchPath = scratchPathOf(library);
  const paths = coordinationPaths(library, env);
  const realRoot = realPathOfNearest(library.root) ?? library.root;
  const resolved = new Map<string, ResolvedTarget>();
  const resolve = (relPath: string) => {
    let target = resolved.get(relPath);
    if (!target) resolved.set(relPath, target = resolveTarget(library, realRoot, relPath));
    return target;
  };
  let journal = loadJournal(paths.journal);
  if (!options.dryRun && journal.active) {
    // The previous run was killed while writing: clear its temp files before going on.
    sweepAfterCrash([
      scratchPath,
      paths.journal,
      ...journal.active.map((target) => resolve(target).realPath),
    ]);
    journal = { version: 2, filed: journal.filed };
    saveJournal(paths.journal, journal);
  }

  const problem = scratchFileProblem(scratchPath);
  if (problem) return emptyReport("unreadable", scratchPath, problem);
  const tooLarge = options.maxScratchBytes === undefined
    ? null
    : scratchTooLarge(scratchPath, options.maxScratchBytes);
  if (tooLarge) return emptyReport("too-large", scratchPath, tooLarge);
  const read = readTextFile(scratchPath);
  if (read.kind === "error") {
    return emptyReport("unreadable", scratchPath, `scratch ${read.reason}`);
  }
  const text = read.kind === "text" ? read.text : "";
  if (text.replace(/^\uFEFF/, "").trim() === "") {
    return emptyReport(options.dryRun ? "dry-run" : "empty", scratchPath);
  }

  const doc = parseScratch(text);
  const foldCase = isCaseInsensitiveOs();
  const states = new Map<string, TargetState>();
  const maxTargets = options.maxTargets ?? Infinity;
  const acceptReview = options.acceptReview ?? false;
  for (const relPath of targetsToRead(doc, foldCase, { acceptReview }).slice(0, maxTargets)) {
    states.set(relPath, resolve(relPath).state);
  }
  const plan = planRoute(doc, {
    today: localDay(now),
    targets: states,
    foldCase,
    filedBefore: new Set(journal.filed.map(([hash]) => hash)),
    maxTargets,
    acceptReview,
  });
  if (options.dryRun) {
    return reportOf("dry-run", scratchPath, doc, plan, plan.decisions, new Map());
  }
  const writesScratch = plan.edits.remove.length > 0 || plan.edits.replace.length > 0;
  if (plan.writes.length === 0 && !writesScratch) {
    return reportOf("routed", scratchPath, doc, plan, plan.decisions, new Map());
  }

  // Record what is about to be filed before touching any target: if this run is killed after
  // some targets are written, the next run knows those blocks are in (see PlanOptions).
  const routed = plan.decisions.filter((d) => d.kind === "route").map((d) => rawHash(d.block.raw));
  journal = withFiled(journal, routed, now.getTime());
  saveJournal(paths.journal, { ...journal, active: plan.writes.map((w) => w.relPath) });

  const failures = new Map<string, string>();
  for (const write of plan.writes) {
    const realPath = resolve(write.relPath).realPath;
    try {
      if (!realPath) throw new Error("target was not resolved");
      writeTextAtomicSync(realPath, write.after);
    } catch (error) {
      failures.set(write.relPath, messageOf(error));
    }
  }
  const decisions = withFailedTargets(plan.decisions, failures, foldCase);
  let scratchError: string | undefined;
  try {
    await rewriteScratch(scratchPath, scratchEditsOf(decisions));
  } catch (error) {
    // The filed blocks stay in scratch; the journal lets the next pass drop them, not refile them.
    scratchError = `could not update scratch: ${messageOf(error)}`;
  }
  saveJournal(paths.journal, journal);
  const report = reportOf("routed", scratchPath, doc, plan, decisions, failures);
  if (scratchError !== undefined) report.error = scratchError;
  return report;
}

/**
 * Files every routable scratch block of `library` into its target file, under the library's
 * lock, and reports what moved where, what stayed and why.
 *
 * With `dryRun`, nothing is written and no lock is taken: the report is the plan.
 * If another run holds the lock past the timeout, nothing is touched and the status is `locked`.
 */
export async function routeScratch(
  library: Library,
  options: RouteOptions = {},
): Promise<RouteReport> {
  if (options.dryRun) return await routeLocked(library, options);
  const env = options.env ?? processEnv();
  const timeoutMs = options.lockTimeoutMs ?? lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  const paths = coordinationPaths(library, env);
  let lock;
  try {
    lock = await acquireLock(paths.lock, { timeoutMs });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    return emptyReport("locked", scratchPathOf(library), error.message);
  }
  await using held = lock;
  const report = await routeLocked(library, { ...options, env });
  report.lockWaitMs = held.waitedMs;
  return report;
}
