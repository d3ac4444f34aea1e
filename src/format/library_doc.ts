/**
 * A library file's anatomy (pure), for what the model is sent:
 *
 * - **Metadata lines**, never sent: every `<!-- librarian: … -->` comment (provenance, kept and
 *   review markers, `not-a-secret`), the `<!-- imported by 'librarian import' … -->` line, and a
 *   `priority:` line of the front matter (a front matter left empty by that goes too). Lines in
 *   fenced code are text, whatever they look like.
 * - **Priority**: front matter `priority: always` marks a short file that must never be cut.
 * - **The hand-written top**: everything before the first dated learnings heading
 *   (`## Learnings (YYYY-MM-DD)`, the heading the Stop hook files under).
 * - **Learnings**: from that heading on, one per top-level list item or paragraph, in file order,
 *   so the newest (appended last) come last; headings there start a group.
 * - **Headings** outside code, with their line on disk, for an outline of what was left out.
 *
 * Line `i` of a {@link LibraryDoc} is line `i + 1` of the file as read (BOM removed, CRLF as LF:
 * the line count is the file's), so a line number given to the model is one its Read tool can use.
 *
 * @module
 */

/** The dated section heading learnings are filed under (`## Learnings (2026-11-30)`). */
export const DATED_HEADING =
  /^##[ \t]+(?:Session[ \t]+)?Learnings[ \t]+\((\d{4}-\d{2}-\d{2})\)[ \t]*#*[ \t]*$/;

