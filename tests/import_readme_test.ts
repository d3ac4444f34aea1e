/**
 * The README's import section says what `librarian import --help` says: every option, and the
 * command line the table gives parses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SPEC } from "../src/commands/import/import.ts";
import { REPO_ROOT } from "./helpers.ts";

const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));

Deno.test("the README's import section names every option of import --help", () => {
  const start = readme.indexOf("### Move your agent memory in");
  assert.ok(start > 0, "the README has an import section");
  const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
  for (const option of Object.keys(SPEC.options)) {
    if (option === "json" || option === "verbose" || option === "dry-run") {
      assert.match(readme, new RegExp(`--${option}`), `--${option} in the README`);
      continue;
    }
    assert.match(section, new RegExp(`--${option}\\b`), `--${option} in the import section`);
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
