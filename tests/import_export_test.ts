/**
 * `librarian import --export <formats>`: other agents' files (AGENTS.md, Cursor rules, Copilot's)
 * become that export, marked and regenerated from the library, so the two never drift apart; one
 * is replaced only when nothing of it can be lost, and without a chosen format every one is kept.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { isGeneratedText } from "../src/export/export_formats.ts";

/** AGENTS.md at two levels, Cursor rules (always, globbed, legacy), a code tree. */
const TEAM: Record<string, string> = {
  "AGENTS.md": "# Agents\n\n- money is integer cents\n- never log tokens\n",
  "packages/api/AGENTS.md": "# API\n- handlers validate with zod\n",
  "packages/api/src/handler.ts": "export {};\n",
  ".cursor/rules/general.mdc":
    "---\ndescription: house style\nalwaysApply: true\n---\n\n- be brief in reviews\n",
  ".cursor/rules/features/billing.mdc":
    "---\ndescription: billing\nglobs: src/billing/**\nalwaysApply: false\n---\n# Billing\n- invoices are immutable\n",
  ".cursorrules": "- prefer early returns over nesting\n",
  "src/billing/invoice.ts": "export {};\n",
};

async function project(root: string, tree: Record<string, string>, init: string[] = ["init"]) {
  await writeTree(root, tree);
  await new Deno.Command("git", { args: ["init", "-q", root] }).output();
  const options = { cwd: root, home: join(root, ".home") };
  const result = await runLibrarian(init, options);
  assert.equal(result.code, 0, result.stderr);
  return options;
}

/** Every `.md` text of the library (all folders, on-demand ones too), joined. */
function libraryText(root: string): string {
  let text = "";
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) visit(path);
      else if (entry.name.endsWith(".md")) text += Deno.readTextFileSync(path) + "\n";
    }
  };
  visit(join(root, "_memory_library"));
  return text;
}

