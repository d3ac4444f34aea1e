/**
 * The fair budget (pure): how the files on a path share one context's characters.
 *
 * The rules, in order:
 *
 * 1. **Every file is represented.** Each file gets at least a useful slice ({@link MIN_SLICE}
 *    characters of its text, or all of it when it is shorter) before any file gets more. Only
 *    when even that does not fit for all of them (dozens of files on one path) are files left
 *    out, and then the slices go round the folders (the first file of each folder, most specific
 *    first, then the second of each, ...), so no folder is crowded out by a folder of many files.
 * 2. **An even share, no more, while anything is cut.** Whatever room is left is shared by
 *    water-filling: files smaller than the {@link fairShare} are shown whole, every larger file
 *    gets exactly the share. So no file is shown beyond the share while another is cut, and the
 *    room a small file does not need goes to the others.
 * 3. **`always` comes first.** A file marked `always` (a short conventions file that must never
 *    be cut) is shown whole before the others share the rest, as long as it leaves every other
 *    file its slice; one too large for that competes like any other file.
 *
 * What a cut file shows in its share (its hand-written top, its newest learnings, an outline of
 * the rest) is the renderer's business (`inject/digest.ts`); the closing line that names every
 * cut file is `inject/context_budget.ts`'s.
 *
 * The share is also what filing means by "a file over its fair share of the budget": a library
 * file whose text is longer than `fairShare(sizes of every file on its path, budget)` is one that
 * the model is sent only in part on a first touch of its folder.
 *
 * @module
 */

/** The smallest part of a file worth showing: less than this and it is only named. */
export const MIN_SLICE = 300;

/** One file competing for the budget. */
export interface BudgetClaim {
  /** The characters its section costs whatever is shown of it (its heading line). */
  frame: number;
  /** The characters of its whole text. */
  size: number;
  /** Shown whole before the others share the rest (while it leaves them their slices). */
  always?: boolean;
  /** Its folder: when not every file can get a slice, the slices go round the folders. */
  group: string;
}

/** How the room was shared. */
export interface BudgetPlan {
  /**
   * Characters of text each claim may show, by index: its `size` when shown whole, less when
   * cut, `null` when left out (only named).
   */
  allotments: (number | null)[];
  /** The share the larger files were cut to (`Infinity` when nothing had to be cut). */
  share: number;
}

/**
 * The fair share of `room` among texts of `sizes`: the largest whole number `c` such that
 * the sum of `min(size, c)` is at most `room` (water-filling), or `Infinity` when every text fits
 * whole. Texts shorter than the share are shown whole; every longer one gets exactly the share.
 *
 * @example Usage
 * ```ts
 * import { fairShare } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(fairShare([20_000, 16_000, 26_000], 9_000), 3_000);
 * assert.equal(fairShare([1_000, 20_000, 20_000], 9_000), 4_000, "the small file's spare room is shared");
 * assert.equal(fairShare([100, 200], 9_000), Infinity);
 * assert.equal(fairShare([], 9_000), Infinity);
 * ```
 */
export function fairShare(sizes: readonly number[], room: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = Math.max(0, room);
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i]! > share) return share;
    left -= sorted[i]!;
  }
  return Infinity;
}

/**
 * The order in which claims get their slices when not all can: `always` claims first, then
 * round the groups in the order they first appear (one claim of each group, then the next).
 */
function slicingOrder(claims: readonly BudgetClaim[], indices: readonly number[]): number[] {
  const groups = new Map<string, number[]>();
  for (const i of indices) {
    const key = claims[i]!.group;
    const members = groups.get(key);
    if (members) members.push(i);
    else groups.set(key, [i]);
  }
  const order: number[] = [];
  const queues = [...groups.values()];
  for (let round = 0; order.length < indices.length; round++) {
    for (const queue of queues) if (round < queue.length) order.push(queue[round]!);
  }
  return order;
}

/** What a claim costs at least when it is shown: its frame and its slice. */
function leastCost(claim: BudgetClaim): number {
  return claim.frame + Math.min(claim.size, MIN_SLICE);
}

/**
 * Shares `room` characters among `claims` by the rules above (see the module documentation).
 *
 * @example Usage
 * ```ts
 * import { planBudget } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const claim = (size: number, group = "") => ({ frame: 20, size, group });
 * // three root files of 20,000, 16,000 and 26,000 characters: each gets an even share
 * const plan = planBudget([claim(20_000), claim(16_000), claim(26_000)], 9_000);
 * assert.deepEqual(plan.allotments, [2_980, 2_980, 2_980]);
 * // a short conventions file marked `always` is shown whole, the others share the rest
 * const always = planBudget([{ ...claim(20_000), always: true }, claim(2_000)], 9_000);
 * assert.deepEqual(always.allotments, [6_960, 2_000], "too large to be always: it is cut");
 * const short = planBudget([claim(20_000), { ...claim(4_000), always: true }], 9_000);
 * assert.deepEqual(short.allotments, [4_960, 4_000]);
 * ```
 */
export function planBudget(claims: readonly BudgetClaim[], room: number): BudgetPlan {
  const allotments = new Array<number | null>(claims.length).fill(null);
  let left = Math.max(0, room);
  // `always` claims whole, each while it leaves every other claim its least cost
  const others = new Set(claims.map((_, i) => i));
  let othersLeast = claims.reduce((sum, c) => sum + leastCost(c), 0);
  for (let i = 0; i < claims.length; i++) {
    const claim = claims[i]!;
    if (!claim.always) continue;
    const rest = othersLeast - leastCost(claim);
    if (claim.frame + claim.size + rest <= left) {
      allotments[i] = claim.size;
      left -= claim.frame + claim.size;
      others.delete(i);
      othersLeast = rest;
    }
  }
  // who gets a slice at all: everyone when their least costs fit; else round the groups
  const candidates = [...others];
  let shown = candidates;
  if (othersLeast > left) {
    shown = [];
    let spent = 0;
    for (const i of slicingOrder(claims, candidates)) {
      const cost = leastCost(claims[i]!);
      if (spent + cost > left) continue;
      spent += cost;
      shown.push(i);
    }
  }
  // the rest of the room, after every shown claim's frame, is water-filled
  const textRoom = left - shown.reduce((sum, i) => sum + claims[i]!.frame, 0);
  const share = fairShare(shown.map((i) => claims[i]!.size), textRoom);
  for (const i of shown) allotments[i] = Math.min(claims[i]!.size, share);
  return { allotments, share };
}
