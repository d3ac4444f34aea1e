/**
 * The route planner (pure): parsed scratch + today's date + the current texts of the target
 * files → the new text of each target file, the blocks that stay in scratch and why, and the new
 * scratch text.
 *
 * - Learnings of one day go under one `## Learnings (YYYY-MM-DD)` heading per file, reused when
 *   it is the file's last section; a new file starts with `# <name>`.
 * - A bullet already in the target file (same text after trimming) is not appended again.
 * - A block stays in scratch, marked with a one-line reason in an HTML comment under its tag,
 *   when its tag is legacy, malformed or unsafe, when it holds a likely credential, when a code
 *   fence in it is never closed, or when its target cannot be written.
 * - Existing bytes of a target file are never rewritten: text is only appended (trailing blank
 *   lines aside), in the file's own line-ending style.
 *
 * The effectful side (`route.ts`) reads the targets, checks them against symlink escapes, writes
 * the results and applies {@link ScratchEdits} to whatever scratch holds by then.
 *
 * @module
 */

import { hashText } from "../core/hash.ts";
import {
  fenceMap,
  type HeadedBlock,
  lineContent,
  parseScratch,
  type PreambleBlock,
  renderScratch,
  type ScratchBlock,
  type ScratchDocument,
  splitLinesKeepingEnds,
  type TaggedBlock,
} from "./scratch.ts";
import { describeSecrets, findSecrets } from "./secrets.ts";
import { type TagTarget, tagTarget } from "./tag_rules.ts";

/** Why a block stays in scratch. */
export type KeepCode =
  | "malformed"
  | "legacy"
  | "bad-tag"
  | "unclosed-fence"
  | "secret"
  | "target"
  | "write-failed";

/** What happens to one scratch block. */
export type BlockDecision =
  | {
    kind: "route";
    block: TaggedBlock;
    target: TagTarget;
    /** Items (bullets, paragraphs) appended to the target. */
    added: number;
    /** Bullets left out because the target already has them. */
    duplicates: number;
  }
  | { kind: "keep"; block: HeadedBlock; code: KeepCode; reason: string }
  | { kind: "drop"; block: HeadedBlock; why: "empty" | "already-filed" }
  | {
    kind: "defer";
    block: TaggedBlock;
    /** Its target is beyond {@link PlanOptions.maxTargets}: the block waits, untouched. */
    target: TagTarget;
  }
  | { kind: "stay"; block: PreambleBlock };

/** The current state of a target file, as read by the caller. */
export type TargetState =
  | { kind: "missing" }
  | { kind: "text"; text: string }
  | { kind: "blocked"; reason: string };

/** Inputs of {@link planRoute} besides the document. */
export interface PlanOptions {
  /** The local calendar day, `YYYY-MM-DD`. */
  today: string;
  /** Target states by library-relative path, as listed by {@link targetsToRead}. */
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
export interface ScratchEdits {
  /** Raw texts of blocks that leave scratch (one removal per entry). */
  remove: string[];
  /** Raw text → replacement (a block marked with why it stays). */
  replace: Array<[string, string]>;
}

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

/** The first word of every marker line the Librarian writes into scratch. */
export const MARKER_PREFIX = "librarian:";
/** A comment line in a block that says its suspected secret is not one. */
export const NOT_A_SECRET = "<!-- librarian: not-a-secret -->";

const ANY_MARKER = /^[ \t]*<!--[ \t]*librarian:.*-->[ \t]*$/;
const KEPT_MARKER = /^[ \t]*<!--[ \t]*librarian: kept in scratch:.*-->[ \t]*$/;
const NOT_SECRET_MARKER = /^[ \t]*<!--[ \t]*librarian:[ \t]*not-a-secret[ \t]*-->[ \t]*$/m;
const BULLET = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const DATED_HEADING =
  /^##[ \t]+(?:Session[ \t]+)?Learnings[ \t]+\((\d{4}-\d{2}-\d{2})\)[ \t]*#*[ \t]*$/;
const SECTION_HEADING = /^[ \t]{0,3}#{1,2}(?:[ \t]|$)/;

/** The local calendar day of `date` as `YYYY-MM-DD`. */
export function localDay(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, "0");
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** The dated section heading for `day`. */
export function learningsHeading(day: string): string {
  return `## Learnings (${day})`;
}

// ---------------------------------------------------------------------------------------------
// Items: the units of a learning (a bullet with its continuation lines, or a paragraph/code).

/** One learning unit of a block body or target file. */
export interface Item {
  /** Lines without endings. */
  lines: string[];
  /** True for a list item (its key takes part in duplicate detection). */
  bullet: boolean;
  /** True when a blank line preceded the item in its source. */
  gapBefore: boolean;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].replaceAll("\t", "    ").length;
}

