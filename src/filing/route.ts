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
 * - A ledger written before the targets records which blocks are being filed. A later run that
 *   finds such a block still in scratch (the previous run was killed before rewriting scratch, or
 *   a concurrent writer put it back) and every item of it already in the target leaves it out,
 *   so paragraphs are not appended twice either. Bullets already present are always skipped.
 * - Every target path is resolved through symlinks (nearest existing ancestor) and must stay inside
 *   the library; a target that escapes keeps its blocks in scratch.
 *
 * @module
 */

import { readAllSync } from "../core/read_all.ts";
import { isTempSiblingName, tempSiblingOf, writeTextAtomicSync } from "../core/atomic.ts";
import { type Library, realPathOfNearest, scratchPathOf } from "../core/discover.ts";
import { claudeDir, type EnvReader, homeDir, processEnv, stateDir } from "../core/env.ts";
import { hashText } from "../core/hash.ts";
import {
  basenameOf,
  dirnameOf,
  isCaseInsensitiveOs,
  joinPath,
  relativeInside,
} from "../core/paths.ts";
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
import { scratchFileProblem } from "../core/scratch_file.ts";
import { messageOf } from "../core/errors.ts";

/** Options for {@link routeScratch}. */
export interface RouteOptions {
  /** Plan and report without writing anything (and without taking the lock). */
  dryRun?: boolean;
  /** The current time (its local calendar day dates the sections); default: now. */
  now?: Date;
  /** The environment (lock and ledger location, `LIBRARIAN_LOCK_TIMEOUT_MS`). */
  env?: EnvReader;
  /** Lock timeout in ms; default `LIBRARIAN_LOCK_TIMEOUT_MS`, else 5 s. */
  lockTimeoutMs?: number;
  /** A larger scratch is not read (status `too-large`); default: no limit. */
  maxScratchBytes?: number;
  /** The most target files one pass writes; later blocks wait (see `PlanOptions.maxTargets`). */
  maxTargets?: number;
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
   * - `unreadable`: scratch is not UTF-8 text, cannot be read, or is not a plain file (a
   *   symlink, a folder, a FIFO, a file with other hard links); nothing was touched;
   * - `too-large`: scratch is over {@link RouteOptions.maxScratchBytes}; nothing was touched.
   */
  status: "routed" | "dry-run" | "empty" | "locked" | "unreadable" | "too-large";
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
  /**
   * Blocks removed from scratch without appending, because everything in them was filed already
   * (by an earlier run that was killed before rewriting scratch, or as an identical block above).
   */
  recovered: number;
  /** Blocks left in scratch, untouched, for a later pass (see {@link RouteOptions.maxTargets}). */
  deferred: number;
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
  /**
   * Why the pass could not run (`locked`, `unreadable`, `too-large`), or, after a pass that
   * filed, why scratch could not be updated (its blocks are then dropped by the next pass).
   */
  error?: string;
}

/** Where the lock file and the filed ledger of a library live. */
export interface CoordinationPaths {
  lock: string;
  ledger: string;
}

/**
 * The lock and ledger files for `library`, keyed by its real path. They live in
 * `~/.claude/librarian/locks/` under the home folder, which every process of the user sees alike:
 * a hook's `CLAUDE_PLUGIN_DATA` is not set for `librarian route` in a terminal, and two Claude
 * Code accounts (`CLAUDE_CONFIG_DIR`) working on one project must still share one lock. Without
 * a home folder: under Claude Code's config folder, else the state folder, else next to scratch.
 */
export function coordinationPaths(library: Library, env: EnvReader): CoordinationPaths {
  const real = realPathOfNearest(library.root) ?? library.root;
  const key = hashText(isCaseInsensitiveOs() ? real.toLowerCase() : real);
  const home = homeDir(env);
  const claude = home ? joinPath(home, ".claude") : claudeDir(env);
  const state = stateDir(env);
  const dir = claude
    ? joinPath(claude, "librarian", "locks")
    : state
    ? joinPath(state, "locks")
    : undefined;
  if (!dir) {
    return {
      lock: joinPath(library.root, ".scratch.md.lock"),
      ledger: joinPath(library.root, ".scratch.md.filed.json"),
    };
  }
  return { lock: joinPath(dir, `${key}.lock`), ledger: joinPath(dir, `${key}.filed.json`) };
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
    return { kind: "error", reason: messageOf(error) };
  }
  try {
    return { kind: "text", text: utf8.decode(bytes) };
  } catch {
    return { kind: "error", reason: "is not UTF-8 text" };
  }
}

