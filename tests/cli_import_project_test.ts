/**
 * `librarian init && librarian import --yes` on projects of each shape people have: every
 * non-empty line of every source lands in the library (at the level its source applies to) or
 * stays in a kept original, CLAUDE.md files are handed over as stubs, manual rules are kept on
 * demand, and a second run changes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

/** A nested CLAUDE.md monorepo with an @-import and a code tree. */
export const MONOREPO: Record<string, string> = {
  "CLAUDE.md": "# Monorepo\n\n- use pnpm workspaces\n- run `pnpm -r test` before pushing\n\n" +
    "@docs/conventions.md\n",
  "docs/conventions.md": "# Conventions\n\n1. small commits\n2. imperative subjects\n",
  "packages/api/CLAUDE.md":
    "# API\n\n## Validation\n- handlers validate with zod\n\n```ts\nconst r = /^(?<user>\\w+):(?<password>\\S+)@/;\n```\n" +
    "- the DSN looks like `contember://project:token@endpoint`\n",
  "packages/api/src/handler.ts": "export {};\n",
  "packages/web/CLAUDE.md": "# Web\n- components are function components\n- no default exports\n",
  "packages/web/src/App.tsx": "export {};\n",
  "packages/web/CLAUDE.local.md": "- my sandbox is on port 4001\n",
};

/** AGENTS.md behind a one-line CLAUDE.md, Cursor rules with and without globs, nested rules. */
export const AGENTS_AND_RULES: Record<string, string> = {
  "CLAUDE.md": "@AGENTS.md\n",
  "AGENTS.md": "# Agents\n\n- money is integer cents\n- never log tokens\n",
  ".cursor/rules/general.mdc":
    "---\ndescription: house style\nalwaysApply: true\n---\n\n- be brief\n",
  ".cursor/rules/features/billing.mdc":
    "---\ndescription: billing\nglobs: src/billing/**/*.ts\nalwaysApply: false\n---\n---\nglobs: src/billing/**\n---\n# Billing\n- invoices are immutable\n",
  ".cursor/rules/release.mdc":
    "---\ndescription: How to cut a release\nglobs:\nalwaysApply: false\n---\n# Release\n1. bump the version\n2. tag and push\n",
  "src/billing/invoice.ts": "export {};\n",
  "src/ui/view.ts": "export {};\n",
};

/** The other agents' files: Gemini, Cline, Copilot, Windsurf. */
export const OTHER_AGENTS: Record<string, string> = {
  "GEMINI.md": "- prefer small functions\n",
  ".clinerules/testing.md": "- every bug fix starts with a failing test\n",
  ".github/copilot-instructions.md": "- answer in English\n",
  ".github/instructions/ui.instructions.md":
    '---\napplyTo: "src/ui/**"\n---\n- use design tokens\n',
  ".windsurf/rules/deploy.md":
    "---\ntrigger: manual\ndescription: deploy steps\n---\n- deploy on Tuesdays\n",
  "src/ui/view.ts": "export {};\n",
};

async function project(root: string, tree: Record<string, string>) {
  await writeTree(root, tree);
  await new Deno.Command("git", { args: ["init", "-q", root] }).output();
  const options = { cwd: root, home: join(root, ".home") };
  const init = await runLibrarian(["init"], options);
  assert.equal(init.code, 0, init.stderr);
  return options;
}

/** Every `.md` text in one library folder (not below it), joined. */
function folderText(root: string, level: string, onDemand = false): string {
  const dir = join(root, "_memory_library", level, onDemand ? ".on-demand" : "");
  let text = "";
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      text += Deno.readTextFileSync(join(dir, entry.name)) + "\n";
    }
  }
  return text;
}

/** Lines that carry knowledge: not blank, not front matter, not a bare @-import. */
function knowledgeLines(text: string): string[] {
  const body = text.replace(/^(---\n[\s\S]*?\n---\n)+/, "");
  return body.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !/^@\S+$/.test(l));
}

function assertLands(
  root: string,
  source: string,
  original: string,
  level: string,
  onDemand = false,
) {
  const library = folderText(root, level, onDemand);
  const kept = Deno.readTextFileSync(join(root, source));
  for (const line of knowledgeLines(original)) {
    const inLibrary = library.includes(line) ||
      library.includes(line.replace(/@(\S+)/g, "`$1`"));
    assert.ok(
      inLibrary || kept.includes(line),
      `${source}: '${line}' is neither in _memory_library/${level} nor kept`,
    );
  }
}

