/**
 * Staleness: learnings whose code files were deleted, renamed or heavily changed since the commit
 * their provenance names. Pure rules first, then `librarian lint` on real git repositories.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type HistoryCommit,
  parseHistory,
  parseRawNumstat,
  unquotePath,
} from "../src/git/history.ts";
import {
  digestQuestions,
  type Learning,
  MIN_HEAVY_LINES,
  staleLearnings,
  type StalenessInput,
} from "../src/git/staleness.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";

const h = (n: number) => String(n).repeat(40).slice(0, 40);

function learning(commit: string | undefined, ...files: string[]): Learning {
  return {
    file: "src/edge.md",
    line: 3,
    provenance: { day: "2026-11-30", ...(commit ? { commit: commit.slice(0, 7) } : {}), files },
  };
}

function input(partial: Partial<StalenessInput>): StalenessInput {
  const history = partial.history ?? [];
  return {
    learnings: [],
    resolved: new Map(history.map((c) => [c.hash.slice(0, 7), c.hash])),
    history,
    uncommitted: [],
    exists: () => true,
    lineCount: () => 100,
    changeRatio: 0.5,
    ...partial,
  };
}

// 1 ← 2 ← 3 (HEAD), newest first
const LINEAR: HistoryCommit[] = [
  {
    hash: h(3),
    parents: [h(2)],
    changes: [{ status: "R", from: "src/b.ts", path: "lib/b.ts", lines: 2 }],
  },
  {
    hash: h(2),
    parents: [h(1)],
    changes: [{ status: "D", path: "src/gone.ts", lines: 10 }, {
      status: "M",
      path: "src/a.ts",
      lines: 60,
    }],
  },
  { hash: h(1), parents: [], changes: [{ status: "M", path: "src/a.ts", lines: 5 }] },
];

Deno.test("only changes after the learning's commit count: deleted, renamed, heavily changed", () => {
  const stale = staleLearnings(input({
    history: LINEAR,
    learnings: [learning(h(1), "src/a.ts", "src/gone.ts", "src/b.ts", "src/untouched.ts")],
  }));
  assert.equal(stale.length, 1);
  assert.deepEqual(stale[0]!.fates, [
    { kind: "changed", source: "src/a.ts", lines: 60, of: 100 },
    { kind: "deleted", source: "src/gone.ts", path: "src/gone.ts" },
    { kind: "renamed", source: "src/b.ts", to: "lib/b.ts" },
  ]);
  const later = staleLearnings(
    input({ history: LINEAR, learnings: [learning(h(2), "src/a.ts", "src/gone.ts")] }),
  );
  assert.deepEqual(later, [], "changes made at or before its commit were counted");
  assert.deepEqual(
    staleLearnings(input({ history: LINEAR, learnings: [learning(h(3), "src/b.ts")] })),
    [],
  );
});

Deno.test("a heavy change is a share of the file's lines, never fewer than the minimum", () => {
  const small: HistoryCommit[] = [
    {
      hash: h(2),
      parents: [h(1)],
      changes: [{ status: "M", path: "a.ts", lines: MIN_HEAVY_LINES - 1 }],
    },
    { hash: h(1), parents: [], changes: [] },
  ];
  const tiny = input({ history: small, lineCount: () => 4, learnings: [learning(h(1), "a.ts")] });
  assert.deepEqual(staleLearnings(tiny), []);
  const big = input({
    history: LINEAR,
    lineCount: () => 1000,
    learnings: [learning(h(1), "src/a.ts")],
  });
  assert.deepEqual(staleLearnings(big), [], "60 of 1000 lines is not heavy");
  assert.deepEqual(
    staleLearnings({ ...big, lineCount: () => 100, changeRatio: 0 }),
    [],
    "0 turns it off",
  );
});

Deno.test("renames are followed, then uncommitted changes; a deleted then re-added file is changed, not deleted", () => {
  const history: HistoryCommit[] = [
    { hash: h(4), parents: [h(3)], changes: [{ status: "A", path: "x.ts", lines: 30 }] },
    { hash: h(3), parents: [h(2)], changes: [{ status: "D", path: "x.ts", lines: 30 }] },
    {
      hash: h(2),
      parents: [h(1)],
      changes: [{ status: "R", from: "a.ts", path: "b.ts", lines: 0 }],
    },
    { hash: h(1), parents: [], changes: [] },
  ];
  const stale = staleLearnings(input({
    history,
    uncommitted: [{ status: "R", from: "b.ts", path: "c.ts", lines: 0 }],
    learnings: [learning(h(1), "a.ts", "x.ts")],
    lineCount: () => 40,
  }));
  assert.deepEqual(stale[0]!.fates, [
    { kind: "renamed", source: "a.ts", to: "c.ts" },
    { kind: "changed", source: "x.ts", lines: 60, of: 40 },
  ]);
});

Deno.test("a file created after the learning's commit (in the turn that filed it) counts from its creation, not as rewritten", () => {
  // 1 (learning: the turn created new.ts, uncommitted then) ← 2 adds new.ts ← 3 edits 2 lines
  const history: HistoryCommit[] = [
    { hash: h(3), parents: [h(2)], changes: [{ status: "M", path: "new.ts", lines: 2 }] },
    { hash: h(2), parents: [h(1)], changes: [{ status: "A", path: "new.ts", lines: 120 }] },
    { hash: h(1), parents: [], changes: [] },
  ];
  const fresh = input({ history, lineCount: () => 120, learnings: [learning(h(1), "new.ts")] });
  assert.deepEqual(staleLearnings(fresh), [], "its creation is what the learning saw");
  assert.deepEqual(
    staleLearnings({
      ...fresh,
      history: [],
      uncommitted: [{ status: "A", path: "new.ts", lines: 120 }],
    }),
    [],
    "added, not committed yet",
  );
  const rewritten: HistoryCommit[] = [
    { hash: h(4), parents: [h(3)], changes: [{ status: "M", path: "new.ts", lines: 100 }] },
    ...history,
  ];
  assert.deepEqual(
    staleLearnings({ ...fresh, history: rewritten })[0]?.fates,
    [{ kind: "changed", source: "new.ts", lines: 102, of: 120 }],
    "what changed after its creation still counts",
  );
});

Deno.test("a file the turn rewrote is judged from the commit that holds what the learning saw (its digest)", () => {
  // 1 (learning; the turn rewrote big.ts, uncommitted) ← 2 commits that rewrite ← 3 edits 2 lines
  const history: HistoryCommit[] = [
    { hash: h(3), parents: [h(2)], changes: [{ status: "M", path: "big.ts", lines: 2 }] },
    { hash: h(2), parents: [h(1)], changes: [{ status: "M", path: "big.ts", lines: 120 }] },
    { hash: h(1), parents: [], changes: [] },
  ];
  const provenance = { day: "2026-12-01", commit: h(1).slice(0, 7), files: ["big.ts"] };
  const seen = { file: "x.md", line: 3, provenance: { ...provenance, digests: ["0a1b2c3d"] } };
  const base = input({ history, lineCount: () => 60, learnings: [seen] });
  const stale = staleLearnings(base);
  assert.deepEqual(stale[0]?.fates, [{ kind: "changed", source: "big.ts", lines: 122, of: 60 }]);
  assert.deepEqual(digestQuestions(stale, history), [[h(3), "big.ts"], [h(2), "big.ts"]]);
  const digestAt = (commit: string) => commit === h(2) ? "0a1b2c3d" : "ffffffff";
  assert.deepEqual(staleLearnings({ ...base, digestAt }), [], "2 lines since what it saw");
  const blind = { file: "x.md", line: 9, provenance };
  assert.equal(
    staleLearnings({ ...base, digestAt, learnings: [blind] }).length,
    1,
    "no digest recorded: judged from its commit",
  );
});

Deno.test("a side branch merged after the learning counts; commits before it on another branch do not", () => {
  // 1 ← 2 (learning) ← 4 (merge of 3) ; 1 ← 3 (side, renames s.ts)
  const history: HistoryCommit[] = [
    { hash: h(4), parents: [h(2), h(3)], changes: [] },
    {
      hash: h(3),
      parents: [h(1)],
      changes: [{ status: "R", from: "s.ts", path: "t.ts", lines: 0 }],
    },
    { hash: h(2), parents: [h(1)], changes: [] },
    { hash: h(1), parents: [], changes: [{ status: "D", path: "s.ts", lines: 1 }] },
  ];
  const stale = staleLearnings(input({ history, learnings: [learning(h(2), "s.ts")] }));
  assert.deepEqual(stale[0]!.fates, [{ kind: "renamed", source: "s.ts", to: "t.ts" }]);
});

Deno.test("without a known commit only the working tree counts; a learning with no files is never stale", () => {
  const stale = staleLearnings(input({
    history: LINEAR,
    exists: (p) => p !== "src/missing.ts",
    learnings: [
      learning(undefined, "src/a.ts", "src/missing.ts"),
      learning("abcdef0", "src/gone.ts"),
      learning(h(1)),
    ],
  }));
  assert.deepEqual(stale.map((s) => s.fates), [[{
    kind: "deleted",
    source: "src/missing.ts",
    path: "src/missing.ts",
  }]]);
});

Deno.test("git output parsing: raw and numstat zipped, renames, binary files, quoted paths", () => {
  const changes = parseRawNumstat([
    ":100644 100644 190423f ba9a5ce M\tsrc/api/a.ts",
    ":100644 100644 96cc558 96cc558 R100\tsrc/old/b.ts\tsrc/new/b.ts",
    ':100644 000000 587be6b 0000000 D\t"src/tab\\there.ts"',
    "1\t2\tsrc/api/a.ts",
    "0\t0\tsrc/{old => new}/b.ts",
    '-\t-\t"src/tab\\there.ts"',
  ]);
  assert.deepEqual(changes, [
    { status: "M", path: "src/api/a.ts", lines: 3 },
    { status: "R", from: "src/old/b.ts", path: "src/new/b.ts", lines: 0 },
    { status: "D", path: "src/tab\there.ts", lines: 0 },
  ]);
  assert.equal(unquotePath('"\\303\\251t\\303\\251.ts"'), "été.ts");
  const history = parseHistory(
    `\x1e${h(2)} ${h(1)}\n\n:100644 100644 a b M\tx.ts\n5\t5\tx.ts\n\x1e${h(1)} \n`,
  );
  assert.deepEqual(history, [
    { hash: h(2), parents: [h(1)], changes: [{ status: "M", path: "x.ts", lines: 10 }] },
    { hash: h(1), parents: [], changes: [] },
  ]);
});

// ---------------------------------------------------------------------------------------------
// `librarian lint` on a real repository.

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `// ${tag} ${i}`).join("\n") + "\n";

async function lintJson(cwd: string, ...args: string[]) {
  const result = await runLibrarian(["lint", "--json", ...args], { cwd });
  return { code: result.code, report: JSON.parse(result.stdout) };
}

Deno.test({
  name:
    "lint on a real repository: deleted, renamed (with the new path), heavily changed, untouched",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const root = dir.path;
    await gitInit(root);
    await writeTree(root, {
      "src/api/heavy.ts": lines(40, "v1"),
      "src/api/light.ts": lines(40, "v1"),
      "src/api/gone.ts": "export {};\n",
      "src/api/moves.ts": lines(10, "m"),
      "_memory_library/.scratch.md": "",
    });
    await commitAll(root, "code");
    const commit = (await gitOk(root, "rev-parse", "--short=7", "HEAD")).trim();
    const prov = (files: string) => `<!-- librarian: 2026-11-30 ${commit} ${files} -->`;
    await writeTree(root, {
      "_memory_library/src/api/edge.md": [
        "# edge",
        "",
        "## Learnings (2026-11-30)",
        "",
        prov("src/api/heavy.ts"),
        "- HEAVY: about the heavy file.",
        prov("src/api/light.ts"),
        "- LIGHT: about a file barely touched.",
        prov("src/api/gone.ts src/api/moves.ts"),
        "- GONE-AND-MOVED: about two files.",
        "",
      ].join("\n"),
    });
    await commitAll(root, "learnings");
    await Deno.writeTextFile(join(root, "src/api/heavy.ts"), lines(40, "v2"));
    await Deno.writeTextFile(join(root, "src/api/light.ts"), lines(39, "v1") + "// changed\n");
    await gitOk(root, "rm", "-q", "src/api/gone.ts");
    await Deno.mkdir(join(root, "src/core"));
    await gitOk(root, "mv", "src/api/moves.ts", "src/core/moved.ts");
    await commitAll(root, "refactor");

    const { code, report } = await lintJson(root);
    assert.equal(code, 1);
    assert.equal(report.git, "ok");
    assert.equal(report.checked.learnings, 3);
    const found = report.findings.map((
      f: Record<string, unknown>,
    ) => [f.check, f.path, f.line, f.source, f.renamedTo]);
    assert.deepEqual(found, [
      ["source-deleted", "src/api/edge.md", 10, "src/api/gone.ts", undefined],
      ["source-renamed", "src/api/edge.md", 10, "src/api/moves.ts", "src/core/moved.ts"],
      ["source-changed", "src/api/edge.md", 6, "src/api/heavy.ts", undefined],
    ]);
    for (const f of report.findings) {
      assert.ok(f.commit?.startsWith(commit), "the finding names the learning's commit");
      assert.ok(f.message.includes(commit));
    }
    const text = await runLibrarian(["lint"], { cwd: root });
    assert.match(
      text.stdout,
      /source-renamed\s+_memory_library\/src\/api\/edge\.md:10 is about src\/api\/moves\.ts, which was renamed to src\/core\/moved\.ts since/,
    );
    const relaxed = await lintJson(root, "--change-threshold", "0");
    assert.deepEqual(relaxed.report.findings.map((f: { check: string }) => f.check), [
      "source-deleted",
      "source-renamed",
    ]);
    const bad = await runLibrarian(["lint", "--change-threshold", "150"], { cwd: root });
    assert.equal(bad.code, 2);
  },
});

Deno.test({
  name: "uncommitted deletions count, and outside git a missing source is still reported",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const root = dir.path;
    await writeTree(root, {
      "src/a.ts": "export {};\n",
      "_memory_library/src/edge.md":
        "<!-- librarian: 2026-11-30 src/a.ts src/never.ts -->\n- A learning.\n",
    });
    const plain = await lintJson(root);
    assert.equal(plain.report.git, "not-a-repository");
    assert.deepEqual(
      plain.report.findings.map((f: { check: string; source: string }) => [f.check, f.source]),
      [
        ["source-deleted", "src/never.ts"],
      ],
    );
    await gitInit(root);
    await commitAll(root, "all");
    await Deno.remove(join(root, "src/a.ts"));
    const git = await lintJson(root);
    assert.deepEqual(
      git.report.findings.map((f: { check: string; source: string }) => [f.check, f.source]),
      [
        ["source-deleted", "src/a.ts"],
        ["source-deleted", "src/never.ts"],
      ],
    );
  },
});

Deno.test({
  name:
    "lint --fix moves a library folder after its code folder was renamed (git mv), never deletes",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const root = dir.path;
    await gitInit(root);
    await writeTree(root, {
      "src/billing/invoice.ts": lines(12, "invoice"),
      "src/billing/tax.ts": lines(12, "tax"),
      "src/keep/a.ts": "export {};\n",
      "src/taken/b.ts": "export {};\n",
      "_memory_library/src/billing/edge.md": "# edge\n- BILLING-LEARNING: rounding once.\n",
      "_memory_library/src/taken/edge.md": "# edge\n- TAKEN-LEARNING\n",
      "_memory_library/src/payments/edge.md": "# edge\n- ALREADY-THERE\n",
    });
    await commitAll(root, "code");
    await gitOk(root, "mv", "src/billing", "src/money");
    await gitOk(root, "mv", "src/taken", "src/payments");
    await commitAll(root, "rename");

    const before = await lintJson(root);
    assert.deepEqual(
      before.report.findings.filter((f: { check: string }) => f.check === "stale-folder").map((
        f: { path: string; movedTo: string },
      ) => [f.path, f.movedTo]),
      [["src/billing/", "src/money"], ["src/taken/", "src/payments"]],
    );
    const { code, report } = await lintJson(root, "--fix");
    assert.deepEqual(report.fixed, [
      { from: "src/billing", to: "src/money", how: "git mv" },
      {
        from: "src/taken",
        to: "src/payments",
        how: "skipped",
        why: "src/payments/ already exists: merge the files by hand",
      },
    ]);
    assert.equal(code, 1, "the folder that could not be moved is still reported");
    assert.deepEqual(report.findings.map((f: { path: string }) => f.path), ["src/taken/"]);
    assert.equal(
      await Deno.readTextFile(join(root, "_memory_library/src/money/edge.md")),
      "# edge\n- BILLING-LEARNING: rounding once.\n",
    );
    assert.match(
      await gitOk(root, "status", "--porcelain"),
      /^R {2}_memory_library\/src\/billing\/edge\.md -> _memory_library\/src\/money\/edge\.md$/m,
    );
    assert.equal(
      await Deno.readTextFile(join(root, "_memory_library/src/taken/edge.md")),
      "# edge\n- TAKEN-LEARNING\n",
    );
  },
});
