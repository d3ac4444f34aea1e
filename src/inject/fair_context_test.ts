/**
 * The fair budget as the model sees it (`renderContext` with the budget of `format/budget.ts` and
 * the cut-file digest of `inject/digest.ts`): for any file sizes on a path, every file is
 * represented, no file is shown beyond its share while another is cut, every cut file shows its
 * newest learning and an outline of the rest, and the whole stays within the budget.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type ContextSection, renderContext } from "./context_budget.ts";
import { digestOf } from "./digest.ts";
import { parseLibraryDoc, stripMetadata } from "../format/library_doc.ts";

const HEADER = "[Librarian] Memory library context for src/api/x.ts:";

/** A library file: a hand-written top of `topLines` lines, then learnings under dated headings. */
interface FileShape {
  topLines: number[];
  learnings: number[];
  perDay: number;
  always: boolean;
}

function fileText(name: string, shape: FileShape): string {
  const lines = [shape.always ? "---\npriority: always\n---" : "", `# ${name}`, ""];
  shape.topLines.forEach((width, i) => {
    if (i % 7 === 3) lines.push("", `## ${name} topic ${i}`, "");
    lines.push(`- ${name} rule ${i} ${"r".repeat(width)}`);
  });
  shape.learnings.forEach((width, i) => {
    if (i % shape.perDay === 0) {
      const day = String(1 + Math.floor(i / shape.perDay) % 28).padStart(2, "0");
      lines.push("", `## Learnings (2026-11-${day})`, "");
      lines.push(`<!-- librarian: 2026-11-${day} a1b2c3d src/api/x.ts -->`);
    }
    lines.push(`- ${name} learning #${i}# ${"l".repeat(width)}`);
  });
  return lines.filter((l, i) => i > 0 || l !== "").join("\n") + "\n";
}

const shapeArb = fc.record({
  topLines: fc.array(fc.integer({ min: 0, max: 160 }), { maxLength: 120 }),
  learnings: fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 90 }),
  perDay: fc.integer({ min: 1, max: 12 }),
  always: fc.boolean(),
});

const FOLDERS = ["src/api/", "src/", ""];

function sectionsOf(shapes: FileShape[]): { sections: ContextSection[]; texts: string[] } {
  const texts = shapes.map((shape, i) => fileText(`f${i}`, shape));
  const sections = texts.map((text, i): ContextSection => {
    const folder = FOLDERS[Math.min(FOLDERS.length - 1, Math.floor(i / 2))]!;
    const label = `${folder}f${i}.md`;
    const section: ContextSection = {
      label,
      readPath: `/p/_memory_library/${label}`,
      body: stripMetadata(text),
      partial: false,
      source: text,
    };
    if (shapes[i]!.always) section.always = true;
    return section;
  });
  return { sections, texts };
}

/** The body each section got, by label, as the model reads it. */
function bodies(text: string): Map<string, string> {
  const heads = [...text.matchAll(/\n\n--- \[([^\]\n]+)\] ---\n/g)];
  const out = new Map<string, string>();
  heads.forEach((head, i) => {
    const start = head.index + head[0].length;
    const end = heads[i + 1]?.index ?? text.length;
    out.set(
      head[1]!,
      text.slice(start, end).replace(/\n\n\[Librarian\] Not shown in full[^]*$/, ""),
    );
  });
  return out;
}

