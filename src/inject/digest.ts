/**
 * What a cut file shows in its share of the budget (pure): its hand-written top (what precedes
 * its learnings), its newest learnings, and an outline of what was left out (headings, and the
 * range of older learnings, each with the line to read from), so the model can Read the part it
 * needs.
 *
 * - The newest learning is always there (its start, at least): learnings are appended, so the
 *   newest are the ones a cut by position would lose first.
 * - The top and the learnings share the room evenly, each giving the other what it does not need.
 * - Text is cut at a line, preferably before a blank line or a heading, never inside fenced code
 *   (a fence that cannot be kept whole is left for the outline).
 *
 * @module
 */

import {
  DATED_HEADING,
  type DocLearning,
  type LibraryDoc,
  linesText,
} from "../format/library_doc.ts";

/**
 * Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair.
 *
 * @example Usage
 * ```ts
 * import { cutText } from "./digest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cutText("abcdef", 4), "abcd");
 * assert.equal(cutText("ab", 4), "ab");
 * assert.equal(cutText("a😀b", 2), "a", "never half of a surrogate pair");
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/**
 * The version of what {@link digestOf} makes of a parsed file (`format/library_doc.ts` included).
 * The walk memo keeps cuts by it (`walk_memo.ts`): raise it with any change that cuts a text
 * differently. `tests/digest_format_test.ts` fails until then.
 */
export const DIGEST_FORMAT = 1;

/** The part of a share kept for the outline, at most. */
const OUTLINE_SHARE = 0.25;
/** An outline never takes more than this. */
const MAX_OUTLINE = 900;
/** The newest learning gets at least this much of the learnings' room (when it is longer). */
const NEWEST_MIN = 160;
/** The room always kept for an outline, enough for its short form. */
const MIN_OUTLINE = 40;
/** A heading is quoted in the outline up to this length. */
const MAX_OUTLINE_HEADING = 80;

/** What of a line range is kept: the text and the first line not kept (`end` when all is). */
interface Kept {
  text: string;
  next: number;
}

/**
 * The longest start of lines `[start, end)` (metadata left out) that fits in `room`, cut after a
 * line: preferably before a blank line or a heading, never inside fenced code unless the fence is
 * all there is (then it is closed). A first line longer than the room is cut mid-line.
 */
