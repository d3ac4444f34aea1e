/**
 * Helpers for the human-command tests: a real `git` in throwaway repositories.
 *
 * @module
 */

/** The result of one git run. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in `cwd` with no global or system configuration. */
export async function git(cwd: string, ...args: string[]): Promise<GitResult> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: {
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
      GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Runs git and throws with its output when it fails. */
export async function gitOk(cwd: string, ...args: string[]): Promise<string> {
  const result = await git(cwd, ...args);
  if (result.code !== 0) {
    throw new Error(
      `git ${args.join(" ")} failed (${result.code}): ${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
}

/** Makes `dir` a git repository on branch `main` with a committer identity. */
export async function gitInit(dir: string): Promise<void> {
  await gitOk(dir, "init", "-q", "-b", "main");
  await gitOk(dir, "config", "user.name", "Librarian Test");
  await gitOk(dir, "config", "user.email", "test@example.invalid");
  await gitOk(dir, "config", "commit.gpgsign", "false");
}

/** Stages everything and commits. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await gitOk(dir, "add", "-A");
  await gitOk(dir, "commit", "-q", "-m", message);
}
