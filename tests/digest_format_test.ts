/**
 * The walk memo keeps what a cut library file came to (`src/inject/walk_memo.ts`) under the
 * version of the cut, `DIGEST_FORMAT` (`src/inject/digest.ts`): a change that cuts a text
 * differently must raise it, or a memo written before the change would be served after it. This
 * test records what the cut makes of a set of files and fails on any change until the version is
 * raised and the record updated together.
 */
import assert from "node:assert/strict";
import { hashUtf8 } from "../src/core/hash.ts";
import { parseLibraryDoc } from "../src/format/library_doc.ts";
import { DIGEST_FORMAT, digestOf } from "../src/inject/digest.ts";

/** What the cut makes of the files below, by the version that made it. */
const RECORDED = { format: 1, cuts: "f4ad31c52c6a28ef" };

function file(sections: number, learnings: number, wide = 1): string {
  const lines = ["# Tech", "", "What every change must respect.", ""];
  for (let s = 0; s < sections; s++) {
    lines.push(
      `## Topic ${s}${" of the gateway".repeat(wide * 2)}`,
      "",
      `- rule ${s}: keep it`,
      "",
    );
    if (s === 1) lines.push("```", "client --> gateway", "```", "");
  }
  for (let d = 1; d <= learnings; d++) {
    lines.push(`## Learnings (2026-10-${String(d).padStart(2, "0")})`, "");
    lines.push(`<!-- librarian: 2026-10-${String(d).padStart(2, "0")} a1b2c3d src/x${d}.ts -->`);
    lines.push(
      `- learning ${d}: ${"retries are safe only for idempotent calls; ".repeat(wide)}`,
      "",
    );
  }
  return lines.join("\n");
}

Deno.test("what the cut makes of a file is the one DIGEST_FORMAT names (raise it with any change to the cut)", () => {
  const cuts: string[] = [];
  const texts = [
    file(0, 3),
    file(4, 0),
    file(6, 28),
    "- one line",
    file(12, 60),
    file(80, 90),
    file(30, 30, 8),
  ];
  for (const text of texts) {
    for (const keep of [false, true]) {
      const doc = parseLibraryDoc(text, keep);
      for (const room of [60, 150, 400, 900, 2000, 4000, 9000]) {
        for (const partial of [false, true]) cuts.push(digestOf(doc, room, partial));
      }
    }
  }
  assert.deepEqual(
    { format: DIGEST_FORMAT, cuts: hashUtf8(cuts.join("\u0000")) },
    RECORDED,
    "the cut changed: raise DIGEST_FORMAT in src/inject/digest.ts and record both here",
  );
});
