/**
 * `doctor`'s check for text sent twice: library text that also reaches the model from where it
 * lies: a `CLAUDE.md` (any level) or a file it `@`-imports, an `AGENTS.md`, a `.claude/rules` rule,
 * another agent's rule the Librarian serves in place (Cursor, Copilot, Windsurf), and a file
 * `librarian export` wrote that is older than the library (one up to date doubles nothing: the
 * inject hook leaves what it holds to the client that loads it, `inject/loaded_exports.ts`).
 *
 * @module
 */

import type { Library } from "../../core/mod.ts";
import { describeDoubling, type Doubling, nativeDoublings } from "../../import/mod.ts";
import { type Check, ok, warn } from "./check.ts";

/**
 * Warns for each native file whose lines are also in the library, with the characters it costs.
 *
 * @example Usage
 * ```ts
 * import { loadedTwiceCheck } from "./native_check.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.writeTextFileSync(`${root}/CLAUDE.md`, "- use pnpm workspaces\n");
 * Deno.writeTextFileSync(`${root}/_memory_library/claude.md`, "- use pnpm workspaces\n");
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const check = loadedTwiceCheck(library);
 * assert.equal(check.status, "warn");
 * assert.match(check.message, /CLAUDE\.md: 21 characters/);
 * Deno.writeTextFileSync(`${root}/AGENTS.md`, "- money is integer cents\n");
 * Deno.writeTextFileSync(`${root}/_memory_library/agents.md`, "- money is integer cents\n");
 * assert.match(loadedTwiceCheck(library).message, /AGENTS\.md: 24 characters/);
 * ```
 */
export function loadedTwiceCheck(library: Library): Check {
  const doublings = nativeDoublings(library.projectRoot, library.root);
  if (doublings.length === 0) {
    return ok(
      "loaded-twice",
      "no library text is also in a CLAUDE.md, AGENTS.md, .claude/rules file or another agent's " +
        "rule (read where they lie)",
    );
  }
  const total = doublings.reduce((n, d) => n + d.chars, 0);
  const described = doublings.map(describeDoubling);
  return warn(
    "loaded-twice",
    `${total.toLocaleString("en-US")} characters are sent twice: ` +
      described.map((d) => d.message).join("; "),
    described.length === 1 ? described[0]!.fix : fixOfMany(doublings),
  );
}

/** The fix for several doublings: re-export the exports out of date, and what the others need. */
function fixOfMany(doublings: readonly Doubling[]): string {
  const stale = doublings.filter((d) => d.exported && !d.twin);
  const formats = [...new Set(stale.flatMap((d) => d.exported ? [d.exported] : []))];
  const twins = doublings.filter((d) => d.twin);
  const fixes = [
    ...(doublings.some((d) => !d.exported)
      ? [
        "delete the copied lines from the library (those files are read where they lie), or " +
        "'librarian import --hand-over --yes' hands them all over",
      ]
      : []),
    ...(formats.length > 0
      ? [
        `run 'librarian export --format ${formats.join(",")}' (it rewrites the exports from the ` +
        "library as it is now)",
      ]
      : []),
    ...(twins.length > 0 ? [describeDoubling(twins[0]!).fix] : []),
  ];
  return fixes.join("; ");
}