Deno.test("a nested CLAUDE.md monorepo moves in: every line at its level, CLAUDE.md handed over", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, MONOREPO);
  const result = await runLibrarian(["import", "--yes", "--hand-over"], options);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  assertLands(dir.path, "CLAUDE.md", MONOREPO["CLAUDE.md"]!, "");
  assertLands(dir.path, "docs/conventions.md", MONOREPO["docs/conventions.md"]!, "");
  assertLands(
    dir.path,
    "packages/api/CLAUDE.md",
    MONOREPO["packages/api/CLAUDE.md"]!,
    "packages/api",
  );
  assertLands(
    dir.path,
    "packages/web/CLAUDE.md",
    MONOREPO["packages/web/CLAUDE.md"]!,
    "packages/web",
  );
  // nothing of a package is sent at the root
  assert.doesNotMatch(folderText(dir.path, ""), /zod|function components/);
  // the fenced regex and the DSN template are not secrets: nothing held back
  assert.doesNotMatch(result.stdout, /Held back/);
  for (const file of ["CLAUDE.md", "packages/api/CLAUDE.md", "packages/web/CLAUDE.md"]) {
    const stub = Deno.readTextFileSync(join(dir.path, file));
    assert.match(stub, /^<!-- librarian: handed over to the memory library -->/, file);
    assert.ok(stub.length < 400, `${file} is a short stub`);
    assert.doesNotMatch(stub, /zod|pnpm|@docs/, `${file} holds none of the guidance`);
  }
  assert.match(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), /`_memory_library\/`/);
  assert.equal(
    Deno.readTextFileSync(join(dir.path, "packages/web/CLAUDE.local.md")),
    MONOREPO["packages/web/CLAUDE.local.md"],
    "a personal file is left",
  );
  assert.equal(
    Deno.readTextFileSync(join(dir.path, "docs/conventions.md")),
    MONOREPO["docs/conventions.md"],
    "a file CLAUDE.md imported is left for people",
  );
  assert.match(result.stdout, /^Handed over .*CLAUDE\.md, packages\/api\/CLAUDE\.md/m);
  assert.match(result.stdout, /^Next: /m);
  const lint = JSON.parse((await runLibrarian(["lint", "--json"], options)).stdout);
  assert.deepEqual(
    lint.findings.filter((f: { check: string }) => /secret|duplicate/.test(f.check)),
    [],
    "lint reads the template and the imported-by lines as import does",
  );
  const again = await runLibrarian(["import", "--yes", "--json", "--hand-over"], options);
  assert.equal(again.code, 1, "nothing left to import is a message");
  assert.match(JSON.parse(again.stdout).error, /handed over already/);
});

Deno.test(
  "AGENTS.md behind @AGENTS.md, Cursor rules by their front matter, a manual rule on demand",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, AGENTS_AND_RULES);
    const result = await runLibrarian(["import", "--yes", "--hand-over"], options);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assertLands(dir.path, "AGENTS.md", AGENTS_AND_RULES["AGENTS.md"]!, "");
    // a rule for globs or for the whole repository is read where it lies (issue 33)
    for (const rel of [".cursor/rules/general.mdc", ".cursor/rules/features/billing.mdc"]) {
      assert.equal(Deno.readTextFileSync(join(dir.path, rel)), AGENTS_AND_RULES[rel], rel);
      assert.match(
        result.stdout,
        new RegExp(`^Read in place \\(not imported\\): ${rel.replaceAll(".", "\\.")}: `, "m"),
      );
    }
    assert.doesNotMatch(folderText(dir.path, ""), /be brief|invoices are immutable/);
    const billing = await runLibrarian(["read", "src/billing/invoice.ts"], options);
    assert.match(billing.stdout, /invoices are immutable/, "sent from where it lies");
    assert.match(
      billing.stdout,
      /\.cursor\/rules\/features\/billing\.mdc \(the project's Cursor rule for src\/billing\/\*\*\/\*\.ts/,
    );
    const release = AGENTS_AND_RULES[".cursor/rules/release.mdc"]!;
    assertLands(dir.path, ".cursor/rules/release.mdc", release, "", true);
    assert.doesNotMatch(
      folderText(dir.path, ""),
      /bump the version/,
      "a manual rule is never sent",
    );
    assert.match(
      folderText(dir.path, ""),
      /`_memory_library\/\.on-demand\/release\.md`: How to cut a release/,
      "it is named with its description in its folder's context",
    );
    assert.doesNotMatch(folderText(dir.path, ""), /^@AGENTS\.md$/m, "no one-line pointer file");
    assert.equal(
      Deno.readTextFileSync(join(dir.path, "AGENTS.md")),
      AGENTS_AND_RULES["AGENTS.md"],
      "other agents' files are kept",
    );
    assert.match(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), /handed over/);
    assert.doesNotMatch(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), /@AGENTS/);
    assert.match(result.stdout, /On demand .*\.cursor\/rules\/release\.mdc/);
    const read = await runLibrarian(["read", "src/ui/view.ts"], options);
    assert.doesNotMatch(read.stdout, /bump the version|invoices are immutable/);
    assert.match(read.stdout, /money is integer cents/);
  },
);

