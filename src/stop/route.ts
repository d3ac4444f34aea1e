/**
 * Routing scratch into the library (effectful): read, plan, write, rewrite scratch, under a
 * cross-process lock.
 *
 * Exactly once, whatever happens:
 * - The read-route-rewrite cycle runs under one lock per library (shared by every session's hook
 *   and by `librarian route`), so two runs never file the same block.
 * - Every file is replaced by temp-file-and-rename, so a reader or a crash never sees half a file.
 * - Scratch is rewritten by removing exactly the blocks that were filed (matched by raw text) from
 *   whatever scratch holds at that moment: anything appended meanwhile stays.
 * - A journal written before the targets records each target's text hash before and after; a run
 *   that finds a journal (the previous run crashed) treats blocks whose target already has its
 *   "after" text as filed, so nothing is appended twice. Bullets already present are skipped too.
 * - Every target path is resolved through symlinks (nearest existing ancestor) and must stay inside
 *   the library; a target that escapes keeps its blocks in scratch.
 *
 * @module
 */

import { tempSiblingOf, writeTextAtomicSync } from "../core/atomic.ts";
import { type Library, realPathOfNearest, scratchPathOf } from "../core/discover.ts";
import { claudeDir, type EnvReader, processEnv, stateDir } from "../core/env.ts";
import { hashText } from "../core/hash.ts";
import { isCaseInsensitiveOs, joinPath, relativeInside } from "../core/paths.ts";
import { acquireLock, LockTimeoutError, lockTimeoutFrom } from "./lock.ts";
import {
  applyScratchEdits,
  type BlockDecision,
  isNewlyKept,
  type KeepCode,
  localDay,
  planRoute,
  rawHash,
  type RoutePlan,
  type ScratchEdits,
  scratchEditsOf,
  type TargetState,
  targetsToRead,
  withFailedTargets,
} from "./plan.ts";
import { parseScratch, type ScratchDocument } from "./scratch.ts";

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
}

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
  /** Bullets left out because the target already had them. */
  duplicates: number;
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
   * - `unreadable`: scratch is not UTF-8 text (or cannot be read); nothing was touched.
   */
  status: "routed" | "dry-run" | "empty" | "locked" | "unreadable";
  /** The scratch file. */
  scratchPath: string;
  /** Blocks filed, in scratch order. */
  routed: RoutedEntry[];
  /** Target files written, by path. */
  targets: TargetEntry[];
  /** Blocks that stay in scratch, and why. */
  kept: KeptEntry[];
  /** How many kept blocks hold a likely credential. */
  secretsHeld: number;
  /** Empty tagged blocks removed from scratch. */
  emptyDropped: number;
  /** Blocks a crashed earlier run had filed, now removed from scratch. */
  recovered: number;
  /** Non-blank lines before the first tag (never routed). */
  untaggedLines: number;
  /** Items appended in all. */
  learnings: number;
  /** Bullets skipped because their target already had them. */
  duplicates: number;
  /** Targets that could not be written (their blocks stay in scratch). */
  failures: Array<{ target: string; error: string }>;
  /** Milliseconds spent waiting for the lock. */
  lockWaitMs?: number;
  /** Why the pass could not run (`locked`, `unreadable`). */
  error?: string;
}

/** Where the lock file and crash journal of a library live. */
export interface CoordinationPaths {
  lock: string;
  journal: string;
}

/**
 * The lock and journal files for `library`, keyed by its real path. They live under Claude
 * Code's config folder (`~/.claude/librarian/locks/`), which every process of the user sees alike
 * (a hook's `CLAUDE_PLUGIN_DATA` is not set for `librarian route` in a terminal); without a home
 * folder, under the state folder; failing that, next to scratch.
 */
export function coordinationPaths(library: Library, env: EnvReader): CoordinationPaths {
  const real = realPathOfNearest(library.root) ?? library.root;
  const key = hashText(isCaseInsensitiveOs() ? real.toLowerCase() : real);
  const claude = claudeDir(env);
  const state = stateDir(env);
  const dir = claude
    ? joinPath(claude, "librarian", "locks")
    : state
    ? joinPath(state, "locks")
    : undefined;
  if (!dir) {
    return {
      lock: joinPath(library.root, ".scratch.md.lock"),
      journal: joinPath(library.root, ".scratch.md.journal"),
    };
  }
  return { lock: joinPath(dir, `${key}.lock`), journal: joinPath(dir, `${key}.journal.json`) };
}

