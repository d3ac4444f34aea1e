/**
 * `LIBRARIAN_AUTOMEMORY=review`: synced entries arrive in scratch as blocks kept there, marked
 * as awaiting review, until a person edits and accepts them (`librarian route --accept`) or
 * deletes them. The marker and the router's rule for it live with the other markers
 * (`format/markers.ts`, `filing/classify.ts`).
 *
 * @module
 */

import { REVIEW_MARKER } from "../format/markers.ts";

export { REVIEW_MARKER };

/**
 * The review form of a synced block (LF line endings): its marker right under the tag line,
 * where the router puts a kept block's marker, so routing leaves the block exactly as it is.
 *
 * @example Usage
 * ```ts
 * import { REVIEW_MARKER, reviewBlock } from "./review_mode.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   reviewBlock("## [TAG: global, type: tech]\n- a: b\n"),
 *   `## [TAG: global, type: tech]\n${REVIEW_MARKER}\n- a: b\n`,
 * );
 * ```
 */
export function reviewBlock(block: string): string {
  const end = block.indexOf("\n") + 1;
  return `${block.slice(0, end)}${REVIEW_MARKER}\n${block.slice(end)}`;
}
