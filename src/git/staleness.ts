/**
 * Staleness of learnings (pure): given each learning's provenance (commit and code files) and what
 * git says happened since, which learnings are about code that was deleted, renamed, or changed
 * heavily.
 *
 * History is one `git log --raw --numstat` over every commit any learning could need (newest
 * first, topological); a learning from commit C is judged on the commits reachable from `HEAD`
 * but not from C (exactly `git log C..HEAD`, computed here from the parent links, once per
 * distinct commit), then on the uncommitted changes. A file is followed through renames; a file
 * deleted and added again counts as changed, not deleted; a file first added after the commit
 * (created in the turn that filed the learning) counts from its creation: the learning saw it;
 * and a file whose recorded digest (what the learning saw) a later commit holds counts from that
 * commit.
 *
 * @module
 */

import type { Provenance } from "../format/provenance.ts";
import type { FileChange, HistoryCommit } from "./history.ts";

/** A filed learning: where it is and what its provenance says. */
export interface Learning {
  /** Library-relative path of the library file. */
  file: string;
  /** 1-based line of its provenance comment. */
  line: number;
  provenance: Provenance;
}

/** What happened to one source file of a learning. */
export type SourceFate =
  | { kind: "deleted"; source: string; path: string }
  | { kind: "renamed"; source: string; to: string }
  | { kind: "changed"; source: string; lines: number; of: number };

/** A learning with what happened to its sources. */
export interface StaleLearning {
  learning: Learning;
  /** The full commit the learning was filed at, when git knows it. */
  commit?: string;
  fates: SourceFate[];
}

/** The facts {@link staleLearnings} judges on. */
export interface StalenessInput {
  learnings: readonly Learning[];
  /** Short commit → full hash, for the commits git knows (a missing key: unknown commit). */
  resolved: ReadonlyMap<string, string>;
  /** Newest first, topological (parents after children). */
  history: readonly HistoryCommit[];
  /** Changes in the working tree and index against `HEAD`. */
  uncommitted: readonly FileChange[];
  /** Whether a project-relative file exists now. */
  exists: (path: string) => boolean;
  /** The current line count of a project-relative file (called only for changed files). */
  lineCount: (path: string) => number;
  /** Heavily changed: at least this share of the file's lines (0 to 1); `0` turns it off. */
  changeRatio: number;
  /**
   * The digest of a project-relative file now (`core/file_digest.ts`): a source whose digest is
   * still the one its provenance recorded is as the turn left it, so never "changed".
   */
  digestOf?: (path: string) => string | undefined;
  /**
   * The digest of a project-relative file as a history commit (full hash) left it, when known
   * (`git/blob_digest.ts`): the commit holding the version a learning saw is where its "changed
   * since" starts.
   */
  digestAt?: (commit: string, path: string) => string | undefined;
}

/** Changes smaller than this many lines never count as heavy (a 4-line file edited twice). */
export const MIN_HEAVY_LINES = 20;
/** The default share of a file's lines that must change to call it heavily changed. */
export const DEFAULT_CHANGE_RATIO = 0.5;

interface PathEvent {
  /** Index into the history (larger is older); -1 for the working tree. */
  at: number;
  change: FileChange;
}

/** Per path, the changes that touched it, oldest first (renames under both paths). */
function indexEvents(history: readonly HistoryCommit[], uncommitted: readonly FileChange[]) {
  const byPath = new Map<string, PathEvent[]>();
  const add = (path: string, event: PathEvent) => {
    const list = byPath.get(path);
    if (list) list.push(event);
    else byPath.set(path, [event]);
  };
  for (let i = history.length - 1; i >= 0; i--) {
    for (const change of history[i]!.changes) {
      if (change.from !== undefined && change.status.startsWith("R")) {
        add(change.from, { at: i, change });
      }
      add(change.path, { at: i, change });
    }
  }
  for (const change of uncommitted) {
    if (change.from !== undefined && change.status.startsWith("R")) {
      add(change.from, { at: -1, change });
    }
    add(change.path, { at: -1, change });
  }
  return byPath;
}

/** For commit index `start`, a mask of the history commits reachable from it (itself included). */
function reachableFrom(
  start: number,
  history: readonly HistoryCommit[],
  index: Map<string, number>,
) {
  const seen = new Uint8Array(history.length);
  const stack = [start];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (seen[i]) continue;
    seen[i] = 1;
    for (const parent of history[i]!.parents) {
      const p = index.get(parent);
      if (p !== undefined && !seen[p]) stack.push(p);
    }
  }
  return seen;
}

/**
 * Follows `source` through the events after the learning's commit (`since` says which history
 * commits count), oldest first; returns its fate, or `null` when nothing notable happened.
 */