/** The text of a bullet line without its indentation and marker, trimmed. */
export function bulletText(line: string): string {
  return line.replace(BULLET, "").trim();
}

/** The duplicate-detection key of an item (its lines trimmed, the first without its marker). */
export function itemKey(item: Item): string {
  return item.lines.map((line, i) => i === 0 ? bulletText(line) : line.trim()).join("\n");
}

/** Splits lines (no endings) into items; blank lines separate items outside code fences. */
export function splitItems(lines: readonly string[]): Item[] {
  const { fenced } = fenceMap(lines);
  const items: Item[] = [];
  let gap = false;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!fenced[i] && isBlank(line)) {
      gap = true;
      i++;
      continue;
    }
    const bulletMatch = fenced[i] ? null : BULLET.exec(line);
    const item: string[] = [line];
    let j = i + 1;
    if (bulletMatch && indentOf(line) <= 3) {
      const indent = indentOf(line);
      while (j < lines.length) {
        const next = lines[j]!;
        if (fenced[j] && (fenced[j - 1] || indentOf(next) > indent)) {
          item.push(next);
        } else if (!isBlank(next) && indentOf(next) > indent) {
          item.push(next);
        } else {
          break;
        }
        j++;
      }
      items.push({ lines: item, bullet: true, gapBefore: gap });
    } else {
      while (j < lines.length) {
        const next = lines[j]!;
        if (!fenced[j] && (isBlank(next) || (BULLET.test(next) && indentOf(next) <= 3))) break;
        item.push(next);
        j++;
      }
      items.push({ lines: item, bullet: false, gapBefore: gap });
    }
    gap = false;
    i = j;
  }
  return items;
}

/** What a target file already has: bullet items, single bullet lines, and other items. */
interface PresentItems {
  /** Keys of whole bullet items. */
  items: Set<string>;
  /** Keys of single bullet lines, at any indentation. */
  lines: Set<string>;
  /** Keys of non-bullet items (paragraphs, code). */
  texts: Set<string>;
}

function presentItems(lines: readonly string[]): PresentItems {
  const { fenced } = fenceMap(lines);
  const present: PresentItems = { items: new Set(), lines: new Set(), texts: new Set() };
  lines.forEach((line, i) => {
    if (!fenced[i] && BULLET.test(line)) present.lines.add(bulletText(line));
  });
  for (const item of splitItems(lines)) {
    (item.bullet ? present.items : present.texts).add(itemKey(item));
  }
  return present;
}

/** Whether a bullet is already present (the rule for every block). */
function isBulletPresent(item: Item, present: PresentItems): boolean {
  const key = itemKey(item);
  return item.lines.length === 1 ? present.lines.has(key) : present.items.has(key);
}

/** Whether any item is already present (for blocks filed before: bullets and text alike). */
function isItemPresent(item: Item, present: PresentItems): boolean {
  return item.bullet ? isBulletPresent(item, present) : present.texts.has(itemKey(item));
}

function remember(item: Item, present: PresentItems): void {
  if (!item.bullet) {
    present.texts.add(itemKey(item));
    return;
  }
  present.items.add(itemKey(item));
  for (const line of item.lines) if (BULLET.test(line)) present.lines.add(bulletText(line));
}

/** A block body as LF lines without marker comments and without leading/trailing blank lines. */
export function bodyLines(body: string): string[] {
  const lines = splitLinesKeepingEnds(body).map(lineContent).filter((l) => !ANY_MARKER.test(l));
  while (lines.length && isBlank(lines[0]!)) lines.shift();
  while (lines.length && isBlank(lines[lines.length - 1]!)) lines.pop();
  return lines;
}

/** Renders items as Markdown lines: bullets stay one list, anything else is set apart. */
function renderItems(items: readonly Item[]): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    const previous = items[i - 1];
    if (previous && (item.gapBefore || !item.bullet || !previous.bullet)) out.push("");
    out.push(...item.lines);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Classification.

/** The decision for a block on its own (before target files are known). */
export type BlockClass =
  | { kind: "route"; target: TagTarget }
  | { kind: "keep"; code: KeepCode; reason: string }
  | { kind: "drop"; why: "empty" }
  | { kind: "stay" };

