/**
 * A rule's front matter as import reads it (issue 31): with the project's own reader, no npm
 * package, so `librarian import` runs offline in source mode. Each form the agents write is read
 * as the `yaml` package read it before; what that reader refuses (Cursor's unquoted `globs: *.ts`)
 * is read by hand, line by line, as before.
 */
import assert from "node:assert/strict";
import { parseRule, type SourceKind } from "./source_formats.ts";

const exists = (folder: string) => ["src/api", "web"].includes(folder);

const CASES: ReadonlyArray<[kind: SourceKind, frontMatter: string, placement: unknown]> = [
  ["cursor", "globs: src/api/**/*.ts\nalwaysApply: false", { kind: "folder", folder: "src/api" }],
  ["cursor", 'globs: ["src/api/**", "src/api/*.ts"]', { kind: "folder", folder: "src/api" }],
  ["cursor", "globs:\n  - src/api/**\n  - src/api/*.ts", { kind: "folder", folder: "src/api" }],
  ["cursor", "globs: *.ts", { kind: "folder", folder: "" }],
  ["cursor", "description: 'Release steps: tag, push'\nalwaysApply: false", {
    kind: "on-demand",
    folder: "",
    description: "Release steps: tag, push",
  }],
  ["cursor", "alwaysApply: true", { kind: "folder", folder: "" }],
  ["copilot", 'applyTo: "web/**"', { kind: "folder", folder: "web" }],
  ["windsurf", "trigger: model_decision\ndescription: >-\n  When deploying", {
    kind: "on-demand",
    folder: "",
    description: "When deploying",
  }],
  ["windsurf", "trigger: glob\nglobs: web/**", { kind: "folder", folder: "web" }],
];

Deno.test("import reads each rule front matter the agents write, without an npm package", () => {
  for (const [kind, frontMatter, placement] of CASES) {
    const rule = parseRule(kind, "", `---\n${frontMatter}\n---\n- the rule\n`, exists);
    assert.deepEqual(rule.placement, placement, frontMatter);
    assert.equal(rule.body, "- the rule\n", frontMatter);
  }
});

Deno.test("front matter nested past the bound is read by hand, line by line, and never throws", () => {
  const deep = `---\nglobs: web/**\nx: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n---\n- body\n`;
  const rule = parseRule("cursor", "", deep, exists);
  assert.deepEqual(rule.placement, { kind: "folder", folder: "web" });
  assert.equal(rule.body, "- body\n");
});
