/**
 * Installs the pinned Claude Code CLI for the end-to-end suite into `.cache/claude-code/`
 * (gitignored; `LIBRARIAN_CLAUDE_DIR` overrides), with npm. Idempotent: when the pinned version is already there it only runs
 * `claude --version` (about 0.2 s).
 *
 * ```sh
 * deno run --allow-all scripts/install_claude.ts   # prints the path of the claude executable
 * ```
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

/** The Claude Code version the end-to-end suite is written against. */
export const CLAUDE_CODE_VERSION = "2.1.197";
/** The npm package that ships the CLI. */
export const CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Where the CLI is installed (an npm prefix folder): `LIBRARIAN_CLAUDE_DIR` when set (e.g. a cache
 * folder CI keeps between runs), else `.cache/claude-code/` in the repository.
 */
export function claudeInstallDir(): string {
  return Deno.env.get("LIBRARIAN_CLAUDE_DIR") || join(REPO_ROOT, ".cache", "claude-code");
}

/** The `claude` executable inside an install folder. */
export function claudeBinIn(dir: string): string {
  return join(dir, "node_modules", ".bin", "claude");
}

/** The CLI could not be installed or does not run; the message says what to do. */
export class ClaudeInstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClaudeInstallError";
  }
}

interface CommandResult {
  code: number;
  output: string;
}

async function runCommand(cmd: string, args: string[], cwd: string): Promise<CommandResult> {
  try {
    const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, output: (decode(out.stdout) + decode(out.stderr)).trim() };
  } catch (error) {
    return { code: -1, output: error instanceof Error ? error.message : String(error) };
  }
}

/** The version `claude --version` reports (e.g. `2.1.197`), or `null` when it does not run. */
export async function installedClaudeVersion(bin: string): Promise<string | null> {
  const { code, output } = await runCommand(bin, ["--version"], REPO_ROOT);
  if (code !== 0) return null;
  return /^(\d+\.\d+\.\d+)/.exec(output)?.[1] ?? null;
}

/**
 * Makes sure the pinned CLI is installed and runs; returns the path of its executable.
 *
 * @throws {ClaudeInstallError} when npm fails or the installed CLI does not report the pinned
 *   version.
 */
export async function ensureClaudeCode(
  log: (line: string) => void = () => {},
  dir: string = claudeInstallDir(),
): Promise<string> {
  const bin = claudeBinIn(dir);
  if (await installedClaudeVersion(bin) === CLAUDE_CODE_VERSION) return bin;
  const spec = `${CLAUDE_CODE_PACKAGE}@${CLAUDE_CODE_VERSION}`;
  log(`installing ${spec} into ${dir}`);
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ClaudeInstallError(
      `cannot create ${dir}: ${error instanceof Error ? error.message : error}`,
    );
  }
  await Deno.writeTextFile(
    join(dir, "package.json"),
    JSON.stringify(
      { private: true, dependencies: { [CLAUDE_CODE_PACKAGE]: CLAUDE_CODE_VERSION } },
      null,
      2,
    ) + "\n",
  );
  const npm = await runCommand(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, spec],
    dir,
  );
  if (npm.code !== 0) {
    throw new ClaudeInstallError(
      `npm install ${spec} failed (exit ${npm.code}); the e2e suite needs npm and the npm ` +
        `registry.\n${npm.output.split("\n").slice(-15).join("\n")}`,
    );
  }
  if (await installedClaudeVersion(bin) !== CLAUDE_CODE_VERSION) {
    // npm may hold back the package's postinstall (which puts the native binary in place).
    const packageDir = join(dir, "node_modules", ...CLAUDE_CODE_PACKAGE.split("/"));
    log("running the package's postinstall (node install.cjs)");
    await runCommand("node", ["install.cjs"], packageDir);
  }
  const version = await installedClaudeVersion(bin);
  if (version !== CLAUDE_CODE_VERSION) {
    throw new ClaudeInstallError(
      `${bin} reports version ${version ?? "(does not run)"}, expected ` +
        `${CLAUDE_CODE_VERSION}; delete ${dir} and run ` +
        `'deno run --allow-all scripts/install_claude.ts' again.`,
    );
  }
  return bin;
}

if (import.meta.main) {
  try {
    const bin = await ensureClaudeCode((line) => console.error(`install_claude: ${line}`));
    console.log(bin);
  } catch (error) {
    console.error(`install_claude: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
