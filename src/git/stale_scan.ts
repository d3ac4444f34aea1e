/**
 * Which learnings of a library are stale, asked of git once for the whole library
 * (`git/history.ts`), and the stale record made from the answer (`git/stale_record.ts`): used
 * by `librarian lint` (its findings) and by the record's refresh (the Stop hook, lint, a session
 * start). When a file a learning recorded a digest of looks heavily changed, one more git run
 * (`git/blob_digest.ts`) finds the commit holding what the learning saw, and counts from there.
 *
 * @module
 */

import { provenanceLines } from "../format/provenance.ts";
import { learningsOf } from "../format/learnings.ts";
import { STALE_RECORD_VERSION, type StaleMark, type StaleRecord } from "./stale_record.ts";
import { joinPath } from "../core/paths.ts";
import { fileDigest } from "../core/file_digest.ts";
import { citedStamp } from "./stale_check.ts";
import { type GitFacts, gitFacts } from "./history.ts";
import {
  digestQuestions,
  type Learning,
  type SourceFate,
  type StaleLearning,
  staleLearnings,
  type StalenessInput,
} from "./staleness.ts";
import { blobDigests, blobKey } from "./blob_digest.ts";

/** A library file's text (and, for a record, the version it was read at). */
export interface ScannedText {
  /** Library-relative path. */
  relPath: string;
  text: string;
  /** `size:mtime` when read (for a record). */
  stamp?: string;
  /** Content hash as `core/read_text.ts` computes it (for a record). */
  hash?: string;
}

/** What a scan found. */
export interface StaleScan {
  stale: StaleLearning[];
  /** Learnings with cited code files. */
  learnings: Learning[];
  git: GitFacts["status"] | "not-needed";
}

function countLines(path: string): number {
  try {
    const bytes = Deno.readFileSync(path);
    let lines = 0;
    for (const byte of bytes) if (byte === 10) lines++;
    return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
  } catch {
    return 0;
  }
}

/**
 * The learnings of `files` whose sources were deleted, renamed or changed past `changeRatio`;
 * git is not asked when no learning cites a code file.
 *
 * @example Usage
 * ```ts
 * import { scanStaleness } from "./stale_scan.ts";
 * import assert from "node:assert/strict";
 * const scan = await scanStaleness(Deno.makeTempDirSync(), [
 *   { relPath: "patterns.md", text: "<!-- librarian: 2026-11-30 -->\n- Use UTC.\n" },
 * ], 0.5);
 * assert.deepEqual(scan, { stale: [], learnings: [], git: "not-needed" });
 * ```
 */
export async function scanStaleness(
  projectRoot: string,
  files: readonly ScannedText[],
  changeRatio: number,
  deadline?: AbortSignal,
): Promise<StaleScan> {
  const learnings: Learning[] = [];
  for (const file of files) {
    for (const { line, provenance } of provenanceLines(file.text)) {
      if (provenance.files.length > 0) learnings.push({ file: file.relPath, line, provenance });
    }
  }
  if (learnings.length === 0) return { stale: [], learnings, git: "not-needed" };
  const commits = learnings.map((l) => l.provenance.commit).filter((c): c is string => !!c);
  const facts = await gitFacts(projectRoot, commits, deadline);
  const existsCache = new Map<string, boolean>();
  const lineCache = new Map<string, number>();
  const input: StalenessInput = {
    learnings,
    resolved: facts.resolved,
    history: facts.history,
    uncommitted: facts.uncommitted,
    exists: (path) => {
      let known = existsCache.get(path);
      if (known === undefined) {
        try {
          known = Deno.statSync(joinPath(projectRoot, path)).isFile;
        } catch {
          known = false;
        }
        existsCache.set(path, known);
      }
      return known;
    },
    lineCount: (path) => {
      let count = lineCache.get(path);
      if (count === undefined) lineCache.set(path, count = countLines(joinPath(projectRoot, path)));
      return count;
    },
    changeRatio,
    digestOf: (path) => fileDigest(joinPath(projectRoot, path)),
  };
  let stale = staleLearnings(input);
  // a heavily changed file the learning recorded a digest of: judged from the commit that holds
  // what it saw (one more git run, only then)
  const questions = digestQuestions(stale, facts.history);
  if (questions.length > 0) {
    const digests = await blobDigests(projectRoot, questions, deadline);
    if (digests.size > 0) {
      stale = staleLearnings({
        ...input,
        digestAt: (commit, path) => digests.get(blobKey(commit, path)),
      });
    }
  }
  return { stale, learnings, git: facts.status };
}

