import assert from "node:assert/strict";
import fc from "fast-check";
import { encodeName } from "../format/names.ts";
import { closingLine, type ContextSection, cutText, renderContext } from "./context_budget.ts";

function section(label: string, size: number, partial = false): ContextSection {
  return { label, readPath: `/lib/${label}`, body: "x".repeat(size), partial };
}

const HEADER = "[Librarian] Memory library context for src/a.ts:";

Deno.test("renderContext() shows every section, most specific first, when all fit", () => {
  const r = renderContext(HEADER, [section("src/a.md", 10), section("global/b.md", 10)], [], 9000);
  assert.deepEqual(r.shown, ["src/a.md", "global/b.md"]);
  assert.ok(r.text.startsWith(HEADER));
  assert.ok(r.text.indexOf("--- [src/a.md] ---") < r.text.indexOf("--- [global/b.md] ---"));
  assert.ok(!r.text.includes("Not shown in full"));
});

Deno.test("renderContext() never exceeds the budget and names what it cut or left out", () => {
  for (const budget of [1000, 2500, 9000]) {
    const sections = [
      section("src/api/huge.md", 50_000),
      section("src/small.md", 200),
      section("global/big.md", 8_000),
      section("global/tiny.md", 20),
    ];
    const r = renderContext(HEADER, sections, [], budget);
    assert.ok(r.text.length <= budget, `budget ${budget}: got ${r.text.length}`);
    const all = [...r.shown, ...r.cut, ...r.left].sort();
    assert.deepEqual(all, sections.map((s) => s.label).sort());
    for (const label of [...r.cut, ...r.left]) {
      assert.ok(r.text.includes(`/lib/${label}`), `${label} is named for the model to Read`);
    }
    assert.ok(r.cut.length + r.left.length > 0);
    assert.match(r.text, /Not shown in full \(context budget \d+ characters\)/);
  }
});

Deno.test("renderContext() cuts a too-large file rather than dropping it, and says where the rest is", () => {
  const body = Array.from({ length: 400 }, (_, i) => `- line ${i} of a long file`).join("\n");
  const r = renderContext(HEADER, [{ ...section("src/a.md", 0), body }], [], 9000);
  assert.deepEqual(r.cut, ["src/a.md"]);
  assert.match(
    r.text,
    /\[Not shown here; Read this file from the line given:\n- line \d+: the rest/,
  );
  assert.ok(r.text.length > 8000, "most of the budget is used");
});

Deno.test("renderContext() always marks a partially read file as cut", () => {
  const r = renderContext(HEADER, [section("src/a.md", 100, true)], [], 9000);
  assert.deepEqual(r.cut, ["src/a.md"]);
});

Deno.test("renderContext() names skipped non-text files with their reason", () => {
  const r = renderContext(HEADER, [section("src/a.md", 10)], [
    { label: "src/bin.md", readPath: "/lib/src/bin.md", reason: "binary file, skipped" },
  ], 9000);
  assert.deepEqual(r.skipped, ["src/bin.md"]);
  assert.ok(r.text.includes("/lib/src/bin.md (binary file, skipped)"));
});

Deno.test("closingLine() names at most twelve files and counts the rest", () => {
  const pending = Array.from(
    { length: 20 },
    (_, i) => ({ readPath: `/l/${i}.md`, note: "left out" }),
  );
  const line = closingLine(pending, 9000);
  assert.ok(line.includes("/l/11.md"));
  assert.ok(!line.includes("/l/12.md"));
  assert.ok(line.includes("and 8 more"));
  assert.equal(closingLine([], 9000), "");
});

Deno.test("cutText() never splits a surrogate pair", () => {
  const text = "ab\u{1F600}cd";
  assert.equal(cutText(text, 3), "ab");
  assert.equal(cutText(text, 4), "ab\u{1F600}");
  assert.equal(cutText("short", 10), "short");
});

Deno.test("renderContext() stays within any budget and keeps the closing line whole (property)", async () => {
  const fc = (await import("fast-check")).default;
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          label: fc.string({ minLength: 1, maxLength: 40 }),
          body: fc.oneof(fc.string({ maxLength: 4000, unit: "grapheme" }), fc.constant(null)),
          partial: fc.boolean(),
          pathLength: fc.integer({ min: 1, max: 300 }),
        }),
        { maxLength: 40 },
      ),
      fc.integer({ min: 1000, max: 9900 }),
      (raw, budget) => {
        const sections = raw.map((s, i) => ({
          label: `${i}-${s.label}`,
          readPath: `/l/${i}/${"p".repeat(s.pathLength)}`,
          body: s.body,
          partial: s.partial,
        }));
        const r = renderContext(HEADER, sections, [], budget);
        const accounted = r.shown.length + r.cut.length + r.left.length;
        const notWhole = r.cut.length + r.left.length;
        const closing = r.text.lastIndexOf("\n\n[Librarian] Not shown in full");
        const closingWhole = notWhole === 0
          ? closing < 0
          : closing > 0 && /(\(cut\)|\(left out\)|more|library files)\.$/.test(r.text);
        return r.text.length <= budget && accounted === sections.length && closingWhole;
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("renderContext() names a section that was never read as left out", () => {
  const r = renderContext(
    HEADER,
    [section("src/a.md", 10), {
      label: "global/unread.md",
      readPath: "/lib/global/unread.md",
      body: null,
      partial: false,
    }],
    [],
    9000,
  );
  assert.deepEqual(r.shown, ["src/a.md"]);
  assert.deepEqual(r.left, ["global/unread.md"]);
  assert.ok(r.text.includes("/lib/global/unread.md (left out)"));
});

Deno.test("renderContext() counts the files instead of naming them when naming them would leave no file a slice", () => {
  const deep = "/home/someone/projects/a-long-project-name/_memory_library/packages/service/src";
  const sections = [1, 2, 3, 4].map((n) => ({
    ...section(`packages/service/src/level-${n}.md`, 2000),
    readPath: `${deep}/level-${n}/notes-about-this-level.md`,
  }));
  const r = renderContext(HEADER, sections, [], 1000, "", 330);
  assert.ok(r.text.length <= 1000 - 330, `${r.text.length}`);
  assert.deepEqual(
    [...r.shown, ...r.cut],
    ["packages/service/src/level-1.md"],
    "the most specific",
  );
  assert.match(r.text, /4 library files\.$/);
});

Deno.test("closingLine() says where the files it does not name are: their distinct folders, encoded, in order, each once", () => {
  // names that encode alike (a newline and a written-out \n), and that need encoding
  const segment = fc.constantFrom("a", "b", "\n", "\\n", "-->", "c d", "\u2028");
  const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) =>
    `/lib/${parts.join("/")}/f.md`
  );
  fc.assert(
    fc.property(fc.array(path, { minLength: 13, maxLength: 40 }), (paths) => {
      const pending = paths.map((readPath) => ({ readPath, note: "cut" }));
      const folders: string[] = [];
      for (const p of pending.slice(12)) {
        const folder = encodeName(p.readPath.slice(0, p.readPath.lastIndexOf("/") + 1));
        if (!folders.includes(folder)) folders.push(folder);
      }
      const words = folders.length <= 1
        ? folders[0]!
        : `${folders.slice(0, -1).join(", ")} and ${folders[folders.length - 1]}`;
      assert.ok(closingLine(pending, 9000).includes(`(the others are in ${words})`));
    }),
    { numRuns: 300 },
  );
});