function fateOf(
  source: string,
  since: (at: number) => boolean,
  events: Map<string, PathEvent[]>,
  input: StalenessInput,
  seen?: string,
): SourceFate | null {
  let path = source;
  let lines = 0;
  let deleted = false;
  let after = Infinity; // only events older-to-newer than the last rename followed
  let seenEvent = false; // an event of the source's own path was met
  for (let hops = 0; hops < 64; hops++) {
    let renamedTo: string | undefined;
    let renameAt = 0;
    for (const event of events.get(path) ?? []) {
      const at = event.at < 0 ? -1 : event.at;
      if (at >= after || (event.at >= 0 && !since(event.at))) continue;
      const { change } = event;
      if (change.status.startsWith("R") && change.from === path) {
        lines += change.lines;
        renamedTo = change.path;
        renameAt = at;
        break;
      }
      if (change.path !== path) continue;
      if (
        hops === 0 && seen && event.at >= 0 &&
        input.digestAt?.(input.history[event.at]!.hash, path) === seen
      ) {
        // this commit holds the version the learning saw: only what came after it counts
        lines = 0;
        deleted = false;
        seenEvent = true;
        continue;
      }
      const created = change.status === "A" || change.status.startsWith("C");
      // a file that did not exist at the learning's commit was created by the turn that filed
      // it (or later, seen then): its creation is what the learning saw, not a rewrite
      if (created && hops === 0 && !seenEvent) {
        seenEvent = true;
        continue;
      }
      seenEvent = true;
      // a file deleted and added again was rewritten: both count as changed lines
      deleted = change.status === "D" ? true : created ? false : deleted;
      lines += change.lines;
    }
    if (renamedTo === undefined) break;
    path = renamedTo;
    after = renameAt;
    deleted = false;
  }
  if (deleted || !input.exists(path)) return { kind: "deleted", source, path };
  if (path !== source) return { kind: "renamed", source, to: path };
  if (input.changeRatio > 0 && lines >= MIN_HEAVY_LINES) {
    const of = input.lineCount(path);
    if (lines >= Math.max(MIN_HEAVY_LINES, input.changeRatio * of)) {
      return { kind: "changed", source, lines, of };
    }
  }
  return null;
}

/**
 * The learnings whose sources were deleted, renamed or heavily changed since they were filed.
 * A learning without a known commit is judged on the working tree alone (a source that no
 * longer exists is reported as deleted).
 */
export function staleLearnings(input: StalenessInput): StaleLearning[] {
  const events = indexEvents(input.history, input.uncommitted);
  const index = new Map(input.history.map((c, i) => [c.hash, i]));
  const masks = new Map<string, Uint8Array | null>();
  const stale: StaleLearning[] = [];
  for (const learning of input.learnings) {
    if (learning.provenance.files.length === 0) continue;
    const short = learning.provenance.commit;
    const full = short === undefined ? undefined : input.resolved.get(short);
    let since: (at: number) => boolean = () => false;
    if (full !== undefined) {
      let mask = masks.get(full);
      if (mask === undefined) {
        const at = index.get(full);
        // Not in the history read: HEAD itself or older than every change read.
        mask = at === undefined ? null : reachableFrom(at, input.history, index);
        masks.set(full, mask);
      }
      const reachable = mask;
      since = reachable === null ? () => true : (at) => reachable[at] === 0;
    }
    const fates: SourceFate[] = [];
    learning.provenance.files.forEach((source, i) => {
      const seen = learning.provenance.digests?.[i] || undefined;
      const fate = fateOf(source, since, events, input, seen);
      if (fate === null) return;
      // what the model saw is still there: the lines git counts are the turn's own
      if (fate.kind === "changed" && seen && input.digestOf?.(source) === seen) return;
      fates.push(fate);
    });
    if (fates.length === 0) continue;
    const entry: StaleLearning = { learning, fates };
    if (full !== undefined) entry.commit = full;
    stale.push(entry);
  }
  return stale;
}

/**
 * The `[commit, path]` pairs whose digests would tell where a "changed" fate of `stale` starts
 * (pure): for each heavily changed source a learning recorded a digest of, the history commits
 * that changed that path. Ask git for them (`git/blob_digest.ts`) and judge again with
 * {@link StalenessInput.digestAt}.
 *
 * @example Usage
 * ```ts
 * import { digestQuestions } from "./staleness.ts";
 * import assert from "node:assert/strict";
 * const provenance = { day: "2026-12-01", files: ["a.ts"], digests: ["0a1b2c3d"] };
 * const learning = { file: "x.md", line: 1, provenance };
 * const history = [{ hash: "c2", parents: ["c1"], changes: [{ status: "M", path: "a.ts", lines: 90 }] }];
 * const stale = [{ learning, fates: [{ kind: "changed" as const, source: "a.ts", lines: 90, of: 100 }] }];
 * assert.deepEqual(digestQuestions(stale, history), [["c2", "a.ts"]]);
 * ```
 */
export function digestQuestions(
  stale: readonly StaleLearning[],
  history: readonly HistoryCommit[],
): [string, string][] {
  const paths = new Set<string>();
  for (const { learning, fates } of stale) {
    for (const fate of fates) {
      if (fate.kind !== "changed") continue;
      const i = learning.provenance.files.indexOf(fate.source);
      if (learning.provenance.digests?.[i]) paths.add(fate.source);
    }
  }
  if (paths.size === 0) return [];
  const pairs: [string, string][] = [];
  for (const commit of history) {
    for (const change of commit.changes) {
      if (paths.has(change.path) && change.status !== "D") pairs.push([commit.hash, change.path]);
    }
  }
  return pairs;
}
