/**
 * Property-based tests of the routing invariants, for arbitrary scratch text and tags:
 * no target outside the library, every learning exactly once across library + scratch, and a
 * rerun changes nothing.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { envFrom } from "../src/core/env.ts";
import { isAbsolutePath, joinPath, normalizePath, relativeInside } from "../src/core/paths.ts";
import { targetsToRead } from "../src/filing/classify.ts";
import { planRoute, type TargetState } from "../src/filing/route_plan.ts";
import { applyScratchEdits } from "../src/filing/scratch_edits.ts";
import { routeLocked } from "../src/filing/route.ts";
import { parseScratch, renderScratch } from "../src/format/scratch.ts";
import { tagTarget } from "../src/format/tag_rules.ts";
import { tempDir } from "./helpers.ts";

const RUNS = 300;

// ---------------------------------------------------------------------------------------------
// Generators.

const SEGMENTS = [
  "src",
  "api",
  "a",
  "B",
  "global",
  "x y",
  "größe",
  "..",
  ".",
  "",
  ".git",
  "~",
  "C:",
  "a\\b",
  "con",
  "a:b",
  "end.",
  "*",
];
const TYPES = ["patterns", "tech", "edge-case", "t_1", "../z", "a/b", ".h", "", "x.md", "nul", "é"];

const tagPath = fc.oneof(
  fc.constant("global"),
  fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }).map((s) => s.join("/")),
  fc.constantFrom("/etc", "/", "//srv/share", "C:/x", "c:\\x"),
);

/** Each generated content line carries a unique token, so every line can be counted. */
let tokenCounter = 0;
const token = () => `tok${++tokenCounter}z`;

type LineSpec = "bullet" | "sub" | "para" | "blank" | "fence";
const bodySpec = fc.array(
  fc.constantFrom<LineSpec>("bullet", "bullet", "sub", "para", "blank", "fence"),
  {
    maxLength: 6,
  },
);

function renderBody(spec: readonly LineSpec[], tokens: string[]): string[] {
  const lines: string[] = [];
  for (const kind of spec) {
    const t = token();
    if (kind === "blank") {
      lines.push("");
      continue;
    }
    tokens.push(t);
    if (kind === "bullet") lines.push(`- learning ${t}`);
    else if (kind === "sub") {
      const child = token();
      tokens.push(child);
      lines.push(`- parent ${t}`, `  - child ${child}`);
    } else if (kind === "para") lines.push(`Why ${t} matters.`);
    else lines.push("```", `## [TAG: src, type: fenced] ${t}`, "```");
  }
  return lines;
}

const blockSpec = fc.record({
  kind: fc.constantFrom("tagged", "tagged", "tagged", "legacy", "malformed"),
  path: tagPath,
  type: fc.constantFrom(...TYPES),
  spacing: fc.constantFrom(
    "## [TAG: %p, type: %t]",
    "##[TAG:%p,type:%t]",
    "##  [ tag : %p , TYPE : %t ]  ",
  ),
  body: bodySpec,
});

const scratchSpec = fc.record({
  preamble: fc.boolean(),
  bom: fc.boolean(),
  crlf: fc.boolean(),
  blocks: fc.array(blockSpec, { maxLength: 8 }),
});

interface Scratch {
  text: string;
  tokens: string[];
}

interface ScratchSpec {
  preamble: boolean;
  bom: boolean;
  crlf: boolean;
  blocks: ReadonlyArray<
    { kind: string; path: string; type: string; spacing: string; body: LineSpec[] }
  >;
}

function renderScratchSpec(spec: ScratchSpec): Scratch {
  const tokens: string[] = [];
  const lines: string[] = [];
  if (spec.preamble) {
    const t = token();
    tokens.push(t);
    lines.push(`# Scratch notes ${t}`, "");
  }
  for (const block of spec.blocks) {
    const tag = block.kind === "legacy"
      ? `## [TAG: ${block.path}]`
      : block.kind === "malformed"
      ? `## [TAG: ${block.path}, type: ${block.type}] trailing`
      : block.spacing.replace("%p", block.path).replace("%t", block.type);
    lines.push(tag, ...renderBody(block.body, tokens));
  }
  const eol = spec.crlf ? "\r\n" : "\n";
  const text = lines.length ? lines.join(eol) + eol : "";
  return { text: (spec.bom ? "\uFEFF" : "") + text, tokens };
}

// ---------------------------------------------------------------------------------------------
// An in-memory library.

type Files = Map<string, string>;

function route(text: string, files: Files, today = "2026-11-30") {
  const doc = parseScratch(text);
  const targets = new Map<string, TargetState>();
  for (const path of targetsToRead(doc)) {
    const existing = files.get(path);
    targets.set(
      path,
      existing === undefined ? { kind: "missing" } : { kind: "text", text: existing },
    );
  }
  const plan = planRoute(doc, { today, targets });
  const next = new Map(files);
  for (const write of plan.writes) next.set(write.relPath, write.after);
  return { plan, files: next, scratch: plan.scratchText };
}

