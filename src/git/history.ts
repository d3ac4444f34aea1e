/**
 * What git knows about the code since learnings were filed, for `librarian lint`'s staleness
 * checks: one git run per kind of question, however many learnings there are.
 *
 * 1. `git cat-file --batch-check`: which of the learnings' short commits exist (full hashes);
 * 2. `git merge-base --octopus --all`: the newest commits every one of them descends from;
 * 3. `git log --raw --numstat -M --topo-order HEAD ^<base>...`: every commit since, with its file
 *    changes, renames and changed lines;
 * 4. `git diff --raw --numstat -M HEAD`: what is not committed yet.
 *
 * Paths are relative to the project root (`--relative`, git run there). Outside a repository, or
 * when git is missing or too slow, nothing is known and the answer says so.
 *
 * @module
 */

import { runGit } from "./git_run.ts";

/** One file change of a commit (or of the working tree). */
export interface FileChange {
  /** `A`, `M`, `D`, `R`, `C`, `T`. */
  status: string;
  /** The path after the change (for `D`, the deleted path). */
  path: string;
  /** For `R` and `C`: the path before. */
  from?: string;
  /** Lines added plus lines deleted (0 for binary files). */
  lines: number;
}

/** One commit of the history. */
export interface HistoryCommit {
  hash: string;
  parents: string[];
  changes: FileChange[];
}

/** What git could tell. */
export interface GitFacts {
  status: "ok" | "not-a-repository" | "git-unavailable";
  /** Short commit → full hash, for the commits that exist. */
  resolved: Map<string, string>;
  /** Newest first, topological. */
  history: HistoryCommit[];
  uncommitted: FileChange[];
}

/**
 * Undoes git's C-style quoting of a path (`"a\tb"`), when it is quoted (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(unquotePath('"a\\tb.ts"'), "a\tb.ts");
 * assert.equal(unquotePath("plain.ts"), "plain.ts");
 * ```
 */
