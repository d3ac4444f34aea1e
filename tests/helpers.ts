/**
 * Test helpers: throwaway projects and running `sh bin/librarian` exactly as Claude Code does.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { binaryFileName } from "../scripts/build_plan.ts";
import { normalizePath } from "../src/core/paths.ts";
import { namesOfKind } from "../src/core/env_vars.ts";
import { PERMISSION_FLAGS, V8_FLAGS } from "../src/permissions.ts";

/** The repository root. */
export const REPO_ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The launcher the hooks call. */
export const LAUNCHER: string = join(REPO_ROOT, "bin", "librarian");
/** The compiled binary for this machine, where `deno task build --target host` puts it. */
export const HOST_BINARY: string = join(REPO_ROOT, "bin", binaryFileName(Deno.build.target));

/** How the launcher runs the program: from source with deno, or the compiled host binary. */
export type LauncherMode = "source" | "binary";

/**
 * `LIBRARIAN_TEST_MODE=binary` (or `source`) runs every subprocess test in that mode: the default
 * of {@link runLibrarian}, and the only entry of {@link launcherModes}. `deno task test:binary`
 * runs the whole suite against `bin/librarian-<host target>` this way.
 */
const TEST_MODE = Deno.env.get("LIBRARIAN_TEST_MODE");
const FORCED_MODE: LauncherMode | undefined = TEST_MODE === "binary" || TEST_MODE === "source"
  ? TEST_MODE
  : undefined;

/**
 * The modes a subprocess suite runs in: always `"source"`, and `"binary"` too when
 * {@link HOST_BINARY} exists; only the one `LIBRARIAN_TEST_MODE` names, when it is set. Run a test
 * in each and pass the mode to {@link runLibrarian}:
 *
 * ```ts
 * for (const mode of launcherModes()) {
 *   Deno.test(`[${mode}] inject sends the folder's files`, async () => {
 *     const result = await runLibrarian(["inject"], { mode, stdin: "..." });
 *   });
 * }
 * ```
 */
export function launcherModes(): LauncherMode[] {
  if (FORCED_MODE) return [FORCED_MODE];
  try {
    return Deno.statSync(HOST_BINARY).isFile ? ["source", "binary"] : ["source"];
  } catch {
    return ["source"];
  }
}

let denoDirCache: string | undefined;

/** Deno's cache folder, so child processes with a temp HOME reuse the warm cache. */
export async function denoDir(): Promise<string> {
  if (denoDirCache) return denoDirCache;
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return denoDirCache = fromEnv;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  })
    .output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir: string };
  return denoDirCache = info.denoDir;
}

/** A temp folder removed when disposed (`await using dir = await tempDir()`). */
export interface TempDir extends AsyncDisposable {
  path: string;
}

/**
 * Makes a temp folder: its real path (so symlinked temp roots do not confuse path comparisons), in
 * the program's own normal form (`C:/Users/...` on Windows), so `${dir.path}/x` is what it prints.
 */
export async function tempDir(prefix = "librarian-test-"): Promise<TempDir> {
  const path = normalizePath(await Deno.realPath(await Deno.makeTempDir({ prefix })));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** A throwaway project: `<tmp>/proj` holds the code and its library, `<tmp>/home` is HOME. */
export interface TempProject {
  dir: TempDir;
  /** The project root (holds `_memory_library/`). */
  root: string;
  home: string;
}

/** Makes a {@link TempProject}; `files` are relative to the temp folder (`proj/...`). */
export async function tempProject(
  files: Record<string, string | Uint8Array>,
): Promise<TempProject> {
  const dir = await tempDir();
  await writeTree(dir.path, files);
  return { dir, root: `${dir.path}/proj`, home: `${dir.path}/home` };
}

/** Writes files given as `relative path → content` under `root`, creating folders. */
export async function writeTree(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(dirname(path), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
}

/** The result of one launcher run. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the child ran past `deadlineMs` and was killed. */
  killed?: boolean;
}

/** Options for {@link runLibrarian}. */
export interface RunOptions {
  /** Text for stdin (closed after writing); none gives an empty stdin. */
  stdin?: string;
  /**
   * Environment on top of a clean one (PATH, HOME, DENO_DIR, LIBRARIAN_LOG=off by default). One
   * that names a test-only knob (`LIBRARIAN_FAULT`, `LIBRARIAN_NOW`, `LIBRARIAN_LOCK_TIMEOUT_MS`)
   * runs {@link KNOB_PROGRAM} from source instead of the launcher, whatever `mode` says: what
   * ships never reads the knobs.
   */
  env?: Record<string, string>;
  cwd?: string;
  /** The HOME for the child (defaults to a folder that does not exist). */
  home?: string;
  /**
   * Force source mode (`LIBRARIAN_FORCE_SOURCE=1`) or the compiled binary
   * (`LIBRARIAN_FORCE_BINARY=1`, no silent fallback to deno); by default the launcher picks the
   * binary when one is present (or as `LIBRARIAN_TEST_MODE` says, for the repository's launcher).
   * See {@link launcherModes}.
   */
  mode?: LauncherMode;
  /** Another copy of the launcher to run (default {@link LAUNCHER}). */
  launcher?: string;
  /** Called with the child process once it runs (e.g. to kill it mid-way). */
  onSpawn?: (child: Deno.ChildProcess) => void;
  /** Kill the child (SIGKILL) if it runs longer than this, and report `killed: true`. */
  deadlineMs?: number;
}

let noHome: string | undefined;

/**
 * The HOME of a run that names none: a folder that does not exist, inside a temp folder removed
 * when the test process ends (a command that takes the library lock creates `~/.claude` there,
 * never at the file-system root).
 */
function absentHome(): string {
  if (noHome === undefined) {
    const dir = Deno.makeTempDirSync({ prefix: "librarian-no-home-" });
    noHome = join(dir, "home");
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // already gone
      }
    });
  }
  return noHome;
}

