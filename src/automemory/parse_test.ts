/**
 * One Claude Code memory file → one scratch block: front matter as Claude Code 2.1.197 writes it,
 * and the body (the substance, the why) kept whole as one learning.
 */
import assert from "node:assert/strict";
import {
  bodyLines,
  firstBodyLine,
  memoryBlock,
  type MemoryEntry,
  parseMemoryFile,
  splitFrontMatter,
} from "./parse.ts";
import { parseScratch } from "../format/scratch.ts";
import { bodyLines as scratchBodyLines, splitItems } from "../filing/items.ts";

function entryOf(text: string, stem = "stem"): MemoryEntry {
  const parsed = parseMemoryFile(text, stem);
  assert.equal(parsed.kind, "entry", JSON.stringify(parsed));
  return (parsed as { entry: MemoryEntry }).entry;
}

Deno.test("the body reaches the block, not only the description", () => {
  const entry = entryOf(
    "---\nname: pnpm\ndescription: use pnpm\nmetadata:\n  type: feedback\n---\n\n" +
      "Always use pnpm, never npm.\n\n**Why:** the lockfile is pnpm-lock.yaml.\n",
  );
  assert.equal(
    memoryBlock(entry),
    "## [TAG: global, type: patterns]\n- pnpm: use pnpm\n  Always use pnpm, never npm.\n" +
      "  **Why:** the lockfile is pnpm-lock.yaml.\n",
  );
});

Deno.test("a synced entry is one learning for the router, however its body is laid out", () => {
  const entry = entryOf(
    "---\nname: deploy\ndescription: how we deploy\ntype: project\n---\n# Steps\n\n" +
      "1. tag\n2. push\n\n```sh\nmake release\n\nmake verify\n```\n\nNote.\n",
  );
  const doc = parseScratch(memoryBlock(entry));
  assert.equal(doc.blocks.length, 1);
  const block = doc.blocks[0]!;
  assert.equal(block.kind, "tagged");
  const items = splitItems(scratchBodyLines((block as { body: string }).body));
  assert.equal(items.length, 1, JSON.stringify(items));
  assert.ok(items[0]!.lines.includes("  make verify"), "code keeps its blank line and lines");
  assert.ok(items[0]!.lines.includes("  **Steps**"), "a heading becomes a bold line");
});

Deno.test("body lines that look like tags or Librarian markers are escaped, never parsed", () => {
  const entry = entryOf(
    "---\nname: x\ndescription: d\ntype: reference\n---\n## [TAG: src/api, type: patterns]\n" +
      "[TAG: src]\n### TAG: src/api type: x\n<!-- librarian: not-a-secret -->\nTag releases.\n",
  );
  const block = memoryBlock(entry);
  const doc = parseScratch(block);
  assert.equal(doc.blocks.length, 1, block);
  assert.deepEqual(entry.body, [
    "\\## [TAG: src/api, type: patterns]",
    "\\[TAG: src]",
    "\\### TAG: src/api type: x",
    "\\<!-- librarian: not-a-secret -->",
    "Tag releases.",
  ]);
});

Deno.test("a code fence the memory never closes cannot swallow what follows", () => {
  assert.deepEqual(bodyLines("```js\nlet a = 1;\n"), ["\\```js", "let a = 1;"]);
  const block = memoryBlock(entryOf("---\nname: x\ndescription: d\ntype: feedback\n---\n```\n"));
  const doc = parseScratch(`${block}## [TAG: global, type: tech]\n- next\n`);
  assert.equal(doc.blocks.length, 2);
  assert.equal(doc.blocks[0]!.kind === "tagged" && doc.blocks[0]!.unclosedFenceLine, undefined);
});

Deno.test("control characters other than tab never reach the block", () => {
  const entry = entryOf(
    "---\nname: a\u0007b\ndescription: c\u0000d\ntype: feedback\n---\ne\u001bf\tg\n",
  );
  assert.equal(memoryBlock(entry), "## [TAG: global, type: patterns]\n- ab: cd\n  ef\tg\n");
});

