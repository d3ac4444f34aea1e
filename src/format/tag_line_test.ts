/**
 * The tag-line grammar (issue 11, "Misfiled"): valid tags, the legacy form, and near misses that
 * head their own block with a problem saying exactly what to fix, never swallowed into the block
 * above them.
 */
import assert from "node:assert/strict";
import { type HeadedBlock, parseScratch, renderScratch } from "./scratch.ts";
import { nearMissFix } from "./near_miss.ts";
import { readTagLine } from "./tag_line.ts";

function headed(text: string): HeadedBlock[] {
  return parseScratch(text).blocks.filter((b): b is HeadedBlock => b.kind !== "preamble");
}

/** What a person is told about a near-miss line: the problem and the fix. */
function problemOf(line: string): string {
  const tag = readTagLine(line);
  assert.equal(tag?.kind, "malformed", `not a near miss: ${JSON.stringify(line)}`);
  return tag?.kind === "malformed" ? nearMissFix(tag.problem, tag.intended) : "";
}

Deno.test("a near-miss tag line starts its own block instead of joining the one above", () => {
  for (
    const line of [
      "### [TAG: src/api, type: patterns]",
      "# [TAG: src/api, type: patterns]",
      "[TAG: src/api, type: patterns]",
      "## TAG: src/api type: patterns",
      "## TAG: src/api, type: patterns",
      "## [TAG: src/api type: patterns]",
      "## [TAG src/api, type: patterns]",
    ]
  ) {
    const text = `## [TAG: global, type: tech]\n- use deno\n${line}\n- retry on 429\n`;
    const blocks = headed(text);
    assert.equal(blocks.length, 2, line);
    assert.equal(blocks[0]?.body, "- use deno\n", line);
    assert.equal(blocks[1]?.kind, "malformed", line);
    assert.equal(blocks[1]?.body, "- retry on 429\n", line);
    assert.equal(renderScratch(parseScratch(text)), text);
  }
});

Deno.test("a near miss says what is wrong and gives the corrected line", () => {
  const fixed = "write '## [TAG: src/api, type: patterns]'";
  const cases: ReadonlyArray<[string, string]> = [
    ["### [TAG: src/api, type: patterns]", `3 '#' instead of 2; ${fixed}`],
    ["#[TAG: src/api, type: patterns]", `1 '#' instead of 2; ${fixed}`],
    ["[TAG: src/api, type: patterns]", `no '##' before '[TAG'; ${fixed}`],
    ["## TAG: src/api type: patterns", `no brackets around 'TAG: …'; ${fixed}`],
    ["## [TAG: src/api type: patterns]", `no comma before 'type:'; ${fixed}`],
    ["## [TAG src/api, type: patterns]", `no ':' after 'TAG'; ${fixed}`],
    ["## [TAG: src/api, type patterns]", `no ':' after 'type'; ${fixed}`],
    ["## [TAG: src/api, type: patterns", `no closing ']'; ${fixed}`],
    [
      "## [TAG: src/api, type: patterns] retries",
      `text after the closing ']' (put it on the next line); ${fixed}`,
    ],
  ];
  for (const [line, problem] of cases) assert.equal(problemOf(line), problem, line);
});

Deno.test("a near miss whose path or type is unclear gives the tag's shape instead", () => {
  assert.equal(
    problemOf("## [TAG: src/api, kind: patterns]"),
    "expected '<path>, type: <name>' inside the brackets; write it as " +
      "'## [TAG: <path>, type: <name>]'",
  );
  assert.match(problemOf("### [TAG: ../etc, type: x]"), /write it as '## \[TAG: <path>/);
});

Deno.test("a missing comma is a near miss, not the legacy form", () => {
  assert.equal(readTagLine("## [TAG: src/api type: patterns]")?.kind, "malformed");
  assert.deepEqual(readTagLine("## [TAG: src/api]"), { kind: "legacy", path: "src/api" });
});

Deno.test("a suggestion never repeats something that looks like a credential", () => {
  const problem = problemOf(`### [TAG: ghp_${"aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3d"}, type: x]`);
  assert.doesNotMatch(problem, /ghp_/);
});

Deno.test("headings and text that merely mention tags are ordinary lines", () => {
  for (
    const line of [
      "## Tag lines",
      "### Tagging releases",
      "## Tags: v1, v2",
      "- see `## [TAG: x, type: y]` syntax",
      "> ## [TAG: quoted, type: example]",
      "[tag]: https://example.com/tags",
      "#### [TAGS] list",
      "Tag: remember to push tags",
    ]
  ) {
    assert.equal(readTagLine(line), null, line);
  }
});

Deno.test("indentation follows CommonMark: 0 to 3 spaces is a tag, 4 or a tab is content", () => {
  for (const indent of ["", " ", "  ", "   "]) {
    assert.equal(readTagLine(`${indent}## [TAG: a, type: b]`)?.kind, "tagged", `${indent.length}`);
  }
  for (const indent of ["    ", "      ", "\t", "  \t"]) {
    assert.equal(readTagLine(`${indent}## [TAG: a, type: b]`), null, JSON.stringify(indent));
    assert.equal(readTagLine(`${indent}### [TAG: a, type: b]`), null, JSON.stringify(indent));
  }
});

Deno.test("a tag line indented in a list item stays part of the learning", () => {
  const text = "## [TAG: docs, type: patterns]\n- write tags like\n\n    ## [TAG: a, type: b]\n" +
    "- and keep going\n";
  const blocks = headed(text);
  assert.equal(blocks.length, 1);
  assert.match(blocks[0]?.body ?? "", /and keep going/);
});

Deno.test("a byte-order mark in the middle of scratch does not hide the next tag", () => {
  const text = "\uFEFF## [TAG: a, type: b]\n- x\n\uFEFF## [TAG: c, type: d]\n- y\n";
  const blocks = headed(text);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]?.body, "- x\n");
  assert.equal(blocks[1]?.kind === "tagged" && blocks[1].path, "c");
  assert.equal(blocks[1]?.tagLine, "## [TAG: c, type: d]");
  assert.equal(renderScratch(parseScratch(text)), text);
});

Deno.test("a byte-order mark before a fence does not unbalance it", () => {
  const text = "## [TAG: a, type: b]\n\uFEFF```\n## [TAG: in, type: fence]\n```\n";
  assert.equal(headed(text).length, 1);
});
