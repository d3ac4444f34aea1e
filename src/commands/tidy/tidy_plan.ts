/**
 * `librarian tidy`'s plan (pure, deterministic): for each library file over its fair share of the
 * budget (`format/budget.ts`, given every file on its path),
 *
 * - **moves**: a learning whose provenance names code files that all lie under one sub-folder of
 *   the file's folder (which still exists) moves down into that sub-folder's file of the same
 *   name, with its provenance comment, under a dated heading of its own day;
 * - **drops**: a learning whose normalised text is already earlier in the file, or in a file
 *   above it on the path, goes (code blocks never do); judged on the library as it is after the
 *   moves, so a learning moving down into a folder that already has it goes instead of arriving
 *   twice, and no copy is dropped because of one that moves away;
 * - **stale**: learnings about code since deleted, renamed or rewritten are listed for a decision,
 *   never changed.
 *
 * {@link applyTidy} turns a plan into the new texts: a learning's lines are never changed, only
 * moved whole or (an exact duplicate) removed.
 *
 * @module
 */

import { fairShare, learningsOf, type LearningUnit, stripMetadata } from "../../format/mod.ts";
import { appendLearnings } from "../../filing/mod.ts";

/** A library file's text. */
export interface TidyFile {
  /** Library-relative path (`src/api/patterns.md`). */
  relPath: string;
  text: string;
}

/** A place in a library file: 1-based first and last lines. */
export interface TidySpan {
  file: string;
  line: number;
  endLine: number;
}

/** A learning to move down. */
export interface TidyMove extends TidySpan {
  to: string;
  /** The provenance comment it moves with. */
  provenance: string;
}

/** An exact duplicate to remove, and where the copy that stays is. */
export interface TidyDrop extends TidySpan {
  sameAs: { file: string; line: number };
}

/** A stale learning, listed for a decision. */
export interface TidyStale extends TidySpan {
  reason: string;
}

/** What tidy proposes. */
export interface TidyPlan {
  /** The files over their fair share: their knowledge in characters and the share. */
  oversized: { file: string; chars: number; share: number }[];
  moves: TidyMove[];
  drops: TidyDrop[];
  stale: TidyStale[];
}

/** What the plan needs besides the texts. */
export interface TidyOptions {
  budget: number;
  /** Whether a project-relative code folder exists. */
  codeFolderExists: (relDir: string) => boolean;
  /** Stale learnings: `<file>\n<provenance line>` → reason. */
  stale?: ReadonlyMap<string, string>;
}

function folderOf(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash < 0 ? "" : relPath.slice(0, slash);
}

function nameOf(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf("/") + 1);
}

/** True when folder `a` is `b` or above it (`""` is the root). */
function isAtOrAbove(a: string, b: string): boolean {
  return a === "" || a === b || b.startsWith(`${a}/`);
}