// ---------------------------------------------------------------------------------------------
// Reading.

type ReadResult = { kind: "missing" } | { kind: "text"; text: string } | {
  kind: "error";
  reason: string;
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads a file as UTF-8 text, keeping a BOM and line endings as they are. */
function readTextFile(path: string): ReadResult {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    if (error instanceof Deno.errors.IsADirectory) return { kind: "error", reason: "is a folder" };
    return { kind: "error", reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    return { kind: "text", text: utf8.decode(bytes) };
  } catch {
    return { kind: "error", reason: "is not UTF-8 text" };
  }
}

/** A target path checked against the library through symlinks, and its current state. */
interface ResolvedTarget {
  state: TargetState;
  /** The real path to write (a symlink inside the library is written through, not replaced). */
  realPath?: string;
}

function resolveTarget(library: Library, realRoot: string, relPath: string): ResolvedTarget {
  const real = realPathOfNearest(joinPath(library.root, relPath));
  const inside = real === null ? null : relativeInside(real, realRoot);
  if (real === null || inside === null || inside === "") {
    return {
      state: { kind: "blocked", reason: `${relPath} resolves outside the library (symlink)` },
    };
  }
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(real);
  } catch {
    info = undefined;
  }
  if (info && info.isDirectory) {
    return { state: { kind: "blocked", reason: `${relPath} is a folder` } };
  }
  if (info && !info.isFile) {
    return { state: { kind: "blocked", reason: `${relPath} is not a regular file` } };
  }
  if (!info) return { state: { kind: "missing" }, realPath: real };
  const read = readTextFile(real);
  if (read.kind === "text") return { state: { kind: "text", text: read.text }, realPath: real };
  if (read.kind === "missing") return { state: { kind: "missing" }, realPath: real };
  return { state: { kind: "blocked", reason: `${relPath} ${read.reason}` } };
}

// ---------------------------------------------------------------------------------------------
// The crash journal.

interface Journal {
  version: 1;
  targets: Array<{ target: string; before: string | null; after: string; blocks: string[] }>;
}

function loadJournal(path: string): Journal | null {
  const read = readTextFile(path);
  if (read.kind !== "text") return null;
  try {
    const value = JSON.parse(read.text) as Journal;
    if (value?.version !== 1 || !Array.isArray(value.targets)) return null;
    return value;
  } catch {
    return null;
  }
}

function removeFile(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // already gone
  }
}

/** Blocks a crashed run filed: those of journal targets that already hold their "after" text. */
function filedByCrashedRun(
  journal: Journal,
  resolve: (relPath: string) => ResolvedTarget,
): Map<string, number> {
  const filed = new Map<string, number>();
  for (const entry of journal.targets) {
    const { state } = resolve(entry.target);
    if (state.kind !== "text" || hashText(state.text) !== entry.after) continue;
    for (const block of entry.blocks) filed.set(block, (filed.get(block) ?? 0) + 1);
  }
  return filed;
}

function journalOf(plan: RoutePlan, decisions: readonly BlockDecision[], foldCase: boolean) {
  const fold = (p: string) => foldCase ? p.toLowerCase() : p;
  const journal: Journal = { version: 1, targets: [] };
  for (const write of plan.writes) {
    const blocks = decisions
      .filter((d) => d.kind === "route" && fold(d.target.relPath) === fold(write.relPath))
      .map((d) => rawHash(d.block.raw));
    journal.targets.push({
      target: write.relPath,
      before: write.before === null ? null : hashText(write.before),
      after: hashText(write.after),
      blocks,
    });
  }
  return journal;
}

// ---------------------------------------------------------------------------------------------
// Rewriting scratch.

/**
 * Applies edits to scratch as it is now. The new text goes to a temp file, scratch is read once
 * more, and only if it is still what the edits were applied to is the temp file renamed over it;
 * otherwise (someone appended in that instant) the edits are applied again.
 */
