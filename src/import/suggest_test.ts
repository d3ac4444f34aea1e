/**
 * `import --suggest` (`src/import/suggest.ts`), in process: root learnings that name
 * code paths are proposed for the mirror folder of that code, numbered, and moved without loss.
 */
import assert from "node:assert/strict";
import { movedTextOf, type PathKind, splitUnits, suggestMoves, withoutUnit } from "./suggest.ts";

const tree: Record<string, PathKind> = {
  "src": "dir",
  "src/api": "dir",
  "src/api/a.ts": "file",
  "src/api/b.ts": "file",
  "src/db": "dir",
  "README.md": "file",
};
const kindOf = (path: string): PathKind => tree[path] ?? null;

Deno.test("a learning naming files of one folder is proposed for that folder", () => {
  const text = "# patterns\n- `src/api/a.ts` and src/api/b.ts share a retry\n- general advice\n";
  const [s, ...rest] = suggestMoves([{ file: "patterns.md", text }], kindOf);
  assert.deepEqual(rest, []);
  assert.equal(s!.n, 1);
  assert.equal(s!.folder, "src/api");
  assert.equal(s!.line, 2);
  assert.deepEqual(s!.mentions, ["src/api/a.ts", "src/api/b.ts"]);
});

Deno.test("paths that do not exist, or only root files, suggest nothing", () => {
  const text = "- see src/gone/x.ts\n- see README.md\n";
  assert.deepEqual(suggestMoves([{ file: "tech.md", text }], kindOf), []);
});

Deno.test("learnings naming two folders go to the folder they share", () => {
  const text = "- src/api/a.ts calls src/db\n";
  assert.equal(suggestMoves([{ file: "tech.md", text }], kindOf)[0]?.folder, "src");
});

Deno.test("suggestions are numbered across files in order", () => {
  const files = [
    { file: "a.md", text: "- src/db is slow\n" },
    { file: "b.md", text: "- src/api/a.ts\n- src/db\n" },
  ];
  assert.deepEqual(suggestMoves(files, kindOf).map((s) => [s.n, s.file, s.line]), [
    [1, "a.md", 1],
    [2, "b.md", 1],
    [3, "b.md", 2],
  ]);
});

Deno.test("a move takes out exactly its unit and carries its heading to the folder", () => {
  const text = "# t\n- keep\n- src/db note\n  continued\n- keep too\n";
  const [s] = suggestMoves([{ file: "tech.md", text }], kindOf);
  assert.equal(withoutUnit(text, s!), "# t\n- keep\n- keep too\n");
  assert.equal(movedTextOf(s!), "# t\n- src/db note\n  continued\n");
  assert.equal(withoutUnit("# t\n", s!), null, "an edited file that lost the unit is not cut");
  assert.deepEqual(splitUnits("```\n- in code\n```\n"), [], "code blocks are never moved");
});

Deno.test("a bank naming services gets sections moved whole; lists, front matter and repo-wide text stay", () => {
  const names = new Map([["billing", "services/billing"], ["checkout", "apps/checkout"]]);
  const dirs = new Set(["services/billing", "apps/checkout", ".claude/rules"]);
  const kind = (p: string): PathKind => dirs.has(p) ? "dir" : null;
  const text = [
    "---",
    "priority: always",
    "---",
    "# Tech",
    "## Billing service",
    "- retries twice",
    "## Release",
    "1. bump the version in the checkout app",
    "2. tag and push",
    "## Logging",
    "- all services log JSON; checkout app and billing service too",
    "- the checkout app renders on the server",
    "- rules live in `.claude/rules`",
    "",
  ].join("\n");
  const moves = suggestMoves([{ file: "tech.md", text }], kind, names);
  assert.deepEqual(moves.map((m) => [m.line, m.folder]), [
    [5, "services/billing"],
    [8, "apps/checkout"],
    [12, "apps/checkout"],
  ]);
  assert.equal(moves[0]!.raw, "## Billing service\n- retries twice\n");
  assert.equal(
    moves[1]!.raw,
    "1. bump the version in the checkout app\n2. tag and push\n",
    "a list moves whole",
  );
  assert.equal(movedTextOf(moves[2]!), "## Logging\n- the checkout app renders on the server\n");
  assert.ok(!moves.some((m) => /priority|all services|\.claude/.test(m.raw)));
});