Deno.test("the fair budget: every file represented, none beyond its share while another is cut, the newest learning of every cut file shown, within the budget (property)", () => {
  fc.assert(
    fc.property(
      fc.array(shapeArb, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1_000, max: 9_900 }),
      (shapes, budget) => {
        const { sections, texts } = sectionsOf(shapes);
        const r = renderContext(HEADER, sections, [], budget);
        assert.ok(r.text.length <= budget, `${r.text.length} > ${budget}`);
        const labels = sections.map((s) => s.label);
        // every file is represented: shown, cut, or (only when the slices do not all fit) named
        assert.deepEqual([...r.shown, ...r.cut, ...r.left].sort(), [...labels].sort());
        for (const label of [...r.cut, ...r.left]) {
          const path = `/p/_memory_library/${label}`;
          const named = r.text.includes(`${path} (`) || /and \d+ more\.$/.test(r.text);
          assert.ok(named, `${label} is not named in the closing line`);
        }
        if (budget >= sections.length * 700) {
          assert.deepEqual(
            r.left,
            [],
            "a file was left out although every file had room for a slice",
          );
        }
        const got = bodies(r.text);
        const sizeOf = (label: string) =>
          sections.find((s) => s.label === label)!.body!.trimEnd().length;
        const always = new Set(sections.filter((s) => s.always).map((s) => s.label));
        // no file shown whole beyond what a cut file was cut from, and every cut file within an
        // even split of what the whole files leave
        const cutSizes = r.cut.map(sizeOf);
        for (const label of r.shown) {
          if (always.has(label) || cutSizes.length === 0) continue;
          assert.ok(
            sizeOf(label) <= Math.min(...cutSizes),
            `${label} shown whole beyond the share`,
          );
        }
        if (r.cut.length > 0) {
          const wholeChars = r.shown.reduce((n, l) => n + got.get(l)!.length + l.length + 12, 0);
          const even = (budget - HEADER.length - wholeChars) / r.cut.length;
          for (const label of r.cut) {
            assert.ok(
              got.get(label)!.length <= even,
              `${label}: ${got.get(label)!.length} > ${even}`,
            );
          }
        }
        // the newest learning of every cut file is shown (its start, at least)
        for (const label of r.cut) {
          const i = labels.indexOf(label);
          const count = shapes[i]!.learnings.length;
          if (count === 0) continue;
          assert.ok(
            got.get(label)!.includes(`f${i} learning #${count - 1}#`),
            `${label}: its newest learning is not shown:\n${got.get(label)}`,
          );
          assert.match(
            got.get(label)!,
            /\[(Not shown here; Read this file from the line given:\n- line|More in the file from line \d+)/,
            `an outline of the rest, with the line to read from:\n${got.get(label)}`,
          );
        }
        // nothing but knowledge: the provenance lines never reach the text
        assert.doesNotMatch(r.text, /<!-- librarian:/);
        assert.equal(texts.length, sections.length);
        return true;
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("the issue's three root files (20,000, 16,000, 26,000 characters) all get an even share", () => {
  const shape = (n: number): FileShape => ({
    topLines: Array.from({ length: n }, () => 90),
    learnings: [],
    perDay: 1,
    always: false,
  });
  const { sections } = sectionsOf([shape(205), shape(165), shape(265)]);
  const named = sections.map((s, i) => ({
    ...s,
    label: ["patterns.md", "product.md", "tech.md"][i]!,
  }));
  const r = renderContext(HEADER, named, [], 9_000);
  assert.deepEqual(r.cut, ["patterns.md", "product.md", "tech.md"]);
  const got = bodies(r.text);
  const lengths = r.cut.map((l) => got.get(l)!.length);
  assert.ok(Math.max(...lengths) - Math.min(...lengths) < 400, `uneven: ${lengths}`);
  assert.ok(lengths.every((n) => n > 2_000), `${lengths}`);
  assert.doesNotMatch(r.text, /```\n(?:(?!```)[^])*$/, "no fence left open");
});

Deno.test("a deep folder file of 10,900 characters no longer pushes the root conventions out", () => {
  const deep: FileShape = {
    topLines: Array(110).fill(90),
    learnings: [],
    perDay: 1,
    always: false,
  };
  const root: FileShape = { topLines: Array(15).fill(60), learnings: [], perDay: 1, always: false };
  const { sections } = sectionsOf([deep, deep, root, root, root]);
  const r = renderContext(HEADER, [sections[0]!, sections[4]!], [], 9_000);
  assert.deepEqual(r.shown, ["f4.md"], "the root conventions are shown whole");
  assert.deepEqual(r.cut, ["src/api/f0.md"]);
});

Deno.test("of 80 learnings in an over-budget file, the newest are the ones sent, and the outline says where the older are", () => {
  const shape: FileShape = {
    topLines: Array(6).fill(50),
    learnings: Array(80).fill(140),
    perDay: 10,
    always: false,
  };
  const text = fileText("edge", shape);
  const body = digestOf(parseLibraryDoc(text), 4_000, false);
  assert.ok(body.length <= 4_000);
  assert.ok(body.startsWith("# edge\n"), "the hand-written top comes first");
  assert.ok(body.includes("edge learning #79#"));
  assert.ok(!body.includes("edge learning #0#"));
  const shown = [...body.matchAll(/edge learning #(\d+)#/g)].map((m) => Number(m[1]));
  assert.deepEqual(shown, shown.map((_, i) => 80 - shown.length + i), "a run of the newest");
  const older = /lines (\d+)-(\d+): (\d+) older learnings \(2026-11-01 to 2026-11-0\d\)/.exec(body);
  assert.ok(older, body.slice(-400));
  assert.equal(Number(older[3]), 80 - shown.length);
  const lines = text.split("\n");
  assert.match(
    lines[Number(older[1]) - 1]!,
    /^## Learnings \(2026-11-01\)$/,
    "the line to read from",
  );
});

Deno.test("a file with priority: always is never cut while it fits; the others share the rest", () => {
  const big: FileShape = { topLines: Array(200).fill(90), learnings: [], perDay: 1, always: false };
  const conventions: FileShape = {
    topLines: Array(30).fill(90),
    learnings: [],
    perDay: 1,
    always: true,
  };
  const { sections } = sectionsOf([big, big, conventions]);
  const r = renderContext(HEADER, sections, [], 9_000);
  assert.ok(r.shown.includes("src/f2.md"), `${r.shown} ${r.cut}`);
  assert.deepEqual(r.cut, ["src/api/f0.md", "src/api/f1.md"]);
  assert.doesNotMatch(r.text, /priority: always/);
});
