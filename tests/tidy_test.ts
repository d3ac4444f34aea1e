/**
 * `librarian tidy`: the plan (pure, deterministic) and applying it. Property: whatever the
 * library, applying the plan never loses a learning and never changes a learning's text (an
 * exact duplicate removed has its copy still in the library); then the command, on a real library.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { applyTidy, planTidy, type TidyFile } from "../src/commands/tidy/tidy_plan.ts";
import { learningsOf } from "../src/format/learnings.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const FOLDERS = ["", "src", "src/api", "src/api/billing", "web"];
const CODE = [
  "src/a.ts",
  "src/api/b.ts",
  "src/api/billing/c.ts",
  "src/api/billing/d.ts",
  "web/e.ts",
  "gone/f.ts",
];

const learningText = fc.oneof(
  fc.constantFrom(
    "Rounding happens once",
    "rounding happens once!",
    "Handlers return early",
    "Use UTC",
  ),
  fc.stringMatching(/^[A-Za-z][a-z ]{0,60}[a-z]$/),
).map((t) => t.replace(/\s+/g, " "));

const block = fc.record({
  cited: fc.subarray(CODE, { maxLength: 3 }),
  items: fc.array(
    fc.record({ text: learningText, long: fc.nat(400), cont: fc.boolean() }),
    { minLength: 1, maxLength: 3 },
  ),
});

interface Block {
  cited: string[];
  items: { text: string; long: number; cont: boolean }[];
}

function render(name: string, blocks: Block[]): string {
  const out = [`# ${name}`, "", "## Learnings (2026-11-30)", ""];
  for (const b of blocks) {
    out.push(`<!-- librarian: 2026-11-30 a1b2c3d${b.cited.map((c) => ` ${c}`).join("")} -->`);
    for (const item of b.items) {
      out.push(`- ${item.text}${" pad".repeat(item.long >> 3)}`);
      if (item.cont) out.push("  and a second line.");
    }
  }
  return out.join("\n") + "\n";
}

const library = fc.array(
  fc.record({ folder: fc.constantFrom(...FOLDERS), blocks: fc.array(block, { maxLength: 6 }) }),
  { minLength: 1, maxLength: 5 },
).map((entries) => {
  const files = new Map<string, TidyFile>();
  for (const e of entries) {
    const relPath = e.folder === "" ? "patterns.md" : `${e.folder}/patterns.md`;
    files.set(relPath, { relPath, text: render("patterns", e.blocks) });
  }
  return [...files.values()];
});

function folderOf(relPath: string): string {
  return relPath.includes("/") ? relPath.slice(0, relPath.lastIndexOf("/")) : "";
}

function isAtOrAbove(above: string, folder: string): boolean {
  return above === "" || above === folder || folder.startsWith(`${above}/`);
}

/** Every learning's lines, as one string each, with where it is. */
function learnings(files: readonly TidyFile[]): { text: string; key: string }[] {
  return files.flatMap((f) =>
    learningsOf(f.text).filter((u) => u.key !== "").map((u) => ({
      text: u.lines.join("\n"),
      key: u.key,
    }))
  );
}

Deno.test("applying a tidy plan never loses a learning and never changes one's text", () => {
  fc.assert(
    fc.property(library, fc.integer({ min: 300, max: 3000 }), (files, budget) => {
      const plan = planTidy(files, {
        budget,
        codeFolderExists: (dir) => !dir.startsWith("gone"),
      });
      const after = applyTidy(files, plan);
      const result = files.map((f) => ({
        relPath: f.relPath,
        text: after.get(f.relPath) ?? f.text,
      }));
      for (const [relPath, text] of after) {
        if (!files.some((f) => f.relPath === relPath)) result.push({ relPath, text });
      }
      const before = learnings(files);
      const now = learnings(result);
      const count = (list: { text: string }[]) => {
        const m = new Map<string, number>();
        for (const l of list) m.set(l.text, (m.get(l.text) ?? 0) + 1);
        return m;
      };
      const b = count(before);
      const a = count(now);
      // every learning text still there (as often as before, less only the duplicates removed)
      for (const [text, n] of b) {
        const left = a.get(text) ?? 0;
        const dropped = plan.drops.filter((d) => {
          const f = files.find((x) => x.relPath === d.file)!;
          return f.text.split("\n").slice(d.line - 1, d.endLine).join("\n") === text;
        }).length;
        assert.equal(left, n - dropped, `learning text count: ${text}`);
      }
      // nothing new made up, and every removed duplicate's normal form is still there
      for (const text of a.keys()) assert.ok(b.has(text), `new text: ${text}`);
      const keys = new Set(now.map((l) => l.key));
      for (const d of plan.drops) {
        const f = files.find((x) => x.relPath === d.file)!;
        const unit = learningsOf(f.text).find((u) => u.line === d.line)!;
        assert.ok(keys.has(unit.key), "a removed duplicate's copy stays");
      }
      // a removed duplicate is still sent where its copy was meant to be: to its own folder, or
      // (a learning that was moving down) to the folder of the code it cites
      const servedAt = (key: string, folder: string) =>
        result.some((f) =>
          isAtOrAbove(folderOf(f.relPath), folder) &&
          learningsOf(f.text).some((u) => u.key === key)
        );
      for (const d of plan.drops) {
        const f = files.find((x) => x.relPath === d.file)!;
        const unit = learningsOf(f.text).find((u) => u.line === d.line)!;
        const cited = unit.provenance?.provenance.files ?? [];
        assert.ok(
          servedAt(unit.key, folderOf(d.file)) ||
            (cited.length > 0 && cited.every((c) => servedAt(unit.key, folderOf(c)))),
          `a removed duplicate is still sent where it was: ${unit.key}`,
        );
      }
      // each moved learning keeps its provenance: the comment above it names the same files
      for (const m of plan.moves) {
        const target = result.find((f) => f.relPath === m.to)!;
        const moved = files.find((x) => x.relPath === m.file)!.text.split("\n")
          .slice(m.line - 1, m.endLine).join("\n");
        const unit = learningsOf(target.text).find((u) => u.lines.join("\n") === moved);
        assert.equal(unit?.provenance?.text, m.provenance);
      }
      // deterministic
      assert.deepEqual(
        planTidy(files, { budget, codeFolderExists: (d) => !d.startsWith("gone") }),
        plan,
      );
    }),
    { numRuns: 300 },
  );
});

