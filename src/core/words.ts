/**
 * Words for people, shared by the commands and the Stop hook's one-line summary.
 *
 * @module
 */

/**
 * A count with its noun: `1 file`, `2 files`, `3 auto memories`.
 *
 * @example Usage
 * ```ts
 * import { plural } from "./words.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(plural(1, "file"), "1 file");
 * assert.equal(plural(2, "file"), "2 files");
 * assert.equal(plural(3, "auto memory", "auto memories"), "3 auto memories");
 * ```
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