Deno.test(
  "Gemini and Cline files are imported at their level and kept; Copilot's are read where they lie; a manual Windsurf rule is kept on demand",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, OTHER_AGENTS);
    const result = await runLibrarian(["import", "--yes", "--json", "--hand-over"], options);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    for (const file of ["GEMINI.md", ".clinerules/testing.md"]) {
      assertLands(dir.path, file, OTHER_AGENTS[file]!, "");
      assert.equal(Deno.readTextFileSync(join(dir.path, file)), OTHER_AGENTS[file], `${file} kept`);
    }
    // Copilot's repo-wide and applyTo files are read where they lie (issue 33)
    const inPlace = JSON.parse(result.stdout).inPlace.map((p: { name: string }) => p.name);
    for (
      const file of [".github/copilot-instructions.md", ".github/instructions/ui.instructions.md"]
    ) {
      assert.ok(inPlace.includes(file), inPlace.join(", "));
      assert.equal(Deno.readTextFileSync(join(dir.path, file)), OTHER_AGENTS[file], `${file} kept`);
    }
    assert.doesNotMatch(folderText(dir.path, ""), /answer in English|design tokens/);
    assertLands(
      dir.path,
      ".windsurf/rules/deploy.md",
      OTHER_AGENTS[".windsurf/rules/deploy.md"]!,
      "",
      true,
    );
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.handedOver, []);
  },
);

Deno.test(
  "--keep-originals keeps CLAUDE.md and reports the double loading; --dry-run and no --yes write nothing",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, MONOREPO);
    const plan = await runLibrarian(["import"], options);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^Next: librarian import --yes applies this plan\.$/m);
    assert.equal(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), MONOREPO["CLAUDE.md"]);
    assert.deepEqual(
      [...Deno.readDirSync(join(dir.path, "_memory_library"))].filter((e) =>
        e.isFile && !e.name.startsWith(".")
      ),
      [],
    );
    const kept = await runLibrarian(["import", "--yes", "--keep-originals"], options);
    assert.equal(kept.code, 0, kept.stderr);
    assert.equal(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), MONOREPO["CLAUDE.md"]);
    assert.match(kept.stdout, /^Loaded twice: CLAUDE\.md is kept \(--keep-originals\)/m);
    const lint = await runLibrarian(["lint", "--json"], options);
    const twice = JSON.parse(lint.stdout).findings.filter((f: { check: string }) =>
      f.check === "loaded-twice"
    );
    assert.deepEqual(
      twice.map((f: { message: string }) => f.message.split(":")[0]).sort(),
      ["CLAUDE.md", "docs/conventions.md", "packages/api/CLAUDE.md", "packages/web/CLAUDE.md"],
    );
    assert.match(twice[0].message, /\d+ characters Claude Code loads by itself/);
    assert.match(twice[0].fix, /librarian import .* --yes/);
    const doctor = await runLibrarian(["doctor"], options);
    assert.match(doctor.stdout, /characters are sent twice/);
    const handOver = await runLibrarian(["import", "--yes", "--hand-over"], options);
    assert.equal(handOver.code, 0, handOver.stderr);
    const after = await runLibrarian(["lint", "--json"], options);
    assert.ok(
      !JSON.parse(after.stdout).findings.some((f: { check: string }) => f.check === "loaded-twice"),
      "once handed over, nothing is loaded twice",
    );
  },
);

Deno.test("a single file and a folder of rules import on their own", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, AGENTS_AND_RULES);
  const one = await runLibrarian(
    ["import", "AGENTS.md", "--yes", "--json", "--hand-over"],
    options,
  );
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(JSON.parse(one.stdout).written, ["agents.md"]);
  const rules = await runLibrarian(
    ["import", ".cursor/rules", "--yes", "--json", "--hand-over"],
    options,
  );
  assert.equal(rules.code, 0, rules.stderr);
  const written = JSON.parse(rules.stdout).written as string[];
  assert.ok(!written.includes("src/billing/billing.md"), "read where it lies");
  assert.ok(written.includes(".on-demand/release.md"), written.join(", "));
  assert.equal(Deno.readTextFileSync(join(dir.path, "CLAUDE.md")), "@AGENTS.md\n", "not asked for");
});

