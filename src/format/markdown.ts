/**
 * Markdown line helpers (pure) shared by the planner's steps: blank lines, indentation, list
 * markers, section headings and line-ending style.
 *
 * @module
 */

import { fenceMap } from "./scratch.ts";

/** A list-item marker (`-`, `*`, `+`, `1.`, `1)`) with its indentation. */
export const BULLET = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const SECTION_HEADING = /^[ \t]{0,3}#{1,2}(?:[ \t]|$)/;

/** Terminal escape sequences (colours, cursor moves, titles), removed whole. */
const TERMINAL_ESCAPE =
  // deno-lint-ignore no-control-regex
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_])/g;
/** Control characters other than tab, and byte-order marks. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\uFEFF]/g;

/**
 * A line as it may go into a library file: terminal escape sequences (pasted coloured output)
 * and control characters other than tab removed. A NUL would make the whole file count as binary,
 * and every learning in it would drop out of the model's context.
 *
 * @example Usage
 * ```ts
 * import { libraryLine } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(libraryLine("- a\u0000b \u001b[31mred\u001b[0m\tok"), "- ab red\tok");
 * ```
 */
export function libraryLine(line: string): string {
  // deno-lint-ignore no-control-regex
  if (!/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\uFEFF]/.test(line)) return line;
  return line.replace(TERMINAL_ESCAPE, "").replace(CONTROL, "");
}

/**
 * True when `line` holds nothing but whitespace.
 *
 * @example Usage
 * ```ts
 * import { isBlank } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isBlank(" \t"));
 * assert.ok(!isBlank(" - a"));
 * ```
 */
export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/**
 * The indentation width of `line` (a tab counts as four spaces).
 *
 * @example Usage
 * ```ts
 * import { indentOf } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(indentOf("  - a"), 2);
 * assert.equal(indentOf("\t- a"), 4);
 * assert.equal(indentOf("- a"), 0);
 * ```
 */
export function indentOf(line: string): number {
  // counted by hand: filing asks it several times for every line it reads
  let width = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 0x20) width += 1;
    else if (code === 0x09) width += 4;
    else break;
  }
  return width;
}

/**
 * The text of a bullet line without its indentation and marker, trimmed.
 *
 * @example Usage
 * ```ts
 * import { bulletText } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bulletText("  - use deno "), "use deno");
 * assert.equal(bulletText("2) second"), "second");
 * ```
 */
export function bulletText(line: string): string {
  return line.replace(BULLET, "").trim();
}

/**
 * Line ending style of a text: CRLF when most line breaks are CRLF.
 *
 * @example Usage
 * ```ts
 * import { eolStyle } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(eolStyle("a\r\nb\r\n"), "\r\n");
 * assert.equal(eolStyle("a\nb"), "\n");
 * ```
 */
export function eolStyle(text: string): "\n" | "\r\n" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf > 0 && crlf >= lf ? "\r\n" : "\n";
}

/**
 * The lines of `text` for analysis: without a BOM, CRLF as LF, no line endings.
 *
 * @example Usage
 * ```ts
 * import { analysisLines } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(analysisLines("\uFEFF# a\r\n- b\n"), ["# a", "- b", ""]);
 * ```
 */
export function analysisLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").split("\n");
}

/**
 * `text` without its trailing blank lines (and their line breaks); trailing spaces of the last
 * line with content stay. A backwards scan: a regular expression anchored at the end would
 * retry from every line break, which is quadratic on a long run of blank lines.
 *
 * @example Usage
 * ```ts
 * import { withoutTrailingBlankLines } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(withoutTrailingBlankLines("# a\n- b \n\n  \n"), "# a\n- b ");
 * ```
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

/**
 * The last level-1 or level-2 heading outside code fences, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { lastSectionHeading } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lastSectionHeading(["# a", "## b", "~~~", "## c", "~~~"]), "## b");
 * ```
 */
export function lastSectionHeading(lines: readonly string[]): string | undefined {
  const { fenced } = fenceMap(lines);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!fenced[i] && SECTION_HEADING.test(lines[i]!)) return lines[i]!.trim();
  }
  return undefined;
}
