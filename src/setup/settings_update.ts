/**
 * What `librarian setup-hooks` does to one Claude Code settings file: merge the Librarian's hooks
 * into it (or remove them), optionally save `LIBRARIAN_PATH` in its `env`, write it atomically and
 * keep a new `.claude/settings.local.json` out of git. The command line is in `setup_hooks.ts`.
 *
 * @module
 */

import {
  Boundary,
  claudeDir,
  dirnameOf,
  type EnvReader,
  homeDir,
  isDirectory,
  joinPath,
  LibrarianError,
} from "../core/mod.ts";
import { type HookProgram, type HookShell } from "./hook_command.ts";
import { mergeHooks, removeLibrarianHooks } from "./hook_merge.ts";
import { absolute, chooseProgram, chooseProject } from "./hook_program.ts";
import {
  desiredHooks,
  formatSettings,
  type HookChange,
  setLibraryPath,
  SettingsShapeError,
} from "./hook_settings.ts";
import { detectHookWiring } from "./hooks_wiring.ts";
import { excludeFromGit, readSettings } from "./settings_file.ts";
import { VERSION } from "../version.ts";

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

/** What `setup-hooks` was asked to do (its options, checked). */
export interface SetupRequest {
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
 * import { setupHooks } from "./settings_update.ts";
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
  // A settings file the person links to is written through, inside the project (or, for the
  // user's settings, the home folder); a link that leads outside is refused before anything.
  const boundary = project !== undefined
    ? new Boundary(project, "project")
    : new Boundary(homeDir(env) ?? dirnameOf(settingsFile), "folder");
  boundary.place(settingsFile, { intent: "write" });
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
    notes.push(
      "the hooks do not use LIBRARIAN_PATH from a project's settings (a repository can commit " +
        "them; docs/configuration.md): the project's _memory_library/ is found without it, and " +
        "a library elsewhere is named in your own environment (export LIBRARIAN_PATH=...)",
    );
  }
  const changed = request.remove
    ? existed && formatSettings(after) !== formatSettings(before)
    : !existed || formatSettings(after) !== formatSettings(before);
  if (changed && !request.dryRun) boundary.writeText(settingsFile, formatSettings(after));
  const excludedFromGit = !existed && project !== undefined && !request.remove
    ? excludeFromGit(project, request.dryRun, boundary)
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