/** A comment line the Librarian (or `librarian import`) wrote: metadata, not knowledge. */
const METADATA_COMMENT =
  /^[ \t]*<!--[ \t]*(?:librarian:|imported by ['"]?librarian\b)[^\n]*-->[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const HEADING = /^[ \t]{0,3}(#{1,6})(?:[ \t]+|$)/;
const BULLET = /^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const PRIORITY = /^priority[ \t]*:[ \t]*["']?([A-Za-z]+)["']?[ \t]*(?:#.*)?$/;
/** Front matter is looked for in this many first lines only. */
const FRONT_MATTER_MAX_LINES = 60;

/** How a file competes for the budget: `always` is never cut (while it fits at all). */
export type Priority = "always" | "normal";

/**
 * True for a metadata comment line: `<!-- librarian: … -->` of any kind, or the line
 * `librarian import` writes above imported text.
 *
 * @example Usage
 * ```ts
 * import { isMetadataLine } from "./library_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isMetadataLine("<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->"));
 * assert.ok(isMetadataLine("<!-- librarian: not-a-secret -->"));
 * assert.ok(isMetadataLine("<!-- imported by 'librarian import' from memory-bank/a.md on 2026-11-30 -->"));
 * assert.ok(!isMetadataLine("<!-- a note of the team's own -->"));
 * assert.ok(!isMetadataLine("- a learning"));
 * ```
 */
export function isMetadataLine(line: string): boolean {
  return METADATA_COMMENT.test(line);
}

/** A heading outside code. */
export interface DocHeading {
  /** 0-based line index (the file's line `line + 1`). */
  line: number;
  /** 1 to 6. */
  level: number;
  /** The heading line as written, trimmed. */
  text: string;
  /** True for a dated learnings heading. */
  dated: boolean;
}

/** One learning: a top-level list item or a paragraph after the first dated heading. */
export interface DocLearning {
  /** First line (0-based). */
  start: number;
  /** One past its last line with content. */
  end: number;
  /** The heading line of its group (the dated heading above it), or -1. */
  group: number;
  /** The metadata line (provenance) that applies to it, or -1. */
  provenance: number;
}

/** A library file, parsed. */
export interface LibraryDoc {
  /** The lines as read (no line endings); index `i` is the file's line `i + 1`. */
  lines: readonly string[];
  /** Per line: true when it is metadata and never sent. */
  metadata: readonly boolean[];
  /** `always` when the front matter says so, else `normal`. */
  priority: Priority;
  /** The hand-written top is lines `[0, topEnd)`; the learnings region starts at `topEnd`. */
  topEnd: number;
  /** Learnings in file order (the newest last). */
  learnings: DocLearning[];
  /** Headings outside code, in file order. */
  headings: DocHeading[];
}

/**
 * The front matter's extent and what it holds for the Librarian: lines `[0, end)` (0 when the
 * text has none), the `priority:` lines, and whether anything else is in it.
 */
function frontMatterOf(lines: readonly string[]): {
  end: number;
  priorityLines: number[];
  priority: Priority;
  onlyOurs: boolean;
} {
  const none = { end: 0, priorityLines: [], priority: "normal" as Priority, onlyOurs: false };
  if (lines[0]?.trimEnd() !== "---") return none;
  const last = Math.min(lines.length, FRONT_MATTER_MAX_LINES);
  const priorityLines: number[] = [];
  let priority: Priority = "normal";
  let onlyOurs = true;
  for (let i = 1; i < last; i++) {
    const line = lines[i]!.trimEnd();
    if (line === "---" || line === "...") {
      return { end: i + 1, priorityLines, priority, onlyOurs };
    }
    const match = PRIORITY.exec(line);
    if (match) {
      priorityLines.push(i);
      if (match[1]!.toLowerCase() === "always") priority = "always";
    } else if (line.trim() !== "") onlyOurs = false;
  }
  return none; // never closed: not front matter
}

/**
 * The front matter's priority of a file's text (a quick look at its first lines only).
 *
 * @example Usage
 * ```ts
 * import { priorityOf } from "./library_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(priorityOf("---\npriority: always\n---\n# Conventions\n"), "always");
 * assert.equal(priorityOf("# Conventions\n"), "normal");
 * ```
 */
export function priorityOf(text: string): Priority {
  if (!text.startsWith("---")) return "normal";
  return frontMatterOf(text.split("\n", FRONT_MATTER_MAX_LINES)).priority;
}

/**
 * Which lines are metadata: comment lines outside code, and the front matter's `priority:`
 * lines (its delimiters too when nothing else is in it). Also says which lines are fenced code.
 */
function classify(lines: readonly string[]): { metadata: boolean[]; fenced: boolean[] } {
  const metadata = new Array<boolean>(lines.length).fill(false);
  const fenced = new Array<boolean>(lines.length).fill(false);
  const front = frontMatterOf(lines);
  for (const i of front.priorityLines) metadata[i] = true;
  if (front.end > 0 && front.onlyOurs) {
    for (let i = 0; i < front.end; i++) metadata[i] = true;
  }
  let fence: string | undefined;
  for (let i = front.end; i < lines.length; i++) {
    const line = lines[i]!;
    const opener = FENCE.exec(line)?.[1];
    if (opener !== undefined) {
      fenced[i] = true;
      if (fence === undefined) fence = opener;
      else if (opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) fenced[i] = true;
    else if (line.includes("<!--") && isMetadataLine(line)) metadata[i] = true;
  }
  return { metadata, fenced };
}

/**
 * `text` without its metadata lines: what the model is sent of a library file. A text with no
 * comment and no front matter is returned as it is, without being split.
 *
 * @example Usage
 * ```ts
 * import { stripMetadata } from "./library_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# edge\n\n<!-- librarian: 2026-11-30 src/a.ts -->\n- a learning\n";
 * assert.equal(stripMetadata(text), "# edge\n\n- a learning\n");
 * assert.equal(stripMetadata("---\npriority: always\n---\n# c\n"), "# c\n");
 * const fenced = "`".repeat(3) + "\n<!-- librarian: 2026-11-30 -->\n" + "`".repeat(3) + "\n";
 * assert.equal(stripMetadata(fenced), fenced);
 * ```
 */
export function stripMetadata(text: string): string {
  if (!text.includes("<!--") && !text.startsWith("---")) return text;
  const lines = text.split("\n");
  const { metadata } = classify(lines);
  if (!metadata.includes(true)) return text;
  return lines.filter((_, i) => !metadata[i]).join("\n");
}

function isBlankLine(line: string): boolean {
  return line.trim() === "";
}

/**
 * Parses a library file's text. With `keepMetadata`, no line counts as metadata (what
 * `librarian read --provenance` shows).
 *
 * @example Usage
 * ```ts
 * import { parseLibraryDoc } from "./library_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseLibraryDoc([
 *   "# API conventions",
 *   "Handlers return results.",
 *   "",
 *   "## Learnings (2026-11-30)",
 *   "",
 *   "<!-- librarian: 2026-11-30 src/api/a.ts -->",
 *   "- Retries are idempotent only.",
 *   "  (the gateway replays POSTs)",
 *   "- Timeouts are 30 s.",
 * ].join("\n"));
 * assert.equal(doc.topEnd, 3);
 * assert.deepEqual(doc.learnings.map((l) => [l.start, l.end, l.group, l.provenance]), [
 *   [6, 8, 3, 5],
 *   [8, 9, 3, 5],
 * ]);
 * assert.deepEqual(doc.headings.map((h) => [h.line, h.text, h.dated]), [
 *   [0, "# API conventions", false],
 *   [3, "## Learnings (2026-11-30)", true],
 * ]);
 * ```
 */
export function parseLibraryDoc(text: string, keepMetadata = false): LibraryDoc {
  const lines = text.split("\n");
  const classified = classify(lines);
  const metadata = keepMetadata
    ? new Array<boolean>(lines.length).fill(false)
    : classified.metadata;
  const { fenced } = classified;
  const meta = classified.metadata; // provenance is told apart even when it is shown
  const priority = frontMatterOf(lines).priority;
  const headings: DocHeading[] = [];
  const learnings: DocLearning[] = [];
  let topEnd = lines.length;
  let group = -1;
  let provenance = -1;
  let current: DocLearning | undefined;
  let lastContent = -1; // the last line with content of the current learning
  let previousBlank = true;
  // shown metadata (keepMetadata) belongs to the learning it precedes
  let blockStart = -1;
  const close = () => {
    if (current) {
      current.end = lastContent + 1;
      learnings.push(current);
    }
    current = undefined;
  };
  const open = (i: number) => {
    close();
    current = { start: blockStart >= 0 ? blockStart : i, end: i + 1, group, provenance };
    blockStart = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const inLearnings = i >= topEnd;
    const heading = fenced[i] ? null : HEADING.exec(line);
    if (heading) {
      const dated = DATED_HEADING.test(line.trim());
      headings.push({ line: i, level: heading[1]!.length, text: line.trim(), dated });
      if (dated && !inLearnings) topEnd = i;
      if (dated || i >= topEnd) {
        close();
        group = i;
        provenance = -1;
        blockStart = -1;
      }
      previousBlank = true;
      continue;
    }
    if (!inLearnings) continue;
    if (meta[i]) {
      close();
      provenance = i;
      if (keepMetadata && blockStart < 0) blockStart = i;
      previousBlank = true;
      continue;
    }
    if (isBlankLine(line) && !fenced[i]) {
      previousBlank = true;
      continue;
    }
    const startsItem = !fenced[i] && BULLET.test(line);
    const startsParagraph = !fenced[i] && previousBlank && !/^[ \t]/.test(line);
    if (!current || startsItem || startsParagraph) open(i);
    lastContent = i;
    previousBlank = false;
  }
  close();
  return { lines, metadata, priority, topEnd, learnings, headings };
}

/**
 * The text of lines `[start, end)` without metadata lines, trailing blank lines dropped.
 *
 * @example Usage
 * ```ts
 * import { linesText, parseLibraryDoc } from "./library_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseLibraryDoc("# t\n<!-- librarian: 2026-11-30 -->\n- a\n\n");
 * assert.equal(linesText(doc, 0, 4), "# t\n- a");
 * ```
 */
export function linesText(doc: LibraryDoc, start: number, end: number): string {
  const kept: string[] = [];
  for (let i = start; i < end && i < doc.lines.length; i++) {
    if (!doc.metadata[i]) kept.push(doc.lines[i]!);
  }
  while (kept.length > 0 && isBlankLine(kept[kept.length - 1]!)) kept.pop();
  return kept.join("\n");
}