/** The first part of `relPath` under `root` that is a symlink which does not resolve, or null. */
function brokenLinkOn(root: string, relPath: string): string | null {
  const segments = relPath.split("/");
  let path = root;
  for (let i = 0; i < segments.length; i++) {
    path = joinPath(path, segments[i]!);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return null; // missing from here on
    }
    if (!info.isSymlink) continue;
    try {
      Deno.realPathSync(path);
    } catch {
      return segments.slice(0, i + 1).join("/");
    }
  }
  return null;
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
  if (!info) {
    // A broken symlink on the way counts as missing above; writing there would follow it.
    const broken = brokenLinkOn(library.root, relPath);
    if (broken !== null) {
      return { state: { kind: "blocked", reason: `${relPath}: ${broken} is a broken symlink` } };
    }
    return { state: { kind: "missing" }, realPath: real };
  }
  const read = readTextFile(real);
  if (read.kind === "text") return { state: { kind: "text", text: read.text }, realPath: real };
  if (read.kind === "missing") return { state: { kind: "missing" }, realPath: real };
  return { state: { kind: "blocked", reason: `${relPath} ${read.reason}` } };
}

// ---------------------------------------------------------------------------------------------
// The filed ledger (crash journal).

/** Blocks filed in the last 30 days are remembered (at most {@link LEDGER_MAX_ENTRIES}). */
export const LEDGER_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The most block hashes the ledger keeps. */
export const LEDGER_MAX_ENTRIES = 5_000;

/**
 * What routing remembers between runs: the hashes of blocks it filed (written before the
 * targets, so a run killed mid-way is covered), and, while a run is writing, which files it
 * writes (so the next run can clear the temp files a killed run left).
 */
interface Ledger {
  version: 2;
  /** `[raw-block hash, time filed (ms)]`, oldest first. */
  filed: Array<[string, number]>;
  /** Library-relative targets being written; present only while a run is in its write phase. */
  active?: string[];
}

function loadLedger(path: string): Ledger {
  const read = readTextFile(path);
  if (read.kind === "text") {
    try {
      const value = JSON.parse(read.text) as Ledger;
      if (value?.version === 2 && Array.isArray(value.filed)) return value;
    } catch {
      // damaged: start afresh (bullets already present are still skipped)
    }
  }
  return { version: 2, filed: [] };
}

function saveLedger(path: string, ledger: Ledger): void {
  writeTextAtomicSync(path, JSON.stringify(ledger));
}

/** The ledger with `hashes` filed `now` (each hash once, newest last), old entries dropped. */
function withFiled(ledger: Ledger, hashes: readonly string[], now: number): Ledger {
  const cutoff = now - LEDGER_MAX_AGE_MS;
  const filed = new Map<string, number>();
  for (const [hash, at] of ledger.filed) if (at >= cutoff) filed.set(hash, at);
  for (const hash of hashes) {
    filed.delete(hash);
    filed.set(hash, now);
  }
  return { version: 2, filed: [...filed].slice(-LEDGER_MAX_ENTRIES) };
}

/**
 * Removes temp files a killed run left next to `path` (`<name>.tmp-<pid>-<n>-<random>`, see
 * `tempSiblingOf`; a person's `<name>.tmp-notes.md` is not one). Only called under the lock,
 * after a crash, so no live writer owns them.
 */
function sweepTempSiblings(path: string): void {
  const name = basenameOf(path);
  try {
    for (const entry of Deno.readDirSync(dirnameOf(path))) {
      if (entry.isFile && isTempSiblingName(entry.name, name)) {
        removeFile(joinPath(dirnameOf(path), entry.name));
      }
    }
  } catch {
    // the folder is gone: nothing to sweep
  }
}