/**
 * Runs `sh bin/librarian <args>` with a clean environment, as Claude Code runs a hook.
 * The launcher picks a compiled binary when one is present, unless `mode` says otherwise.
 */
/**
 * The shell that runs the launcher: `sh`, or `LIBRARIAN_TEST_SHELL` (`dash`, `bash --posix`,
 * `busybox sh`, `zsh --emulate sh`) so the launcher tests can run under each shell.
 */
const LAUNCHER_SHELL: string[] = (() => {
  const [name, ...rest] = (Deno.env.get("LIBRARIAN_TEST_SHELL") ?? "sh").split(" ");
  // By absolute path: a test may give the launcher a PATH without this shell on it.
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    try {
      if (Deno.statSync(join(dir, name!)).isFile) return [join(dir, name!), ...rest];
    } catch {
      // not in this folder
    }
  }
  return [name!, ...rest];
})();

/** The entry that reads the test-only knobs (tests/knob_program.ts). */
export const KNOB_PROGRAM: string = join(REPO_ROOT, "tests", "knob_program.ts");

const TEST_KNOBS: readonly string[] = namesOfKind("test");

export async function runLibrarian(args: string[], options: RunOptions = {}): Promise<RunResult> {
  // LIBRARIAN_TEST_MODE applies to the repository's launcher, not to copies under test.
  const mode = options.mode ?? (options.launcher === undefined ? FORCED_MODE : undefined);
  const knobs = options.launcher === undefined &&
    Object.keys(options.env ?? {}).some((name) => TEST_KNOBS.includes(name));
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: options.home ?? absentHome(),
    DENO_DIR: await denoDir(),
    LIBRARIAN_LOG: "off",
    ...(mode === "source" ? { LIBRARIAN_FORCE_SOURCE: "1" } : {}),
    ...(mode === "binary" ? { LIBRARIAN_FORCE_BINARY: "1" } : {}),
    ...options.env,
  };
  const [shell, ...shellArgs] = LAUNCHER_SHELL;
  const command = knobs
    ? [
      Deno.execPath(),
      "run",
      "--quiet",
      "--config",
      join(REPO_ROOT, "deno.json"),
      ...PERMISSION_FLAGS,
      ...V8_FLAGS,
      KNOB_PROGRAM,
      ...args,
    ]
    : [shell!, ...shellArgs, options.launcher ?? LAUNCHER, ...args];
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd: options.cwd ?? REPO_ROOT,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  options.onSpawn?.(child);
  let killed = false;
  const timer = options.deadlineMs === undefined ? undefined : setTimeout(() => {
    killed = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, options.deadlineMs);
  try {
    const writer = child.stdin.getWriter();
    if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  } catch {
    // the child exited (or was killed) before reading all of stdin
  }
  const out = await child.output();
  clearTimeout(timer);
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
    ...(options.deadlineMs === undefined ? {} : { killed }),
  };
}

/** Parses hook stdout: `null` for no output, else the one JSON object (throws if not exactly one). */
export function parseHookStdout(stdout: string): Record<string, unknown> | null {
  const trimmed = stdout.trim();
  if (trimmed === "") return null;
  if (trimmed.split("\n").length !== 1) {
    throw new Error(`expected one line of JSON, got: ${stdout}`);
  }
  const value = JSON.parse(trimmed);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`expected a JSON object, got: ${stdout}`);
  }
  return value as Record<string, unknown>;
}

/** The context a hook run sent: its `additionalContext`, or a held call's whole reason; `""` for none. */
export function hookContextOf(result: RunResult): string {
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific?.permissionDecision === "deny") return String(specific.permissionDecisionReason);
  return typeof specific?.additionalContext === "string" ? specific.additionalContext : "";
}

/** A PreToolUse event of session `s-1` in `root`, as the client sends it on stdin. */
export function preToolUseEvent(
  root: string,
  tool: string,
  input: Record<string, unknown>,
  id: string,
): string {
  return JSON.stringify({
    session_id: "s-1",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_use_id: id,
    tool_input: input,
    cwd: root,
  });
}