export function unquotePath(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"') || path.length < 2) return path;
  const body = path.slice(1, -1);
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const simple: Record<string, number> = {
    n: 10,
    t: 9,
    r: 13,
    '"': 34,
    "\\": 92,
    a: 7,
    b: 8,
    f: 12,
    v: 11,
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...encoder.encode(c));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/^[0-7]{3}$/.test(body.slice(i + 1, i + 4))) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else if (simple[next] !== undefined) {
      bytes.push(simple[next]!);
      i++;
    } else {
      bytes.push(92);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * Parses the `--raw --numstat` lines of one commit (or of `git diff`) into changes: raw lines give
 * status and paths, numstat lines (in the same order) the changed lines (pure).
 *
 * @example Usage
 * ```ts
 * import { parseRawNumstat } from "./history.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   parseRawNumstat([":100644 100644 abc def R090\told.ts\tnew.ts", "3\t1\told.ts => new.ts"]),
 *   [{ status: "R", from: "old.ts", path: "new.ts", lines: 4 }],
 * );
 * ```
 */
export function parseRawNumstat(lines: readonly string[]): FileChange[] {
  const changes: FileChange[] = [];
  const counts: number[] = [];
  for (const line of lines) {
    if (line.startsWith(":")) {
      const [meta, ...paths] = line.split("\t");
      const status = meta!.split(" ").pop() ?? "";
      const code = status.charAt(0);
      if (paths.length === 0 || code === "") continue;
      if ((code === "R" || code === "C") && paths.length >= 2) {
        changes.push({
          status: code,
          from: unquotePath(paths[0]!),
          path: unquotePath(paths[1]!),
          lines: 0,
        });
      } else {
        changes.push({ status: code, path: unquotePath(paths[0]!), lines: 0 });
      }
    } else if (/^(\d+|-)\t(\d+|-)\t/.test(line)) {
      const [added, deleted] = line.split("\t");
      counts.push((Number(added) || 0) + (Number(deleted) || 0));
    }
  }
  changes.forEach((change, i) => change.lines = counts[i] ?? 0);
  return changes;
}

/**
 * Parses `git log --format=%x1e%H %P --raw --numstat` output (pure).
 *
 * @example Usage
 * ```ts
 * import { parseHistory } from "./history.ts";
 * import assert from "node:assert/strict";
 * const [a, b] = ["a".repeat(40), "b".repeat(40)];
 * const output = `\x1e${a} ${b}\n\n:100644 100644 1 2 M\tsrc/x.ts\n2\t0\tsrc/x.ts\n`;
 * assert.deepEqual(parseHistory(output), [
 *   { hash: a, parents: [b], changes: [{ status: "M", path: "src/x.ts", lines: 2 }] },
 * ]);
 * ```
 */
export function parseHistory(output: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  for (const record of output.split("\x1e")) {
    const lines = record.split("\n");
    const head = lines[0]?.trim();
    if (!head) continue;
    const [hash, ...parents] = head.split(" ").filter((s) => s !== "");
    if (!hash || !/^[0-9a-f]{40,64}$/.test(hash)) continue;
    commits.push({ hash, parents, changes: parseRawNumstat(lines.slice(1)) });
  }
  return commits;
}

/** The most commits read; a history since the oldest learning longer than this is cut. */
export const MAX_COMMITS = 100_000;

const NOTHING: Omit<GitFacts, "status"> = { resolved: new Map(), history: [], uncommitted: [] };

/**
 * What git knows under `projectRoot` about the given short commits and everything since; status
 * `git-unavailable` when git cannot be run or does not answer before `deadline`.
 */
export async function gitFacts(
  projectRoot: string,
  commits: Iterable<string>,
  deadline?: AbortSignal,
): Promise<GitFacts> {
  try {
    const wanted = [...new Set(commits)].filter((c) => /^[0-9a-f]{7,40}$/.test(c));
    const diffArgs = ["--raw", "--numstat", "-M", "--relative", "--no-color"];
    // independent questions, asked at once
    const [inside, check, pending] = await Promise.all([
      runGit(projectRoot, ["rev-parse", "--is-inside-work-tree"], undefined, deadline),
      wanted.length > 0
        ? runGit(projectRoot, ["cat-file", "--batch-check"], wanted.join("\n") + "\n", deadline)
        : null,
      runGit(projectRoot, ["diff", ...diffArgs, "HEAD"], undefined, deadline),
    ]);
    if (inside.code !== 0 || inside.stdout.trim() !== "true") {
      return { status: "not-a-repository", ...NOTHING };
    }
    const resolved = new Map<string, string>();
    if (check !== null) {
      const lines = check.stdout.split("\n");
      wanted.forEach((short, i) => {
        const [full, type] = (lines[i] ?? "").trim().split(" ");
        if (type === "commit" && full?.startsWith(short)) resolved.set(short, full);
      });
    }
    const uncommitted = pending.code === 0 ? parseRawNumstat(pending.stdout.split("\n")) : [];
    const fulls = [...new Set(resolved.values())];
    let history: HistoryCommit[] = [];
    if (fulls.length > 0) {
      const base = await runGit(
        projectRoot,
        ["merge-base", "--octopus", "--all", ...fulls],
        undefined,
        deadline,
      );
      const bases = base.code === 0 ? base.stdout.split("\n").filter((l) => l.trim() !== "") : [];
      const log = await runGit(
        projectRoot,
        [
          "log",
          "--format=%x1e%H %P",
          "--topo-order",
          `--max-count=${MAX_COMMITS}`,
          ...diffArgs,
          "HEAD",
          ...bases.map((b) => `^${b.trim()}`),
          "--",
        ],
        undefined,
        deadline,
      );
      if (log.code === 0) history = parseHistory(log.stdout);
    }
    return { status: "ok", resolved, history, uncommitted };
  } catch {
    return { status: "git-unavailable", ...NOTHING };
  }
}
