/**
 * Items, the units of a learning (pure): a bullet with its continuation lines, or a paragraph
 * or code block; and what a target file already holds, for duplicate detection.
 *
 * @module
 */

import {
  ANY_MARKER,
  NOT_A_SECRET,
  NOT_SECRET_MARKER,
  withoutKeptMarkers,
} from "../format/markers.ts";
import { findSecrets } from "../format/secrets.ts";
import { BULLET, bulletText, isBlank, libraryLine } from "../format/markdown.ts";
import { itemSpans } from "../format/learnings.ts";
import { fenceMap, lineContent, splitLinesKeepingEnds } from "../format/scratch.ts";

/** One learning unit of a block body or target file. */
export interface Item {
  /** Lines without endings. */
  lines: string[];
  /** True for a list item (its key takes part in duplicate detection). */
  bullet: boolean;
  /** True when a blank line preceded the item in its source. */
  gapBefore: boolean;
  /** True for a line written right above the next item (a provenance comment); not a learning. */
  attached?: boolean;
}

/**
 * The duplicate-detection key of an item (its lines trimmed, the first without its marker).
 *
 * @example Usage
 * ```ts
 * import { itemKey } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(itemKey({ lines: ["- a ", "  b"], bullet: true, gapBefore: false }), "a\nb");
 * ```
 */
export function itemKey(item: Item): string {
  return item.lines.map((line, i) => i === 0 ? bulletText(line) : line.trim()).join("\n");
}

/**
 * Splits lines (no endings) into items; blank lines separate items outside code fences.
 *
 * @example Usage
 * ```ts
 * import { splitItems } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const items = splitItems(["- a", "  more", "- b", "", "text"]);
 * assert.deepEqual(items.map((i) => i.lines), [["- a", "  more"], ["- b"], ["text"]]);
 * assert.deepEqual(items.map((i) => i.bullet), [true, true, false]);
 * ```
 */
export function splitItems(lines: readonly string[]): Item[] {
  return itemSpans(lines).map((span) => ({
    lines: lines.slice(span.start, span.end),
    bullet: span.bullet,
    gapBefore: span.gapBefore,
  }));
}

/** What a target file already has: bullet items, single bullet lines, and other items. */
export interface PresentItems {
  /** Keys of whole bullet items. */
  items: Set<string>;
  /** Keys of single bullet lines, at any indentation. */
  lines: Set<string>;
  /** Keys of non-bullet items (paragraphs, code). */
  texts: Set<string>;
}

/**
 * The items present in a target file's lines.
 *
 * @example Usage
 * ```ts
 * import { presentItems } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const present = presentItems(["# tech", "", "- use deno", "", "A paragraph."]);
 * assert.ok(present.lines.has("use deno"));
 * assert.ok(present.texts.has("A paragraph."));
 * ```
 */
export function presentItems(lines: readonly string[]): PresentItems {
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

/**
 * Whether a bullet is already present (the rule for every block).
 *
 * @example Usage
 * ```ts
 * import { isBulletPresent, presentItems, splitItems } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const present = presentItems(["- use deno"]);
 * const [known, fresh] = splitItems(["- use deno", "- use npm"]);
 * assert.equal(isBulletPresent(known!, present), true);
 * assert.equal(isBulletPresent(fresh!, present), false);
 * ```
 */
export function isBulletPresent(item: Item, present: PresentItems): boolean {
  const key = itemKey(item);
  return item.lines.length === 1 ? present.lines.has(key) : present.items.has(key);
}

/**
 * Whether any item is already present (for blocks filed before: bullets and text alike).
 *
 * @example Usage
 * ```ts
 * import { isItemPresent, presentItems, splitItems } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const present = presentItems(["A paragraph.", "", "- a bullet"]);
 * const [text, bullet, other] = splitItems(["A paragraph.", "", "- a bullet", "", "New text."]);
 * assert.equal(isItemPresent(text!, present), true);
 * assert.equal(isItemPresent(bullet!, present), true);
 * assert.equal(isItemPresent(other!, present), false);
 * ```
 */
export function isItemPresent(item: Item, present: PresentItems): boolean {
  return item.bullet ? isBulletPresent(item, present) : present.texts.has(itemKey(item));
}

/**
 * Adds `item` to what is present (a later identical bullet is then a duplicate).
 *
 * @example Usage
 * ```ts
 * import { isItemPresent, presentItems, remember, splitItems } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const present = presentItems([]);
 * const [item] = splitItems(["- use deno"]);
 * assert.equal(isItemPresent(item!, present), false);
 * remember(item!, present);
 * assert.equal(isItemPresent(item!, present), true);
 * ```
 */
export function remember(item: Item, present: PresentItems): void {
  if (!item.bullet) {
    present.texts.add(itemKey(item));
    return;
  }
  present.items.add(itemKey(item));
  for (const line of item.lines) if (BULLET.test(line)) present.lines.add(bulletText(line));
}

/**
 * A block body as LF lines without marker comments and without leading/trailing blank lines.
 *
 * @example Usage
 * ```ts
 * import { bodyLines } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(bodyLines("\n<!-- librarian: not-a-secret -->\r\n- a\n\n"), ["- a"]);
 * ```
 */
export function bodyLines(body: string): string[] {
  const lines = splitLinesKeepingEnds(body).map((line) => libraryLine(lineContent(line)))
    .filter((l) => !ANY_MARKER.test(l));
  while (lines.length && isBlank(lines[0]!)) lines.shift();
  while (lines.length && isBlank(lines[lines.length - 1]!)) lines.pop();
  return lines;
}

/**
 * The not-a-secret marker as an item, for a block that a person vouched for and that does look
 * like it holds a credential (else `null`). Filed before the block's items, it tells `lint` that
 * the target file's look-alikes are known not to be secrets.
 *
 * @example Usage
 * ```ts
 * import { vouchedMarkerItem } from "./items.ts";
 * import assert from "node:assert/strict";
 *
 * const body = "<!-- librarian: not-a-secret -->\n- docs key AKIAABCDEFGHIJKLMNOP\n";
 * assert.deepEqual(vouchedMarkerItem(body)?.lines, ["<!-- librarian: not-a-secret -->"]);
 * assert.equal(vouchedMarkerItem("- plain learning\n"), null);
 * ```
 */
export function vouchedMarkerItem(body: string): Item | null {
  if (!NOT_SECRET_MARKER.test(body)) return null;
  if (findSecrets(withoutKeptMarkers(body)).length === 0) return null;
  return { lines: [NOT_A_SECRET], bullet: false, gapBefore: true };
}