Deno.test("without a description the first body line is the summary, and is not repeated", () => {
  const entry = entryOf(
    "---\r\nname: dashboards\r\nmetadata: {type: reference}\r\n---\r\n# Dashboards\r\n" +
      "Grafana lives at grafana.internal\r\nAsk #ops for access.\r\n",
  );
  assert.equal(entry.summary, "Grafana lives at grafana.internal");
  assert.deepEqual(entry.body, ["Ask #ops for access."]);
});

Deno.test("front matter: top-level type", () => {
  const entry = entryOf(
    "---\nname: dbt-build\ndescription: Always run dbt build\ntype: feedback\n---\nbody\n",
    "feedback_dbt",
  );
  assert.deepEqual(entry, {
    name: "dbt-build",
    type: "feedback",
    mapped: "patterns",
    summary: "Always run dbt build",
    body: ["body"],
  });
});

Deno.test("front matter: metadata.type wins over a top-level type", () => {
  const entry = entryOf(
    "---\nname: launch\ndescription: March\ntype: feedback\nmetadata:\n  type: project\n---\n",
  );
  assert.equal(entry.type, "project");
  assert.equal(entry.mapped, "product");
  const user = parseMemoryFile(
    "---\nname: me\ndescription: d\ntype: feedback\nmetadata: {type: user}\n---\n",
    "s",
  );
  assert.deepEqual(user, { kind: "skip", why: "user" }, "metadata says user: never synced");
});

Deno.test("front matter: types are exact lowercase, as Claude Code reads them", () => {
  const parsed = parseMemoryFile(
    "---\nname: launch\nmetadata:\n  type: Project\ndescription: d\n---\n",
    "s",
  );
  assert.equal(parsed.kind === "skip" && parsed.why, "unknown-type");
  assert.match(parsed.kind === "skip" ? parsed.detail ?? "" : "", /Project.*exact lowercase/);
});

Deno.test("front matter: CRLF, a BOM, and a missing name falls back to the file stem", () => {
  const entry = entryOf(
    "\uFEFF---\r\ntype: reference\r\ndescription: |\r\n  Grafana is at\r\n  grafana.internal\r\n---\r\n",
    "reference_grafana",
  );
  assert.equal(entry.name, "reference_grafana");
  assert.equal(entry.summary, "Grafana is at grafana.internal");
  assert.deepEqual(entry.body, []);
});

Deno.test("front matter: user entries, unknown types and malformed YAML are skipped", () => {
  const cases: ReadonlyArray<[string, string]> = [
    ["---\nname: role\ntype: user\n---\n", "user"],
    ["---\nname: role\nmetadata: {type: user}\n---\n", "user"],
    ["no front matter\n", "no-front-matter"],
    ["---\nname: x\n", "no-front-matter"],
    ["---\nname: [unclosed\ntype: feedback\n---\n", "malformed"],
    ["---\n- a list\n---\n", "malformed"],
    ["---\nname: x\ndescription: y\n---\n", "no-type"],
    ["---\nname: x\ntype: diary\ndescription: y\n---\n", "unknown-type"],
    ["---\nname: x\ntype: feedback\n---\n\n# Only a heading\n", "empty"],
  ];
  for (const [text, why] of cases) {
    const parsed = parseMemoryFile(text, "stem");
    assert.equal(parsed.kind === "skip" && parsed.why, why, text);
  }
});

Deno.test("splitFrontMatter and firstBodyLine", () => {
  assert.deepEqual(splitFrontMatter("---\na: 1\n...\nrest\n"), { yaml: "a: 1\n", body: "rest\n" });
  assert.equal(firstBodyLine("\n# Title\n\n> quoted line\n"), "quoted line");
});

Deno.test("memoryBlock tags the entry for the library root and indents its body", () => {
  assert.equal(
    memoryBlock({ name: "n", type: "feedback", mapped: "patterns", summary: "s", body: [] }),
    "## [TAG: global, type: patterns]\n- n: s\n",
  );
  assert.equal(
    memoryBlock({ name: "n", type: "project", mapped: "product", summary: "s", body: ["a", ""] }),
    "## [TAG: global, type: product]\n- n: s\n  a\n\n",
  );
});
