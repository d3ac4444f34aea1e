/**
 * Provenance comments: their format, parsing, stripping, and where the commit comes from.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  formatProvenance,
  isProvenanceLine,
  parseProvenance,
  provenanceLines,
  stripProvenance,
} from "../src/format/provenance.ts";
import { gitDirAbove, headCommit, packedRef } from "../src/git/head.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { tempDir } from "./helpers.ts";

Deno.test("the format: day, short commit, then the code files", () => {
  assert.equal(
    formatProvenance({
      day: "2026-11-30",
      commit: "a1b2c3d",
      files: ["src/api/billing/invoice.ts", "src/api/billing/tax.ts"],
    }),
    "<!-- librarian: 2026-11-30 a1b2c3d src/api/billing/invoice.ts src/api/billing/tax.ts -->",
  );
  assert.equal(
    formatProvenance({ day: "2026-11-30", files: [] }),
    "<!-- librarian: 2026-11-30 -->",
  );
  assert.equal(
    formatProvenance({
      day: "2026-11-30",
      commit: "a1b2c3d",
      origin: "auto-memory/deploy freeze.md",
      files: [],
    }),
    "<!-- librarian: 2026-11-30 a1b2c3d from:auto-memory/deploy%20freeze.md -->",
  );
});

Deno.test("every provenance survives a round trip, awkward paths included", () => {
  const cases = [
    { day: "2026-11-30", commit: "a1b2c3d", files: ["src/a.ts"] },
    {
      day: "2026-11-30",
      files: ["deadbeef", "from:x", "a b/c%d.ts", "x-->y.ts", "tab\there", "é/ü.ts"],
    },
    { day: "2026-01-02", commit: "0123456789abcdef0123456789abcdef01234567", files: [] },
    { day: "2026-01-02", origin: "import/CLAUDE.md", files: [] },
  ];
  for (const provenance of cases) {
    const line = formatProvenance(provenance);
    assert.ok(
      !/[\n\r]/.test(line) && line.endsWith(" -->") && line.indexOf("-->") === line.length - 3,
    );
    assert.deepEqual(parseProvenance(line), provenance, line);
  }
});

Deno.test("other librarian markers and ordinary comments are not provenance", () => {
  for (
    const line of [
      "<!-- librarian: not-a-secret -->",
      "<!-- librarian: kept in scratch: path '../x' has a '..' segment -->",
      "<!-- 2026-11-30 src/a.ts -->",
      "- <!-- librarian: 2026-11-30 --> inline",
      "<!-- librarian: 2026-13 -->",
    ]
  ) {
    assert.equal(isProvenanceLine(line), false, line);
  }
  assert.ok(isProvenanceLine("  <!--librarian: 2026-11-30 src/a.ts  -->  \r"));
});

Deno.test("stripping removes provenance lines only, outside code fences, and keeps everything else", () => {
  const text = [
    "# edge",
    "",
    "## Learnings (2026-11-30)",
    "",
    "<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->",
    "- A learning.",
    "<!-- librarian: not-a-secret -->",
    "```md",
    "<!-- librarian: 2026-11-30 shown as an example -->",
    "```",
    "<!-- librarian: 2026-11-30 from:auto-memory/x.md -->",
    "- Another.",
    "",
  ].join("\n");
  assert.equal(
    stripProvenance(text),
    [
      "# edge",
      "",
      "## Learnings (2026-11-30)",
      "",
      "- A learning.",
      "<!-- librarian: not-a-secret -->",
      "```md",
      "<!-- librarian: 2026-11-30 shown as an example -->",
      "```",
      "- Another.",
      "",
    ].join("\n"),
  );
  const plain = "# tech\n- nothing to strip\n";
  assert.equal(stripProvenance(plain), plain);
  assert.deepEqual(provenanceLines(text).map((p) => [p.line, p.provenance.files]), [
    [5, ["src/a.ts"]],
    [11, []],
  ]);
});

Deno.test({
  name:
    "the commit: none outside git; HEAD of a real repository, a worktree, packed and detached refs",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const plain = join(dir.path, "plain");
    await Deno.mkdir(join(plain, "deep", "er"), { recursive: true });
    assert.equal(
      headCommit(join(plain, "deep", "er")),
      gitDirAbove(plain) === null ? undefined : headCommit(plain),
    );
    const repo = join(dir.path, "repo");
    await Deno.mkdir(join(repo, "src"), { recursive: true });
    await gitInit(repo);
    await Deno.writeTextFile(join(repo, "src", "a.ts"), "export {};\n");
    await commitAll(repo, "first");
    const head = (await gitOk(repo, "rev-parse", "HEAD")).trim();
    assert.equal(headCommit(join(repo, "src")), head.slice(0, 7));

    await gitOk(repo, "pack-refs", "--all");
    assert.equal(headCommit(repo), head.slice(0, 7), "packed refs");

    const worktree = join(dir.path, "wt");
    await gitOk(repo, "worktree", "add", "-q", "-b", "side", worktree);
    await Deno.writeTextFile(join(worktree, "b.ts"), "export {};\n");
    await commitAll(worktree, "second");
    const side = (await gitOk(worktree, "rev-parse", "HEAD")).trim();
    assert.notEqual(side, head);
    assert.equal(headCommit(worktree), side.slice(0, 7), "a worktree's own HEAD");

    await gitOk(repo, "checkout", "-q", "--detach", head);
    assert.equal(headCommit(repo), head.slice(0, 7), "detached HEAD");
  },
});

Deno.test("packed-refs lines are matched by exact ref name", () => {
  const packed = "# pack-refs with: peeled\n" +
    "1111111111111111111111111111111111111111 refs/heads/main-2\n" +
    "2222222222222222222222222222222222222222 refs/heads/main\n^3333333333333333333333333333333333333333\n";
  assert.equal(packedRef(packed, "refs/heads/main"), "2".repeat(40));
  assert.equal(packedRef(packed, "refs/heads/nope"), null);
});
