/**
 * Front matter (an auto memory's, a Cursor rule's) is read without the npm `yaml` package (a hook
 * must work offline), and reads as that package reads it: the package is the oracle here, in
 * tests only.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { readFrontMatter } from "./front_matter.ts";
import { isObject } from "../core/json.ts";

/**
 * What the package makes of `yaml`: JSON of its mapping, or "refused" (it throws, or the value is
 * not a mapping: a memory is not synced either way).
 */
function oracle(yaml: string): string {
  try {
    const value = parseYaml(yaml);
    return isObject(value) ? JSON.stringify(value) : "refused";
  } catch {
    return "refused";
  }
}

/** The same from the Librarian's reader. */
function ours(yaml: string): string {
  const read = readFrontMatter(yaml);
  if (read.kind === "malformed") return "refused";
  return JSON.stringify(read.fields);
}

Deno.test("front matter reads as the yaml package reads it: accepted and refused alike", () => {
  const cases = [
    // what Claude Code writes
    "name: pnpm\ndescription: use pnpm\ntype: feedback\n",
    "name: launch\ndescription: March\nmetadata:\n  type: project\n",
    "name: me\nmetadata: {type: user}\n",
    "name: 'it''s'\ndescription: \"tab\\there \\u00e9\"\ntype: reference\n",
    "description: |\n  Grafana is at\n  grafana.internal\ntype: reference\n",
    "description: >-\n  folded\n  text\n\n  kept\ntype: feedback\n",
    "description: >\n  x\n   more\n  z\n",
    "description: |+\n  kept\n\n",
    "description: |2\n   indented\n",
    "description: |\n\n  after an empty line\n",
    "description: a long\n  continued line\ntype: feedback\n",
    'description: "folded\n  over\n\n  lines"\n',
    'description: "joined\\\n  here"\n',
    "description: 'x\n\n  y'\n",
    "# a comment\nname: x # trailing\n\ntype: feedback\n",
    "name: x#not-a-comment\n",
    "name: 12:30\nother: http://x\ncolon: :x\ndash: -x\n",
    "n: 0x1F\nf: 1.50\ne: 1e3\np: +1\no: 0o17\nz: 017\nb: True\ny: yes\nnull1: ~\nnull2:\n",
    "\"quoted key\": 1\n'single': 2\n",
    " indented: 1\n whole: 2\n",
    "metadata:\n    type: feedback\n    other: 1\n",
    "tags: [a, 'b]', \"c\"]\nmore: {x: [1, 2], y: z}\n",
    "list: [1,\n  2]\n",
    "a:\tb\nc: d\t# c\n",
    "empty: ''\nalso: \"\"\n",
    "globs:\n- src/**\n- 'lib/*.ts'\nalwaysApply: false\n",
    'globs:\n  - a\n  - b # c\n\n  - "d"\nnext: 1\n',
    "globs: src/a/**, src/b/*.ts\nalwaysApply: true\n",
    "list:\n- a\n  continued\n- |\n  block\n",
    "globs: *.ts\n",
    "list:\n- a\n - b\n",
    "",
    "# only a comment\n",
    // what the package refuses
    "description: use pnpm: never npm\n",
    "a: 1\na: 2\n",
    "\ta: 1\n",
    "a: 1\n\tb: 2\n",
    "a: @x\n",
    "a: `x\n",
    "a: %x\n",
    "a: [1, 2\n",
    "name: [unclosed\ntype: feedback\n",
    "a: - x\n",
    "a: ? x\n",
    "a: x:\n",
    "a: b \n  # c\n  d\n",
    "a: b\n c: d\n",
    " a: 1\nb: 2\n",
    "a: 1\n  b: 2\n",
    'a: "x" y\n',
    'a: "never closed\n',
    "- a list\n",
    "a scalar\n",
  ];
  for (const yaml of cases) assert.equal(ours(yaml), oracle(yaml), yaml);
});

Deno.test("front matter: anchors, aliases, tags and sequences of collections are refused", () => {
  const refused = ["a: &x 1\n", "a: *x\n", "a: !!str 1\n", "? complex\n: key\n", "a:\n- b: 1\n"];
  for (const yaml of refused) {
    const read = readFrontMatter(yaml);
    assert.equal(read.kind, "malformed", yaml);
    assert.match(read.kind === "malformed" ? read.detail : "", /not read|not 'key: value'/);
  }
});

