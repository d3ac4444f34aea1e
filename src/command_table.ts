/**
 * The table of the Librarian's commands: each name, its one-line summary for `--help`, and how to
 * load its module (only when asked for, so a hook pays for nothing but its own code); the old
 * names that still run for one release, each with its new form; and the command a mistyped name
 * most likely meant.
 *
 * @module
 */

import { loadLater } from "./core/load_later.ts";
import { editDistance } from "./core/words.ts";

/** A command module: `run` returns the process exit code. */
export interface CommandModule {
  run(args: string[]): Promise<number>;
}

/** One command: its summary for `--help`, its module, and for an old name its new form. */
export interface CommandEntry {
  summary: string;
  load: () => Promise<CommandModule>;
  /**
   * For an old name kept for one release: the new form (`sessions <session>`), named in one line
   * on stderr at each run; `--help` does not list it and no typo is taken for it.
   */
  replacedBy?: string;
}

/** The sessions command's module: `sessions`, and the old `sent` and `stats`. */
function loadSessions(): Promise<typeof import("./commands/sessions/sessions.ts")> {
  return loadLater("commands/sessions/sessions.ts");
}

/** Every command, by name, with a one-line summary for `--help`. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  inject: {
    summary: "hook: library context for the file a tool touches (reads a hook event on stdin)",
    load: () => loadLater("inject/inject_hook.ts"),
  },
  stop: {
    summary: "hook: file tagged scratch learnings and new auto memories into the library",
    load: () => loadLater("stop/stop_hook.ts"),
  },
  read: {
    summary: "show exactly what the model is sent before a tool touches a file",
    load: () => loadLater("commands/read/read.ts"),
  },
  explain: {
    summary: "say why the hook sends (or sent) what it does, for a path or one hook event",
    load: () => loadLater("commands/explain/explain.ts"),
  },
  status: {
    summary: "show the library, its folders, pending scratch blocks, hook runs and wiring",
    load: () => loadLater("commands/status/status.ts"),
  },
  route: {
    summary: "file the scratch file's tagged learnings into the library now",
    load: () => loadLater("commands/route_command.ts"),
  },
  init: {
    summary: "create _memory_library/ and the git settings it needs (safe to rerun)",
    load: () => loadLater("commands/init.ts"),
  },
  "setup-hooks": {
    summary: "write the hooks into .claude/settings.local.json, for use without the plugin",
    load: () => loadLater("setup/setup_hooks.ts"),
  },
  "setup-gemini": {
    summary: "write a Gemini CLI extension that runs the hooks (then: gemini extensions install)",
    load: () => loadLater("setup/setup_gemini.ts"),
  },
  doctor: {
    summary: "check why the hooks might not fire, with a fix for each problem",
    load: () => loadLater("commands/doctor/doctor.ts"),
  },
  lint: {
    summary: "check the library's health (stale folders, oversized files, duplicates, ...)",
    load: () => loadLater("commands/lint/lint.ts"),
  },
  export: {
    summary: "write the library as AGENTS.md, Cursor, Copilot or Claude Code rule files",
    load: () => loadLater("export/export.ts"),
  },
  import: {
    summary: "import a memory bank, CLAUDE.md/AGENTS.md files or Cursor rules into the library",
    load: () => loadLater("import/import.ts"),
  },
  scratch: {
    summary: "list the blocks kept in scratch with the reason and the fix; drop one",
    load: () => loadLater("commands/scratch/scratch_command.ts"),
  },
  sessions: {
    summary: "list recent sessions, what one was sent (<session>), which files reach them",
    load: loadSessions,
  },
  sent: {
    summary: "show which library files (and versions) a session was sent",
    load: async () => ({ run: (await loadSessions()).runSent }),
    replacedBy: "sessions <session>",
  },
  tidy: {
    summary: "propose (or apply) a plan that keeps oversized library files small",
    load: () => loadLater("commands/tidy/tidy.ts"),
  },
  stats: {
    summary: "show which library files reach sessions, and which are never delivered",
    load: async () => ({ run: (await loadSessions()).runStats }),
    replacedBy: "sessions --by-file",
  },
  "install-cli": {
    summary: "put the librarian command on your PATH (a link in ~/.local/bin)",
    load: () => loadLater("setup/install_cli.ts"),
  },
};

/**
 * The commands `--help` lists, by name: every one but the old names.
 *
 * @example Usage
 * ```ts
 * import { listedCommands } from "./command_table.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(listedCommands().some(([name]) => name === "sessions"));
 * assert.ok(!listedCommands().some(([name]) => name === "sent"));
 * ```
 */
export function listedCommands(): [string, CommandEntry][] {
  return Object.entries(COMMANDS).filter(([, c]) => c.replacedBy === undefined);
}

/**
 * The command a mistyped name most likely meant (at most a third of its letters off, or a
 * prefix), or null; never an old name.
 *
 * @example Usage
 * ```ts
 * import { closestCommand } from "./command_table.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(closestCommand("statuss"), "status");
 * assert.equal(closestCommand("xyzzy"), null);
 * assert.notEqual(closestCommand("snt"), "sent");
 * ```
 */
export function closestCommand(name: string): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const [candidate] of listedCommands()) {
    const distance = candidate.startsWith(name) && name.length >= 3
      ? 0
      : editDistance(name.toLowerCase(), candidate);
    if (best === null || distance < best.distance) best = { name: candidate, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : null;
}
