/**
 * What `librarian import` reads (`src/import/sources.ts`), in process: from a project
 * only its instruction files, nested ones and Cursor rules, each placed where it applies.
 */
import assert from "node:assert/strict";
import { globsFolder, listSources, parseCursorRule, whyIgnored } from "../src/import/sources.ts";
import { tempDir, writeTree } from "./helpers.ts";

Deno.test("a project gives its CLAUDE.md, nested instruction files and rules; its own documents stay", async () => {
  await using dir = await tempDir();
  const project = dir.path;
  await writeTree(project, {
    "CLAUDE.md": "# root rules\n",
    "CHANGELOG.md": "# changes\n",
    "README.md": "# readme\n",
    "src/api/AGENTS.md": "# api rules\n",
    ".cursor/rules/zod.mdc": "---\nglobs: src/api/**\n---\nUse zod.\n",
  });
  const { files, ignored } = listSources(project, project);
  const placed = Object.fromEntries(files.map((f) => [f.name, f.target]));
  assert.equal(placed["CLAUDE.md"], "claude.md");
  assert.equal(placed["src/api/AGENTS.md"], "src/api/agents.md");
  assert.ok(
    Object.values(placed).some((t) => t?.startsWith("src/api/")),
    "the rule goes to src/api",
  );
  assert.ok(ignored.includes("CHANGELOG.md"));
  assert.ok(ignored.includes("README.md"));
  assert.ok(!files.some((f) => f.name === "CHANGELOG.md"));
});

Deno.test("a memory bank gives every .md file, with no target (mapped by name later)", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "projectbrief.md": "# brief\n", "ideas.md": "- x\n", "img.png": "" });
  const { files, ignored } = listSources(dir.path, "/some/other/project");
  assert.deepEqual(files.map((f) => [f.name, f.target]), [["ideas.md", undefined], [
    "projectbrief.md",
    undefined,
  ]]);
  assert.deepEqual(ignored, ["img.png"]);
  assert.match(whyIgnored("img.png"), /only \.md files/);
});

Deno.test("rule front matter: globs as a list or a comma string, alwaysApply only when true", () => {
  assert.deepEqual(
    parseCursorRule("---\nglobs: src/a/**, src/a/*.ts\nalwaysApply: yes\n---\nBody\n"),
    {
      globs: ["src/a/**", "src/a/*.ts"],
      alwaysApply: false,
      body: "Body\n",
    },
  );
  assert.deepEqual(
    parseCursorRule("---\ndescription: d\nglobs: [x/**]\nalwaysApply: true\n---\n"),
    {
      description: "d",
      globs: ["x/**"],
      alwaysApply: true,
      body: "",
    },
  );
  assert.deepEqual(parseCursorRule("no front matter"), {
    globs: [],
    alwaysApply: false,
    body: "no front matter",
  });
  assert.deepEqual(parseCursorRule("---\n: [\n---\nB"), {
    globs: [],
    alwaysApply: false,
    body: "B",
  });
});

Deno.test("a rule's folder is the common part before any wildcard, or none", () => {
  assert.equal(globsFolder(["./src/api/**/*.ts"]), "src/api");
  assert.equal(globsFolder(["src/api/index.ts"]), "src/api");
  assert.equal(globsFolder(["*.ts"]), null);
  assert.equal(globsFolder(["a/**", "b/**"]), null);
});
