/**
 * The tables of `docs/configuration.md`, generated from `src/core/env_vars.ts`: one table per kind
 * of variable, between the page's `<!-- env-vars:<kind> -->` and `<!-- /env-vars -->` lines.
 * `tests/env_vars_test.ts` fails when the page differs from what this writes.
 *
 * ```sh
 * deno run --allow-read --allow-write scripts/configuration_doc.ts   # rewrite the page's tables
 * ```
 *
 * @module
 */

import { ENV_VARS, type EnvKind } from "../src/core/env_vars.ts";

/** The page the tables live in, relative to the repository root. */
export const CONFIGURATION_PAGE = "docs/configuration.md";

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/**
 * The markdown table of one kind's variables.
 *
 * @example Usage
 * ```ts
 * import { kindTable } from "./configuration_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(kindTable("switch"), /^\| variable \| read by \| valid values \| what it does \|\n/);
 * assert.match(kindTable("switch"), /\| `LIBRARIAN_BUDGET` \| program \|/);
 * ```
 */
export function kindTable(kind: EnvKind): string {
  const rows = ENV_VARS.filter((v) => v.kind === kind).map((v) =>
    `| \`${v.name}\` | ${v.readBy.join(", ")} | ${cell(v.validation)} | ${cell(v.doc)} |`
  );
  return [
    "| variable | read by | valid values | what it does |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n") + "\n";
}

/**
 * `page` with every generated table replaced by a fresh one.
 *
 * @example Usage
 * ```ts
 * import { withTables } from "./configuration_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const page = "intro\n<!-- env-vars:test -->\nold\n<!-- /env-vars -->\nend\n";
 * const fresh = withTables(page);
 * assert.match(fresh, /<!-- env-vars:test -->\n\n\| variable [^]*`LIBRARIAN_FAULT`[^]*\n<!-- \/env-vars -->\nend\n$/);
 * assert.equal(withTables(fresh), fresh);
 * ```
 */
export function withTables(page: string): string {
  return page.replace(
    /(<!-- env-vars:(\w+) -->\n)[^]*?(<!-- \/env-vars -->)/g,
    (_all, open: string, kind: string, close: string) =>
      `${open}\n${kindTable(kind as EnvKind)}\n${close}`,
  );
}

/**
 * `text` with every table line reduced to its trimmed cells, so that a table `deno fmt` padded
 * compares equal to the one {@link kindTable} writes.
 *
 * @example Usage
 * ```ts
 * import { unpadded } from "./configuration_doc.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unpadded("| a   | b |\n| --- | ----- |\ntext  \n"), "|a|b|\n|---|---|\ntext  \n");
 * ```
 */
export function unpadded(text: string): string {
  return text.split("\n").map((line) =>
    line.startsWith("|")
      ? line.split("|").map((c) => /^\s*-+\s*$/.test(c) ? "---" : c.trim()).join("|")
      : line
  ).join("\n");
}

if (import.meta.main) {
  const path = new URL(`../${CONFIGURATION_PAGE}`, import.meta.url);
  const page = await Deno.readTextFile(path);
  const fresh = withTables(page);
  const current = unpadded(fresh) === unpadded(page);
  if (!current) await Deno.writeTextFile(path, fresh);
  console.log(
    current
      ? `${CONFIGURATION_PAGE} is current`
      : `wrote ${CONFIGURATION_PAGE} (run deno fmt on it)`,
  );
}
