/**
 * A library file's anatomy (`src/format/library_doc.ts`): which lines are metadata and never
 * reach the model, the front matter's priority, the hand-written top, the learnings (newest
 * last) and the headings, each with its line on disk.
 */
import assert from "node:assert/strict";
import {
  isMetadataLine,
  linesText,
  parseLibraryDoc,
  priorityOf,
  stripMetadata,
} from "./library_doc.ts";
import { formatProvenance } from "./provenance.ts";
import { keptMarker, NOT_A_SECRET, REVIEW_MARKER } from "./markers.ts";

const PROVENANCE = formatProvenance({ day: "2026-11-30", commit: "a1b2c3d", files: ["src/a.ts"] });
const IMPORTED =
  "<!-- imported by 'librarian import' from memory-bank/techContext.md on 2026-11-30 -->";

Deno.test("every line the Librarian writes for itself is metadata: provenance, imported-by, review, kept, not-a-secret", () => {
  for (
    const line of [
      PROVENANCE,
      formatProvenance({ day: "2026-11-30", origin: "auto-memory/deploy.md", files: [] }),
      IMPORTED,
      REVIEW_MARKER,
      keptMarker("malformed tag"),
      NOT_A_SECRET,
      `  ${PROVENANCE}  `,
    ]
  ) {
    assert.ok(isMetadataLine(line), line);
  }
  for (
    const line of [
      "<!-- a comment of the team's own -->",
      "- librarian: the tool's name in a learning",
      "<!-- librarian: not closed",
      "text <!-- librarian: 2026-11-30 --> after",
    ]
  ) {
    assert.ok(!isMetadataLine(line), line);
  }
});

Deno.test("stripMetadata() leaves knowledge only, and keeps what is in fenced code", () => {
  const text = [
    IMPORTED,
    "# tech",
    "",
    "## Learnings (2026-11-30)",
    "",
    PROVENANCE,
    "- use deno 2",
    NOT_A_SECRET,
    "- an example of the provenance format:",
    "  ```",
    `  ${PROVENANCE}`,
    "  ```",
    "",
  ].join("\n");
  assert.equal(
    stripMetadata(text),
    [
      "# tech",
      "",
      "## Learnings (2026-11-30)",
      "",
      "- use deno 2",
      "- an example of the provenance format:",
      "  ```",
      `  ${PROVENANCE}`,
      "  ```",
      "",
    ].join("\n"),
  );
  const plain = "# tech\n- no comment here\n";
  assert.equal(stripMetadata(plain), plain);
});

Deno.test("the front matter's priority line is metadata; other front matter stays", () => {
  assert.equal(priorityOf("---\npriority: always\n---\n# Conventions\n"), "always");
  assert.equal(priorityOf("---\npriority: 'Always'  # never cut\n---\n"), "always");
  assert.equal(priorityOf("---\npriority: normal\n---\n"), "normal");
  assert.equal(priorityOf("---\npriority: always\n"), "normal", "never closed: not front matter");
  assert.equal(priorityOf("# Conventions\npriority: always\n"), "normal");
  assert.equal(stripMetadata("---\npriority: always\n---\n# Conventions\n"), "# Conventions\n");
  assert.equal(
    stripMetadata("---\ndescription: API rules\npriority: always\n---\n# API\n"),
    "---\ndescription: API rules\n---\n# API\n",
  );
});

Deno.test("the hand-written top ends at the first dated learnings heading; learnings are items and paragraphs, newest last", () => {
  const lines = [
    "# API", //                                   0
    "Handlers return results.", //                1
    "## Errors", //                               2
    "- never throw across the boundary", //       3
    "", //                                        4
    "## Learnings (2026-10-01)", //               5
    "", //                                        6
    PROVENANCE, //                                7
    "- first learning", //                        8
    "  continued on an indented line", //         9
    "", //                                        10
    "A paragraph learning.", //                   11
    "Its second line.", //                        12
    "```", //                                     13
    "- not an item: code", //                     14
    "## not a heading: code", //                  15
    "```", //                                     16
    "## Learnings (2026-11-30)", //               17
    PROVENANCE, //                                18
    "1. a numbered learning", //                  19
    "- the newest learning", //                   20
  ];
  const doc = parseLibraryDoc(lines.join("\n"));
  assert.equal(doc.topEnd, 5);
  assert.deepEqual(
    doc.learnings.map((l) => [l.start, l.end, l.group, l.provenance]),
    [[8, 10, 5, 7], [11, 17, 5, 7], [19, 20, 17, 18], [20, 21, 17, 18]],
  );
  assert.deepEqual(doc.headings.map((h) => [h.line, h.level, h.dated]), [
    [0, 1, false],
    [2, 2, false],
    [5, 2, true],
    [17, 2, true],
  ]);
  assert.equal(
    linesText(doc, 17, 21),
    "## Learnings (2026-11-30)\n1. a numbered learning\n- the newest learning",
  );
  assert.equal(doc.metadata.filter(Boolean).length, 2);
});

Deno.test("a file without dated headings is all top; shown metadata belongs to the learning below it", () => {
  assert.equal(parseLibraryDoc("# notes\n- a\n- b\n").learnings.length, 0);
  const kept = parseLibraryDoc(`# t\n## Learnings (2026-11-30)\n${PROVENANCE}\n- a\n`, true);
  assert.deepEqual(kept.learnings.map((l) => [l.start, l.end]), [[2, 4]]);
  assert.equal(linesText(kept, 2, 4), `${PROVENANCE}\n- a`);
});