/** The deepest folder every one of `paths` lies in. */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((p) => folderOf(p).split("/").filter((s) => s !== ""));
  const first = split[0] ?? [];
  let n = first.length;
  for (const segments of split) {
    let i = 0;
    while (i < n && i < segments.length && segments[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join("/");
}

/**
 * The plan for `files` (every served library file).
 *
 * @example Usage
 * ```ts
 * import { planTidy } from "./tidy_plan.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# patterns\n\n## Learnings (2026-11-30)\n\n" +
 *   "<!-- librarian: 2026-11-30 src/api/billing/a.ts -->\n- Billing rounds once. " + "x".repeat(1200) + "\n" +
 *   "<!-- librarian: 2026-11-30 src/api/h.ts -->\n- Handlers return early.\n- handlers return early\n";
 * const plan = planTidy([{ relPath: "src/api/patterns.md", text }], {
 *   budget: 1000,
 *   codeFolderExists: () => true,
 * });
 * assert.deepEqual(plan.moves.map((m) => [m.line, m.to]), [[6, "src/api/billing/patterns.md"]]);
 * assert.deepEqual(plan.drops.map((d) => [d.line, d.sameAs.line]), [[9, 8]]);
 * ```
 */
export function planTidy(files: readonly TidyFile[], options: TidyOptions): TidyPlan {
  const plan: TidyPlan = { oversized: [], moves: [], drops: [], stale: [] };
  const chars = new Map(files.map((f) => [f.relPath, stripMetadata(f.text).length]));
  const sorted = [...files].sort((a, b) => a.relPath.localeCompare(b.relPath));
  // 1. which files are over their share, and where each of their learnings would go
  const oversized = new Set<string>();
  const moving = new Map<string, TidyMove>();
  const stale = new Map<string, TidyStale>();
  const unitsByFile = new Map(sorted.map((f) => [f.relPath, learningsOf(f.text)]));
  for (const file of sorted) {
    const folder = folderOf(file.relPath);
    const onPath = sorted.filter((f) => isAtOrAbove(folderOf(f.relPath), folder));
    const share = fairShare(onPath.map((f) => chars.get(f.relPath)!), options.budget);
    const size = chars.get(file.relPath)!;
    if (size <= share) continue;
    plan.oversized.push({ file: file.relPath, chars: size, share });
    oversized.add(file.relPath);
    for (const unit of unitsByFile.get(file.relPath)!) {
      const span = { file: file.relPath, line: unit.line, endLine: unit.endLine };
      const provenance = unit.provenance;
      if (provenance === undefined) continue;
      const reason = options.stale?.get(`${file.relPath}\n${provenance.line}`);
      if (reason !== undefined) {
        stale.set(spanKey(span), { ...span, reason });
        continue;
      }
      const cited = provenance.provenance.files;
      if (cited.length === 0) continue;
      const common = commonFolder(cited);
      if (common === folder || !isAtOrAbove(folder, common)) continue;
      if (!options.codeFolderExists(common)) continue;
      const to = `${common}/${nameOf(file.relPath)}`;
      moving.set(spanKey(span), { ...span, to, provenance: provenance.text });
    }
  }
  // 2. on the library as it would be after the moves, top down: a learning of an oversized file,
  // or one moving, whose text a touch of its folder already gets (from a folder above, or earlier
  // in its file) is a duplicate that goes. A copy that moves away is no longer above anyone.
  const arriving = new Map<string, { span: TidySpan; unit: LearningUnit }[]>();
  for (const move of moving.values()) {
    const unit = unitsByFile.get(move.file)!.find((u) => u.line === move.line)!;
    const list = arriving.get(move.to) ?? [];
    list.push({ span: move, unit });
    arriving.set(move.to, list);
  }
  const layout = [...new Set([...unitsByFile.keys(), ...arriving.keys()])].sort(topDown);
  const kept = new Map<string, Map<string, { file: string; line: number }>>();
  for (const relPath of layout) {
    const folder = folderOf(relPath);
    const seen = new Map<string, { file: string; line: number }>();
    for (const [above, keys] of kept) {
      if (folderOf(above) === folder || !isAtOrAbove(folderOf(above), folder)) continue;
      for (const [key, at] of keys) if (!seen.has(key)) seen.set(key, at);
    }
    const own = new Map<string, { file: string; line: number }>();
    const staying = (unitsByFile.get(relPath) ?? [])
      .map((unit) => ({ span: { file: relPath, line: unit.line, endLine: unit.endLine }, unit }))
      .filter((u) => !moving.has(spanKey(u.span)));
    const moved = arriving.get(relPath) ?? [];
    for (const { span, unit } of [...staying, ...moved]) {
      const key = unit.key;
      if (key === "" || key.startsWith("code:")) continue;
      const same = seen.get(key);
      const tidied = span.file !== relPath || oversized.has(relPath);
      if (same !== undefined && tidied) {
        plan.drops.push({ ...span, sameAs: same });
        moving.delete(spanKey(span));
        stale.delete(spanKey(span));
        continue;
      }
      if (same === undefined) {
        const at = { file: span.file, line: span.line };
        seen.set(key, at);
        own.set(key, at);
      }
    }
    kept.set(relPath, own);
  }
  plan.moves = [...moving.values()];
  plan.stale = [...stale.values()];
  plan.drops.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return plan;
}

function spanKey(span: TidySpan): string {
  return `${span.file}\n${span.line}`;
}

/** Shallower folders first, then by path: every folder above a file comes before it. */
function topDown(a: string, b: string): number {
  return a.split("/").length - b.split("/").length || a.localeCompare(b);
}

const DATED = /^##[ \t]+(?:Session[ \t]+)?Learnings[ \t]+\((\d{4}-\d{2}-\d{2})\)[ \t]*#*[ \t]*$/;
const PROVENANCE_DAY = /<!--[ \t]*librarian:[ \t]+(\d{4}-\d{2}-\d{2})/;

/** `text` without the given 1-based line spans, and without what they leave empty. */
function removeSpans(text: string, spans: readonly TidySpan[]): string {
  const lines = text.split("\n");
  const gone = new Set<number>();
  for (const span of spans) for (let i = span.line - 1; i < span.endLine; i++) gone.add(i);
  const units = learningsOf(text);
  // a provenance comment goes when every learning it covers goes
  const covered = new Map<number, number[]>();
  for (const unit of units) {
    const at = unit.provenance?.line;
    if (at === undefined) continue;
    const list = covered.get(at - 1) ?? [];
    list.push(unit.line - 1);
    covered.set(at - 1, list);
  }
  for (const [at, starts] of covered) if (starts.every((s) => gone.has(s))) gone.add(at);
  const blank = (i: number) => (lines[i] ?? "").trim() === "";
  // a dated heading left with nothing under it goes too
  for (let i = 0; i < lines.length; i++) {
    if (!DATED.test(lines[i]!.replace(/\r$/, ""))) continue;
    let j = i + 1;
    let hadContent = false;
    while (j < lines.length && !/^#{1,6}[ \t]/.test(lines[j]!)) {
      if (!blank(j)) {
        hadContent = true;
        if (!gone.has(j)) break;
      }
      j++;
    }
    if (hadContent && (j >= lines.length || /^#{1,6}[ \t]/.test(lines[j]!))) gone.add(i);
  }
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (gone.has(i)) continue;
    // no run of blank lines where lines were taken out
    if (blank(i) && kept.length > 0 && kept[kept.length - 1]!.trim() === "" && gone.has(i - 1)) {
      continue;
    }
    kept.push(lines[i]!);
  }
  return kept.join("\n");
}

/**
 * The texts after the plan (only the files it changes or creates): moved learnings are appended
 * whole to their new file, each under a dated heading of its provenance's day; removed lines and
 * what they leave empty go. A learning's own lines are never changed.
 *
 * @example Usage
 * ```ts
 * import { applyTidy, planTidy } from "./tidy_plan.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# patterns\n\n## Learnings (2026-11-30)\n\n" +
 *   "<!-- librarian: 2026-11-30 src/api/billing/a.ts -->\n- Billing rounds once. " + "x".repeat(1200) + "\n";
 * const files = [{ relPath: "src/api/patterns.md", text }];
 * const plan = planTidy(files, { budget: 1000, codeFolderExists: () => true });
 * const after = applyTidy(files, plan);
 * assert.equal(after.get("src/api/patterns.md"), "# patterns\n");
 * assert.match(after.get("src/api/billing/patterns.md")!, /^# patterns\n\n## Learnings \(2026-11-30\)\n\n<!-- librarian: 2026-11-30 src\/api\/billing\/a\.ts -->\n- Billing rounds once/);
 * ```
 */
export function applyTidy(files: readonly TidyFile[], plan: TidyPlan): Map<string, string> {
  const texts = new Map(files.map((f) => [f.relPath, f.text]));
  const out = new Map<string, string>();
  const removals = new Map<string, TidySpan[]>();
  for (const span of [...plan.moves, ...plan.drops]) {
    const list = removals.get(span.file) ?? [];
    list.push(span);
    removals.set(span.file, list);
  }
  for (const [file, spans] of removals) out.set(file, removeSpans(texts.get(file)!, spans));
  for (const move of plan.moves) {
    const lines = texts.get(move.file)!.split("\n").slice(move.line - 1, move.endLine)
      .map((l) => l.replace(/\r$/, ""));
    const day = PROVENANCE_DAY.exec(move.provenance)?.[1] ?? "0000-00-00";
    const before = out.get(move.to) ?? texts.get(move.to) ?? null;
    const name = nameOf(move.to).replace(/\.md$/, "");
    out.set(
      move.to,
      appendLearnings(before, name, day, [{
        lines: [move.provenance, ...lines],
        bullet: false,
        gapBefore: true,
      }]),
    );
  }
  return out;
}
