/**
 * The Markdown helpers the filing side shares (`src/format/markdown.ts`): line endings, blank
 * lines, bullets and the last dated section of a target file.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  analysisLines,
  bulletText,
  eolStyle,
  indentOf,
  isBlank,
  lastSectionHeading,
  withoutTrailingBlankLines,
} from "./markdown.ts";

Deno.test("a file's line-ending style is the one most of its lines use", () => {
  assert.equal(eolStyle("a\r\nb\r\nc\n"), "\r\n");
  assert.equal(eolStyle("a\nb\nc\r\n"), "\n");
  assert.equal(eolStyle("no line end"), "\n");
});

Deno.test("trailing blank lines go, spaces on the last text line stay", () => {
  assert.equal(withoutTrailingBlankLines("- a  \n\n \t\r\n\n"), "- a  ");
  assert.equal(withoutTrailingBlankLines("- a\n"), "- a");
  assert.equal(withoutTrailingBlankLines(""), "");
});

Deno.test("the last level-1 or level-2 heading outside code fences", () => {
  const fence = "`".repeat(3);
  const lines = ["# tech", "## Learnings (2026-11-29)", "- a", fence, "## not a heading", fence];
  assert.equal(lastSectionHeading(lines), "## Learnings (2026-11-29)");
  assert.equal(lastSectionHeading(["# title", "- a"]), "# title");
  assert.equal(lastSectionHeading(["- a", "### deeper is not a section"]), undefined);
});

Deno.test("bullets of every marker give their text; indentation counts tabs as four", () => {
  assert.equal(bulletText("  - use deno"), "use deno");
  assert.equal(bulletText("12. step"), "step");
  assert.equal(indentOf("\t  x"), 6);
  assert.ok(isBlank("\t "));
  assert.deepEqual(analysisLines("\uFEFFa\r\nb"), ["a", "b"]);
});

Deno.test("a line's indentation is its leading spaces and tabs, a tab counting four", () => {
  const line = fc.string({ unit: fc.constantFrom(" ", "\t", "-", "a", "\u00a0", "\n") });
  fc.assert(
    fc.property(line, (text) => {
      const lead = /^[ \t]*/.exec(text)![0];
      assert.equal(indentOf(text), lead.length + 3 * lead.split("\t").length - 3);
    }),
    { numRuns: 2000 },
  );
});
