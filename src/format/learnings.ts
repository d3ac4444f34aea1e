/**
 * Learnings as units (pure): a library file's text split into its learnings (a bullet with its
 * continuation lines, or a paragraph, or a code block), each with the provenance comment that
 * covers it, and the normalised form two learnings are compared in.
 *
 * Headings, provenance comments and other `<!-- librarian: … -->` markers are structure, not
 * learnings; a provenance comment covers the learnings below it up to the next comment or
 * heading (the way the Stop hook writes them, `filing/append.ts`).
 *
 * @module
 */

import { ANY_MARKER } from "./markers.ts";
import { BULLET, indentOf, isBlank } from "./markdown.ts";
import { parseProvenance, type Provenance } from "./provenance.ts";
import { fenceMap } from "./scratch.ts";

/** Where one item lies in a list of lines: `start` to `end` (exclusive), 0-based. */
export interface ItemSpan {
  start: number;
  end: number;
  /** True for a list item (a bullet with its indented continuation lines). */
  bullet: boolean;
  /** True when a blank line comes right before the item. */
  gapBefore: boolean;
}

/**
 * The items of lines (no line endings): a bullet runs over the lines indented under it, any other
 * text to the next blank line or bullet; blank lines separate items outside code fences.
 * `fenced` (from {@link fenceMap}) may be given when the caller has it.
 *
 * @example Usage
 * ```ts
 * import { itemSpans } from "./learnings.ts";
 * import assert from "node:assert/strict";
 *
 * const spans = itemSpans(["- a", "  more", "- b", "", "text"]);
 * assert.deepEqual(spans.map((s) => [s.start, s.end, s.bullet]), [[0, 2, true], [2, 3, true], [4, 5, false]]);
 * assert.equal(spans[2]!.gapBefore, true);
 * ```
 */
export function itemSpans(
  lines: readonly string[],
  fenced: readonly boolean[] = fenceMap(lines).fenced,
): ItemSpan[] {
  const spans: ItemSpan[] = [];
  let gap = false;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!fenced[i] && isBlank(line)) {
      gap = true;
      i++;
      continue;
    }
    const bullet = !fenced[i] && BULLET.test(line) && indentOf(line) <= 3;
    let j = i + 1;
    if (bullet) {
      const indent = indentOf(line);
      while (j < lines.length) {
        const next = lines[j]!;
        const inFence = fenced[j] && (fenced[j - 1] || indentOf(next) > indent);
        if (!inFence && (isBlank(next) || indentOf(next) <= indent)) break;
        j++;
      }
    } else {
      while (j < lines.length) {
        const next = lines[j]!;
        if (!fenced[j] && (isBlank(next) || (BULLET.test(next) && indentOf(next) <= 3))) break;
        j++;
      }
    }
    spans.push({ start: i, end: j, bullet, gapBefore: gap });
    gap = false;
    i = j;
  }
  return spans;
}

/** A list marker or task box at the start of a line, with the spaces after it. */
const LINE_MARKER = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?/;
/** Punctuation, backticks and invisible format characters: read as word breaks. */
const PUNCTUATION = /[\p{P}`~\p{Cf}]/gu;
/** A minus sign before a number (`-1`) is not punctuation. */
const SIGNED_NUMBER = /(^|[\s(\[])-(?=\d)/g;
const SIGN = "\uE000";
/** A character outside ASCII (surrogates included): text without one is ASCII only. */
const NON_ASCII = /[\u0080-\uffff]/;
/** {@link PUNCTUATION} within ASCII (`learnings_test.ts` holds the two equal there). */
const ASCII_PUNCTUATION = /[!"#%&'()*,\-./:;?@[\\\]_`{}~]/g;

/**
 * The form two learnings are compared in: Unicode compatibility form (NFKC), case folded, list
 * markers and task boxes dropped, punctuation and Markdown emphasis read as spaces (a minus sign
 * before a number kept), whitespace collapsed. Two learnings with the same normalised text say
 * the same thing.
 *
 * @example Usage
 * ```ts
 * import { normalizeLearning } from "./learnings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeLearning("- Money is **integer** cents; never floats."), "money is integer cents never floats");
 * assert.equal(normalizeLearning("1. MONEY is integer cents — never floats!"), "money is integer cents never floats");
 * assert.equal(normalizeLearning("- Ｍｏｎｅｙ is integer\n  cents, never floats"), "money is integer cents never floats");
 * assert.notEqual(normalizeLearning("- retries: -1 means forever"), normalizeLearning("- retries: 1 means forever"));
 * ```
 */
export function normalizeLearning(text: string): string {
  // One pass can uncover a list marker (`+!0` reads as `+ 0`): repeat until nothing changes, so
  // the normal form of a normal form is itself.
  let normal = normalizeOnce(text);
  // An ASCII normal form that does not start with `+` is already its own: NFKC and case leave
  // ASCII as it is, it is one line, punctuation is gone but for the minus of a number, and `+`
  // (a symbol, not punctuation) is the only list marker left that could start it. Filing
  // normalises every learning it meets, so the second pass was a third of a routing pass.
  if (!normal.startsWith("+") && !NON_ASCII.test(normal)) return normal;
  for (let again = normalizeOnce(normal); again !== normal; again = normalizeOnce(normal)) {
    normal = again;
  }
  return normal;
}

