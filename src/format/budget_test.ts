/**
 * The fair budget's arithmetic (`src/format/budget.ts`): the fair share by water-filling, and how
 * the room is planned among the files of a path (`always` first, every file a slice, round the
 * folders when not all can have one).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type BudgetClaim, fairShare, MIN_SLICE, planBudget } from "./budget.ts";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

Deno.test("fairShare() is the water level: the largest share whose cuts fit the room (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 30 }),
      fc.integer({ min: 0, max: 20_000 }),
      (sizes, room) => {
        const share = fairShare(sizes, room);
        if (share === Infinity) return sum(sizes) <= room;
        const taken = (c: number) => sum(sizes.map((s) => Math.min(s, c)));
        return Number.isInteger(share) && taken(share) <= room && taken(share + 1) > room &&
          sizes.some((s) => s > share);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("fairShare(): the issue's three root files get an even share; a small file's room goes to the others", () => {
  assert.equal(fairShare([20_000, 16_000, 26_000], 9_000), 3_000);
  assert.equal(fairShare([500, 20_000, 26_000], 9_000), 4_250);
  assert.equal(fairShare([500, 600], 9_000), Infinity);
});

const claimArb = fc.record({
  frame: fc.integer({ min: 12, max: 120 }),
  size: fc.integer({ min: 0, max: 30_000 }),
  always: fc.boolean(),
  group: fc.constantFrom("a/b/", "a/", ""),
});

Deno.test("planBudget(): within the room, no file beyond the share while another is cut, left out only when the slices do not fit (property)", () => {
  fc.assert(
    fc.property(
      fc.array(claimArb, { maxLength: 40 }),
      fc.integer({ min: 0, max: 9_900 }),
      (claims: BudgetClaim[], room) => {
        const { allotments, share } = planBudget(claims, room);
        const shown = claims.map((_, i) => i).filter((i) => allotments[i] !== null);
        const spent = sum(shown.map((i) => claims[i]!.frame + allotments[i]!));
        assert.ok(spent <= Math.max(0, room), `spent ${spent} of ${room}`);
        for (const i of shown) {
          const claim = claims[i]!;
          const got = allotments[i]!;
          assert.ok(got <= claim.size);
          const whole = got === claim.size;
          if (!whole) assert.equal(got, share, "every cut file gets exactly the share");
          if (whole && !claim.always && share !== Infinity) {
            assert.ok(claim.size <= share, "no file shown beyond the share while one is cut");
          }
        }
        const leftOut = claims.map((_, i) => i).filter((i) => allotments[i] === null);
        if (leftOut.length > 0) {
          // a file is left out only when its slice would not fit beside the others'
          for (const i of leftOut) {
            const least = (k: number) => claims[k]!.frame + Math.min(claims[k]!.size, MIN_SLICE);
            const taken = sum(
              shown.map((k) =>
                claims[k]!.always && allotments[k] === claims[k]!.size
                  ? claims[k]!.frame + claims[k]!.size
                  : least(k)
              ),
            );
            assert.ok(taken + least(i) > room, "left out although its slice fitted");
          }
        } else {
          for (const i of shown) {
            if (allotments[i]! < claims[i]!.size) {
              assert.ok(allotments[i]! >= Math.min(MIN_SLICE, claims[i]!.size) || room < 0);
            }
          }
        }
        return true;
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("planBudget(): an `always` file is whole while it leaves the others their slices", () => {
  const claim = (size: number, always = false): BudgetClaim => ({
    frame: 20,
    size,
    always,
    group: "",
  });
  const plan = planBudget([claim(20_000), claim(3_000, true), claim(16_000)], 9_000);
  assert.equal(plan.allotments[1], 3_000, "the conventions file is never cut");
  assert.equal(plan.allotments[0], plan.allotments[2]);
  assert.equal(sum(plan.allotments.map((a) => a ?? 0)) + 60, 9_000);
  const tooBig = planBudget([claim(20_000, true), claim(16_000)], 9_000);
  assert.ok(tooBig.allotments[0]! < 20_000, "an `always` file larger than the room is cut fairly");
  assert.equal(tooBig.allotments[0], tooBig.allotments[1]);
});

Deno.test("planBudget(): with more files than slices, the slices go round the folders", () => {
  const many = Array.from({ length: 40 }, () => ({ frame: 30, size: 1_000, group: "src/" }));
  const root = [{ frame: 30, size: 1_000, group: "" }, { frame: 30, size: 1_000, group: "" }];
  const plan = planBudget([...many, ...root], 3_000);
  assert.ok(plan.allotments[40] !== null && plan.allotments[41] !== null, "root files kept");
  assert.ok(plan.allotments.filter((a) => a === null).length > 0, "some src/ files left out");
  assert.equal(plan.allotments[0], plan.share, "the first of src/ too");
});