function keepStart(doc: LibraryDoc, start: number, end: number, room: number): Kept {
  let length = 0;
  let fence: string | undefined;
  let best = { length: 0, next: start };
  let bestBreak = { length: 0, next: start };
  let lastLine = { length: 0, next: start, fence: undefined as string | undefined };
  let any = false;
  for (let i = start; i < end; i++) {
    if (doc.metadata[i]) continue;
    const line = doc.lines[i]!;
    const added = (any ? 1 : 0) + line.length;
    if (length + added > room) break;
    length += added;
    any = true;
    const opener = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener !== undefined) {
      if (fence === undefined) fence = opener;
      else if (opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
    }
    lastLine = { length, next: i + 1, fence };
    if (fence !== undefined || /^[ \t]{0,3}#/.test(line)) continue; // never end on a heading
    best = { length, next: i + 1 };
    const after = doc.lines[i + 1];
    if (after === undefined || after.trim() === "" || /^[ \t]{0,3}#/.test(after)) {
      bestBreak = { length, next: i + 1 };
    }
  }
  const pick = bestBreak.length >= best.length * 0.6 ? bestBreak : best;
  if (pick.length > 0) {
    return { text: linesText(doc, start, pick.next), next: pick.next };
  }
  if (lastLine.length > 0 && lastLine.fence !== undefined) {
    // one fence larger than the room: its start, closed
    const closer = `\n${lastLine.fence}`;
    const kept = keepLines(doc, start, lastLine.next, room - closer.length);
    return { text: kept.text + closer, next: kept.next };
  }
  // the first line alone is longer than the room
  const first = nextContentLine(doc, start, end);
  if (first < 0 || room <= 1) return { text: "", next: start };
  return { text: `${cutText(doc.lines[first]!, room - 1)}…`, next: first };
}

/** Whole lines from `start` while they fit in `room` (no boundary preference). */
function keepLines(doc: LibraryDoc, start: number, end: number, room: number): Kept {
  let length = 0;
  let next = start;
  for (let i = start; i < end; i++) {
    if (doc.metadata[i]) continue;
    const added = (length > 0 ? 1 : 0) + doc.lines[i]!.length;
    if (length + added > room) break;
    length += added;
    next = i + 1;
  }
  return { text: linesText(doc, start, next), next };
}

function nextContentLine(doc: LibraryDoc, start: number, end: number): number {
  for (let i = start; i < end; i++) if (!doc.metadata[i] && doc.lines[i]!.trim() !== "") return i;
  return -1;
}

/** A learning's text (metadata lines left out). */
function learningText(doc: LibraryDoc, learning: DocLearning): string {
  return linesText(doc, learning.start, learning.end);
}

/** The newest learnings shown, and the first one (index) not shown. */
interface ShownLearnings {
  /** The text, oldest shown first, each group's heading above its first learning shown. */
  text: string;
  /** Index in `doc.learnings` of the oldest learning shown (`learnings.length` when none). */
  from: number;
  /** True when the one learning shown (the newest) was cut. */
  cut: boolean;
}

/** What showing every learning would cost, as {@link newestLearnings} counts it. */
function learningsCost(doc: LibraryDoc): number {
  let cost = 0;
  let group: number | undefined;
  for (const learning of doc.learnings) {
    if (learning.group >= 0 && learning.group !== group) {
      cost += doc.lines[learning.group]!.trim().length + 3;
    }
    group = learning.group;
    cost += learningText(doc, learning).length + 1;
  }
  return cost;
}

/** The newest learnings that fit in `room`, each whole but the newest (which may be cut). */
function newestLearnings(doc: LibraryDoc, room: number): ShownLearnings {
  const all = doc.learnings;
  const chosen: { group: number; text: string }[] = []; // newest first
  let length = 0;
  let cut = false;
  for (let k = all.length - 1; k >= 0; k--) {
    const learning = all[k]!;
    const newGroup = learning.group >= 0 && learning.group !== chosen.at(-1)?.group;
    // a group's heading (and a blank line on each side) is counted with its newest learning
    const headingCost = newGroup ? doc.lines[learning.group]!.trim().length + 3 : 0;
    const body = learningText(doc, learning);
    const cost = body.length + 1 + headingCost;
    if (length + cost <= room) {
      chosen.push({ group: learning.group, text: body });
      length += cost;
      continue;
    }
    if (chosen.length === 0) {
      // the newest learning alone is too long: its start
      const kept = keepStart(doc, learning.start, learning.end, room - headingCost - 3);
      if (kept.text !== "") {
        const text = kept.text.endsWith("…") ? kept.text : `${kept.text}\n…`;
        chosen.push({ group: learning.group, text });
        cut = true;
      }
    }
    break;
  }
  let text = "";
  let group: number | undefined;
  for (const piece of chosen.reverse()) {
    if (piece.group >= 0 && piece.group !== group) {
      text += `${text === "" ? "" : "\n\n"}${doc.lines[piece.group]!.trim()}\n\n`;
    } else if (text !== "") text += "\n";
    text += piece.text;
    group = piece.group;
  }
  return { text, from: all.length - chosen.length, cut };
}

/** One entry of the outline. */
function outlineEntries(
  doc: LibraryDoc,
  topNext: number,
  shown: ShownLearnings,
  partial: boolean,
): string[] {
  const entries: string[] = [];
  const quote = (text: string) =>
    text.length > MAX_OUTLINE_HEADING ? `${cutText(text, MAX_OUTLINE_HEADING - 1)}…` : text;
  // the rest of the top: where it resumes, then its headings
  const resume = nextContentLine(doc, topNext, doc.topEnd);
  if (resume >= 0) {
    const headingThere = doc.headings.some((h) => h.line === resume);
    const rest = doc.topEnd - resume;
    const what = doc.learnings.length > 0 ? "before the learnings" : "of the file";
    if (!headingThere) {
      entries.push(`line ${resume + 1}: the rest of this part (${rest} more lines ${what})`);
    }
    for (const h of doc.headings) {
      if (h.line >= resume && h.line < doc.topEnd) {
        entries.push(`line ${h.line + 1}: ${quote(h.text)}`);
      }
    }
  }
  // the older learnings, as one range
  const older = doc.learnings.slice(0, shown.from);
  if (older.length > 0) {
    const first = older[0]!;
    const last = older[older.length - 1]!;
    const start = first.group >= 0 && first.group < first.start ? first.group : first.start;
    const count = `${older.length} older learning${older.length === 1 ? "" : "s"}`;
    const dayOf = (l: DocLearning) =>
      l.group >= 0 ? DATED_HEADING.exec(doc.lines[l.group]!.trim())?.[1] : undefined;
    const [from, to] = [dayOf(first), dayOf(last)];
    const days = from && to ? (from === to ? ` (${from})` : ` (${from} to ${to})`) : "";
    entries.push(`lines ${start + 1}-${last.end}: ${count}${days}`);
  }
  if (shown.cut) {
    const learning = doc.learnings[shown.from]!;
    entries.push(`lines ${learning.start + 1}-${learning.end}: the newest learning, in full`);
  }
  if (partial) entries.push(`after line ${doc.lines.length}: the rest of the file (not read)`);
  return entries;
}

/** The outline text for `entries`, at most `room` characters (entries dropped from the end). */
function outlineText(entries: readonly string[], room: number): string {
  if (entries.length === 0) return "";
  const head = "[Not shown here; Read this file from the line given:";
  for (let n = entries.length; n >= 1; n--) {
    const more = entries.length - n;
    const tail = more > 0 ? `\n- and ${more} more part${more === 1 ? "" : "s"} after those]` : "]";
    const text = head + entries.slice(0, n).map((e) => `\n- ${e}`).join("") + tail;
    if (text.length <= room) return text;
  }
  const from = /^lines? (\d+)/.exec(entries[0]!)?.[1];
  const short = from ? `[More in the file from line ${from}.]` : "[More in the file.]";
  return short.length <= room ? short : "";
}

/**
 * The body of a cut file's section, at most `room` characters: its top, its newest learnings,
 * and the outline of the rest. `partial` says the text is only the start of the file.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLibraryDoc } from "../format/library_doc.ts";
 * import { digestOf } from "./digest.ts";
 *
 * const learnings = Array.from({ length: 80 }, (_, i) => `- learning ${i}: ${"x".repeat(60)}`);
 * const text = ["# API", "Handlers return results.", "", "## Learnings (2026-11-30)", "", ...learnings].join("\n");
 * const body = digestOf(parseLibraryDoc(text), 1200, false);
 * assert.ok(body.length <= 1200);
 * assert.ok(body.startsWith("# API\nHandlers return results."));
 * assert.ok(body.includes("- learning 79:"), "the newest learning is shown");
 * assert.ok(!body.includes("- learning 0:"));
 * assert.match(body, /lines 4-\d+: \d+ older learnings/);
 * ```
 */
export function digestOf(doc: LibraryDoc, room: number, partial: boolean): string {
  // The outline's room is held back first; once its real length is known, what it did not need
  // goes to the text (a second pass).
  let outlineRoom = Math.max(MIN_OUTLINE, Math.min(MAX_OUTLINE, Math.floor(room * OUTLINE_SHARE)));
  let body = "";
  for (let pass = 0; pass < 2; pass++) {
    const { content, entries } = contentOf(doc, room - outlineRoom, partial);
    const outline = outlineText(entries, room - content.length - (content === "" ? 0 : 2));
    body = [content, outline].filter((t) => t !== "").join("\n\n");
    if (room - body.length < 40) break;
    // the outline's own length, and never less than its short form needs
    outlineRoom = Math.max(outline.length + 2, MIN_OUTLINE);
  }
  return cutText(body, room);
}

/** The top and newest learnings that fit in `contentRoom`, and the outline entries of the rest. */
function contentOf(
  doc: LibraryDoc,
  contentRoom: number,
  partial: boolean,
): { content: string; entries: string[] } {
  const topText = linesText(doc, 0, doc.topEnd);
  const hasLearnings = doc.learnings.length > 0;
  let learnRoom = 0;
  if (hasLearnings) {
    const learnAll = learningsCost(doc);
    const even = Math.floor(contentRoom / 2);
    learnRoom = Math.min(learnAll, Math.max(even, contentRoom - topText.length - 2));
    const newest = learningText(doc, doc.learnings[doc.learnings.length - 1]!).length;
    learnRoom = Math.max(learnRoom, Math.min(newest, NEWEST_MIN, contentRoom));
  }
  const shown = hasLearnings ? newestLearnings(doc, learnRoom) : { text: "", from: 0, cut: false };
  const used = shown.text.length + (shown.text !== "" ? 2 : 0);
  const top = keepStart(doc, 0, doc.topEnd, contentRoom - used);
  const content = [top.text, shown.text].filter((t) => t !== "").join("\n\n");
  return { content, entries: outlineEntries(doc, top.next, shown, partial) };
}
