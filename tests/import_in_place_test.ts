/**
 * `librarian import` composes with the client (issue 33): `CLAUDE.md` (any level), `AGENTS.md`
 * and `.claude/rules/*.md` are read where they lie, never moved or imported by default, and the
 * plan names each with why; hand-over is the explicit `--hand-over`. A skill's `agents.md` is not
 * agent memory. What no client reads by path (a memory bank) is still imported.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const PROJECT: Record<string, string> = {
  "_memory_library/.scratch.md": "",
  "CLAUDE.md": "# Root\n- ROOT-CLAUDE-LINE use pnpm workspaces\n",
  "AGENTS.md": "# Agents\n- ROOT-AGENTS-LINE money is integer cents\n",
  "packages/api/CLAUDE.md": "# Api\n- API-CLAUDE-LINE handlers validate with zod\n",
  "packages/api/AGENTS.md": "# Api agents\n- API-AGENTS-LINE never log tokens\n",
  ".claude/rules/database.md":
    "---\npaths:\n  - internal-packages/database/**\n---\n- DB-RULE-LINE migrate first\n",
  ".claude/rules/style.md": "- STYLE-RULE-LINE be brief\n",
  "skills/review/agents.md": "# Agents of the review skill\n- SKILL-DOC-LINE\n",
  "memory-bank/techContext.md": "# Tech\n- BANK-LINE deno 2\n",
};

async function imported(args: string[]) {
  const dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const result = await runLibrarian(["import", "--yes", "--json", ...args], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  return { dir, report: JSON.parse(result.stdout) };
}

function libraryText(root: string): string {
  let text = "";
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) visit(path);
      else if (entry.name.endsWith(".md")) text += Deno.readTextFileSync(path);
    }
  };
  visit(join(root, "_memory_library"));
  return text;
}

Deno.test("import's default reads CLAUDE.md, AGENTS.md and .claude/rules where they lie: nothing moved, nothing imported twice, each named with why", async () => {
  const { dir, report } = await imported([]);
  await using _ = dir;
  for (const [rel, text] of Object.entries(PROJECT)) {
    if (/CLAUDE\.md$|AGENTS\.md$|\.claude\/rules/.test(rel)) {
      assert.equal(Deno.readTextFileSync(join(dir.path, rel)), text, `${rel} unchanged`);
    }
  }
  const library = libraryText(dir.path);
  assert.doesNotMatch(library, /CLAUDE-LINE|AGENTS-LINE|RULE-LINE/, "none is in the library");
  assert.match(library, /BANK-LINE/, "a memory bank no client reads by path is imported");
  const inPlace = new Map<string, string>(
    report.inPlace.map((p: { name: string; why: string }) => [p.name, p.why]),
  );
  assert.deepEqual([...inPlace.keys()].sort(), [
    ".claude/rules/database.md",
    ".claude/rules/style.md",
    "AGENTS.md",
    "CLAUDE.md",
    "packages/api/AGENTS.md",
    "packages/api/CLAUDE.md",
  ]);
  assert.match(inPlace.get("CLAUDE.md")!, /loads it whole at every session start.*--hand-over/);
  assert.match(inPlace.get("packages/api/CLAUDE.md")!, /on a Read or Write in packages\/api\//);
  assert.match(inPlace.get("packages/api/AGENTS.md")!, /sends it on every touch of packages\/api/);
  assert.match(inPlace.get(".claude/rules/database.md")!, /rule for internal-packages\/database/);
  assert.match(inPlace.get(".claude/rules/style.md")!, /without paths:.*every session start/);
  assert.deepEqual(report.handedOver, []);
});

Deno.test("a skill's document named agents.md is not agent memory: neither imported nor named", async () => {
  const { dir, report } = await imported([]);
  await using _ = dir;
  const named = [
    ...report.entries.map((e: { source: string }) => e.source),
    ...report.inPlace.map((p: { name: string }) => p.name),
    ...report.left.map((l: { name: string }) => l.name),
  ];
  assert.ok(!named.includes("skills/review/agents.md"), named.join(", "));
  assert.doesNotMatch(libraryText(dir.path), /SKILL-DOC-LINE/);
});

Deno.test("the text plan says 'Read in place' for each, and --hand-over is the explicit choice that stubs CLAUDE.md", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const plan = await runLibrarian(["import", "--dry-run"], { cwd: dir.path });
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /^Read in place \(not imported\): packages\/api\/CLAUDE\.md: /m);
  assert.match(plan.stdout, /^Read in place \(not imported\): \.claude\/rules\/database\.md: /m);
  const handOver = await runLibrarian(["import", "--yes", "--hand-over"], { cwd: dir.path });
  assert.equal(handOver.code, 0, handOver.stderr);
  assert.match(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), /handed over/);
  assert.match(libraryText(dir.path), /API-CLAUDE-LINE/);
  assert.equal(
    Deno.readTextFileSync(join(dir.path, ".claude/rules/database.md")),
    PROJECT[".claude/rules/database.md"],
    "a Claude Code rule stays where it lies even then",
  );
});

Deno.test("--hand-over never turns a CLAUDE.md the client loads whole into an excerpt: one longer than a touch's budget stays, with why", async () => {
  await using dir = await tempDir();
  const big = "# Big\n" +
    Array.from({ length: 300 }, (_, i) => `- BIG-LINE ${i}: ${"x".repeat(40)}`).join("\n") + "\n";
  await writeTree(dir.path, { ...PROJECT, "packages/api/CLAUDE.md": big });
  const result = await runLibrarian(["import", "--yes", "--json", "--hand-over"], {
    cwd: dir.path,
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(Deno.readTextFileSync(join(dir.path, "packages/api/CLAUDE.md")), big);
  assert.doesNotMatch(libraryText(dir.path), /BIG-LINE/);
  const why = report.inPlace.find((p: { name: string }) => p.name === "packages/api/CLAUDE.md")
    ?.why;
  assert.match(why ?? "", /loads its 1[\d,]+ characters whole.*excerpt \(budget 9,000\)/);
  assert.match(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), /handed over/, "a small one is");
});

/** The other agents' rules: glob-scoped, repo-wide, agent-requested and manual. */
const OTHER_RULES: Record<string, string> = {
  "_memory_library/.scratch.md": "",
  ".cursor/rules/trigger.mdc":
    "---\ndescription: Trigger.dev tasks\nglobs: **/trigger/**\nalwaysApply: false\n---\n- CURSOR-TRIGGER-LINE\n",
  ".cursor/rules/db.mdc":
    "---\nglobs: internal-packages/database/**\n---\n- CURSOR-DB-LINE migrate first\n",
  ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\n- CURSOR-ALWAYS-LINE\n",
  ".cursor/rules/release.mdc":
    "---\ndescription: How to cut a release\nalwaysApply: false\n---\n- CURSOR-RELEASE-LINE\n",
  ".github/copilot-instructions.md": "- COPILOT-REPO-LINE\n",
  ".github/instructions/ui.instructions.md": '---\napplyTo: "src/ui/**"\n---\n- COPILOT-UI-LINE\n',
  ".windsurf/rules/api.md": "---\ntrigger: glob\nglobs: src/api/**\n---\n- WINDSURF-API-LINE\n",
  ".windsurf/rules/deploy.md":
    "---\ntrigger: model_decision\ndescription: deploy steps\n---\n- WINDSURF-DEPLOY-LINE\n",
  "apps/trigger/run.ts": "export {};\n",
  "internal-packages/database/schema.prisma": "model A {}\n",
  "src/ui/view.ts": "export {};\n",
  "src/api/x.ts": "export {};\n",
};