Deno.test("a learning moving down into a folder that already has it goes, instead of arriving twice", () => {
  const pad = " pad".repeat(40);
  const files: TidyFile[] = [
    {
      relPath: "patterns.md",
      text: "# patterns\n\n## Learnings (2026-11-30)\n\n" +
        `<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->\n- Use UTC${pad}\n` +
        `<!-- librarian: 2026-11-30 a1b2c3d -->\n- Rounding happens once${pad}\n`,
    },
    {
      relPath: "src/patterns.md",
      text:
        `# patterns\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 a1b2c3d -->\n- Use UTC${pad}\n`,
    },
  ];
  const plan = planTidy(files, { budget: 300, codeFolderExists: () => true });
  assert.deepEqual(plan.moves, []);
  assert.deepEqual(plan.drops.map((d) => [d.file, d.line, d.sameAs.file, d.sameAs.line]), [
    ["patterns.md", 6, "src/patterns.md", 6],
  ]);
  const after = applyTidy(files, plan);
  assert.equal(after.get("src/patterns.md"), undefined, "src/patterns.md is left as it is");
  assert.doesNotMatch(after.get("patterns.md")!, /Use UTC/);
});

Deno.test("a copy is not dropped as a duplicate of one that moves away from above it", () => {
  const pad = " pad".repeat(40);
  const files: TidyFile[] = [
    {
      relPath: "patterns.md",
      text: "# patterns\n\n## Learnings (2026-11-30)\n\n" +
        `<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->\n- Use UTC${pad}\n`,
    },
    {
      relPath: "web/patterns.md",
      text:
        `# patterns\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 a1b2c3d -->\n- Use UTC${pad}\n`,
    },
  ];
  const plan = planTidy(files, { budget: 200, codeFolderExists: () => true });
  assert.deepEqual(plan.moves.map((m) => [m.file, m.to]), [["patterns.md", "src/patterns.md"]]);
  assert.deepEqual(plan.drops, [], "web keeps its copy: the root's moves to src/");
});

Deno.test("tidy proposes, --json lists, and --apply moves learnings down and drops exact duplicates", async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "proj");
  const long = " — with the reasons spelled out at some length".repeat(40);
  await writeTree(root, {
    "src/api/billing/invoice.ts": "",
    "src/api/h.ts": "",
    "_memory_library/src/api/patterns.md":
      "# patterns\n\nHand-written top.\n\n## Learnings (2026-11-30)\n\n" +
      "<!-- librarian: 2026-11-30 src/api/billing/invoice.ts -->\n- Invoices round once" + long +
      "\n\n" +
      "<!-- librarian: 2026-11-30 src/api/h.ts -->\n- Handlers return early.\n- handlers return early\n",
  });
  const env = { LIBRARIAN_BUDGET: "1000", LIBRARIAN_STATE_DIR: join(dir.path, "state") };
  const proposed = await runLibrarian(["tidy"], { cwd: root, env });
  assert.equal(proposed.code, 0, proposed.stderr);
  assert.match(proposed.stdout, /src\/api\/patterns\.md: \d+ characters, over its fair share/);
  assert.match(proposed.stdout, /move src\/api\/patterns\.md:8 → src\/api\/billing\/patterns\.md/);
  assert.match(
    proposed.stdout,
    /remove src\/api\/patterns\.md:12 \(the same as src\/api\/patterns\.md:11\)/,
  );
  const json = JSON.parse((await runLibrarian(["tidy", "--json"], { cwd: root, env })).stdout);
  assert.equal(json.applied, false);
  assert.deepEqual(json.moves.map((m: { to: string }) => m.to), ["src/api/billing/patterns.md"]);
  const before = await Deno.readTextFile(join(root, "_memory_library/src/api/patterns.md"));
  assert.ok(before.includes("Invoices round once"), "a proposal changes nothing");
  const applied = await runLibrarian(["tidy", "--apply", "--json"], { cwd: root, env });
  assert.equal(applied.code, 0, applied.stderr);
  assert.deepEqual(JSON.parse(applied.stdout).changed, [
    "src/api/billing/patterns.md",
    "src/api/patterns.md",
  ]);
  assert.equal(
    await Deno.readTextFile(join(root, "_memory_library/src/api/patterns.md")),
    "# patterns\n\nHand-written top.\n\n## Learnings (2026-11-30)\n\n" +
      "<!-- librarian: 2026-11-30 src/api/h.ts -->\n- Handlers return early.\n",
  );
  assert.equal(
    await Deno.readTextFile(join(root, "_memory_library/src/api/billing/patterns.md")),
    "# patterns\n\n## Learnings (2026-11-30)\n\n" +
      "<!-- librarian: 2026-11-30 src/api/billing/invoice.ts -->\n- Invoices round once" + long +
      "\n",
  );
  const again = await runLibrarian(["tidy"], { cwd: root, env });
  assert.doesNotMatch(again.stdout, /^ {2}(move|remove) /m, "a second run has nothing left to do");
  assert.match(again.stdout, /Nothing moves mechanically: '\/librarian-curate <folder>'/);
});