/**
 * The words for what happened to a learning's sources (pure), e.g.
 * `src/api/tax.ts deleted since a1b2c3d`.
 *
 * @example Usage
 * ```ts
 * import { staleReason } from "./stale_scan.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   staleReason([{ kind: "deleted", source: "src/a.ts", path: "src/a.ts" }], "a1b2c3d4e5"),
 *   "src/a.ts deleted since a1b2c3d",
 * );
 * assert.equal(
 *   staleReason([{ kind: "renamed", source: "a.ts", to: "b.ts" }, { kind: "changed", source: "c.ts", lines: 40, of: 50 }], undefined),
 *   "a.ts renamed to b.ts; c.ts rewritten (40 of 50 lines)",
 * );
 * ```
 */
export function staleReason(fates: readonly SourceFate[], commit: string | undefined): string {
  const since = commit ? ` since ${commit.slice(0, 7)}` : "";
  const parts = fates.map((fate) =>
    fate.kind === "deleted"
      ? `${fate.source} deleted`
      : fate.kind === "renamed"
      ? `${fate.source} renamed to ${fate.to}`
      : `${fate.source} rewritten (${fate.lines} of ${fate.of} lines)`
  );
  return parts.join("; ") + since;
}

/**
 * The stale record for a scan of `files` (each with its stamp and hash): every cited file's
 * stamp, and per library file the learnings its stale provenance comments cover.
 *
 * @example Usage
 * ```ts
 * import { staleRecordOf } from "./stale_scan.ts";
 * import { parseProvenance } from "../format/provenance.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * const text = "<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->\n- Rounds once.\n";
 * const provenance = parseProvenance(text.split("\n")[0]!)!;
 * const learning = { file: "patterns.md", line: 1, provenance };
 * const record = staleRecordOf(root, "", [
 *   { relPath: "patterns.md", text, stamp: "40:1", hash: "h" },
 * ], {
 *   learnings: [learning],
 *   stale: [{ learning, fates: [{ kind: "deleted", source: "src/a.ts", path: "src/a.ts" }] }],
 *   git: "ok",
 * });
 * assert.deepEqual(record.files["patterns.md"]!.stale.map((m) => [m.lines, m.reason]), [
 *   [[[2, 2]], "src/a.ts deleted since a1b2c3d"],
 * ]);
 * assert.equal(record.cited["src/a.ts"], "missing");
 * ```
 */
export function staleRecordOf(
  projectRoot: string,
  head: string,
  files: readonly ScannedText[],
  scan: StaleScan,
): StaleRecord {
  const cited: Record<string, string> = {};
  const stamp = (path: string) => cited[path] ??= citedStamp(projectRoot, path);
  for (const learning of scan.learnings) for (const path of learning.provenance.files) stamp(path);
  const staleAt = new Map<string, StaleLearning>();
  for (const s of scan.stale) staleAt.set(`${s.learning.file}\n${s.learning.line}`, s);
  const record: StaleRecord = { version: STALE_RECORD_VERSION, head, cited, files: {} };
  for (const file of files) {
    if (file.stamp === undefined || file.hash === undefined) continue;
    if (!scan.learnings.some((l) => l.file === file.relPath)) continue;
    const marks = new Map<number, StaleMark>();
    const hasStale = scan.stale.some((s) => s.learning.file === file.relPath);
    if (hasStale) {
      for (const unit of learningsOf(file.text)) {
        const at = unit.provenance?.line;
        if (at === undefined) continue;
        const s = staleAt.get(`${file.relPath}\n${at}`);
        if (s === undefined) continue;
        let mark = marks.get(at);
        if (mark === undefined) {
          const files = s.learning.provenance.files;
          mark = {
            lines: [],
            reason: staleReason(s.fates, s.commit ?? s.learning.provenance.commit),
            cited: Object.fromEntries(files.map((path) => [path, stamp(path)])),
          };
          marks.set(at, mark);
        }
        mark.lines.push([unit.line, unit.endLine]);
      }
    }
    record.files[file.relPath] = { stamp: file.stamp, hash: file.hash, stale: [...marks.values()] };
  }
  return record;
}
