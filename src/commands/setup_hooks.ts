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
import { claudeDir, type EnvReader, processEnv } from "../core/env.ts";
import { LibrarianError } from "../core/errors.ts";
import { isDirectory } from "../core/fs_probe.ts";
import { joinPath, normalizePath } from "../core/paths.ts";
import { EXIT_OK, flag, runCommand, stringOption, UsageError } from "./cli.ts";
import { type CommandSpec } from "./cli_help.ts";
import { makeStyle, printJson } from "./cli_output.ts";
import {
  desiredHooks,
  formatSettings,
  type HookChange,
  setLibraryPath,
  SettingsShapeError,
} from "./hook_settings.ts";
import { type HookProgram, type HookShell } from "./hook_command.ts";
import { mergeHooks, removeLibrarianHooks } from "./hook_merge.ts";
import { absolute, chooseProgram, chooseProject } from "./hook_program.ts";
import { detectHookWiring } from "./hooks_wiring.ts";
import { EXCLUDE_LINE, excludeFromGit, readSettings } from "./settings_file.ts";
import { VERSION } from "../version.ts";

export { isPluginCachePath } from "./hook_program.ts";

/** The command line of `librarian setup-hooks`. */
export const SPEC: CommandSpec = {
  name: "setup-hooks",
  synopsis:
    "[--project <dir>|--user] [--library-path <dir>] [--env-only] [--shell sh|powershell] " +
    "[--launcher <path>] [--remove] [--dry-run] [--json]",
  summary: "write the hooks into .claude/settings.local.json, for use without the plugin",
  details: [
    "Merges the Librarian's hooks (PreToolUse, UserPromptSubmit, SessionStart, SubagentStart,",
    "Stop) into the project's .claude/settings.local.json, running this installation by absolute",
    "path. Other",
    "settings and hooks are kept; older Librarian entries are updated; a rerun changes nothing.",
    "Plugin users do not need this (the plugin registers the hooks); they may use",
    "--library-path <dir> --env-only to save LIBRARIAN_PATH.",
    "On Windows without Git Bash, Claude Code runs hooks with PowerShell: use --shell powershell",
    "(needs the compiled librarian-<target>.exe).",
    "--remove takes out exactly the hook entries setup-hooks writes (any install path) and keeps",
    "everything else, LIBRARIAN_PATH included; a rerun changes nothing. It is the fix when the",
    "plugin and settings both run the hooks.",
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
    remove: { type: "boolean", description: "remove the Librarian's hooks from the settings" },
    "dry-run": { type: "boolean", description: "show the changes without writing" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** What `setup-hooks` did (or, with `--dry-run`, would do). */
export interface SetupReport {
  version: string;
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

interface SetupRequest {
  remove?: boolean;
  project: string | undefined;
  user: boolean;
  libraryPath: string | undefined;
  envOnly: boolean;
  shell: HookShell;
  launcher: string | undefined;
  dryRun: boolean;
}

/**
 * Runs the setup; returns what it did.
 *
 * @example Usage
 * ```ts
 * import { setupHooks } from "./setup_hooks.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/bin`);
 * Deno.writeTextFileSync(`${project}/bin/librarian`, "#!/bin/sh\n");
 * const request = {
 *   project,
 *   user: false,
 *   libraryPath: undefined,
 *   envOnly: false,
 *   shell: "sh" as const,
 *   launcher: `${project}/bin/librarian`,
 *   dryRun: false,
 * };
 * const report = await setupHooks(request, envFrom({ HOME: project }), project);
 * assert.equal(report.settingsFile, `${project}/.claude/settings.local.json`);
 * assert.ok(report.written && report.hooks.every((h) => h.action === "added"));
 * const again = await setupHooks(request, envFrom({ HOME: project }), project);
 * assert.equal(again.changed, false);
 * ```
 */
export async function setupHooks(
  request: SetupRequest,
  env: EnvReader,
  cwd: string,
): Promise<SetupReport> {
  let settingsFile: string;
  let project: string | undefined;
  if (request.user) {
    const claude = claudeDir(env);
    if (!claude) {
      throw new LibrarianError("no home folder (HOME or USERPROFILE) to find ~/.claude in");
    }
    settingsFile = joinPath(claude, "settings.json");
  } else {
    project = await chooseProject(request.project, env, cwd);
    if (!(isDirectory(project))) {
      throw new LibrarianError(`the project folder ${project} does not exist`);
    }
    settingsFile = joinPath(project, ".claude", "settings.local.json");
  }
  try {
    return await setupSettingsFile(request, env, cwd, settingsFile, project);
  } catch (error) {
    if (!(error instanceof SettingsShapeError)) throw error;
    throw new LibrarianError(
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
  const { settings: before, existed } = readSettings(settingsFile);
  let after = before;
  let hooks: HookChange[] = [];
  let program: HookProgram | null = null;
  if (request.remove) {
    const removed = removeLibrarianHooks(after);
    after = removed.settings;
    hooks = removed.changes;
  } else if (!request.envOnly) {
    program = chooseProgram(request.launcher, request.shell, env, cwd);
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
    if (!(isDirectory(value))) {
      throw new LibrarianError(
        `the library ${value} does not exist; create it with 'librarian init', then run this again`,
      );
    }
    const set = setLibraryPath(after, value);
    after = set.settings;
    libraryPath = { value, action: set.action };
  }
  const changed = request.remove
    ? existed && formatSettings(after) !== formatSettings(before)
    : !existed || formatSettings(after) !== formatSettings(before);
  if (changed && !request.dryRun) await writeTextAtomic(settingsFile, formatSettings(after));
  const excludedFromGit = !existed && project !== undefined && !request.remove
    ? await excludeFromGit(project, request.dryRun)
    : false;
  if (Deno.build.os === "windows" && request.shell === "sh" && !request.envOnly) {
    notes.push(
      "these hooks need Git Bash (Git for Windows); without it, rerun with --shell powershell",
    );
  }
  return {
    version: VERSION,
    settingsFile,
    created: !existed && changed,
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
      remove: flag(parsed, "remove"),
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
    if (request.remove && (request.envOnly || request.libraryPath !== undefined)) {
      throw new UsageError("--remove takes no --env-only or --library-path");
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
