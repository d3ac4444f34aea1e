/**
 * Appending learnings to a target file's text (pure): under one `## Learnings (YYYY-MM-DD)`
 * heading per day, reused when it is the file's last section; a new file starts with `# <name>`.
 * Existing bytes are never rewritten (trailing blank lines aside), and the file's own line-ending
 * style and BOM are kept.
 *
 * @module
 */

import { isProvenanceLine } from "../format/provenance.ts";
import type { Item } from "./items.ts";
import {
  analysisLines,
  BULLET,
  eolStyle,
  lastSectionHeading,
  withoutTrailingBlankLines,
} from "../format/markdown.ts";

const DATED_HEADING =
  /^##[ \t]+(?:Session[ \t]+)?Learnings[ \t]+\((\d{4}-\d{2}-\d{2})\)[ \t]*#*[ \t]*$/;

/** The local calendar day of a date as `YYYY-MM-DD` (where provenance comments get it). */
export { localDay } from "../format/provenance.ts";

/**
 * The dated section heading for `day`.
 *
 * @example Usage
 * ```ts
 * import { learningsHeading } from "./append.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(learningsHeading("2026-11-30"), "## Learnings (2026-11-30)");
 * ```
 */
export function learningsHeading(day: string): string {
  return `## Learnings (${day})`;
}

/** Renders items as Markdown lines: bullets stay one list, anything else is set apart. */
function renderItems(items: readonly Item[]): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    const previous = items[i - 1];
    const apart = item.gapBefore || !item.bullet || !previous?.bullet;
    if (previous && !previous.attached && apart) out.push("");
    out.push(...item.lines);
  });
  return out;
}

/**
 * Appends rendered items to a target file's text under today's heading.
 *
 * @param before the file's text, or `null` for a new file
 *
 * @example Usage
 * ```ts
 * import { appendLearnings } from "./append.ts";
 * import assert from "node:assert/strict";
 *
 * const item = { lines: ["- use deno"], bullet: true, gapBefore: false };
 * assert.equal(
 *   appendLearnings(null, "tech", "2026-11-30", [item]),
 *   "# tech\n\n## Learnings (2026-11-30)\n\n- use deno\n",
 * );
 * ```
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

/**
 * The last provenance comment line of `before` when its last section is `today`'s (trimmed), so
 * that a block filed later the same day with the same provenance does not repeat the comment.
 *
 * @example Usage
 * ```ts
 * import { lastProvenanceToday } from "./append.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# tech\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- a\n";
 * assert.equal(lastProvenanceToday(text, "2026-11-30"), "<!-- librarian: 2026-11-30 -->");
 * assert.equal(lastProvenanceToday(text, "2026-12-01"), undefined);
 * ```
 */
export function lastProvenanceToday(before: string | null, today: string): string | undefined {
  if (before === null) return undefined;
  const lines = analysisLines(before);
  const last = lastSectionHeading(lines);
  if (!last || DATED_HEADING.exec(last)?.[1] !== today) return undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line === last) return undefined;
    if (isProvenanceLine(line)) return line;
  }
  return undefined;
}
