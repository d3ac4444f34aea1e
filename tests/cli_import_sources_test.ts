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
    "CHANGELOG.md": "## 1.0\n- first\n",
    "src/api/CLAUDE.md": "- handlers validate input with zod\n",
    "src/web/AGENTS.md": "- components are function components\n",
    "node_modules/pkg/CLAUDE.md": "- never read\n",
  });
  const result = await runLibrarian(["import", ".", "--yes", "--json", "--hand-over"], {
    cwd: dir.path,
  });
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
  assert.ok(!report.entries.some((e: { source: string }) => /README|CHANGELOG/.test(e.source)));
  const lib = join(dir.path, "_memory_library");
  assert.match(Deno.readTextFileSync(join(lib, "src/api/claude.md")), /handlers validate input/);
  assert.throws(() => Deno.statSync(join(lib, "readme.md")));
  const text = await runLibrarian(["import", ".", "--dry-run", "--hand-over"], { cwd: dir.path });
  assert.doesNotMatch(text.stdout, /README/, "what is not memory is not listed");
});

Deno.test("import maps a Cursor rule naming one folder there, one for every file to its base (alwaysApply noted), and leaves one whose globs name no one folder where it lies: its scope is never widened", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "src/api/handler.ts": "",
    ".cursor/rules/api-style.mdc":
      "---\ndescription: API style\nglobs: src/api/**/*.ts\nalwaysApply: false\n---\n- return problem+json errors\n",
    ".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\n- small commits\n",
    ".cursor/rules/mixed.mdc": "---\nglobs: src/a/**, lib/**\n---\n- mixed\n",
  });
  // read where they lie by default; the cursor export takes them over (issue 33)
  const result = await runLibrarian(["import", ".", "--yes", "--json", "--export", "cursor"], {
    cwd: dir.path,
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  const targets = report.entries.map((e: { target: string }) => e.target);
  assert.deepEqual(targets, ["src/api/api-style.md", "general.md"]);
  const mixed = report.left.find((l: { name: string }) => l.name === ".cursor/rules/mixed.mdc");
  assert.match(mixed?.why ?? "", /globs \(src\/a\/\*\*, lib\/\*\*\) name no one folder/);
  const lib = join(dir.path, "_memory_library");
  const api = Deno.readTextFileSync(join(lib, "src/api/api-style.md"));
  assert.match(api, /Cursor rule; description: API style; globs: src\/api\/\*\*\/\*\.ts/);
  assert.doesNotMatch(api, /^---$/m, "the front matter is not copied");
  assert.match(Deno.readTextFileSync(join(lib, "general.md")), /Cursor rule; always applied/);
});

const SYSTEM_PATTERNS = [
  "# System patterns",
  "",
  "- Handlers in `src/api/handlers` validate input with zod.",
  "- Billing rounds once, see src/api/billing/invoice.ts.",
  "- We prefer small pull requests.",
  "",
  "The web client (src/web/) uses React function components",
  "and never class components.",
  "",
].join("\n");

async function importedBank(root: string) {
  await writeTree(root, {
    "_memory_library/.scratch.md": "",
    "src/api/handlers/users.ts": "",
    "src/api/billing/invoice.ts": "",
    "src/web/app.tsx": "",
    "memory-bank/systemPatterns.md": SYSTEM_PATTERNS,
  });
  const imported = await runLibrarian(["import", "memory-bank", "--yes"], { cwd: root });
  assert.equal(imported.code, 0, imported.stderr);
}

Deno.test("import --suggest proposes a mirror folder for each unit of imported root files naming code", async () => {
  await using dir = await tempDir();
  await importedBank(dir.path);
  const result = await runLibrarian(["import", "--suggest", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(typeof report.version, "string");
  assert.deepEqual(
    report.suggestions.map((s: { n: number; file: string; folder: string }) =>
      `${s.n} ${s.file} → ${s.folder}`
    ),
    [
      "1 patterns.md → src/api/handlers",
      "2 patterns.md → src/api/billing",
      "3 patterns.md → src/web",
    ],
  );
  assert.equal(typeof report.suggestions[0].line, "number");
  const text = await runLibrarian(["import", "--suggest"], { cwd: dir.path });
  assert.match(text.stdout, /^ {2}1\. patterns\.md:\d+ +→ src\/api\/handlers\/ +- Handlers in/m);
});

Deno.test("import --apply moves the chosen units into their folders' files in one step, never via scratch", async () => {
  await using dir = await tempDir();
  await importedBank(dir.path);
  const lib = join(dir.path, "_memory_library");
  const applied = await runLibrarian(["import", "--apply", "--only", "1,3"], { cwd: dir.path });
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /^Moved 2 blocks into 2 library files/);
  assert.equal(Deno.readTextFileSync(join(lib, ".scratch.md")), "", "nothing goes through scratch");
  const root = Deno.readTextFileSync(join(lib, "patterns.md"));
  assert.doesNotMatch(root, /Handlers in|The web client/);
  assert.match(root, /Billing rounds once/, "not chosen: stays");
  assert.match(root, /small pull requests/, "names no code: stays");
  assert.match(Deno.readTextFileSync(join(lib, "src/api/handlers/patterns.md")), /validate input/);
  assert.match(Deno.readTextFileSync(join(lib, "src/web/patterns.md")), /function components/);
  const bad = await runLibrarian(["import", "--only", "1"], { cwd: dir.path });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--only goes with --apply/);
});
