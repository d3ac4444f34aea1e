/**
 * Renames git knows about, for `librarian lint`'s "moved to" hints: uncommitted ones
 * (`git diff -M HEAD`) first, then recent history (`git log -M`), newest first.
 *
 * `git` is the only subprocess the program may start. Without git, outside a repository, or when
 * git takes too long, the answer is simply "no renames known".
 *
 * @module
 */

import { runGit } from "./git_run.ts";

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
 * Parses `--name-status -z` output (pure): NUL-separated fields, a status followed by one path,
 * or by two for a rename or copy (`R<score>`, `C<score>`), keeping the renames. Paths come as
 * they are, never quoted (git quotes a path with a tab, a double quote or a backslash in its
 * line output even with `core.quotePath=false`); empty fields between commits are skipped.
 *
 * @example Usage
 * ```ts
 * import { parseRenames } from "./renames.ts";
 * import assert from "node:assert/strict";
 *
 * const output = "R100\0src/old.ts\0src/\"new\" one.ts\0M\0README.md\0\0R087\0a.ts\0lib/a.ts\0";
 * assert.deepEqual(parseRenames(output), [
 *   { from: "src/old.ts", to: 'src/"new" one.ts' },
 *   { from: "a.ts", to: "lib/a.ts" },
 * ]);
 * ```
 */
export function parseRenames(output: string): Rename[] {
  const renames: Rename[] = [];
  const fields = output.split("\0");
  let i = 0;
  while (i < fields.length) {
    const status = fields[i++]!;
    if (!/^[A-Z]\d*$/.test(status)) continue;
    if (status.startsWith("R") || status.startsWith("C")) {
      const from = fields[i++];
      const to = fields[i++];
      if (status.startsWith("R") && from && to) renames.push({ from, to });
    } else {
      i++;
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
      "-z",
      "--diff-filter=R",
      "--relative",
      "HEAD",
    ]);
    const history = await runGit(cwd, [
      "log",
      "-M",
      "--name-status",
      "-z",
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