Deno.test("import's default leaves the other agents' glob-scoped and repo-wide rules where they lie, each named with its scope; a **/trigger/** rule never lands at the library root", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, OTHER_RULES);
  const result = await runLibrarian(["import", "--yes", "--json"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  const library = libraryText(dir.path);
  assert.doesNotMatch(
    library,
    /CURSOR-TRIGGER-LINE|CURSOR-DB-LINE|CURSOR-ALWAYS-LINE|COPILOT-REPO-LINE|COPILOT-UI-LINE|WINDSURF-API-LINE/,
    "read in place, not copied",
  );
  const inPlace = new Map<string, string>(
    report.inPlace.map((p: { name: string; why: string }) => [p.name, p.why]),
  );
  assert.match(
    inPlace.get(".cursor/rules/trigger.mdc") ?? "",
    /^read in place: a Cursor rule for \*\*\/trigger\/\*\*; the Librarian sends it on every touch it covers/,
  );
  assert.match(
    inPlace.get(".cursor/rules/db.mdc") ?? "",
    /globs internal-packages\/database\/\*\*|for internal-packages\/database\/\*\*/,
  );
  assert.match(inPlace.get(".cursor/rules/style.mdc") ?? "", /whole repository.*session start/);
  assert.match(inPlace.get(".github/copilot-instructions.md") ?? "", /whole repository/);
  assert.match(inPlace.get(".github/instructions/ui.instructions.md") ?? "", /for src\/ui\/\*\*/);
  assert.match(inPlace.get(".windsurf/rules/api.md") ?? "", /Windsurf rule for src\/api\/\*\*/);
  for (const rel of Object.keys(OTHER_RULES)) {
    if (rel.startsWith("_")) continue;
    assert.equal(Deno.readTextFileSync(join(dir.path, rel)), OTHER_RULES[rel], `${rel} unchanged`);
  }
  // agent-requested rules are no one's to send by path: kept on demand in the library, as before
  assert.match(library, /CURSOR-RELEASE-LINE/);
  assert.match(library, /WINDSURF-DEPLOY-LINE/);
  const onDemand = report.entries.map((e: { source: string }) => e.source);
  assert.ok(onDemand.includes(".cursor/rules/release.mdc"), onDemand.join(", "));
  const plan = await runLibrarian(["import", "--dry-run"], { cwd: dir.path });
  assert.match(
    plan.stdout,
    /^Read in place \(not imported\): \.cursor\/rules\/trigger\.mdc: read in place: a Cursor rule for \*\*\/trigger\/\*\*/m,
  );
});