function sweepAfterCrash(
  active: readonly string[],
  scratchPath: string,
  ledgerPath: string,
  resolve: (relPath: string) => ResolvedTarget,
): void {
  sweepTempSiblings(scratchPath);
  sweepTempSiblings(ledgerPath);
  for (const target of active) {
    const realPath = resolve(target).realPath;
    if (realPath) sweepTempSiblings(realPath);
  }
}

function removeFile(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------
// Rewriting scratch.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function readAllFrom(file: Deno.FsFile, offset: number): Uint8Array {
  file.seekSync(offset, Deno.SeekMode.Start);
  return readAllSync(file);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function renameOver(from: string, to: string, beforeRetry: () => void): void {
  try {
    Deno.renameSync(from, to);
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied) || Deno.build.os !== "windows") {
      throw error;
    }
    beforeRetry();
    Deno.renameSync(from, to);
  }
}

/**
 * Applies edits to scratch as it is now, by temp-file-and-rename.
 *
 * Scratch is read through an open handle; after the new text is in the temp file, scratch is
 * read again, and only if it is unchanged is the temp file renamed over it (otherwise the edits
 * are applied again). A writer that had scratch open before the rename may still append to the
 * old file a moment later: whatever it appended is carried over to the new file, checked right
 * after the rename and once more a few milliseconds later.
 */
async function rewriteScratch(path: string, edits: ScratchEdits): Promise<void> {
  for (let attempt = 0; attempt < 8; attempt++) {
    let file: Deno.FsFile | undefined;
    try {
      file = Deno.openSync(path, { read: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    try {
      const bytes = file ? readAllFrom(file, 0) : new Uint8Array();
      let current: string;
      try {
        current = utf8.decode(bytes);
      } catch {
        throw new Error("scratch is not UTF-8 text");
      }
      const next = applyScratchEdits(current, edits);
      if (next === current) return;
      const temp = tempSiblingOf(path);
      Deno.writeTextFileSync(temp, next);
      let again: Uint8Array;
      try {
        again = Deno.readFileSync(path);
      } catch {
        again = new Uint8Array();
      }
      if (!sameBytes(again, bytes)) {
        removeFile(temp);
        continue;
      }
      try {
        renameOver(temp, path, () => {
          // Windows may refuse to replace a file we hold open: let go of it (and of the
          // carry-over check, a Unix concern) and try once more.
          file?.close();
          file = undefined;
        });
      } catch (error) {
        removeFile(temp);
        throw error;
      }
      if (file) {
        let carried = bytes.length;
        for (const wait of [0, 5]) {
          if (wait) await sleep(wait);
          const late = readAllFrom(file, carried);
          if (late.length === 0) continue;
          Deno.writeFileSync(path, late, { append: true });
          carried += late.length;
        }
      }
      return;
    } finally {
      file?.close();
    }
  }
  throw new Error("scratch kept changing while it was being rewritten");
}

// ---------------------------------------------------------------------------------------------
// The pass.

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
    deferred: 0,
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
  }
  report.failures = [...failures].map(([target, error]) => ({ target, error }));
  return report;
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
  let ledger = loadLedger(paths.ledger);
  if (!options.dryRun && ledger.active) {
    // The previous run was killed while writing: clear its temp files before going on.
    sweepAfterCrash(ledger.active, scratchPath, paths.ledger, resolve);
    ledger = { version: 2, filed: ledger.filed };
    saveLedger(paths.ledger, ledger);
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
  for (const relPath of targetsToRead(doc, foldCase).slice(0, maxTargets)) {
    states.set(relPath, resolve(relPath).state);
  }
  const plan = planRoute(doc, {
    today: localDay(now),
    targets: states,
    foldCase,
    filedBefore: new Set(ledger.filed.map(([hash]) => hash)),
    maxTargets,
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
  ledger = withFiled(ledger, routed, now.getTime());
  saveLedger(paths.ledger, { ...ledger, active: plan.writes.map((w) => w.relPath) });

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
    // The filed blocks stay in scratch; the ledger lets the next pass drop them, not refile them.
    scratchError = `could not update scratch: ${messageOf(error)}`;
  }
  saveLedger(paths.ledger, ledger);
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
  try {
    const report = await routeLocked(library, { ...options, env });
    report.lockWaitMs = lock.waitedMs;
    return report;
  } finally {
    lock.release();
  }
}
