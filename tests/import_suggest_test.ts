/**
 * `import --suggest` (`src/commands/import/suggest.ts`), in process: root learnings that name
 * code paths are proposed for the mirror folder of that code, numbered, and moved without loss.
 */
import assert from "node:assert/strict";
import {
  type PathKind,
  scratchBlockOf,
  splitUnits,
  suggestMoves,
  withoutUnit,
} from "../src/commands/import/suggest.ts";

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

Deno.test("a move takes out exactly its unit and becomes a scratch block for that folder", () => {
  const text = "# t\n- keep\n- src/db note\n  continued\n- keep too\n";
  const [s] = suggestMoves([{ file: "tech.md", text }], kindOf);
  assert.equal(withoutUnit(text, s!), "# t\n- keep\n- keep too\n");
  assert.equal(scratchBlockOf(s!), "## [TAG: src/db, type: tech]\n- src/db note\n  continued\n");
  assert.equal(withoutUnit("# t\n", s!), null, "an edited file that lost the unit is not cut");
  assert.deepEqual(splitUnits("```\n- in code\n```\n"), [], "code blocks are never moved");
});
