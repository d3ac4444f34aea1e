import assert from "node:assert/strict";
import fc from "fast-check";
import { DETECTORS } from "./secret_patterns.ts";
import { hintedDetectors, hintsIn } from "./secrets.ts";

const HINTS = [...new Set(DETECTORS.flatMap((detector) => detector.hints))];

Deno.test("hintsIn() and hintedDetectors() find exactly the hints a text includes and the detectors they call for, nested and overlapping hints too", () => {
  // texts built from hints, pieces of hints and the characters around them, so that hints
  // overlap ("hooks.slack.com" holds "ac"), nest ("sk-ant-" holds "sk-" and "sk") and are cut
  const piece = fc.oneof(
    fc.constantFrom(...HINTS),
    fc.constantFrom(...HINTS).chain((hint) => fc.nat(hint.length).map((n) => hint.slice(n))),
    fc.constantFrom(...HINTS).chain((hint) => fc.nat(hint.length).map((n) => hint.slice(0, n))),
    fc.string({ unit: fc.constantFrom("a", "c", "k", "s", "-", "_", ".", ":", "/", " ", "\n") }),
    fc.string(),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const lower = pieces.join("").toLowerCase();
      const expected = HINTS.filter((hint) => lower.includes(hint)).sort();
      assert.deepEqual([...hintsIn(lower)].sort(), expected);
      // the detectors called for: exactly those with a hint the text includes, in their order
      assert.deepEqual(
        hintedDetectors(lower),
        DETECTORS.flatMap((detector, d) =>
          detector.hints.some((hint) => lower.includes(hint)) ? [d] : []
        ),
      );
    }),
    { numRuns: 2000 },
  );
});
