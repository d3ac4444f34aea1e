/**
 * The import page (docs/import.md, linked from the README's import section) says what
 * `librarian import --help` says: every option, and the command line the README's table gives
 * parses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SPEC } from "../src/import/import.ts";
import { REPO_ROOT } from "./helpers.ts";

const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));
const importPage = Deno.readTextFileSync(join(REPO_ROOT, "docs", "import.md"));

Deno.test("the import page names every option of import --help, and the README links to it", () => {
  const start = readme.indexOf("## Move your agent memory in");
  assert.ok(start > 0, "the README has an import section");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  assert.match(
    section,
    /\(docs\/import\.md\)/,
    "the README's import section links the import page",
  );
  assert.ok(
    importPage.startsWith("# Move your agent memory in\n"),
    "docs/import.md is the import page",
  );
  for (const option of Object.keys(SPEC.options)) {
    assert.match(importPage, new RegExp(`--${option}\\b`), `--${option} on the import page`);
  }
  const row = readme.split("\n").find((l) => l.startsWith("| `librarian import"));
  assert.ok(row, "the command table has import");
  const usage = row.slice(row.indexOf("`") + 1, row.indexOf("`", row.indexOf("`") + 1))
    .replaceAll("\\|", "|");
  assert.ok(
    SPEC.synopsis.startsWith(usage.replace(/^librarian import /, "").replace(/ \[--yes\]$/, "")),
    `the table's '${usage}' is how --help starts: '${SPEC.synopsis}'`,
  );
});