function normalizeOnce(text: string): string {
  // ASCII is its own NFKC form and needs no Unicode tables for case or punctuation
  const ascii = !NON_ASCII.test(text);
  const joined = (ascii ? text : text.normalize("NFKC")).split("\n")
    .map((line) => line.replace(LINE_MARKER, ""))
    .join(" ");
  return (ascii ? joined.toLowerCase() : joined.toUpperCase().toLowerCase())
    .replace(SIGNED_NUMBER, `$1${SIGN}`)
    .replace(ascii ? ASCII_PUNCTUATION : PUNCTUATION, " ")
    .replaceAll(SIGN, "-")
    .replace(/\s+/g, " ")
    .trim();
}

const FENCE_LINE = /^[ \t]{0,3}(?:`{3,}|~{3,})/;

/**
 * The comparison key of an item's lines: {@link normalizeLearning} of its text, or for a code
 * block (punctuation is its content) its lines with whitespace collapsed, prefixed `code:`.
 *
 * @example Usage
 * ```ts
 * import { learningKey } from "./learnings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(learningKey(["- Use Deno."]), learningKey(["* use deno"]));
 * const fence = "`".repeat(3);
 * assert.equal(learningKey([fence, "a  = b;", fence]), `code:${fence}\na = b;\n${fence}`);
 * ```
 */
export function learningKey(lines: readonly string[]): string {
  if (lines.length > 0 && FENCE_LINE.test(lines[0]!)) {
    return `code:${lines.map((l) => l.trim().replace(/\s+/g, " ")).join("\n")}`;
  }
  return normalizeLearning(lines.join("\n"));
}

/** The provenance comment covering a learning, and where it is. */
export interface CoveringProvenance {
  /** 1-based line of the comment. */
  line: number;
  /** The comment line as written. */
  text: string;
  provenance: Provenance;
}

/** One learning of a library file. */
export interface LearningUnit {
  /** 1-based first line. */
  line: number;
  /** 1-based last line. */
  endLine: number;
  /** Its lines, as written (no line endings). */
  lines: string[];
  /** True for a list item. */
  bullet: boolean;
  /** {@link learningKey} of its lines (`""` when it has no words, e.g. a rule `---`). */
  key: string;
  /** The provenance comment above it, if any. */
  provenance?: CoveringProvenance;
}

const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;

/** The 0-based line numbers of headings and marker comments (outside code fences). */
const IMPORTED_LINE = /^\s*<!--\s*imported by 'librarian import'/;

function structureLines(lines: readonly string[], fenced: readonly boolean[]): Set<number> {
  const structure = new Set<number>();
  lines.forEach((line, i) => {
    // the line `librarian import` writes above what it brought in is structure, never a learning
    if (!fenced[i] && (HEADING.test(line) || ANY_MARKER.test(line) || IMPORTED_LINE.test(line))) {
      structure.add(i);
    }
  });
  return structure;
}

/**
 * The learnings of a library file, in order, each with the provenance comment that covers it.
 * Lines are the file's own (`\n`-separated; a BOM and `\r` do not count), numbered from 1.
 *
 * @example Usage
 * ```ts
 * import { learningsOf } from "./learnings.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# edge\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 src/a.ts -->\n- One.\n- Two\n  more.\n";
 * const units = learningsOf(text);
 * assert.deepEqual(units.map((u) => [u.line, u.endLine, u.key]), [[6, 6, "one"], [7, 8, "two more"]]);
 * assert.deepEqual(units[1]!.provenance?.provenance.files, ["src/a.ts"]);
 * ```
 */
export function learningsOf(text: string): LearningUnit[] {
  const lines = text.replace(/^\uFEFF/, "").split("\n").map((l) => l.replace(/\r$/, ""));
  const { fenced } = fenceMap(lines);
  const structure = structureLines(lines, fenced);
  // structure lines read as blank lines: an item never runs over a heading or a comment
  const content = lines.map((line, i) => structure.has(i) ? "" : line);
  const covering = new Array<CoveringProvenance | undefined>(lines.length);
  let current: CoveringProvenance | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (structure.has(i)) {
      const provenance = parseProvenance(lines[i]!);
      if (provenance) current = { line: i + 1, text: lines[i]!.trim(), provenance };
      else if (HEADING.test(lines[i]!)) current = undefined;
    }
    covering[i] = current;
  }
  return itemSpans(content, fenced).map((span) => {
    const itemLines = lines.slice(span.start, span.end);
    const unit: LearningUnit = {
      line: span.start + 1,
      endLine: span.end,
      lines: itemLines,
      bullet: span.bullet,
      key: learningKey(itemLines),
    };
    const provenance = covering[span.start];
    if (provenance) unit.provenance = provenance;
    return unit;
  });
}