/** Classifies one block from its own text: tag checks, empty body, open fences, secrets. */
export function classifyBlock(block: ScratchBlock): BlockClass {
  if (block.kind === "preamble") return { kind: "stay" };
  if (block.kind === "malformed") {
    return { kind: "keep", code: "malformed", reason: `malformed tag: ${block.problem}` };
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

function foldKey(relPath: string, foldCase: boolean): string {
  return foldCase ? relPath.toLowerCase() : relPath;
}

/**
 * The target files the routable blocks of `doc` need, as library-relative paths (one spelling
 * per file when `foldCase`), in first-use order.
 */
export function targetsToRead(doc: ScratchDocument, foldCase = false): string[] {
  const seen = new Map<string, string>();
  for (const block of doc.blocks) {
    const decision = classifyBlock(block);
    if (decision.kind !== "route") continue;
    const key = foldKey(decision.target.relPath, foldCase);
    if (!seen.has(key)) seen.set(key, decision.target.relPath);
  }
  return [...seen.values()];
}

// ---------------------------------------------------------------------------------------------
// Scratch edits.

/** The marker line for a kept block (an HTML comment, so Markdown viewers hide it). */
export function keptMarker(reason: string): string {
  const safe = reason.replaceAll("-->", "--&gt;").replace(/[\r\n]+/g, " ");
  return `<!-- librarian: kept in scratch: ${safe} -->`;
}

/** A block body without the kept-marker lines the Librarian wrote into it. */
export function withoutKeptMarkers(body: string): string {
  return splitLinesKeepingEnds(body).filter((line) => !KEPT_MARKER.test(lineContent(line))).join(
    "",
  );
}

/** The block's raw text with one kept-marker line (for `reason`) right under its tag line. */
export function markKept(block: HeadedBlock, reason: string): string {
  const eol = block.eol || "\n";
  return `${block.tagLine}${eol}${keptMarker(reason)}${eol}${withoutKeptMarkers(block.body)}`;
}

/** The scratch edits implied by decisions. */
export function scratchEditsOf(decisions: readonly BlockDecision[]): ScratchEdits {
  const edits: ScratchEdits = { remove: [], replace: [] };
  for (const decision of decisions) {
    if (decision.kind === "route" || decision.kind === "drop") {
      edits.remove.push(decision.block.raw);
    } else if (decision.kind === "keep") {
      const marked = markKept(decision.block, decision.reason);
      if (marked !== decision.block.raw) edits.replace.push([decision.block.raw, marked]);
    }
  }
  return edits;
}

/** Whether a kept decision changes scratch (it was not already marked with this reason). */
export function isNewlyKept(decision: BlockDecision): boolean {
  return decision.kind === "keep" &&
    markKept(decision.block, decision.reason) !== decision.block.raw;
}

/**
 * Applies edits to the scratch text as it is now (which may have grown or changed since the
 * plan was made): blocks are matched by their exact raw text, so text appended meanwhile stays,
 * and a block edited meanwhile stays too (it is planned again next time).
 */
export function applyScratchEdits(text: string, edits: ScratchEdits): string {
  if (edits.remove.length === 0 && edits.replace.length === 0) return text;
  const doc = parseScratch(text);
  const removals = new Map<string, number>();
  for (const raw of edits.remove) removals.set(raw, (removals.get(raw) ?? 0) + 1);
  const replacements = new Map<string, string[]>();
  for (const [raw, next] of edits.replace) {
    replacements.set(raw, [...(replacements.get(raw) ?? []), next]);
  }
  let removed = false;
  const kept: string[] = [];
  for (const block of doc.blocks) {
    const count = block.kind === "preamble" ? 0 : removals.get(block.raw) ?? 0;
    if (count > 0) {
      removals.set(block.raw, count - 1);
      removed = true;
      continue;
    }
    // One edit per block it was planned for: an identical block appended later is left alone.
    const replacement = block.kind === "preamble"
      ? undefined
      : replacements.get(block.raw)?.shift();
    kept.push(replacement ?? block.raw);
  }
  const body = kept.join("");
  if (removed && body.trim() === "") return "";
  return doc.bom + body;
}

// ---------------------------------------------------------------------------------------------
// Target text.

/** Line ending style of a text: CRLF when most line breaks are CRLF. */
export function eolStyle(text: string): "\n" | "\r\n" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf > 0 && crlf >= lf ? "\r\n" : "\n";
}

function analysisLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").split("\n");
}

/**
 * `text` without its trailing blank lines (and their line breaks); trailing spaces of the last
 * line with content stay. A backwards scan: a regular expression anchored at the end would
 * retry from every line break, which is quadratic on a long run of blank lines.
 */
export function withoutTrailingBlankLines(text: string): string {
  let cut = text.length;
  for (;;) {
    let i = cut;
    while (i > 0 && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
    if (i === 0 || text[i - 1] !== "\n") return text.slice(0, cut);
    i--;
    if (i > 0 && text[i - 1] === "\r") i--;
    cut = i;
  }
}

/** The last level-1 or level-2 heading outside code fences, or `undefined`. */
export function lastSectionHeading(lines: readonly string[]): string | undefined {
  const { fenced } = fenceMap(lines);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!fenced[i] && SECTION_HEADING.test(lines[i]!)) return lines[i]!.trim();
  }
  return undefined;
}

