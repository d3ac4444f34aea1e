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

/**
 * The edit distance between two short names (Levenshtein): how many letters to insert, delete or
 * change. What "did you mean" suggestions measure.
 *
 * @example Usage
 * ```ts
 * import { editDistance } from "./words.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(editDistance("stauts", "status"), 2);
 * assert.equal(editDistance("src/apj", "src/api"), 1);
 * assert.equal(editDistance("", "abc"), 3);
 * ```
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
