/**
 * Renames git knows about, for `librarian lint`'s "moved to" hints: uncommitted ones
 * (`git diff -M HEAD`) first, then recent history (`git log -M`), newest first.
 *
 * `git` is the only subprocess the program may start. Without git, outside a repository, or when
 * git takes too long, the answer is simply "no renames known".
 *
 * @module
 */

import { runGit } from "./run.ts";

/** One renamed file, paths relative to the folder git ran in. */
export interface Rename {
  from: string;
  to: string;
}

/** What git could tell. */
export interface GitRenames {
  status: "ok" | "not-a-repository" | "git-unavailable";
  renames: Rename[];
}

/** At most this many rename commits are read from history. */
const MAX_COMMITS = 300;

/**
 * Parses `--name-status` output, keeping the `R<score>\t<from>\t<to>` lines (pure).
 *
 * @example Usage
 * ```ts
 * import { parseRenames } from "./renames.ts";
 * import assert from "node:assert/strict";
 *
 * const output = "R100\tsrc/old.ts\tsrc/new.ts\nM\tREADME.md\nR087\ta.ts\tlib/a.ts\r\n";
 * assert.deepEqual(parseRenames(output), [
 *   { from: "src/old.ts", to: "src/new.ts" },
 *   { from: "a.ts", to: "lib/a.ts" },
 * ]);
 * ```
 */
export function parseRenames(output: string): Rename[] {
  const renames: Rename[] = [];
  for (const line of output.split("\n")) {
    const parts = line.split("\t");
    if (parts.length === 3 && /^R\d*$/.test(parts[0]!)) {
      renames.push({ from: parts[1]!, to: parts[2]!.replace(/\r$/, "") });
    }
  }
  return renames;
}

/**
 * The renames git knows about under `cwd`, paths relative to `cwd`.
 *
 * @example Usage
 * ```ts
 * import { gitRenames } from "./renames.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * assert.deepEqual(await gitRenames(dir), { status: "not-a-repository", renames: [] });
 * ```
 */
export async function gitRenames(cwd: string): Promise<GitRenames> {
  try {
    const inside = await runGit(cwd, ["rev-parse", "--is-inside-work-tree"]);
    if (inside.code !== 0 || inside.stdout.trim() !== "true") {
      return { status: "not-a-repository", renames: [] };
    }
    const pending = await runGit(cwd, [
      "diff",
      "-M",
      "--name-status",
      "--diff-filter=R",
      "--relative",
      "HEAD",
    ]);
    const history = await runGit(cwd, [
      "log",
      "-M",
      "--name-status",
      "--diff-filter=R",
      "--relative",
      "--format=",
      `--max-count=${MAX_COMMITS}`,
    ]);
    return {
      status: "ok",
      renames: [...parseRenames(pending.stdout), ...parseRenames(history.stdout)],
    };
  } catch {
    return { status: "git-unavailable", renames: [] };
  }
}
