/**
 * Learnings as units: the normalised form that makes "the same learning" (filing files each
 * once), the split of a library file into learnings, and near-duplicate scoring (lint).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { learningKey, learningsOf, normalizeLearning } from "./learnings.ts";
import { DEFAULT_SIMILARITY, jaccard, shinglesOf, similarity, similarPairs } from "./similarity.ts";

Deno.test("normalisation folds case, whitespace, punctuation, list markers and Unicode form", () => {
  const same = [
    "- Money is integer cents; never floats.",
    "* money is integer cents, never floats",
    "+ MONEY IS INTEGER CENTS — NEVER FLOATS!",
    "1. Money is integer cents: never floats",
    "2) Money   is\tinteger\n   cents; never floats",
    "- [ ] Money is **integer** cents; _never_ floats.",
    "- [x] `Money` is integer cents (never floats)",
    "- Ｍｏｎｅｙ is integer cents; never floats.", // full-width letters (NFKC)
    "- Money is integer cents\u200B; never floats.", // a zero-width space
    "- Money is “integer” cents… never floats",
  ];
  const keys = new Set(same.map(normalizeLearning));
  assert.deepEqual([...keys], ["money is integer cents never floats"]);
});

Deno.test("normalisation folds composed and decomposed accents, and ß with SS", () => {
  assert.equal(normalizeLearning("- Caf\u00e9 prices"), normalizeLearning("- cafe\u0301 prices"));
  assert.equal(normalizeLearning("- Straße names"), normalizeLearning("- STRASSE names"));
});

Deno.test("normalisation keeps what changes the meaning: words, numbers, signs, operators", () => {
  const distinct = [
    "- retries: -1 means forever",
    "- retries: 1 means forever",
    "- timeout is 1.5 s",
    "- timeout is 15 s",
    "- x >= 0 is required",
    "- x <= 0 is required",
    "- use deno",
    "- use node",
  ];
  assert.equal(new Set(distinct.map(normalizeLearning)).size, distinct.length);
});

Deno.test("normalisation is idempotent and never lets a bullet marker or case decide (property)", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), (text) => {
      const once = normalizeLearning(text);
      assert.equal(normalizeLearning(once), once);
      assert.equal(normalizeLearning(`- ${text}`), normalizeLearning(`* ${text.toUpperCase()}`));
    }),
  );
});

/** The normal form as first specified: passes of the whole recipe until nothing changes. */
function fixpointNormal(text: string): string {
  const once = (t: string) =>
    t.normalize("NFKC").split("\n")
      .map((line) =>
        line.replace(/^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?/, "")
      )
      .join(" ").toUpperCase().toLowerCase()
      .replace(/(^|[\s(\[])-(?=\d)/g, "$1\uE000").replace(/[\p{P}`~\p{Cf}]/gu, " ")
      .replaceAll("\uE000", "-").replace(/\s+/g, " ").trim();
  let normal = once(text);
  for (let again = once(normal); again !== normal; again = once(normal)) normal = again;
  return normal;
}

Deno.test("normalisation stops after one pass only where another would change nothing (property)", () => {
  // list markers, signs, numbers, brackets, invisible and non-ASCII characters, at line starts
  const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
  const char = fc.oneof(
    fc.constantFrom(..."+-*1.)9 \n\t[x]X(!aB".split("")),
    fc.constantFrom(...ascii),
    fc.constantFrom(..."é`~\u200b\u00dfﬁ\u2014\uff2d\u00a0".split("")),
  );
  fc.assert(
    fc.property(fc.array(char, { maxLength: 40 }).map((cs) => cs.join("")), (text) => {
      assert.equal(normalizeLearning(text), fixpointNormal(text));
    }),
    { numRuns: 2000 },
  );
  for (const text of ["+ + 1", "1. + x", "[x] + 2) y", "- -1", "+\u200b x"]) {
    assert.equal(normalizeLearning(text), fixpointNormal(text), text);
  }
});

Deno.test("a code block is compared by its code, not by its words", () => {
  const fence = "```";
  assert.notEqual(learningKey([fence, "a = b;", fence]), learningKey([fence, "a == b;", fence]));
  assert.equal(learningKey([fence, "a  =  b;", fence]), learningKey([fence, "a = b;", fence]));
});

Deno.test("a library file's learnings: items with their lines and the provenance that covers them", () => {
  const fence = "```";
  const text = [
    "# edge", //                                            1
    "", //                                                  2
    "## Learnings (2026-11-30)", //                         3
    "", //                                                  4
    "<!-- librarian: 2026-11-30 a1b2c3d src/api/a.ts -->", // 5
    "- First learning.", //                                 6
    "- Second learning", //                                 7
    "  continues here.", //                                 8
    "", //                                                  9
    "A paragraph learning.", //                             10
    "", //                                                  11
    "<!-- librarian: not-a-secret -->", //                  12
    fence, //                                               13
    "## not a heading inside code", //                      14
    fence, //                                               15
    "", //                                                  16
    "## Notes", //                                          17
    "- Hand-written, no provenance.", //                    18
    "",
  ].join("\n");
  const units = learningsOf(text);
  assert.deepEqual(units.map((u) => [u.line, u.endLine, u.bullet]), [
    [6, 6, true],
    [7, 8, true],
    [10, 10, false],
    [13, 15, false],
    [18, 18, true],
  ]);
  assert.deepEqual(units.map((u) => u.provenance?.line), [5, 5, 5, 5, undefined]);
  assert.equal(units[1]!.key, "second learning continues here");
  assert.ok(units[3]!.key.startsWith("code:"));
});

Deno.test("learnings: CRLF and a BOM do not shift lines or keys", () => {
  const units = learningsOf("\uFEFF# t\r\n\r\n- One, two.\r\n");
  assert.deepEqual(units.map((u) => [u.line, u.key]), [[3, "one two"]]);
});

// Near-duplicate scoring: pairs that must match (a rephrasing of one learning) and pairs that
// must not (different learnings that share words), at the default threshold.
const MUST_MATCH: [string, string][] = [
  [
    "Money is integer cents; never floats.",
    "Money is stored as integer cents, never as floats.",
  ],
  [
    "Rounding happens once, at invoice total (finance audit requirement).",
    "Rounding happens only once, at the invoice total, for the finance audit requirement.",
  ],
  [
    "Always use LEFT JOINs when removing export_builders_seed",
    "Always use LEFT JOINs when you remove export_builders_seed",
  ],
  [
    "The datetime_timezone_trunc macro needs Databricks syntax, not BigQuery",
    "datetime_timezone_trunc macro needs Databricks syntax not BigQuery syntax",
  ],
  [
    "Run deno task test before pushing to main",
    "Before pushing to main, run deno task test",
  ],
];

const MUST_NOT_MATCH: [string, string][] = [
  ["Money is integer cents; never floats.", "Retries use exponential backoff with jitter."],
  ["Run deno task test before pushing", "Run deno task bench before a release"],
  [
    "The billing API rounds at invoice total",
    "The billing API retries on 429 with backoff",
  ],
  [
    "Legacy _fivetran_deleted filters are redundant with new replication",
    "Always use LEFT JOINs when removing export_builders_seed",
  ],
  ["Use deno", "use deno fmt"], // too short to call either way
];

Deno.test("near-duplicate scoring: rephrasings of one learning match", () => {
  for (const [a, b] of MUST_MATCH) {
    const score = similarity(normalizeLearning(a), normalizeLearning(b));
    assert.ok(score >= DEFAULT_SIMILARITY, `${score.toFixed(2)}: ${a} / ${b}`);
  }
});

Deno.test("near-duplicate scoring: different learnings that share words do not", () => {
  for (const [a, b] of MUST_NOT_MATCH) {
    const score = similarity(normalizeLearning(a), normalizeLearning(b));
    assert.ok(score < DEFAULT_SIMILARITY, `${score.toFixed(2)}: ${a} / ${b}`);
  }
});

Deno.test("near-duplicate scoring is symmetric, 1 for the same text, 0 to 1 (property)", () => {
  const words = fc.constantFrom("money", "cents", "retry", "api", "never", "floats", "use", "x");
  const text = fc.array(words, { minLength: 0, maxLength: 10 }).map((w) => w.join(" "));
  fc.assert(
    fc.property(text, text, (a, b) => {
      const ab = similarity(a, b);
      assert.equal(ab, similarity(b, a));
      assert.ok(ab >= 0 && ab <= 1);
      if (shinglesOf(a).size > 0) assert.equal(similarity(a, a), 1);
    }),
  );
});

Deno.test("similarPairs finds exactly the pairs a full comparison finds (property)", () => {
  const words = fc.constantFrom("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8");
  const text = fc.array(words, { minLength: 3, maxLength: 8 }).map((w) => w.join(" "));
  fc.assert(
    fc.property(
      fc.array(text, { maxLength: 25 }),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      (texts, threshold) => {
        const sets = texts.map(shinglesOf);
        const found = similarPairs(sets, threshold).map((p) => `${p.a}-${p.b}`);
        const all: string[] = [];
        for (let b = 0; b < sets.length; b++) {
          for (let a = 0; a < b; a++) {
            if (jaccard(sets[a]!, sets[b]!) >= threshold) all.push(`${a}-${b}`);
          }
        }
        assert.deepEqual(
          found,
          all.sort((x, y) => {
            const [xa, xb] = x.split("-").map(Number);
            const [ya, yb] = y.split("-").map(Number);
            return xa! - ya! || xb! - yb!;
          }),
        );
      },
    ),
  );
});

Deno.test("similarPairs stays fast on a large library of distinct learnings", () => {
  // 6,000 learnings about 600 topics: a full comparison would be 18 million pairs.
  const texts: string[] = [];
  for (let i = 0; i < 6000; i++) {
    texts.push(`topic${i % 600} rule ${i} about service${i % 37} and module${i % 53} keep why`);
  }
  const pairs = similarPairs(texts.map((t) => shinglesOf(normalizeLearning(t))), 0.6);
  assert.deepEqual(pairs, []);
});
