/**
 * How the end-to-end proof of issue 33 reads what reached the model (`tests/e2e/guidance.ts`):
 * which lines of a memory file are guidance, which memory files apply to a touched file, how a
 * request body is cut at its tool calls, and what counts as sent twice. Pure, no client needed.
 */
import assert from "node:assert/strict";
import {
  applicable,
  charsPerStep,
  doubledLines,
  guidanceLines,
  guidanceThrough,
  isMemoryFile,
  missingLines,
  ruleGlobs,
  windowTexts,
} from "./e2e/guidance.ts";
import { SHAPES } from "./e2e/shapes.ts";

Deno.test("guidance lines leave out front matter, headings, fences, comments and short lines", () => {
  const text = [
    "---",
    "paths:",
    "  - src/**",
    "---",
    "# Title",
    "",
    "- Money is integer cents everywhere.",
    "- ok",
    "```ts",
    "const insideAFence = 1; // not guidance",
    "```",
    "<!-- librarian: provenance comment -->",
    "  Plain prose that says something useful.  ",
  ].join("\n");
  assert.deepEqual(guidanceLines(text), [
    "- Money is integer cents everywhere.",
    "Plain prose that says something useful.",
  ]);
});

Deno.test("memory files: CLAUDE.md and AGENTS.md anywhere, Claude and Cursor rules, the library but not its dot files", () => {
  assert.ok(isMemoryFile("CLAUDE.md"));
  assert.ok(isMemoryFile("a/b/AGENTS.md"));
  assert.ok(isMemoryFile(".claude/rules/db.md"));
  assert.ok(isMemoryFile(".cursor/rules/api.mdc"));
  assert.ok(isMemoryFile("_memory_library/src/edge.md"));
  assert.ok(!isMemoryFile("_memory_library/.scratch.md"));
  assert.ok(!isMemoryFile("_memory_library/src/.on-demand/x.md"));
  assert.ok(!isMemoryFile("docs/readme.md"));
});

Deno.test("a rule's globs: a block list, a comma list, a flow list", () => {
  assert.deepEqual(ruleGlobs('---\npaths:\n  - "src/**"\n  - lib/**\n---\n'), ["src/**", "lib/**"]);
  assert.deepEqual(ruleGlobs("---\nglobs: a/**, b/*.ts\n---\n"), ["a/**", "b/*.ts"]);
  assert.deepEqual(ruleGlobs("---\nglobs: [a/**]\n---\n"), ["a/**"]);
  assert.deepEqual(ruleGlobs("---\ndescription: d\n---\n"), []);
});

Deno.test("the memory files that apply to a touched file: its folders' files up to the root, the rules that cover it, its library folders", () => {
  const tree = {
    "CLAUDE.md": "- root",
    "AGENTS.md": "- root agents",
    "a/CLAUDE.md": "- a",
    "a/b/AGENTS.md": "- ab",
    "c/CLAUDE.md": "- elsewhere",
    ".claude/rules/a.md": "---\npaths:\n  - a/**\n---\n- rule a",
    ".claude/rules/c.md": "---\npaths:\n  - c/**\n---\n- rule c",
    ".cursor/rules/tests.mdc": "---\nglobs: **/*.test.ts\n---\n- tests",
    ".cursor/rules/all.mdc": "---\nalwaysApply: true\n---\n- all",
    "_memory_library/tech.md": "- lib root",
    "_memory_library/a/edge.md": "- lib a",
    "_memory_library/c/edge.md": "- lib c",
  };
  assert.deepEqual(applicable(tree, "a/b/x.test.ts"), {
    folder: ["AGENTS.md", "CLAUDE.md", "a/CLAUDE.md", "a/b/AGENTS.md"],
    claudeRules: [".claude/rules/a.md"],
    cursorRules: [".cursor/rules/all.mdc", ".cursor/rules/tests.mdc"],
    library: ["_memory_library/a/edge.md", "_memory_library/tech.md"],
  });
});

Deno.test("a request body is cut at its tool calls; the results are not guidance; a line sent twice is doubled once per extra time", () => {
  const line = "- Migrations are forward only, always.";
  const tree = { "db/CLAUDE.md": `# Db\n${line}\n` };
  const body = {
    system: [{ type: "text", text: "You are Claude." }],
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: line },
          { type: "text", text: `context: ${"x"}\n${line}` },
        ],
      },
      { role: "system", content: "a system message beside the result" },
      { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: {} }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t2", content: "file" }, {
          type: "text",
          text: line,
        }],
      },
    ],
  };
  const window = windowTexts(body);
  assert.deepEqual(window.start, ["go"]);
  assert.deepEqual(window.steps.map((s) => s.tool), ["Bash", "Read"]);
  assert.equal(window.steps[0]!.result, line);
  assert.equal(window.steps[0]!.beside.length, 2);
  assert.deepEqual(doubledLines(tree, guidanceThrough(window, 0)), [], "a result is not guidance");
  assert.deepEqual(doubledLines(tree, guidanceThrough(window, 1)), [line]);
  assert.deepEqual(missingLines(tree, ["db/CLAUDE.md"], guidanceThrough(window, -1)), [
    { path: "db/CLAUDE.md", line },
  ]);
  assert.deepEqual(missingLines(tree, ["db/CLAUDE.md"], guidanceThrough(window, 0)), []);
  assert.deepEqual(charsPerStep(window), [
    `context: x\n${line}`.length + "a system message beside the result".length,
    line.length,
  ]);
});

Deno.test("the three fixture shapes: no guidance line is shared by two memory files, and every Bash touch of the session has memory of its own", () => {
  for (const make of SHAPES) {
    const shape = make();
    const tree = { ...shape.files, ...shape.learnings };
    const seen = new Map<string, string>();
    for (const [path, text] of Object.entries(tree)) {
      if (!isMemoryFile(path)) continue;
      for (const line of guidanceLines(text)) {
        assert.equal(seen.get(line), undefined, `${shape.id}: ${path} and ${seen.get(line)}`);
        seen.set(line, path);
      }
    }
    const { cat, sedInPlace, grep, grepNoMatch, subagentCat, read, write } = shape.plan;
    for (const file of [cat, sedInPlace, grep.file, grepNoMatch, subagentCat, read]) {
      assert.ok(file in shape.files, `${shape.id}: ${file} is in the tree`);
      const a = applicable(tree, file);
      const own = [...a.folder, ...a.claudeRules, ...a.cursorRules, ...a.library];
      assert.ok(own.some((p) => p.includes("/")), `${shape.id}: ${file} has memory of its own`);
    }
    assert.ok(!(write in shape.files), `${shape.id}: the Write makes a new file`);
  }
  const monorepo = SHAPES[0]!().files;
  const nested = Object.keys(monorepo).filter((p) => /(^|\/)CLAUDE\.md$/.test(p));
  assert.ok(nested.length >= 8 && nested.length <= 12, `${nested.length} CLAUDE.md files`);
  assert.ok(monorepo["CLAUDE.md"]!.length > 4000, "one large root CLAUDE.md");
});