function rewriteScratch(path: string, edits: ScratchEdits): void {
  for (let attempt = 0; attempt < 8; attempt++) {
    const read = readTextFile(path);
    const current = read.kind === "text" ? read.text : "";
    if (read.kind === "error") throw new Error(`cannot read scratch: ${read.reason}`);
    const next = applyScratchEdits(current, edits);
    if (next === current) return;
    const temp = tempSiblingOf(path);
    Deno.writeTextFileSync(temp, next);
    const again = readTextFile(path);
    if ((again.kind === "text" ? again.text : "") !== current || again.kind === "error") {
      removeFile(temp);
      continue;
    }
    try {
      Deno.renameSync(temp, path);
    } catch (error) {
      removeFile(temp);
      throw error;
    }
    return;
  }
  throw new Error("scratch kept changing while it was being rewritten");
}

// ---------------------------------------------------------------------------------------------
// The pass.

function emptyReport(
  status: RouteReport["status"],
  scratchPath: string,
  error?: string,
): RouteReport {
  const report: RouteReport = {
    status,
    scratchPath,
    routed: [],
    targets: [],
    kept: [],
    secretsHeld: 0,
    emptyDropped: 0,
    recovered: 0,
    untaggedLines: 0,
    learnings: 0,
    duplicates: 0,
    failures: [],
  };
  if (error !== undefined) report.error = error;
  return report;
}

function reportOf(
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
      });
      report.duplicates += decision.duplicates;
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
  }
  report.failures = [...failures].map(([target, error]) => ({ target, error }));
  return report;
}

/**
 * One routing pass; the caller holds the lock (see {@link routeScratch}), or passes `dryRun`.
 * Exported for the stop hook, which syncs auto memory under the same lock first.
 */
export function routeLocked(library: Library, options: RouteOptions = {}): RouteReport {
  const env = options.env ?? processEnv();
  const scratchPath = scratchPathOf(library);
  const paths = coordinationPaths(library, env);
  const journal = options.dryRun ? null : loadJournal(paths.journal);
  const read = readTextFile(scratchPath);
  if (read.kind === "error") {
    return emptyReport("unreadable", scratchPath, `scratch ${read.reason}`);
  }
  const text = read.kind === "text" ? read.text : "";
  if (text.replace(/^\uFEFF/, "").trim() === "") {
    if (journal) removeFile(paths.journal);
    return emptyReport(options.dryRun ? "dry-run" : "empty", scratchPath);
  }

  const doc = parseScratch(text);
  const realRoot = realPathOfNearest(library.root) ?? library.root;
  const foldCase = isCaseInsensitiveOs();
  const resolved = new Map<string, ResolvedTarget>();
  const resolve = (relPath: string) => {
    let target = resolved.get(relPath);
    if (!target) resolved.set(relPath, target = resolveTarget(library, realRoot, relPath));
    return target;
  };
  const states = new Map<string, TargetState>();
  for (const relPath of targetsToRead(doc, foldCase)) states.set(relPath, resolve(relPath).state);
  const alreadyFiled = journal ? filedByCrashedRun(journal, resolve) : undefined;
  const plan = planRoute(doc, {
    today: localDay(options.now ?? new Date()),
    targets: states,
    foldCase,
    ...(alreadyFiled ? { alreadyFiled } : {}),
  });
  if (options.dryRun) {
    return reportOf("dry-run", scratchPath, doc, plan, plan.decisions, new Map());
  }

  if (plan.writes.length > 0) {
    writeTextAtomicSync(paths.journal, JSON.stringify(journalOf(plan, plan.decisions, foldCase)));
  }
  const failures = new Map<string, string>();
  for (const write of plan.writes) {
    const realPath = resolve(write.relPath).realPath;
    try {
      if (!realPath) throw new Error("target was not resolved");
      writeTextAtomicSync(realPath, write.after);
    } catch (error) {
      failures.set(write.relPath, error instanceof Error ? error.message : String(error));
    }
  }
  const decisions = withFailedTargets(plan.decisions, failures, foldCase);
  rewriteScratch(scratchPath, scratchEditsOf(decisions));
  if (journal || plan.writes.length > 0) removeFile(paths.journal);
  return reportOf("routed", scratchPath, doc, plan, decisions, failures);
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
  if (options.dryRun) return routeLocked(library, options);
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
  try {
    const report = routeLocked(library, { ...options, env });
    report.lockWaitMs = lock.waitedMs;
    return report;
  } finally {
    lock.release();
  }
}
