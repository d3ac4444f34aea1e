/**
 * Installs a pinned Claude Code CLI for the end-to-end suite, with npm, each version in its own
 * folder `.cache/claude-code/<version>/` (gitignored; `LIBRARIAN_CLAUDE_DIR` names another parent
 * folder). Idempotent: when the version is already there it only runs `claude --version` (about
 * 0.2 s).
 *
 * The supported versions are named here and nowhere else: {@link CLAUDE_CODE_VERSIONS}. The suite
 * runs against `current` unless `LIBRARIAN_E2E_CLAUDE` names `oldest` (or a version).
 *
 * ```sh
 * deno run --allow-all scripts/install_claude.ts          # current; prints the claude executable
 * deno run --allow-all scripts/install_claude.ts oldest   # the oldest supported version
 * ```
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

/**
 * The Claude Code versions the Librarian supports and the end-to-end suite runs against: the
 * current one (the default) and the oldest one still supported.
 */
export const CLAUDE_CODE_VERSIONS = { current: "2.1.332", oldest: "2.1.197" } as const;
/** The Claude Code version the end-to-end suite runs against by default. */
export const CLAUDE_CODE_VERSION: string = CLAUDE_CODE_VERSIONS.current;
/** The npm package that ships the CLI. */
export const CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The version a selector names: `current` (or nothing), `oldest`, or a version number itself.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLAUDE_CODE_VERSIONS, claudeVersionFor } from "./install_claude.ts";
 * assert.equal(claudeVersionFor(undefined), CLAUDE_CODE_VERSIONS.current);
 * assert.equal(claudeVersionFor(" Oldest "), CLAUDE_CODE_VERSIONS.oldest);
 * assert.equal(claudeVersionFor("2.1.250"), "2.1.250");
 * assert.throws(() => claudeVersionFor("newest"), /current, oldest or a version/);
 * ```
 *
 * @throws {ClaudeInstallError} for anything else.
 */
export function claudeVersionFor(selector: string | undefined): string {
  const value = (selector ?? "").trim().toLowerCase();
  if (value === "" || value === "current") return CLAUDE_CODE_VERSIONS.current;
  if (value === "oldest") return CLAUDE_CODE_VERSIONS.oldest;
  if (/^\d+\.\d+\.\d+$/.test(value)) return value;
  throw new ClaudeInstallError(
    `unknown Claude Code version '${selector}': give current, oldest or a version (e.g. 2.1.197)`,
  );
}

/** The version the end-to-end suite runs against: `LIBRARIAN_E2E_CLAUDE` (default `current`). */
export function e2eClaudeVersion(): string {
  return claudeVersionFor(Deno.env.get("LIBRARIAN_E2E_CLAUDE"));
}

/**
 * Where a version of the CLI is installed (an npm prefix folder): `<version>/` under
 * `LIBRARIAN_CLAUDE_DIR` when set (e.g. a cache folder CI keeps between runs), else under
 * `.cache/claude-code/` in the repository.
 */
export function claudeInstallDir(version: string = CLAUDE_CODE_VERSION): string {
  const parent = Deno.env.get("LIBRARIAN_CLAUDE_DIR") || join(REPO_ROOT, ".cache", "claude-code");
  return join(parent, version);
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
 * Makes sure a pinned CLI version is installed and runs; returns the path of its executable.
 *
 * @throws {ClaudeInstallError} when npm fails or the installed CLI does not report the pinned
 *   version.
 */
export async function ensureClaudeCode(
  log: (line: string) => void = () => {},
  version: string = CLAUDE_CODE_VERSION,
  dir: string = claudeInstallDir(version),
): Promise<string> {
  const bin = claudeBinIn(dir);
  if (await installedClaudeVersion(bin) === version) return bin;
  const spec = `${CLAUDE_CODE_PACKAGE}@${version}`;
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
      { private: true, dependencies: { [CLAUDE_CODE_PACKAGE]: version } },
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
  if (await installedClaudeVersion(bin) !== version) {
    // npm may hold back the package's postinstall (which puts the native binary in place).
    const packageDir = join(dir, "node_modules", ...CLAUDE_CODE_PACKAGE.split("/"));
    log("running the package's postinstall (node install.cjs)");
    await runCommand("node", ["install.cjs"], packageDir);
  }
  const installed = await installedClaudeVersion(bin);
  if (installed !== version) {
    throw new ClaudeInstallError(
      `${bin} reports version ${installed ?? "(does not run)"}, expected ` +
        `${version}; delete ${dir} and run ` +
        `'deno run --allow-all scripts/install_claude.ts ${version}' again.`,
    );
  }
  return bin;
}

if (import.meta.main) {
  try {
    const version = claudeVersionFor(Deno.args[0]);
    const bin = await ensureClaudeCode((line) => console.error(`install_claude: ${line}`), version);
    console.log(bin);
  } catch (error) {
    console.error(`install_claude: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