/**
 * Appends rendered items to a target file's text under today's heading.
 *
 * @param before the file's text, or `null` for a new file
 */
export function appendLearnings(
  before: string | null,
  name: string,
  today: string,
  items: readonly Item[],
): string {
  const rendered = renderItems(items);
  const heading = learningsHeading(today);
  if (before === null || before.replace(/^\uFEFF/, "").trim() === "") {
    const bom = before?.startsWith("\uFEFF") ? "\uFEFF" : "";
    const eol = before ? eolStyle(before) : "\n";
    return bom + [`# ${name}`, "", heading, "", ...rendered, ""].join(eol);
  }
  const eol = eolStyle(before);
  const lines = analysisLines(before);
  const trimmed = withoutTrailingBlankLines(before);
  const last = lastSectionHeading(lines);
  const dated = last ? DATED_HEADING.exec(last) : null;
  let addition: string[];
  if (dated && dated[1] === today) {
    const contentLines = analysisLines(trimmed);
    const lastLine = contentLines[contentLines.length - 1] ?? "";
    const continuesList = BULLET.test(lastLine) && items[0]?.bullet === true &&
      !DATED_HEADING.test(lastLine);
    addition = continuesList ? rendered : ["", ...rendered];
  } else {
    addition = ["", heading, "", ...rendered];
  }
  return trimmed + eol + addition.join(eol) + eol;
}

// ---------------------------------------------------------------------------------------------
// The plan.

/**
 * The identity of a block's raw text (for {@link PlanOptions.filedBefore}): line endings and
 * trailing whitespace do not count, so a block that gained a final line break (another block was
 * appended after it) or was saved with other line endings is still the block that was filed.
 */
export function rawHash(raw: string): string {
  return hashText(raw.replaceAll("\r\n", "\n").trimEnd());
}

/**
 * Plans one routing pass.
 *
 * @example
 * ```ts
 * const doc = parseScratch("## [TAG: global, type: tech]\n- use deno\n");
 * const plan = planRoute(doc, { today: "2026-11-30", targets: new Map([["tech.md", { kind: "missing" }]]) });
 * plan.writes[0].after; // "# tech\n\n## Learnings (2026-11-30)\n\n- use deno\n"
 * plan.scratchText; // ""
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
  }
  const pending = new Map<string, Pending>();
  const decisions: BlockDecision[] = [];
  const maxTargets = options.maxTargets ?? Infinity;
  const admitted = new Set<string>();

  for (const block of doc.blocks) {
    if (block.kind === "preamble") {
      decisions.push({ kind: "stay", block });
      continue;
    }
    const cls = classifyBlock(block);
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
      };
      pending.set(key, target);
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
    let added = 0;
    let duplicates = 0;
    items.forEach((item, index) => {
      if (item.bullet && isBulletPresent(item, target.present)) {
        duplicates++;
        return;
      }
      // The first item of a block continues the list only if both are bullets.
      target.items.push(index === 0 ? { ...item, gapBefore: false } : item);
      remember(item, target.present);
      added++;
    });
    decisions.push({ kind: "route", block, target: cls.target, added, duplicates });
  }

  const writes: TargetWrite[] = [];
  for (const target of pending.values()) {
    if (target.items.length === 0) continue;
    writes.push({
      relPath: target.relPath,
      name: target.name,
      before: target.before,
      after: appendLearnings(target.before, target.name, options.today, target.items),
      added: target.items.length,
    });
  }
  writes.sort((a, b) => a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  const edits = scratchEditsOf(decisions);
  return { decisions, writes, edits, scratchText: applyScratchEdits(renderScratch(doc), edits) };
}

/** Turns the route decisions for the given target paths into "kept" (their write failed). */
export function withFailedTargets(
  decisions: readonly BlockDecision[],
  failures: ReadonlyMap<string, string>,
  foldCase = false,
): BlockDecision[] {
  if (failures.size === 0) return [...decisions];
  const folded = new Map([...failures].map(([path, why]) => [foldKey(path, foldCase), why]));
  return decisions.map((decision) => {
    if (decision.kind !== "route") return decision;
    const why = folded.get(foldKey(decision.target.relPath, foldCase));
    if (why === undefined) return decision;
    return {
      kind: "keep",
      block: decision.block,
      code: "write-failed",
      reason: `could not write ${decision.target.relPath}: ${why}`,
    };
  });
}
