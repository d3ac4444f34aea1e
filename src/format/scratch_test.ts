import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type HeadedBlock,
  parseScratch,
  parseTagLine,
  renderScratch,
  type ScratchBlock,
  splitLinesKeepingEnds,
} from "./scratch.ts";

function headed(blocks: ScratchBlock[]): HeadedBlock[] {
  return blocks.filter((b): b is HeadedBlock => b.kind !== "preamble");
}

Deno.test("a tagged block runs from its tag line to the next tag line", () => {
  const text = "## [TAG: src/api, type: patterns]\n- a\n- b\n\n## [TAG: global, type: tech]\n- c\n";
  const doc = parseScratch(text);
  assert.equal(doc.blocks.length, 2);
  const [first, second] = doc.blocks;
  assert.equal(first?.kind, "tagged");
  assert.equal(second?.kind, "tagged");
  if (first?.kind !== "tagged" || second?.kind !== "tagged") return;
  assert.equal(first.path, "src/api");
  assert.equal(first.type, "patterns");
  assert.equal(first.body, "- a\n- b\n\n");
  assert.equal(first.startLine, 1);
  assert.equal(second.path, "global");
  assert.equal(second.type, "tech");
  assert.equal(second.body, "- c\n");
  assert.equal(second.startLine, 5);
});

Deno.test("tag lines are recognised with any spacing and any case", () => {
  for (
    const line of [
      "##[TAG:a,type:b]",
      "## [TAG: a, type: b]",
      "##   [  TAG  :   a  ,   type  :   b   ]   ",
      "  ## [tag: a, TYPE: b]",
      "## [Tag:a ,Type:b]\t",
      '## [TAG: `a`, type: "b"]',
    ]
  ) {
    assert.deepEqual(parseTagLine(line), { kind: "tagged", path: "a", type: "b" }, line);
  }
});

Deno.test("a tag without type: is a legacy block", () => {
  const doc = parseScratch("## [TAG: src/api]\n- old style\n");
  assert.equal(doc.blocks[0]?.kind, "legacy");
  assert.equal(doc.blocks[0]?.kind === "legacy" && doc.blocks[0].path, "src/api");
});

Deno.test("a line that starts like a tag but does not parse is a malformed block", () => {
  const doc = parseScratch("## [TAG: a, type: b] trailing words\n- x\n## [TAG: a, type: b\n- y\n");
  const blocks = headed(doc.blocks);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]?.kind, "malformed");
  assert.equal(blocks[1]?.kind, "malformed");
  assert.match(blocks[0]?.kind === "malformed" ? blocks[0].problem : "", /after the closing/);
  assert.match(blocks[1]?.kind === "malformed" ? blocks[1].problem : "", /no closing/);
});

Deno.test("inline tag text in a bullet does not start a block", () => {
  const doc = parseScratch("## [TAG: a, type: b]\n- see `## [TAG: x, type: y]` syntax\n");
  assert.equal(doc.blocks.length, 1);
});

Deno.test("text before the first tag is a preamble", () => {
  const doc = parseScratch("# Scratch\nnotes\n## [TAG: a, type: b]\n- x\n");
  assert.equal(doc.blocks[0]?.kind, "preamble");
  assert.equal(doc.blocks[0]?.raw, "# Scratch\nnotes\n");
  assert.equal(doc.blocks[1]?.kind, "tagged");
});

Deno.test("CRLF line endings: tags parse and raw text keeps every byte", () => {
  const text = "## [TAG: a, type: b]\r\n- x\r\n## [TAG: c, type: d]\r\n- y\r\n";
  const doc = parseScratch(text);
  assert.equal(doc.blocks.length, 2);
  const first = doc.blocks[0];
  assert.equal(first?.kind, "tagged");
  if (first?.kind !== "tagged") return;
  assert.equal(first.type, "b");
  assert.equal(first.eol, "\r\n");
  assert.equal(first.raw, "## [TAG: a, type: b]\r\n- x\r\n");
  assert.equal(renderScratch(doc), text);
});

Deno.test("a UTF-8 BOM is kept apart and does not hide the first tag", () => {
  const text = "\uFEFF## [TAG: a, type: b]\n- x\n";
  const doc = parseScratch(text);
  assert.equal(doc.bom, "\uFEFF");
  assert.equal(doc.blocks[0]?.kind, "tagged");
  assert.equal(renderScratch(doc), text);
});

Deno.test("a tag line inside a backtick or tilde fence is content", () => {
  const text = [
    "## [TAG: docs, type: patterns]",
    "- write tags like this:",
    "```markdown",
    "## [TAG: src/api, type: patterns]",
    "```",
    "~~~~",
    "## [TAG: other, type: tech]",
    "```",
    "## [TAG: still, type: fenced]",
    "~~~~",
    "## [TAG: global, type: tech]",
    "- after",
    "",
  ].join("\n");
  const doc = parseScratch(text);
  const blocks = headed(doc.blocks);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]?.kind === "tagged" && blocks[0].path, "docs");
  assert.match(blocks[0]?.body ?? "", /TAG: src\/api/);
  assert.match(blocks[0]?.body ?? "", /TAG: still/);
  assert.equal(blocks[1]?.kind === "tagged" && blocks[1].path, "global");
  assert.equal(blocks[0]?.unclosedFenceLine, undefined);
});

Deno.test("a fence that is never closed does not swallow later blocks, and is reported", () => {
  const text = "## [TAG: a, type: b]\n- x\n```ts\ncode\n## [TAG: c, type: d]\n- y\n";
  const doc = parseScratch(text);
  const blocks = headed(doc.blocks);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]?.unclosedFenceLine, 3);
  assert.equal(blocks[1]?.unclosedFenceLine, undefined);
});

Deno.test("a closing fence needs the same character and at least the opener's length", () => {
  const text =
    "## [TAG: a, type: b]\n````\n```\n## [TAG: in, type: fence]\n~~~~\n````\n## [TAG: c, type: d]\n";
  const blocks = headed(parseScratch(text).blocks);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[1]?.kind === "tagged" && blocks[1].path, "c");
});

Deno.test("raw texts concatenate back to the input, whatever it is", () => {
  const samples = [
    "",
    "\n\n",
    "no tags at all",
    "## [TAG: a, type: b]",
    "## [TAG: a, type: b]\n- no newline at end",
    "pre\r\n## [TAG: a]\r\n\r\n## [TAG: x, type: y]\n```\n## [TAG: z, type: w]\n",
    "\uFEFF\uFEFF## [TAG: a, type: b]\n",
  ];
  for (const text of samples) assert.equal(renderScratch(parseScratch(text)), text);
});

Deno.test("an empty text has no blocks", () => {
  assert.deepEqual(parseScratch(""), { bom: "", blocks: [] });
});

Deno.test("splitLinesKeepingEnds() cuts after each line feed, as a split on a look-behind does, and joins back to its text", () => {
  const text = fc.string({ unit: fc.constantFrom("a", " ", "\n", "\r", "\r\n", "é", "\u2028") });
  fc.assert(
    fc.property(text, (t) => {
      const lines = splitLinesKeepingEnds(t);
      assert.deepEqual(lines, t === "" ? [] : t.split(/(?<=\n)/));
      assert.equal(lines.join(""), t);
    }),
    { numRuns: 2000 },
  );
});