/** Lines that carry knowledge: not blank, not front matter. */
function knowledgeLines(text: string): string[] {
  const body = text.replace(/^(---\n[\s\S]*?\n---\n)+/, "");
  return body.split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

const exists = (path: string) => {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

Deno.test(
  "import --export agents-md,cursor: other agents' files become the marked export, nothing lost",
  { ignore: skipOnWindows("needs git") },
  async () => {
    await using dir = await tempDir();
    const root = dir.path;
    const options = await project(root, TEAM);
    const result = await runLibrarian([
      "import",
      "--yes",
      "--export",
      "agents-md,cursor",
      "--hand-over",
    ], options);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const library = libraryText(root);
    for (const [rel, text] of Object.entries(TEAM)) {
      if (rel.endsWith(".ts")) continue;
      for (const line of knowledgeLines(text)) {
        assert.ok(library.includes(line), `${rel}: '${line}' is not in the library`);
      }
    }
    for (const rel of ["AGENTS.md", "packages/api/AGENTS.md"]) {
      const text = Deno.readTextFileSync(join(root, rel));
      assert.ok(isGeneratedText(text), `${rel} carries the Librarian marker`);
    }
    assert.match(Deno.readTextFileSync(join(root, "AGENTS.md")), /money is integer cents/);
    assert.match(Deno.readTextFileSync(join(root, "packages/api/AGENTS.md")), /validate with zod/);
    for (const rel of [".cursor/rules/general.mdc", ".cursor/rules/features/billing.mdc"]) {
      assert.ok(!exists(join(root, rel)), `${rel} became the export`);
    }
    assert.ok(!exists(join(root, ".cursorrules")), ".cursorrules became the export");
    const rootRule = Deno.readTextFileSync(join(root, ".cursor/rules/librarian.mdc"));
    assert.ok(isGeneratedText(rootRule));
    assert.match(rootRule, /be brief in reviews/);
    assert.match(rootRule, /prefer early returns/);
    const billing = Deno.readTextFileSync(join(root, ".cursor/rules/librarian-src--billing.mdc"));
    assert.ok(isGeneratedText(billing));
    assert.match(billing, /invoices are immutable/);
    assert.match(billing, /^globs: src\/billing\/\*\*$/m);
    assert.match(
      result.stdout,
      /^Became the agents-md export \(marked, regenerated from the library\): AGENTS\.md, packages\/api\/AGENTS\.md$/m,
    );
    assert.match(result.stdout, /^Became the cursor export .*\.cursorrules/m);
    assert.doesNotMatch(result.stdout, /^Kept/m);
    const config = JSON.parse(
      Deno.readTextFileSync(join(root, "_memory_library/.librarian.json")),
    );
    assert.deepEqual(config.export, ["agents-md", "cursor"]);
    const again = await runLibrarian(["export", "--json"], options);
    assert.equal(again.code, 0, again.stdout);
    const kinds = JSON.parse(again.stdout).actions.map((a: { kind: string }) => a.kind);
    assert.ok(kinds.length > 0 && kinds.every((k: string) => k === "unchanged"), kinds.join());
  },
);

Deno.test(
  "a manual Cursor rule, a file with a held secret line and a folder cut to its limit stay, with the reason",
  { ignore: skipOnWindows("needs git") },
  async () => {
    await using dir = await tempDir();
    const root = dir.path;
    const token = ["gh", "p_", "R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u"].join("");
    const long = Array.from({ length: 450 }, (_, i) => `- web rule number ${i} is kept`).join("\n");
    const tree = {
      ...TEAM,
      "packages/ops/AGENTS.md": `# Ops\n- deploy with make\n- CI token ${token}\n`,
      "packages/ops/deploy.ts": "export {};\n",
      "packages/web/AGENTS.md": `# Web\n${long}\n`,
      "packages/web/app.ts": "export {};\n",
      ".cursor/rules/release.mdc":
        "---\ndescription: How to cut a release\nglobs:\nalwaysApply: false\n---\n# Release\n1. bump the version\n",
    };
    const options = await project(root, tree);
    const plan = await runLibrarian(
      ["import", "--export", "agents-md,cursor", "--hand-over"],
      options,
    );
    assert.equal(plan.code, 1, "a held line is a problem to fix");
    assert.match(plan.stdout, /^To become the agents-md export .*AGENTS\.md/m);
    assert.equal(Deno.readTextFileSync(join(root, "AGENTS.md")), TEAM["AGENTS.md"], "a plan only");
    const result = await runLibrarian(
      ["import", "--yes", "--export", "agents-md,cursor", "--json", "--hand-over"],
      options,
    );
    assert.equal(result.code, 1, result.stderr + result.stdout);
    const report = JSON.parse(result.stdout);
    const why = (rel: string) =>
      report.exports.find((b: { rel: string }) => b.rel === rel) as {
        becomes: boolean;
        why?: string;
        fix?: string;
      };
    for (const rel of ["packages/ops/AGENTS.md", "packages/web/AGENTS.md"]) {
      assert.equal(Deno.readTextFileSync(join(root, rel)), tree[rel as keyof typeof tree], rel);
    }
    assert.equal(
      Deno.readTextFileSync(join(root, ".cursor/rules/release.mdc")),
      tree[".cursor/rules/release.mdc"],
    );
    assert.equal(why("packages/ops/AGENTS.md").becomes, false);
    assert.match(why("packages/ops/AGENTS.md").why!, /line 3 held back as a likely secret/);
    assert.match(why(".cursor/rules/release.mdc").why!, /manual rule .*no on-demand form/);
    assert.match(why("packages/web/AGENTS.md").why!, /cut to the format's limit/);
    assert.match(why("packages/web/AGENTS.md").fix!, /librarian import --suggest/);
    assert.deepEqual(report.becameExport.sort(), [
      ".cursor/rules/features/billing.mdc",
      ".cursor/rules/general.mdc",
      ".cursorrules",
      "AGENTS.md",
      "packages/api/AGENTS.md",
    ]);
    assert.ok(isGeneratedText(Deno.readTextFileSync(join(root, "AGENTS.md"))));
  },
);

Deno.test(
  "an export that cannot be written gives the original back; nothing is lost",
  { ignore: skipOnWindows("needs git and symbolic links") },
  async () => {
    await using dir = await tempDir();
    const root = join(dir.path, "repo");
    const outside = join(dir.path, "elsewhere");
    await Deno.mkdir(outside, { recursive: true });
    const options = await project(root, { ".cursorrules": TEAM[".cursorrules"]! });
    // The rule folder leads outside the repository: export's write there is refused.
    await Deno.mkdir(join(root, ".cursor"));
    await Deno.symlink(outside, join(root, ".cursor/rules"));
    const result = await runLibrarian([
      "import",
      "--yes",
      "--export",
      "cursor",
      "--json",
      "--hand-over",
    ], options);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.equal(Deno.readTextFileSync(join(root, ".cursorrules")), TEAM[".cursorrules"]);
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing written outside");
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.becameExport, []);
    assert.match(report.exports[0].why, /could not be written .*the original is back/);
    assert.equal(report.exportReport.failures[0].path, ".cursor/rules/librarian.mdc");
    assert.match(libraryText(root), /prefer early returns/);
  },
);

Deno.test(
  "without --export and without recorded formats the originals are kept; recorded formats count as chosen",
  { ignore: skipOnWindows("needs git") },
  async () => {
    await using dir = await tempDir();
    const plain = join(dir.path, "plain");
    const options = await project(plain, TEAM);
    const kept = await runLibrarian(["import", "--yes", "--json", "--hand-over"], options);
    assert.equal(kept.code, 0, kept.stderr + kept.stdout);
    for (const [rel, text] of Object.entries(TEAM)) {
      assert.equal(Deno.readTextFileSync(join(plain, rel)), text, `${rel} kept as it was`);
    }
    assert.deepEqual(JSON.parse(kept.stdout).exports, []);
    assert.ok(!exists(join(plain, ".cursor/rules/librarian.mdc")), "no export written");

    const recorded = join(dir.path, "recorded");
    const withConfig = await project(recorded, TEAM, ["init", "--export", "cursor"]);
    const result = await runLibrarian(["import", "--yes", "--hand-over"], withConfig);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /^Became the cursor export .*\.cursor\/rules\/general\.mdc/m);
    assert.match(result.stdout, /^Kept \(other agents read them\): .*AGENTS\.md/m);
    assert.equal(Deno.readTextFileSync(join(recorded, "AGENTS.md")), TEAM["AGENTS.md"]);
    assert.ok(!exists(join(recorded, ".cursor/rules/general.mdc")));
  },
);

Deno.test(
  "Copilot's root file: its own text moves to the library and export's marked section remains",
  { ignore: skipOnWindows("needs git") },
  async () => {
    await using dir = await tempDir();
    const root = dir.path;
    const tree = {
      ".github/copilot-instructions.md": "# Team\n- answer in English\n",
      ".github/instructions/ui.instructions.md":
        '---\napplyTo: "src/ui/**"\n---\n- use design tokens\n',
      "src/ui/view.ts": "export {};\n",
    };
    const options = await project(root, tree);
    const result = await runLibrarian(
      ["import", "--yes", "--export", "copilot", "--hand-over"],
      options,
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const file = Deno.readTextFileSync(join(root, ".github/copilot-instructions.md"));
    assert.match(file, /^<!-- librarian:begin -->\n<!-- Generated by the Librarian/);
    assert.match(file, /answer in English/, "the library's text, in the marked section");
    assert.match(file, /<!-- librarian:end -->\n$/);
    assert.ok(!exists(join(root, ".github/instructions/ui.instructions.md")));
    assert.match(
      Deno.readTextFileSync(join(root, ".github/instructions/librarian-src--ui.instructions.md")),
      /use design tokens/,
    );
    assert.match(libraryText(root), /# Team\n- answer in English/);
    const again = await runLibrarian(["export", "--check"], options);
    assert.equal(again.code, 0, again.stdout);
  },
);

Deno.test(
  "--keep-originals with a chosen format: every original stays, and the report names each export that a kept file blocks",
  { ignore: skipOnWindows("needs git") },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, TEAM);
    const result = await runLibrarian(
      ["import", "--yes", "--keep-originals", "--export", "agents-md"],
      options,
    );
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.equal(Deno.readTextFileSync(join(dir.path, "AGENTS.md")), TEAM["AGENTS.md"]);
    assert.match(
      result.stdout,
      /^Export did not write AGENTS\.md: a file that export did not write is there/m,
    );
    assert.match(result.stdout, /^Export did not write packages\/api\/AGENTS\.md: /m);
  },
);
