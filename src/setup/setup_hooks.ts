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

import { type EnvReader, normalizePath, processEnv } from "../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  makeStyle,
  printJson,
  runCommand,
  stringOption,
  UsageError,
} from "../cli/mod.ts";
import { setupHooks, type SetupReport, type SetupRequest } from "./settings_update.ts";
import { EXCLUDE_LINE } from "./settings_file.ts";

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
