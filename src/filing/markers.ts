/**
 * The marker comments the Librarian writes into scratch blocks (pure): why a block was kept,
 * and a person's "not a secret" override.
 *
 * @module
 */

import { type HeadedBlock, lineContent, splitLinesKeepingEnds } from "./scratch.ts";

/** The first word of every marker line the Librarian writes into scratch. */
export const MARKER_PREFIX = "librarian:";
/** A comment line in a block that says its suspected secret is not one. */
export const NOT_A_SECRET = "<!-- librarian: not-a-secret -->";

/** Any Librarian marker line. */
export const ANY_MARKER = /^[ \t]*<!--[ \t]*librarian:.*-->[ \t]*$/;
const KEPT_MARKER = /^[ \t]*<!--[ \t]*librarian: kept in scratch:.*-->[ \t]*$/;
/** A {@link NOT_A_SECRET} line anywhere in a text (multiline). */
export const NOT_SECRET_MARKER = /^[ \t]*<!--[ \t]*librarian:[ \t]*not-a-secret[ \t]*-->[ \t]*$/m;

/**
 * The marker line for a kept block (an HTML comment, so Markdown viewers hide it).
 *
 * @example Usage
 * ```ts
 * import { keptMarker } from "./markers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(keptMarker("a --> b"), "<!-- librarian: kept in scratch: a --&gt; b -->");
 * ```
 */
export function keptMarker(reason: string): string {
  const safe = reason.replaceAll("-->", "--&gt;").replace(/[\r\n]+/g, " ");
  return `<!-- librarian: kept in scratch: ${safe} -->`;
}

/**
 * A block body without the kept-marker lines the Librarian wrote into it.
 *
 * @example Usage
 * ```ts
 * import { keptMarker, withoutKeptMarkers } from "./markers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(withoutKeptMarkers(`${keptMarker("why")}\n- a\n`), "- a\n");
 * ```
 */
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
