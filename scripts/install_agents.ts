/**
 * Installs the pinned Codex CLI, GitHub Copilot CLI and Gemini CLI for the end-to-end suite into
 * `<cache>/librarian-e2e/agents/<name>/` (`<cache>`: `XDG_CACHE_HOME`, else `~/.cache`; outside
 * the checkout, so that clean clones on one machine share them; `LIBRARIAN_AGENTS_DIR` overrides),
 * with npm. Idempotent: a CLI already there at the pinned version only runs `--version`.
 *
 * ```sh
 * deno run --allow-all scripts/install_agents.ts [codex|copilot|gemini ...]   # prints each path
 * ```
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

/** The agent CLIs the suite drives: npm package, pinned version, executable name. */
export const AGENT_CLIS = {
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
} as const;

/** One of {@link AGENT_CLIS}. */
export type AgentCli = keyof typeof AGENT_CLIS;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the CLIs are installed, one npm prefix folder each. */
export function agentsDir(): string {
  const explicit = Deno.env.get("LIBRARIAN_AGENTS_DIR");
  if (explicit) return explicit;
  const cache = Deno.env.get("XDG_CACHE_HOME") ||
    (Deno.env.get("HOME") ? join(Deno.env.get("HOME")!, ".cache") : join(REPO_ROOT, ".cache"));
  return join(cache, "librarian-e2e", "agents");
}

async function run(
  cmd: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; out: string }> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { code: out.code, out: text.trim() };
  } catch (error) {
    return { code: -1, out: error instanceof Error ? error.message : String(error) };
  }
}

async function versionOf(bin: string): Promise<string | null> {
  const { code, out } = await run(bin, ["--version"], REPO_ROOT);
  return code === 0 ? /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null : null;
}

/**
 * Makes sure the pinned CLI is installed and runs; returns its executable.
 *
 * @throws {Error} when npm fails or the CLI does not report the pinned version.
 */
export async function ensureAgentCli(
  name: AgentCli,
  log: (line: string) => void = () => {},
): Promise<string> {
  const { pkg, version, bin: exe } = AGENT_CLIS[name];
  const dir = join(agentsDir(), name);
  const bin = join(dir, "node_modules", ".bin", exe);
  if (await versionOf(bin) === version) return bin;
  log(`installing ${pkg}@${version} into ${dir}`);
  await Deno.mkdir(dir, { recursive: true });
  const npm = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, `${pkg}@${version}`],
    dir,
  );
  if (npm.code !== 0) {
    const errors = npm.out.split("\n").filter((l) => /^npm (error|ERR!)/.test(l)).slice(0, 4);
    const why = (errors.length > 0 ? errors.join(" / ") : npm.out.slice(-400)).trim();
    throw new Error(`npm install ${pkg}@${version} failed (exit ${npm.code}): ${why}`);
  }
  const got = await versionOf(bin);
  if (got !== version) throw new Error(`${bin} reports ${got ?? "nothing"}, expected ${version}`);
  return bin;
}

if (import.meta.main) {
  const names = (Deno.args.length > 0 ? Deno.args : Object.keys(AGENT_CLIS)) as AgentCli[];
  let failed = false;
  for (const name of names) {
    try {
      console.log(await ensureAgentCli(name, (line) => console.error(`install_agents: ${line}`)));
    } catch (error) {
      failed = true;
      console.error(`install_agents: ${name}: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (failed) Deno.exit(1);
}
