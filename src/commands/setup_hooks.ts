/**
 * `librarian setup-hooks`: use the Librarian without the plugin system.
 *
 * Merges the plugin's hook entries (from `hooks/hooks.json`) into the project's
 * `.claude/settings.local.json` (or, with `--user`, `~/.claude/settings.json`), pointing at this
 * installation's launcher or binary by absolute path. Every other key and every other hook is kept;
 * a rerun changes nothing. `--library-path` also saves `LIBRARIAN_PATH` in the settings' `env`
 * (with `--env-only`, that is all it does: the plugin's users need no hooks in settings).
 *
 * @module
 */

import { writeTextAtomic } from "../core/atomic.ts";
import { findLibraryAbove } from "../core/discover.ts";
import { claudeDir, type EnvReader, processEnv } from "../core/env.ts";
import { dirnameOf, joinPath, normalizePath, resolveLocalPath } from "../core/paths.ts";
import {
  type CommandSpec,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  makeStyle,
  printJson,
  runCommand,
  stringOption,
  UsageError,
} from "./cli.ts";
import {
  desiredHooks,
  formatSettings,
  type HookChange,
  type HookProgram,
  type HookShell,
  type Json,
  mergeHooks,
  setLibraryPath,
  SettingsShapeError,
} from "./hook_settings.ts";
import { detectHookWiring } from "./hooks_wiring.ts";
import { binaryName, currentRuntime } from "./install_check.ts";
import { isDirectory, isFile } from "../core/fs_probe.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";