/** A string written as YAML in one of the ways a person or a model writes it. */
const written = (text: string, style: number, indent: string): string | null => {
  switch (style) {
    case 0: // plain, where YAML reads it back as the same string
      return /^[A-Za-z][A-Za-z0-9 .,/()'-]*[A-Za-z0-9.)]$/.test(text) &&
          !/^(?:true|false|null|yes|no|on|off|nan|inf)$/i.test(text)
        ? text
        : null;
    case 1:
      return `'${text.replaceAll("'", "''")}'`;
    case 2:
      return JSON.stringify(text);
    case 3: // a literal block
      return /^[^\s][^\n]*$/.test(text) ? `|\n${indent}  ${text}` : null;
    default: // a folded block, over two lines
      return /^\S+ \S+$/.test(text) ? `>-\n${indent}  ${text.replace(" ", `\n${indent}  `)}` : null;
  }
};

Deno.test("property: memory-like front matter reads as the yaml package reads it", () => {
  const text = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom("use pnpm", "Grafana is at grafana.internal", "it's", "a: b", "x # y", "-x"),
    fc.stringMatching(/^[A-Za-z][a-z]{0,6}(?: [a-z]{1,6}){0,3}$/),
  );
  const field = fc.record({
    key: fc.constantFrom("name", "description", "type", "other"),
    value: text,
    style: fc.integer({ min: 0, max: 4 }),
  });
  fc.assert(
    fc.property(
      fc.uniqueArray(field, { selector: (f) => f.key, maxLength: 4 }),
      fc.option(fc.record({ value: text, style: fc.integer({ min: 0, max: 4 }) })),
      fc.array(fc.record({ value: text, style: fc.integer({ min: 0, max: 2 }) }), { maxLength: 3 }),
      (fields, nested, items) => {
        const lines: string[] = [];
        const listed = items.map((item) => written(item.value, item.style, ""))
          .filter((item) => item !== null);
        if (listed.length > 0) lines.push("globs:", ...listed.map((item) => `- ${item}`));
        for (const f of fields) {
          const value = written(f.value, f.style, "");
          if (value !== null) lines.push(`${f.key}: ${value}`);
        }
        const inner = nested ? written(nested.value, nested.style, "  ") : null;
        if (inner !== null) lines.push("metadata:", `  type: ${inner}`);
        const yaml = lines.map((line) => `${line}\n`).join("");
        if (yaml === "") return; // empty front matter: both refuse it (the first test)
        assert.equal(ours(yaml), oracle(yaml), yaml);
      },
    ),
    { numRuns: 500 },
  );
});

// Issue 31: one memory whose front matter nests 50,000 `[` stopped every sync of the project (the
// reader recursed until the stack overflowed, and the error abandoned the whole sync).

Deno.test("front matter nested past the depth bound is refused with the reason, never thrown", () => {
  const deep = 50_000;
  const shapes = [
    `type: feedback\nname: x\ndescription: ${"[".repeat(deep)}${"]".repeat(deep)}\n`,
    `type: feedback\nx: ${"{a: ".repeat(deep)}1${"}".repeat(deep)}\n`,
    `type: feedback\nx: ${"[".repeat(deep)}\n`,
  ];
  for (const yaml of shapes) {
    const read = readFrontMatter(yaml);
    assert.equal(read.kind, "malformed", yaml.slice(0, 40));
  }
  assert.deepEqual(
    readFrontMatter(`type: feedback\nx: ${"[".repeat(65)}${"]".repeat(65)}\n`),
    { kind: "malformed", detail: "collections nested more than 64 deep at line 2" },
  );
  // as deep as the bound is still read
  const ok = readFrontMatter(`type: feedback\nx: ${"[".repeat(64)}${"]".repeat(64)}\n`);
  assert.equal(ok.kind, "mapping");
  // nesting by indentation is bounded the same way
  const indented = Array.from({ length: 70 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n");
  assert.deepEqual(readFrontMatter(indented), {
    kind: "malformed",
    detail: "collections nested more than 64 deep at line 66",
  });
});

Deno.test("front matter over the size bound is refused at once; a long unclosed flow is read in linear time", () => {
  const big = `type: feedback\ndescription: ${"a".repeat(70 * 1024)}\n`;
  assert.deepEqual(readFrontMatter(big), {
    kind: "malformed",
    detail: "the front matter is longer than 65536 characters",
  });
  // an unclosed flow collection of 16,000 lines (the size bound's worth): each line is scanned
  // once, not once per line
  const lines = `type: feedback\nx: [\n${" a,\n".repeat(15_000)}${" [\n".repeat(15_000)}`;
  const started = performance.now();
  const read = readFrontMatter(lines.slice(0, 64 * 1024));
  assert.equal(read.kind, "malformed");
  // measured on this 2-core machine: 10 s when every line rescanned the lines before it, 0.2 s
  // now; the bound leaves room for a loaded machine
  assert.ok(performance.now() - started < 3_000, `${performance.now() - started} ms`);
});
