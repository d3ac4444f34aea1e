/**
 * The marker comments the Librarian writes into scratch blocks (pure): why a block was kept,
 * and a person's "not a secret" override.
 *
 * @module
 */

import { type HeadedBlock, lineContent, splitLinesKeepingEnds } from "./scratch.ts";

/** A comment line in a block that says its suspected secret is not one. */
export const NOT_A_SECRET = "<!-- librarian: not-a-secret -->";

/** Any Librarian marker line. */
export const ANY_MARKER = /^[ \t]*<!--[ \t]*librarian:.*-->[ \t]*$/;
/** The words of every kept-marker line: {@link keptMarker} writes them, KEPT_MARKER reads them. */
const KEPT_WORDS = "librarian: kept in scratch:";
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
  return `<!-- ${KEPT_WORDS} ${safe} -->`;
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
  // a body without the words every kept marker holds is returned as it is (no split)
  if (!body.includes(KEPT_WORDS)) return body;
  return splitLinesKeepingEnds(body).filter((line) => !KEPT_MARKER.test(lineContent(line))).join(
    "",
  );
}

/**
 * Why an auto-memory entry synced with `LIBRARIAN_AUTOMEMORY=review` stays in scratch: it waits
 * for a person to edit it and accept it (`librarian route --accept`).
 */
export const REVIEW_REASON =
  "auto memory awaiting review: edit it if needed, then file it with `librarian route --accept`";

/** The kept-marker line of a block awaiting review (see {@link REVIEW_REASON}). */
export const REVIEW_MARKER: string = keptMarker(REVIEW_REASON);

/**
 * Whether a block body carries the {@link REVIEW_MARKER} (the block awaits review).
 *
 * @example Usage
 * ```ts
 * import { awaitsReview, REVIEW_MARKER } from "./markers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(awaitsReview(`${REVIEW_MARKER}\n- use pnpm\n`));
 * assert.ok(!awaitsReview("- use pnpm\n"));
 * ```
 */
export function awaitsReview(body: string): boolean {
  if (!body.includes(REVIEW_MARKER)) return false; // the marker line holds it whole
  return splitLinesKeepingEnds(body).some((line) => lineContent(line).trim() === REVIEW_MARKER);
}

/**
 * The block's raw text with one kept-marker line (for `reason`) right under its tag line.
 *
 * @example Usage
 * ```ts
 * import { markKept } from "./markers.ts";
 * import { parseScratch } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const [block] = parseScratch("## [TAG: src, type: x]\n- body\n").blocks;
 * assert.ok(block && block.kind !== "preamble");
 * const marked = markKept(block, "waits for review");
 * assert.equal(marked.split("\n")[0], "## [TAG: src, type: x]");
 * assert.match(marked.split("\n")[1]!, /^<!-- librarian: .*waits for review.* -->$/);
 * assert.ok(marked.endsWith("- body\n"));
 * ```
 */
export function markKept(block: HeadedBlock, reason: string): string {
  const eol = block.eol || "\n";
  return `${block.tagLine}${eol}${keptMarker(reason)}${eol}${withoutKeptMarkers(block.body)}`;
}
