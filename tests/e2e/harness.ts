/**
 * The end-to-end harness: a throwaway project, a temp `HOME`, the scripted model server, and the
 * real Claude Code CLI run with this repository as its plugin (`--plugin-dir`, source mode).
 *
 * ```ts
 * await using project = await createProject({ "src/a.ts": "...", "_memory_library/tech.md": "..." });
 * const run = await project.run("fix it", [[toolUse("Read", { file_path: project.path("src/a.ts") })], [text("done")]]);
 * run.turns.at(-1)!.body; // what the model was sent last
 * ```
 *
 * Everything lives under one temp folder (project, home, tmp, plugin log) that is removed on
 * dispose. The CLI gets a clean environment: loopback model server, no telemetry, no updater.
 *
 * @module
 */

import { join, relative } from "node:path";
import { type LogRecord, parseLogLine } from "../../src/core/log.ts";
import { denoDir, REPO_ROOT, tempDir, writeTree } from "../helpers.ts";
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedTurn,
  startModelServer,
} from "./model_server.ts";

/** The `--output-format json` result the CLI prints (the fields the tests read). */
export interface ClaudeResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  permission_denials: {
    tool_name: string;
    tool_use_id: string;
    tool_input: Record<string, unknown>;
  }[];
  [key: string]: unknown;
}

/** One CLI run. */
export interface ClaudeRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed JSON result, or `null` when stdout was not JSON. */
  result: ClaudeResult | null;
  /** Requests the model server received during this run. */
  requests: RecordedRequest[];
  /** The main-loop requests among them (one per model turn). */
  turns: RecordedRequest[];
  /** Main-loop requests of this run that found the script empty. */
  unscripted: number;
  /** Wall time of the CLI process, milliseconds. */
  wallMs: number;
}

/** Options for one CLI run. */
export interface RunOptions {
  /** `acceptEdits` unless given. */
  permissionMode?: "acceptEdits" | "default";
  /** Continue the most recent session in this project (`--continue`). */
  continueSession?: boolean;
  /** Resume a session by id (`--resume <id>`). */
  resume?: string;
  /** With `resume` or `continueSession`: a new session holding the old one's conversation (`--fork-session`). */
  forkSession?: boolean;
  /** Write no transcript (`--no-session-persistence`). */
  noSessionPersistence?: boolean;
  /** Extra environment for the CLI (and so for the hooks). */
  env?: Record<string, string>;
  /** Kill the CLI after this long (default 60 s). */
  timeoutMs?: number;
}

/** A throwaway project with its own HOME and model server. */
export interface E2EProject extends AsyncDisposable {
  /** The project folder (real path): the CLI's working folder. */
  root: string;
  /** The temp HOME. */
  home: string;
  /** The plugin log (`LIBRARIAN_LOG`). */
  logPath: string;
  server: ModelServer;
  /** The absolute path of a project-relative path. */
  path(rel: string): string;
  /** Writes project files given as `relative path → content`. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  /** A project file's text, or `null` when it does not exist. */
  read(rel: string): Promise<string | null>;
  /** Every file under the project, relative, sorted. */
  files(): Promise<string[]>;
  /** Claude Code's auto-memory folder for this project under the temp HOME. */
  autoMemoryDir(): string;
  /** Runs `claude -p <prompt>` with `turns` appended to the model script. */
  run(prompt: string, turns: ScriptedTurn[], options?: RunOptions): Promise<ClaudeRun>;
  /** The plugin log, parsed. */
  log(): Promise<LogRecord[]>;
  /** The session transcripts (JSONL) Claude Code wrote under the temp HOME, concatenated. */
  transcripts(): Promise<string>;
}

/** The folder name Claude Code uses for a project under `~/.claude/projects/`. */
export function encodeProjectPath(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, "-");
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else out.push(relative(root, path));
    }
  }
  await walk(root).catch(() => {});
  return out.sort();
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/**
 * Creates a project with `files`, a temp HOME and a running model server.
 *
 * @param claudeBin the `claude` executable.
 * @param pluginDir the plugin folder (`--plugin-dir`); this repository by default; `null` runs the
 *   plugins installed under the temp HOME (`claude plugin install`) instead.
 */
export async function createProject(
  claudeBin: string,
  files: Record<string, string | Uint8Array> = {},
  pluginDir: string | null = REPO_ROOT,
): Promise<E2EProject> {
  const dir = await tempDir("librarian-e2e-");
  const root = join(dir.path, "project");
  const home = join(dir.path, "home");
  const tmp = join(dir.path, "tmp");
  const logPath = join(dir.path, "librarian.log");
  await Promise.all([root, home, tmp].map((p) => Deno.mkdir(p, { recursive: true })));
  await writeTree(root, files);
  const server = startModelServer();
  const cache = await denoDir();

  const run = async (
    prompt: string,
    turns: ScriptedTurn[],
    options: RunOptions = {},
  ): Promise<ClaudeRun> => {
    server.script(turns);
    const firstRequest = server.requests.length;
    const unscriptedBefore = server.unscripted();
    const args = [
      "-p",
      prompt,
      ...(pluginDir === null ? [] : ["--plugin-dir", pluginDir]),
      "--permission-mode",
      options.permissionMode ?? "acceptEdits",
      "--output-format",
      "json",
    ];
    if (options.continueSession) args.push("--continue");
    if (options.resume) args.push("--resume", options.resume);
    if (options.forkSession) args.push("--fork-session");
    if (options.noSessionPersistence) args.push("--no-session-persistence");
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      TMPDIR: tmp,
      LANG: "C.UTF-8",
      DENO_DIR: cache,
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "sk-ant-e2e-not-a-real-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      LIBRARIAN_LOG: logPath,
      // The stop nudge would continue any turn that writes code and tags nothing, and the tagging
      // hint would end every first edit's context; scenarios about capture turn them on with
      // `env: { LIBRARIAN_NUDGE: "session", LIBRARIAN_HINT: "on" }`.
      LIBRARIAN_NUDGE: "off",
      LIBRARIAN_HINT: "off",
      ...options.env,
    };
    const started = performance.now();
    const out = await new Deno.Command(claudeBin, {
      args,
      cwd: root,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    }).output();
    const wallMs = performance.now() - started;
    const stdout = new TextDecoder().decode(out.stdout);
    let result: ClaudeResult | null = null;
    try {
      result = JSON.parse(stdout) as ClaudeResult;
    } catch {
      result = null;
    }
    const requests = server.requests.slice(firstRequest);
    return {
      code: out.code,
      stdout,
      stderr: new TextDecoder().decode(out.stderr),
      result,
      requests,
      turns: requests.filter((r) => r.isTurn),
      unscripted: server.unscripted() - unscriptedBefore,
      wallMs,
    };
  };

  const autoMemoryDir = () => join(home, ".claude", "projects", encodeProjectPath(root), "memory");

  return {
    root,
    home,
    logPath,
    server,
    path: (rel) => join(root, rel),
    write: (more) => writeTree(root, more),
    read: (rel) => readOrNull(join(root, rel)),
    files: () => listFiles(root),
    autoMemoryDir,
    run,
    async log() {
      const text = await readOrNull(logPath) ?? "";
      return text.split("\n").map(parseLogLine).filter((r): r is LogRecord => r !== null);
    },
    async transcripts() {
      const projects = join(home, ".claude", "projects");
      const all = await listFiles(projects);
      const texts = await Promise.all(
        all.filter((f) => f.endsWith(".jsonl")).map((f) => readOrNull(join(projects, f))),
      );
      return texts.join("\n");
    },
    async [Symbol.asyncDispose]() {
      await server.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}
