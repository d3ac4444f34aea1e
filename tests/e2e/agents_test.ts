/**
 * The same hooks in Codex CLI 0.169.0, GitHub Copilot CLI 1.0.102 and Gemini CLI 0.61.0, each
 * installed from npm (`scripts/install_agents.ts`, cached outside the checkout) and driven headless
 * against a loopback model (`agent_model.ts`), with the Librarian installed the way a user
 * installs it: Codex and Copilot from a local copy of this plugin's Claude Code marketplace
 * (`plugin marketplace add`, then install; Codex's hooks trusted as its `/hooks` review does,
 * through its app-server), Gemini as the extension `librarian setup-gemini` writes
 * (`gemini extensions install`).
 *
 * One scenario per agent: the model reads `notes/README.md` its agent's way, edits it (Codex:
 * `apply_patch`), and ends the turn; the Librarian nudges (the turn changed code and recorded
 * nothing), the model appends a tagged learning to scratch with the shell, and the turn ends
 * again. Proven: the folder's library file and the root's reach the model exactly once, the
 * nudge reached it, the learning is filed into `_memory_library/notes/conventions.md`.
 *
 * Run with `LIBRARIAN_E2E=1` (`deno task e2e`). A CLI that cannot be installed makes its scenario
 * skip (ignored, with a line saying why), never pass.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseLogLine } from "../../src/core/log.ts";
import { type AgentCli, agentsDir, ensureAgentCli } from "../../scripts/install_agents.ts";
import { denoDir, REPO_ROOT, tempDir, writeTree } from "../helpers.ts";
import {
  type AgentModel,
  DONE_TEXT,
  LEARNING,
  NUDGE_WORDS,
  README,
  startAgentModel,
} from "./agent_model.ts";

const ENABLED = Deno.env.get("LIBRARIAN_E2E") === "1";

const bins: Partial<Record<AgentCli, string>> = {};
const missing: Partial<Record<AgentCli, string>> = {};
if (ENABLED) {
  await Promise.all((["codex", "copilot", "gemini"] as const).map(async (name) => {
    try {
      bins[name] = await ensureAgentCli(name, (line) => console.error(`e2e: ${line}`));
    } catch (error) {
      missing[name] = error instanceof Error ? error.message : String(error);
      console.error(
        `e2e: SKIPPING the ${name} scenarios: the pinned CLI could not be installed: ${
          missing[name]
        }`,
      );
    }
  }));
}

const PROJECT: Record<string, string> = {
  [README.path]: README.text,
  "_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: every script runs with deno.\n",
  "_memory_library/notes/conventions.md": "# Notes\n- NOTES-CONVENTIONS: notes stay short.\n",
};

const PROMPT = "Read notes/README.md and fix its wording.";

/** The files of the plugin as a marketplace ships it (no tests, no caches). */
const PLUGIN_FILES = [
  "bin/librarian",
  "hooks/hooks.json",
  ".claude-plugin/plugin.json",
  "deno.json",
  "deno.lock",
];
const PLUGIN_DIRS = ["src", "bundles"];

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    if (entry.isDirectory) await copyDir(source, join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(source, join(to, entry.name));
  }
}