/** The command line of `librarian setup-hooks`. */
export const SPEC: CommandSpec = {
  name: "setup-hooks",
  synopsis:
    "[--project <dir>|--user] [--library-path <dir>] [--env-only] [--shell sh|powershell] " +
    "[--launcher <path>] [--dry-run] [--json]",
  summary: "write the hooks into .claude/settings.local.json, for use without the plugin",
  details: [
    "Merges the Librarian's hooks (PreToolUse, UserPromptSubmit, SessionStart, Stop) into the",
    "project's .claude/settings.local.json, running this installation by absolute path. Other",
    "settings and hooks are kept; older Librarian entries are updated; a rerun changes nothing.",
    "Plugin users do not need this (the plugin registers the hooks); they may use",
    "--library-path <dir> --env-only to save LIBRARIAN_PATH.",
    "On Windows without Git Bash, Claude Code runs hooks with PowerShell: use --shell powershell",
    "(needs the compiled librarian-<target>.exe).",
  ],
  options: {
    project: {
      type: "string",
      valueName: "<dir>",
      description: "the project (default: CLAUDE_PROJECT_DIR, else the library's or git's root)",
    },
    user: {
      type: "boolean",
      description: "write ~/.claude/settings.json instead (hooks for every project)",
    },
    "library-path": {
      type: "string",
      valueName: "<dir>",
      description: "also save LIBRARIAN_PATH=<dir> in the settings' env",
    },
    "env-only": { type: "boolean", description: "only save LIBRARIAN_PATH; write no hooks" },
    shell: {
      type: "string",
      valueName: "sh|powershell",
      description: "how Claude Code runs the hooks (default sh: macOS, Linux, Git Bash)",
    },
    launcher: {
      type: "string",
      valueName: "<path>",
      description: "the launcher or binary the hooks run (default: this installation)",
    },
    "dry-run": { type: "boolean", description: "show the changes without writing" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** What `setup-hooks` did (or, with `--dry-run`, would do). */
export interface SetupReport {
  settingsFile: string;
  /** The file did not exist before. */
  created: boolean;
  changed: boolean;
  written: boolean;
  dryRun: boolean;
  program: HookProgram | null;
  hooks: HookChange[];
  libraryPath?: { value: string; action: "added" | "updated" | "unchanged" };
  /** `.claude/settings.local.json` was added to `.git/info/exclude`. */
  excludedFromGit: boolean;
  notes: string[];
}

/** A problem the user must fix before setup can run; the message says how (exit 1). */
class SetupError extends LibrarianError {
  constructor(message: string) {
    super(message, { exitCode: EXIT_PROBLEMS });
    this.name = "SetupError";
  }
}

function absolute(path: string, cwd: string): string {
  const resolved = resolveLocalPath(path, cwd);
  if (resolved === null) throw new SetupError(`'${path}' is not a path on this machine`);
  return resolved;
}

/** The project: `--project`, else `CLAUDE_PROJECT_DIR`, else the library's, else git's root. */
async function chooseProject(
  option: string | undefined,
  env: EnvReader,
  cwd: string,
): Promise<string> {
  if (option !== undefined) return absolute(option, cwd);
  const fromEnv = env("CLAUDE_PROJECT_DIR")?.trim();
  if (fromEnv) return absolute(fromEnv, cwd);
  const library = await findLibraryAbove(cwd, "cwd");
  if (library) return library.projectRoot;
  for (let dir = cwd; dir !== "" && dirnameOf(dir) !== dir; dir = dirnameOf(dir)) {
    if (await isDirectory(joinPath(dir, ".git")) || await isFile(joinPath(dir, ".git"))) return dir;
  }
  return cwd;
}

/** True for a path inside Claude Code's plugin cache, which changes with every plugin update. */
export function isPluginCachePath(path: string): boolean {
  return /\/plugins\/(cache|marketplaces)\//i.test(normalizePath(path));
}

/** What the hooks should run: `--launcher`, else this installation's launcher or binary. */
async function chooseProgram(
  option: string | undefined,
  shell: HookShell,
  env: EnvReader,
  cwd: string,
): Promise<HookProgram> {
  let program: HookProgram;
  if (option !== undefined) {
    const path = absolute(option, cwd);
    if (!(await isFile(path))) throw new SetupError(`--launcher ${path} is not a file`);
    program = { kind: /[\\/]librarian$/.test(path) ? "launcher" : "binary", path };
  } else {
    const launcher = env("LIBRARIAN_LAUNCHER")?.trim();
    const runtime = currentRuntime();
    if (launcher) program = { kind: "launcher", path: absolute(launcher, cwd) };
    else if (runtime.compiled) program = { kind: "binary", path: runtime.execPath };
    else {
      const url = new URL("../../bin/librarian", import.meta.url);
      program = { kind: "launcher", path: normalizePath(decodeURIComponent(url.pathname)) };
      program.path = program.path.replace(/^\/([A-Za-z]:)/, "$1");
    }
    if (isPluginCachePath(program.path)) {
      throw new SetupError(
        `this is the plugin's copy of the Librarian (${program.path}), which moves with every ` +
          "plugin update, and the plugin already runs these hooks; use --library-path <dir> " +
          "--env-only to save LIBRARIAN_PATH only, or --launcher <path> of a separate install",
      );
    }
  }
  if (shell === "powershell" && program.kind === "launcher") {
    const exe = joinPath(
      dirnameOf(normalizePath(program.path)),
      binaryName(currentRuntime().target),
    );
    if (!(await isFile(exe))) {
      throw new SetupError(
        `PowerShell hooks run the compiled binary, and there is none at ${exe}; download it ` +
          "from the release, or pass --launcher <path to librarian-<target>.exe>",
      );
    }
    program = { kind: "binary", path: exe };
  }
  return program;
}

async function readSettings(path: string): Promise<{ settings: Json; existed: boolean }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { settings: {}, existed: false };
    throw error;
  }
  if (text.trim() === "") return { settings: {}, existed: true };
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const detail = messageOf(error);
    throw new SetupError(`${path} is not valid JSON (${detail}); fix it, then run this again`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SetupError(`${path} does not hold a JSON object; fix it, then run this again`);
  }
  return { settings: value as Json, existed: true };
}

const EXCLUDE_LINE = ".claude/settings.local.json";

/** Keeps a new per-developer settings file out of git via `.git/info/exclude` (local only). */
async function excludeFromGit(project: string, dryRun: boolean): Promise<boolean> {
  if (!(await isDirectory(joinPath(project, ".git")))) return false;
  const exclude = joinPath(project, ".git", "info", "exclude");
  for (const file of [joinPath(project, ".gitignore"), exclude]) {
    try {
      if ((await Deno.readTextFile(file)).includes("settings.local.json")) return false;
    } catch {
      // no such file
    }
  }
  if (dryRun) return true;
  let text = "";
  try {
    text = await Deno.readTextFile(exclude);
  } catch {
    // created below
  }
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  await writeTextAtomic(exclude, `${text}${sep}${EXCLUDE_LINE}\n`);
  return true;
}

interface SetupRequest {
  project: string | undefined;
  user: boolean;
  libraryPath: string | undefined;
  envOnly: boolean;
  shell: HookShell;
  launcher: string | undefined;
  dryRun: boolean;
}

/** Runs the setup; returns what it did. */
export async function setupHooks(
  request: SetupRequest,
  env: EnvReader,
  cwd: string,
): Promise<SetupReport> {
  let settingsFile: string;
  let project: string | undefined;
  if (request.user) {
    const claude = claudeDir(env);
    if (!claude) throw new SetupError("no home folder (HOME or USERPROFILE) to find ~/.claude in");
    settingsFile = joinPath(claude, "settings.json");
  } else {
    project = await chooseProject(request.project, env, cwd);
    if (!(await isDirectory(project))) {
      throw new SetupError(`the project folder ${project} does not exist`);
    }
    settingsFile = joinPath(project, ".claude", "settings.local.json");
  }
  try {
    return await setupSettingsFile(request, env, cwd, settingsFile, project);
  } catch (error) {
    if (!(error instanceof SettingsShapeError)) throw error;
    throw new SetupError(
      `in ${settingsFile}, ${error.message}; fix it by hand, then run this again`,
    );
  }
}

async function setupSettingsFile(
  request: SetupRequest,
  env: EnvReader,
  cwd: string,
  settingsFile: string,
  project: string | undefined,
): Promise<SetupReport> {
  const notes: string[] = [];
  const { settings: before, existed } = await readSettings(settingsFile);
  let after = before;
  let hooks: HookChange[] = [];
  let program: HookProgram | null = null;
  if (!request.envOnly) {
    program = await chooseProgram(request.launcher, request.shell, env, cwd);
    const merged = mergeHooks(after, desiredHooks(program, request.shell));
    after = merged.settings;
    hooks = merged.changes;
    const wiring = await detectHookWiring(env, project);
    if (wiring.plugin.ids.length > 0 && wiring.plugin.enabled !== false) {
      notes.push(
        `the plugin ${wiring.plugin.ids.join(", ")} is installed too, so each hook would run ` +
          "twice; uninstall the plugin or remove these hooks (keep one)",
      );
    }
  }
  let libraryPath: SetupReport["libraryPath"];
  if (request.libraryPath !== undefined) {
    const value = absolute(request.libraryPath, cwd);
    if (!(await isDirectory(value))) {
      throw new SetupError(
        `the library ${value} does not exist; create it with 'librarian init', then run this again`,
      );
    }
    const set = setLibraryPath(after, value);
    after = set.settings;
    libraryPath = { value, action: set.action };
  }
  const changed = !existed || formatSettings(after) !== formatSettings(before);
  if (changed && !request.dryRun) await writeTextAtomic(settingsFile, formatSettings(after));
  const excludedFromGit = !existed && project !== undefined
    ? await excludeFromGit(project, request.dryRun)
    : false;
  if (Deno.build.os === "windows" && request.shell === "sh" && !request.envOnly) {
    notes.push(
      "these hooks need Git Bash (Git for Windows); without it, rerun with --shell powershell",
    );
  }
  return {
    settingsFile,
    created: !existed,
    changed,
    written: changed && !request.dryRun,
    dryRun: request.dryRun,
    program,
    hooks,
    ...(libraryPath ? { libraryPath } : {}),
    excludedFromGit,
    notes,
  };
}

function printReport(report: SetupReport, env: EnvReader): void {
  const style = makeStyle(env);
  const verb = report.dryRun
    ? (report.changed ? "Would update" : "Nothing to change in")
    : (report.written ? (report.created ? "Created" : "Updated") : "Nothing to change in");
  console.log(`${verb} ${report.settingsFile}${report.dryRun ? " (dry run)" : ""}`);
  for (const h of report.hooks) {
    const word = h.action === "unchanged" ? style.dim(h.action) : style.green(h.action);
    const where = h.matcher ? `${h.event} [${h.matcher}]` : h.event;
    console.log(`  ${word}${" ".repeat(10 - h.action.length)}${where}: ${h.command}`);
  }
  if (report.libraryPath) {
    const { action, value } = report.libraryPath;
    const word = action === "unchanged" ? style.dim(action) : style.green(action);
    console.log(`  ${word}${" ".repeat(10 - action.length)}env LIBRARIAN_PATH=${value}`);
  }
  if (report.excludedFromGit) {
    console.log(`  ${style.green("excluded")}  ${EXCLUDE_LINE} in .git/info/exclude`);
  }
  for (const note of report.notes) console.log(`${style.yellow("note:")} ${note}`);
  if (report.written && report.hooks.length > 0) {
    console.log("\nStart a new Claude Code session (or run /hooks) to load them.");
  }
}

/** Runs `librarian setup-hooks`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const shell = stringOption(parsed, "shell") ?? "sh";
    if (shell !== "sh" && shell !== "powershell") {
      throw new UsageError(`--shell must be sh or powershell, got '${shell}'`);
    }
    const request: SetupRequest = {
      project: stringOption(parsed, "project"),
      user: flag(parsed, "user"),
      libraryPath: stringOption(parsed, "library-path"),
      envOnly: flag(parsed, "env-only"),
      shell,
      launcher: stringOption(parsed, "launcher"),
      dryRun: flag(parsed, "dry-run"),
    };
    if (request.user && request.project !== undefined) {
      throw new UsageError("--user and --project exclude each other");
    }
    if (request.envOnly && request.libraryPath === undefined) {
      throw new UsageError("--env-only needs --library-path <dir>");
    }
    if (request.user && request.libraryPath !== undefined) {
      throw new UsageError("LIBRARIAN_PATH belongs to one project: use --project, not --user");
    }
    const report = await setupHooks(request, env, normalizePath(Deno.cwd()));
    if (flag(parsed, "json")) printJson(report);
    else printReport(report, env);
    return EXIT_OK;
  });
}