Deno.test(
  "a likely secret costs its line, shown with its number; the marker above a line lets it through",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const token = ["gh", "p_", "R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u"].join("");
    const options = await project(dir.path, {
      "CLAUDE.md":
        `# Ops\n- deploy with make\n- CI token ${token}\n- staging password: Xk9;mQ2#vL8@pR4zz\n` +
        "<!-- librarian: not-a-secret -->\n- example: DB_PASSWORD=Tr0ub4dor&3x\n",
    });
    const result = await runLibrarian(["import", "--yes", "--hand-over"], options);
    assert.equal(result.code, 1, "held lines are a problem to fix");
    assert.match(
      result.stdout,
      /Held back from CLAUDE\.md: line 3 \(likely GitHub token\), line 4 \(likely password\)/,
    );
    const library = folderText(dir.path, "");
    assert.match(library, /deploy with make/);
    assert.match(library, /DB_PASSWORD=Tr0ub4dor&3x/, "the marked line is imported");
    assert.doesNotMatch(library, new RegExp(token));
    const stub = Deno.readTextFileSync(join(dir.path, "CLAUDE.md"));
    assert.match(stub, /handed over/);
    assert.ok(stub.includes(token), "a held line stays in the original, never lost");
  },
);

/** A flat memory bank that names services, not paths, with the code tree it describes. */
export const FLAT_BANK: Record<string, string> = {
  "memory-bank/techContext.md": "# Tech Context\n\n## Ledger service\n- double-entry only\n" +
    "- balances are cached for 5 minutes\n\n## Storefront app\n- pages render on the server\n\n" +
    "## Everywhere\n- all services log JSON\n",
  "memory-bank/systemPatterns.md": "# System Patterns\n\n1. validate\n2. persist\n3. publish\n",
  "services/ledger/package.json": '{ "name": "@acme/ledger" }\n',
  "services/ledger/index.ts": "export {};\n",
  "apps/storefront/package.json": '{ "name": "storefront" }\n',
  "apps/storefront/page.tsx": "export {};\n",
};

Deno.test(
  "a flat bank naming services: --suggest proposes their folders, --apply moves sections in one step",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, FLAT_BANK);
    assert.equal((await runLibrarian(["import", "--yes", "--hand-over"], options)).code, 0);
    const suggest = await runLibrarian(["import", "--suggest", "--json"], options);
    const proposals = JSON.parse(suggest.stdout).suggestions.map((s: { folder: string }) =>
      s.folder
    );
    assert.deepEqual(proposals, ["services/ledger", "apps/storefront"]);
    const apply = await runLibrarian(["import", "--apply"], options);
    assert.equal(apply.code, 0, apply.stderr);
    assertLands(
      dir.path,
      "memory-bank/techContext.md",
      "## Ledger service\n- double-entry only\n",
      "services/ledger",
    );
    assertLands(
      dir.path,
      "memory-bank/techContext.md",
      "## Storefront app\n- pages render on the server\n",
      "apps/storefront",
    );
    const root = folderText(dir.path, "");
    assert.doesNotMatch(root, /double-entry|render on the server/, "moved out of the root");
    assert.match(root, /all services log JSON/, "repo-wide text stays at the root");
    assert.match(root, /1\. validate\n2\. persist\n3\. publish/, "the numbered list is whole");
    assert.equal(Deno.readTextFileSync(join(dir.path, "_memory_library/.scratch.md")), "");
  },
);

Deno.test(
  "a CLAUDE.md that is not UTF-8 text is never replaced by a stub: its bytes stay as they were",
  {
    ignore: skipOnWindows("needs git"),
  },
  async () => {
    await using dir = await tempDir();
    const options = await project(dir.path, MONOREPO);
    // Latin-1: "café" and "naïve", not UTF-8
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode("# Monorepo\n- caf"),
      0xe9,
      ...new TextEncoder().encode(" is served at noon\n- na"),
      0xef,
      ...new TextEncoder().encode("ve rules stay\n"),
    ]);
    await Deno.writeFile(join(dir.path, "CLAUDE.md"), latin1);
    const result = await runLibrarian(["import", "--yes", "--hand-over", "--json"], options);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await Deno.readFile(join(dir.path, "CLAUDE.md")), latin1, "its text is kept");
    const report = JSON.parse(result.stdout);
    assert.ok(!(report.handedOver as string[]).includes("CLAUDE.md"), report.handedOver.join(", "));
    assert.ok((report.handedOver as string[]).includes("packages/web/CLAUDE.md"), "the others are");
    assert.match(JSON.stringify(report.entries), /"CLAUDE\.md"[^}]*skip-not-text/);
  },
);