Deno.test("--hand-over leaves them where they lie too (imported as well, they would reach the model twice); --export cursor imports Cursor's rules to become the export, and still never widens **/trigger/** to the library root", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, OTHER_RULES);
  const handOver = await runLibrarian(["import", "--yes", "--json", "--hand-over"], {
    cwd: dir.path,
  });
  assert.equal(handOver.code, 0, handOver.stderr);
  const names = JSON.parse(handOver.stdout).inPlace.map((p: { name: string }) => p.name);
  assert.ok(names.includes(".cursor/rules/db.mdc"), names.join(", "));
  assert.doesNotMatch(libraryText(dir.path), /CURSOR-DB-LINE|COPILOT-UI-LINE/);
  const exported = await runLibrarian(["import", "--yes", "--json", "--export", "cursor"], {
    cwd: dir.path,
  });
  assert.equal(exported.code, 0, exported.stderr);
  const report = JSON.parse(exported.stdout);
  assert.match(libraryText(dir.path), /CURSOR-DB-LINE/);
  assert.doesNotMatch(libraryText(dir.path), /CURSOR-TRIGGER-LINE/);
  const left = report.left.find((l: { name: string }) => l.name === ".cursor/rules/trigger.mdc");
  assert.match(left?.why ?? "", /name no one folder/);
  assert.ok(
    report.inPlace.some((p: { name: string }) =>
      p.name === ".github/instructions/ui.instructions.md"
    ),
    "Copilot's stay: its export was not chosen",
  );
});
