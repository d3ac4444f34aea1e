/**
 * `librarian import` of what people actually have: nested CLAUDE.md / AGENTS.md into their
 * folder's mirror, README.md left out, Cursor rules by their globs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

Deno.test("import of a project maps nested CLAUDE.md and AGENTS.md to their folder's mirror", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "CLAUDE.md": "# Repo\n- use pnpm\n",
    "README.md": "# My project\nInstall with pnpm.\n",
    "src/api/CLAUDE.md": "- handlers validate input with zod\n",
    "src/web/AGENTS.md": "- components are function components\n",
    "node_modules/pkg/CLAUDE.md": "- never read\n",
  });
  const result = await runLibrarian(["import", ".", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(
    report.entries.map((e: { source: string; target: string }) => `${e.source} → ${e.target}`),
    [
      "CLAUDE.md → claude.md",
      "src/api/CLAUDE.md → src/api/claude.md",
      "src/web/AGENTS.md → src/web/agents.md",
    ],
  );
  assert.ok(report.ignored.includes("README.md"));
  const lib = join(dir.path, "_memory_library");
  assert.match(Deno.readTextFileSync(join(lib, "src/api/claude.md")), /handlers validate input/);
  assert.throws(() => Deno.statSync(join(lib, "readme.md")));
  const text = await runLibrarian(["import", ".", "--dry-run"], { cwd: dir.path });
  assert.match(text.stdout, /README\.md: not read \(a README describes the project for people/);
});

Deno.test("import maps a Cursor rule naming one folder there, others to the root, alwaysApply noted", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "src/api/handler.ts": "",
    ".cursor/rules/api-style.mdc":
      "---\ndescription: API style\nglobs: src/api/**/*.ts\nalwaysApply: false\n---\n- return problem+json errors\n",
    ".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\n- small commits\n",
    ".cursor/rules/mixed.mdc": "---\nglobs: src/a/**, lib/**\n---\n- mixed\n",
  });
  const result = await runLibrarian(["import", ".", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const targets = JSON.parse(result.stdout).entries.map((e: { target: string }) => e.target);
  assert.deepEqual(targets, ["src/api/api-style.md", "general.md", "mixed.md"]);
  const lib = join(dir.path, "_memory_library");
  const api = Deno.readTextFileSync(join(lib, "src/api/api-style.md"));
  assert.match(api, /Cursor rule; description: API style; globs: src\/api\/\*\*\/\*\.ts/);
  assert.doesNotMatch(api, /^---$/m, "the front matter is not copied");
  assert.match(Deno.readTextFileSync(join(lib, "general.md")), /alwaysApply: true/);
});
