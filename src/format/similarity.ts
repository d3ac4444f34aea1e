/**
 * How alike two learnings are (pure, no model): the Jaccard similarity of their token shingles.
 *
 * A learning's shingles are its words (from the normalised text, `learnings.ts`, without the most
 * common English function words) and each pair of adjacent words: single words find a rephrasing
 * ("stored as integer cents" against "integer cents"), pairs keep word order from counting for
 * nothing. Texts of fewer than {@link MIN_WORDS} words are too short to call near-duplicates.
 *
 * {@link similarPairs} finds every pair at or above a threshold without comparing every learning
 * with every other: each learning is indexed under its rarest shingles only, as many as a pair
 * at the threshold must share (prefix filtering), so the work grows with the pairs that could
 * match, not with the square of the library.
 *
 * @module
 */

/** Words that say little about what a learning is about. */
const STOPWORDS = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "on",
  "at",
  "for",
  "and",
  "or",
  "is",
  "are",
  "be",
  "it",
  "its",
  "as",
  "by",
  "with",
  "this",
  "that",
]);

/** A text needs this many words (function words aside) to have near-duplicates. */
export const MIN_WORDS = 3;

/** The default similarity from which two learnings are reported as near-duplicates. */
export const DEFAULT_SIMILARITY = 0.6;

/**
 * The shingles of a normalised text: its words and word pairs (function words left out), or an
 * empty set when it has fewer than {@link MIN_WORDS} words.
 *
 * @example Usage
 * ```ts
 * import { shinglesOf } from "./similarity.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...shinglesOf("money is integer cents")], ["money", "integer", "cents", "money integer", "integer cents"]);
 * assert.equal(shinglesOf("use deno").size, 0);
 * ```
 */
export function shinglesOf(normalised: string): Set<string> {
  const words = normalised.split(" ").filter((w) => w !== "" && !STOPWORDS.has(w));
  if (words.length < MIN_WORDS) return new Set();
  const shingles = new Set(words);
  for (let i = 1; i < words.length; i++) shingles.add(`${words[i - 1]} ${words[i]}`);
  return shingles;
}

/**
 * The Jaccard similarity of two shingle sets: shared over all, 0 to 1 (0 when either is empty).
 *
 * @example Usage
 * ```ts
 * import { jaccard } from "./similarity.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(jaccard(new Set(["a", "b"]), new Set(["b", "c"])), 1 / 3);
 * assert.equal(jaccard(new Set(), new Set(["a"])), 0);
 * ```
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * The similarity of two normalised texts ({@link jaccard} of their {@link shinglesOf}).
 *
 * @example Usage
 * ```ts
 * import { similarity } from "./similarity.ts";
 * import assert from "node:assert/strict";
 *
 * const a = "money is integer cents never floats";
 * assert.equal(similarity(a, a), 1);
 * assert.ok(similarity(a, "money is stored as integer cents never as floats") >= 0.6);
 * assert.ok(similarity(a, "retries use exponential backoff with jitter") === 0);
 * ```
 */
export function similarity(a: string, b: string): number {
  return jaccard(shinglesOf(a), shinglesOf(b));
}

/** One pair found by {@link similarPairs}: indexes into the input, `a < b`. */
export interface SimilarPair {
  a: number;
  b: number;
  score: number;
}

/**
 * Every pair of `sets` whose {@link jaccard} similarity is at least `threshold` (above 0) and
 * for which `related(a, b)` holds (e.g. "both are sent for one folder"), ordered by `a` then `b`.
 * Exact: prefix filtering only skips pairs that cannot reach the threshold.
 *
 * @example Usage
 * ```ts
 * import { shinglesOf, similarPairs } from "./similarity.ts";
 * import assert from "node:assert/strict";
 *
 * const texts = [
 *   "money is integer cents never floats",
 *   "retries use exponential backoff with jitter",
 *   "money is stored as integer cents never floats",
 * ];
 * const pairs = similarPairs(texts.map(shinglesOf), 0.6);
 * assert.deepEqual(pairs.map((p) => [p.a, p.b]), [[0, 2]]);
 * assert.deepEqual(similarPairs(texts.map(shinglesOf), 0.6, () => false), []);
 * ```
 */
export function similarPairs(
  sets: readonly ReadonlySet<string>[],
  threshold: number,
  related: (a: number, b: number) => boolean = () => true,
): SimilarPair[] {
  const t = Math.min(1, Math.max(Number.EPSILON, threshold));
  const frequency = new Map<string, number>();
  for (const set of sets) for (const s of set) frequency.set(s, (frequency.get(s) ?? 0) + 1);
  // shingles as numbers, rarest first: each set becomes a sorted list, compared by merging
  const order = [...frequency.keys()].sort((x, y) =>
    frequency.get(x)! - frequency.get(y)! || (x < y ? -1 : x > y ? 1 : 0)
  );
  const id = new Map(order.map((s, i) => [s, i]));
  const lists = sets.map((set) => {
    const list = new Int32Array(set.size);
    let k = 0;
    for (const s of set) list[k++] = id.get(s)!;
    return list.sort();
  });
  // per shingle: the sets whose prefix holds it, and where (set, position, set, position, ...)
  const index: number[][] = order.map(() => []);
  const seenBy = new Int32Array(sets.length).fill(-1);
  const pairs: SimilarPair[] = [];
  lists.forEach((list, b) => {
    if (list.length === 0) return;
    // a pair at the threshold shares at least one of each set's first (size - ⌈t·size⌉ + 1)
    const prefix = list.length - Math.ceil(t * list.length - 1e-9) + 1;
    const candidates: number[] = [];
    for (let j = 0; j < prefix; j++) {
      const postings = index[list[j]!]!;
      for (let p = 0; p < postings.length; p += 2) {
        const a = postings[p]!;
        if (seenBy[a] === b) continue;
        seenBy[a] = b;
        // the first shared shingle bounds the overlap: at most what follows it in both sets
        const other = lists[a]!.length;
        const needed = Math.ceil((t / (1 + t)) * (other + list.length) - 1e-9);
        const most = 1 + Math.min(other - postings[p + 1]! - 1, list.length - j - 1);
        if (most >= needed) candidates.push(a);
      }
    }
    candidates.sort((x, y) => x - y);
    for (const a of candidates) {
      const other = lists[a]!;
      // sizes too far apart cannot reach the threshold
      if (Math.min(other.length, list.length) < t * Math.max(other.length, list.length)) continue;
      if (!related(a, b)) continue;
      const score = sortedJaccard(other, list);
      if (score >= t) pairs.push({ a, b, score });
    }
    for (let j = 0; j < prefix; j++) index[list[j]!]!.push(b, j);
  });
  return pairs.sort((x, y) => x.a - y.a || x.b - y.b);
}

/** {@link jaccard} of two sorted lists of distinct numbers. */
function sortedJaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}