/** A local marketplace (Claude Code format) holding a copy of this plugin. */
async function marketplace(dir: string): Promise<string> {
  const plugin = join(dir, "plugins", "librarian");
  for (const file of PLUGIN_FILES) {
    try {
      await Deno.mkdir(join(plugin, file, ".."), { recursive: true });
      await Deno.copyFile(join(REPO_ROOT, file), join(plugin, file));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  for (const folder of PLUGIN_DIRS) {
    try {
      await copyDir(join(REPO_ROOT, folder), join(plugin, folder));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  await writeTree(dir, {
    ".claude-plugin/marketplace.json": JSON.stringify({
      name: "librarian-e2e",
      owner: { name: "e2e" },
      plugins: [{ name: "librarian", source: "./plugins/librarian", description: "The Librarian" }],
    }),
  });
  return plugin;
}

interface Ran {
  code: number;
  /** stdout and stderr. */
  out: string;
  stdout: string;
}

async function exec(
  bin: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string; timeoutMs?: number },
): Promise<Ran> {
  const child = new Deno.Command(bin, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  if (options.stdin) await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  return { code: out.code, out: stdout + "\n" + new TextDecoder().decode(out.stderr), stdout };
}

/** One agent scenario's folders and model. */
interface Setup extends AsyncDisposable {
  root: string;
  home: string;
  dir: string;
  logPath: string;
  model: AgentModel;
  env: Record<string, string>;
}

async function setup(): Promise<Setup> {
  const dir = await tempDir("librarian-agents-e2e-");
  const root = join(dir.path, "project");
  const home = join(dir.path, "home");
  await writeTree(root, PROJECT);
  await Deno.mkdir(join(home, "tmp"), { recursive: true });
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: root, stdout: "null", stderr: "null" }).output();
  await git("init", "-q", ".");
  await git("-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "add", "-A");
  await git("-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-qm", "init");
  const logPath = join(dir.path, "librarian.log");
  const model = startAgentModel(root);
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    DENO_DIR: await denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    // Copilot unpacks itself (about 235 MB) into the cache folder on first run: one shared cache
    XDG_CACHE_HOME: join(agentsDir(), "xdg-cache"),
    LIBRARIAN_LOG: logPath,
    LIBRARIAN_NUDGE: "session",
    LIBRARIAN_HINT: "off",
  };
  return {
    root,
    home,
    dir: dir.path,
    logPath,
    model,
    env,
    async [Symbol.asyncDispose]() {
      await model[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** What every agent's scenario proves. */
async function assertScenario(s: Setup, agent: string, output: string): Promise<void> {
  const bodies = s.model.mainBodies();
  const log = (await Deno.readTextFile(s.logPath).catch(() => "")).trim();
  const context = `${agent} output:\n${output.slice(-3000)}\nlog:\n${log.slice(-3000)}`;
  assert.ok(bodies.length >= 4, `the model was asked at least four times; ${context}`);
  const last = bodies.at(-1)!;
  assert.equal(
    await Deno.readTextFile(join(s.root, README.path)).then((t) =>
      t.includes("edited by the mock")
    ),
    true,
    `the edit was made; ${context}`,
  );
  assert.equal(
    count(last, "NOTES-CONVENTIONS"),
    1,
    `the folder's library file reached the model once; ${context}`,
  );
  assert.ok(bodies.some((b) => b.includes(NUDGE_WORDS)), `the nudge reached the model; ${context}`);
  assert.ok(
    bodies.some((b) => b.includes(DONE_TEXT)),
    `the turn first ended without a learning; ${context}`,
  );
  const filed = await Deno.readTextFile(join(s.root, "_memory_library/notes/conventions.md"));
  assert.match(filed, /NOTES-LEARNED/, `the learning was filed; ${context}`);
  const scratch = await Deno.readTextFile(join(s.root, "_memory_library/.scratch.md")).catch(() =>
    ""
  );
  assert.doesNotMatch(scratch, /NOTES-LEARNED/, "and left scratch");
  const records = log.split("\n").map(parseLogLine).filter((r) => r !== null);
  const stops = records.filter((r) => r.command === "stop").map((r) => r.fields);
  assert.ok(
    stops.some((f) => f.nudge === "sent" && f.transcript === "turn-record"),
    `nudged from the turn record; ${context}`,
  );
  assert.ok(
    records.every((r) => r.fields.result !== "error" && r.fields.result !== "bad-input"),
    context,
  );
  assert.ok(LEARNING.includes("NOTES-LEARNED"));
}

function agentTest(name: AgentCli, fn: (bin: string) => Promise<void>): void {
  Deno.test({
    name: `e2e: ${name}: read, edit, nudge, learning filed, context once`,
    ignore: !ENABLED || bins[name] === undefined,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => fn(bins[name]!),
  });
}

// ---- Codex CLI

/** Trusts every listed hook through `codex app-server` (what the TUI's `/hooks` review writes). */
async function trustCodexHooks(
  bin: string,
  env: Record<string, string>,
  cwd: string,
): Promise<number> {
  const child = new Deno.Command(bin, {
    args: ["app-server"],
    cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (value: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify(value) + "\n"));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    while (true) {
      const newline = buffer.indexOf("\n");
      if (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const message = JSON.parse(line);
        if (message.id === id) return message;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("codex app-server closed");
      buffer += value;
    }
  };
  await send({
    id: 1,
    method: "initialize",
    params: { clientInfo: { name: "librarian-e2e", version: "0" } },
  });
  await answer(1);
  await send({ method: "initialized" });
  await send({ id: 2, method: "hooks/list", params: { cwds: [cwd] } });
  const listed = await answer(2) as { result: { data: { hooks: Record<string, string>[] }[] } };
  let trusted = 0;
  let toml = "";
  for (const entry of listed.result.data) {
    for (const hook of entry.hooks) {
      if (hook.trustStatus !== "untrusted" && hook.trustStatus !== "modified") continue;
      // a plugin hook's hash is "<definition>/<plugin content>", stored as two keys
      const [definition, content] = hook.currentHash!.split("/");
      toml += `\n[hooks.state."${hook.key}"]\ntrusted_hash = "${definition}"\n`;
      if (content) toml += `trusted_content_hash = "${content}"\n`;
      trusted++;
    }
  }
  await writer.close().catch(() => {});
  await lines.cancel().catch(() => {});
  try {
    child.kill();
  } catch {
    // gone
  }
  await child.status;
  await Deno.writeTextFile(join(env.CODEX_HOME!, "config.toml"), toml, { append: true });
  return trusted;
}

agentTest("codex", async (bin) => {
  await using s = await setup();
  const codexHome = join(s.home, ".codex");
  await Deno.mkdir(codexHome, { recursive: true });
  await Deno.writeTextFile(
    join(codexHome, "config.toml"),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      "",
      "[model_providers.mock]",
      'name = "Mock (loopback)"',
      `base_url = "${s.model.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      "",
    ].join("\n"),
  );
  const env = { ...s.env, CODEX_HOME: codexHome, MOCK_API_KEY: "sk-mock" };
  const mkt = join(s.dir, "marketplace");
  const plugin = await marketplace(mkt);
  const added = await exec(bin, ["plugin", "marketplace", "add", mkt], { env, cwd: s.root });
  assert.equal(added.code, 0, added.out);
  const installed = await exec(bin, ["plugin", "add", "librarian@librarian-e2e"], {
    env,
    cwd: s.root,
  });
  assert.equal(installed.code, 0, installed.out);
  // installed, not yet trusted: doctor says so (Codex would skip the hooks without a word)
  const doctor = async () =>
    JSON.parse(
      (await exec("sh", [join(plugin, "bin/librarian"), "doctor", "--json"], { env, cwd: s.root }))
        .stdout,
    );
  const before = await doctor();
  const codexBefore = (before.checks as { id: string; status: string }[]).find((c) =>
    c.id === "codex"
  );
  assert.equal(codexBefore?.status, "warn", JSON.stringify(before));
  assert.ok(await trustCodexHooks(bin, env, s.root) >= 6, "every plugin hook listed and trusted");
  const after = await doctor();
  assert.equal(
    (after.checks as { id: string; status: string }[]).find((c) => c.id === "codex")?.status,
    "ok",
  );
  const run = await exec(bin, ["exec", "--json", "--skip-git-repo-check", "-C", s.root, PROMPT], {
    env,
    cwd: s.root,
  });
  assert.equal(run.code, 0, run.out);
  await assertScenario(s, "codex", run.out);
  const last = s.model.mainBodies().at(-1)!;
  assert.equal(count(last, "GLOBAL-TECH"), 1, "the root's file came once, at session start");
});

// ---- GitHub Copilot CLI

agentTest("copilot", async (bin) => {
  await using s = await setup();
  const copilotHome = join(s.home, ".copilot");
  const env = {
    ...s.env,
    COPILOT_HOME: copilotHome,
    COPILOT_PROVIDER_BASE_URL: `${s.model.url}/v1`,
    COPILOT_PROVIDER_API_KEY: "mock",
    COPILOT_MODEL: "claude-sonnet-4.5",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
  };
  const mkt = join(s.dir, "marketplace");
  await marketplace(mkt);
  const added = await exec(bin, ["plugin", "marketplace", "add", mkt], { env, cwd: s.root });
  assert.equal(added.code, 0, added.out);
  const installed = await exec(bin, ["plugin", "install", "librarian@librarian-e2e"], {
    env,
    cwd: s.root,
  });
  assert.equal(installed.code, 0, installed.out);
  const run = await exec(bin, ["-p", PROMPT, "--allow-all-tools", "--output-format", "json"], {
    env,
    cwd: s.root,
    timeoutMs: 180_000,
  });
  assert.equal(run.code, 0, run.out);
  await assertScenario(s, "copilot", run.out);
  const last = s.model.mainBodies().at(-1)!;
  assert.equal(count(last, "GLOBAL-TECH"), 1, "the root's file came once, at session start");
});

// ---- Gemini CLI

agentTest("gemini", async (bin) => {
  await using s = await setup();
  const env = {
    ...s.env,
    GEMINI_CLI_HOME: s.home,
    GOOGLE_GEMINI_BASE_URL: s.model.url,
    GEMINI_API_KEY: "mock-key",
  };
  await writeTree(s.home, {
    ".gemini/settings.json": JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { disableAutoUpdate: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  });
  const mkt = join(s.dir, "marketplace");
  const plugin = await marketplace(mkt);
  const extension = join(s.dir, "gemini-extension");
  const made = await exec(
    "sh",
    [join(plugin, "bin/librarian"), "setup-gemini", "--dir", extension],
    {
      env,
      cwd: s.root,
    },
  );
  assert.equal(made.code, 0, made.out);
  const installed = await exec(bin, ["extensions", "install", extension, "--consent"], {
    env,
    cwd: s.root,
    stdin: "y\n",
  });
  assert.equal(installed.code, 0, installed.out);
  const run = await exec(bin, ["-p", PROMPT, "-o", "stream-json", "--skip-trust", "-y"], {
    env,
    cwd: s.root,
    timeoutMs: 180_000,
  });
  assert.equal(run.code, 0, run.out);
  await assertScenario(s, "gemini", run.out);
});
