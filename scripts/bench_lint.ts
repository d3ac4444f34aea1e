/**
 * `librarian lint` benchmark: a 1,000-file library holding 5,000 learnings with provenance, in a
 * git repository whose code moved on since (renamed folders, deleted and rewritten files), so the
 * staleness checks have real history to read. The whole process, through the launcher, against a
 * bare Deno start. Goal ≤ 40× a bare start (about a second here), whatever the number of learnings:
 * git is asked a fixed handful of questions, not one per learning.
 *
 * Run alone with `deno run -A scripts/bench_lint.ts`; `deno task bench` calls {@link benchLint}.
 *
 * @module
 */

import { join } from "node:path";
import {
  baselineCommand,
  type BenchRow,
  benchRow,
  compare,
  formatRows,
  launcherPath,
} from "./bench_util.ts";

const FOLDERS = 200;
const FILES_PER_FOLDER = 5;
const TYPES = ["patterns", "edge", "tech", "gotchas", "decisions"] as const;
const LEARNINGS_PER_FILE = 5;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

const codeFile = (f: number, i: number) => `src/mod${f}/file${i}.ts`;

/** Builds the repository and library; returns the project folder. */
async function buildProject(root: string): Promise<void> {
  await git(root, "init", "-q", "-b", "main");
  await git(root, "config", "user.name", "bench");
  await git(root, "config", "user.email", "bench@example.invalid");
  await git(root, "config", "commit.gpgsign", "false");
  for (let f = 0; f < FOLDERS; f++) {
    await Deno.mkdir(join(root, `src/mod${f}`), { recursive: true });
    for (let i = 0; i < FILES_PER_FOLDER; i++) {
      const lines = Array.from({ length: 60 }, (_, n) => `export const v${n} = ${f * 100 + n};`);
      await Deno.writeTextFile(join(root, codeFile(f, i)), lines.join("\n") + "\n");
    }
  }
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "base");
  const base = await git(root, "rev-parse", "--short=7", "HEAD");
  const lib = join(root, "_memory_library");
  for (let f = 0; f < FOLDERS; f++) {
    await Deno.mkdir(join(lib, `src/mod${f}`), { recursive: true });
    for (const type of TYPES) {
      const body = [`# ${type}`, "", "## Learnings (2026-11-01)", ""];
      for (let l = 0; l < LEARNINGS_PER_FILE; l++) {
        const files = [codeFile(f, l % FILES_PER_FOLDER), codeFile(f, (l + 1) % FILES_PER_FOLDER)];
        body.push(`<!-- librarian: 2026-11-01 ${base} ${files.join(" ")} -->`);
        body.push(`- ${type} learning ${l} of mod${f}: keep the why, e.g. retries need jitter.`);
      }
      await Deno.writeTextFile(join(lib, `src/mod${f}/${type}.md`), body.join("\n") + "\n");
    }
  }
  await Deno.writeTextFile(join(lib, ".scratch.md"), "");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "library");
  // 60 commits of history since: rewrites, deletions, renamed files and folders.
  for (let c = 0; c < 60; c++) {
    const f = (c * 7) % FOLDERS;
    if (c % 10 === 0) {
      await git(root, "mv", `src/mod${f}`, `src/moved${f}`);
    } else if (c % 3 === 0) {
      await git(root, "rm", "-q", codeFile(f, c % FILES_PER_FOLDER));
    } else {
      const lines = Array.from({ length: 60 }, (_, n) => `export const w${n} = ${c};`);
      await Deno.writeTextFile(
        join(root, codeFile(f, c % FILES_PER_FOLDER)),
        lines.join("\n") + "\n",
      );
    }
    await git(root, "commit", "-q", "-am", `change ${c}`);
  }
}

/** Runs the lint benchmark and returns its row. */
export async function benchLint(runs = 8): Promise<BenchRow[]> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-bench-lint-" }));
  try {
    const root = join(tmp, "project");
    await Deno.mkdir(root);
    await buildProject(root);
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: join(tmp, "home") };
    // lint exits 1 when it finds something (it will: the code moved on); only 2+ is a failure.
    const lint = {
      cmd: "sh",
      args: [
        "-c",
        `sh "${launcherPath()}" lint --json >/dev/null; [ $? -le 1 ]`,
      ],
      stdin: "",
      env,
      cwd: root,
    };
    const result = await compare(lint, baselineCommand("{}", env), runs, 2);
    const learnings = FOLDERS * TYPES.length * LEARNINGS_PER_FILE;
    return [benchRow(
      `lint, ${
        FOLDERS * TYPES.length
      } library files with ${learnings} learnings (provenance), 60 commits of history`,
      result,
      40,
    )];
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  console.log("lint: building the repository and timing...");
  console.log(formatRows(await benchLint()));
}