function countToken(t: string, texts: Iterable<string>): number {
  let n = 0;
  const pattern = new RegExp(`${t}(?!\\d)`, "g");
  for (const text of texts) n += (text.match(pattern) ?? []).length;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Properties.

Deno.test("property: parsing keeps every byte of any text", () => {
  const fragments = fc.constantFrom(
    "## [TAG: a, type: b]",
    "##[TAG:x]",
    "```",
    "~~~",
    "- bullet",
    "\r\n",
    "\n",
    "\uFEFF",
    " ",
    "text",
  );
  fc.assert(
    fc.property(fc.array(fc.oneof(fragments, fc.string()), { maxLength: 30 }), (parts) => {
      const text = parts.join("");
      assert.equal(renderScratch(parseScratch(text)), text);
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: any accepted tag stays inside the library", () => {
  const anyText = fc.oneof(fc.string({ maxLength: 30 }), tagPath, fc.constantFrom(...TYPES));
  fc.assert(
    fc.property(anyText, anyText, (path, type) => {
      const target = tagTarget(path, type);
      if (!target.ok) return;
      const rel = target.value.relPath;
      assert.ok(!isAbsolutePath(rel) && !rel.includes("\\") && !rel.includes(":"), rel);
      assert.equal(normalizePath(rel, "linux"), rel, "already normal: no '.', '..' or '//'");
      for (const segment of rel.split("/")) assert.ok(!segment.startsWith("."), rel);
      assert.equal(relativeInside(joinPath("/lib", rel), "/lib", "linux"), rel);
      assert.ok(rel.endsWith(".md"));
    }),
    { numRuns: 500 },
  );
});

Deno.test("property: every learning ends up exactly once, in the library or in scratch", () => {
  fc.assert(
    fc.property(scratchSpec, (spec) => {
      const { text, tokens } = renderScratchSpec(spec);
      const { plan, files, scratch } = route(text, new Map());
      for (const write of plan.writes) {
        assert.equal(
          relativeInside(joinPath("/lib", write.relPath), "/lib", "linux"),
          write.relPath,
        );
      }
      for (const t of tokens) {
        assert.equal(countToken(t, [...files.values(), scratch]), 1, `${t} in\n${text}`);
      }
    }),
    { numRuns: RUNS },
  );
});

Deno.test("property: a bullet repeated across blocks and turns lands once per target file", () => {
  const bullet = fc.constantFrom("- a", "- b", "-   b  ", "* c", "+ d", "- e");
  const block = fc.record({
    path: fc.constantFrom("global", "src"),
    type: fc.constantFrom("tech", "edge"),
    bullets: fc.array(bullet, { minLength: 1, maxLength: 4 }),
  });
  const key = (line: string) => line.replace(/^[-*+]\s+/, "").trim();
  fc.assert(
    fc.property(fc.array(fc.array(block, { maxLength: 4 }), { maxLength: 3 }), (turns) => {
      let files: Files = new Map();
      for (const turn of turns) {
        const text = turn.map((b) =>
          `## [TAG: ${b.path}, type: ${b.type}]\n${b.bullets.join("\n")}\n`
        )
          .join("");
        const result = route(text, files);
        assert.equal(result.scratch, "");
        files = result.files;
      }
      for (const text of files.values()) {
        const bullets = text.split("\n").filter((l) => /^[-*+]\s/.test(l)).map(key);
        assert.equal(new Set(bullets).size, bullets.length, text);
      }
    }),
    { numRuns: RUNS },
  );
});

Deno.test("property: a rerun changes nothing, and a second day adds nothing twice", () => {
  fc.assert(
    fc.property(scratchSpec, (spec) => {
      const { text } = renderScratchSpec(spec);
      const first = route(text, new Map());
      const second = route(first.scratch, first.files);
      assert.deepEqual(second.plan.writes, []);
      assert.equal(second.scratch, first.scratch);
      const nextDay = route(first.scratch, first.files, "2026-12-01");
      assert.deepEqual(nextDay.plan.writes, []);
    }),
    { numRuns: RUNS },
  );
});

Deno.test("property: text appended to scratch after planning survives the rewrite", () => {
  fc.assert(
    fc.property(scratchSpec, scratchSpec, (spec, laterSpec) => {
      const { text } = renderScratchSpec({ ...spec, bom: false });
      const later = renderScratchSpec({ ...laterSpec, preamble: false, bom: false });
      if (later.text === "") return;
      const { plan } = route(text, new Map());
      const result = applyScratchEdits(text + later.text, plan.edits);
      assert.ok(result.endsWith(later.text), "the appended text is intact at the end");
      for (const t of later.tokens) assert.equal(countToken(t, [result]), 1);
    }),
    { numRuns: RUNS },
  );
});

Deno.test("property (on disk): routing never writes outside the library; rerun is a no-op", async () => {
  await using dir = await tempDir();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(scratchSpec, async (spec) => {
      const base = join(dir.path, `case${++n}`);
      const lib = join(base, "proj", "_memory_library");
      await Deno.mkdir(lib, { recursive: true });
      const { text, tokens } = renderScratchSpec(spec);
      await Deno.writeTextFile(join(lib, ".scratch.md"), text);
      const library = { root: lib, projectRoot: join(base, "proj"), foundBy: "cwd" as const };
      const env = envFrom({ HOME: join(base, "home") });
      await routeLocked(library, { env, now: new Date(2026, 10, 30, 12) });
      const snapshot = await readTree(base);
      for (const path of snapshot.keys()) {
        assert.ok(path.startsWith("proj/_memory_library/") || path.startsWith("home/"), path);
      }
      const libraryTexts = [...snapshot].filter(([p]) => p.startsWith("proj/")).map(([, t]) => t);
      for (const t of tokens) assert.equal(countToken(t, libraryTexts), 1, t);
      const report = await routeLocked(library, { env, now: new Date(2026, 10, 30, 13) });
      assert.equal(report.targets.length, 0);
      assert.deepEqual(await readTree(base), snapshot);
    }),
    { numRuns: 25 },
  );
});

async function readTree(root: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of Deno.readDir(root)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const path = join(root, entry.name);
    if (entry.isDirectory) { for (const [k, v] of await readTree(path, rel)) out.set(k, v); }
    else out.set(rel, await Deno.readTextFile(path));
  }
  return out;
}
