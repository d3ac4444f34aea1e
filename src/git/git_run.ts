/**
 * Running `git`, the only subprocess the program may start (see `src/permissions.ts`): plain
 * paths (`core.quotePath=false`), no prompts, a time limit, and stdin when a command takes a list.
 *
 * @module
 */

import { LibrarianError } from "../core/errors.ts";

/** How long git may take before its answer is given up on. */
export const GIT_TIMEOUT_MS = 15_000;

/** What one git run printed. */
export interface GitOutput {
  code: number;
  stdout: string;
}

/**
 * Runs `git <args>` in `cwd`; `stdin` is written to it when given. Throws when git cannot be
 * started, takes longer than {@link GIT_TIMEOUT_MS} or `deadline` aborts it first; a failing git
 * is a non-zero `code`.
 */
export async function runGit(
  cwd: string,
  args: string[],
  stdin?: string,
  deadline?: AbortSignal,
): Promise<GitOutput> {
  const output = await runGitBytes(cwd, args, stdin, deadline);
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

/**
 * Runs `git <args>` like {@link runGit}, its output as bytes (blob contents need not be text).
 * Throws a {@link LibrarianError} when its time limit or `deadline` ends it first.
 *
 * @example Usage
 * ```ts
 * import { runGitBytes } from "./git_run.ts";
 * import assert from "node:assert/strict";
 * const out = await runGitBytes(Deno.makeTempDirSync(), ["--version"]);
 * assert.ok(out.stdout instanceof Uint8Array);
 * ```
 */
export async function runGitBytes(
  cwd: string,
  args: string[],
  stdin?: string,
  deadline?: AbortSignal,
): Promise<{ code: number; stdout: Uint8Array }> {
  const limit = AbortSignal.timeout(GIT_TIMEOUT_MS);
  const signal = deadline === undefined ? limit : AbortSignal.any([limit, deadline]);
  const child = new Deno.Command("git", {
    args: ["-c", "core.quotePath=false", ...args],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "null",
    env: { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" },
    signal,
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  // a git killed at its time limit is no answer (its exit code would read as a "no")
  if (signal.aborted) {
    throw new LibrarianError(`git ${args[0] ?? ""} did not answer in time in ${cwd}`);
  }
  return { code: output.code, stdout: output.stdout };
}
