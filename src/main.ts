/**
 * The Librarian's one program: hooks (`inject`, `stop`) and the commands people run.
 *
 * Each command lives in its own module, loaded only when asked for, so a hook pays for nothing
 * but its own code.
 *
 * @module
 */

import denoConfig from "../deno.json" with { type: "json" };

/** A command module: `run` returns the process exit code. */
export interface CommandModule {
  run(args: string[]): Promise<number>;
}

/** Every command, by name, with a one-line summary for `--help`. */
export const COMMANDS: Readonly<
  Record<string, { summary: string; load: () => Promise<CommandModule> }>
> = {
  inject: {
    summary: "hook: library context for the file a tool touches (reads a hook event on stdin)",
    load: () => import("./inject/hook.ts"),
  },
  stop: {
    summary: "hook: file tagged scratch learnings and new auto memories into the library",
    load: () => import("./filing/hook.ts"),
  },
  read: {
    summary: "show exactly what the model is sent before a tool touches a file",
    load: () => import("./commands/read.ts"),
  },
  status: {
    summary: "show the library, its folders, pending scratch blocks, hook runs and wiring",
    load: () => import("./commands/status.ts"),
  },
  route: {
    summary: "file the scratch file's tagged learnings into the library now",
    load: () => import("./commands/route.ts"),
  },
  init: {
    summary: "create _memory_library/ and the git settings it needs (safe to rerun)",
    load: () => import("./commands/init.ts"),
  },
  "setup-hooks": {
    summary: "write the hooks into .claude/settings.local.json, for use without the plugin",
    load: () => import("./commands/setup_hooks.ts"),
  },
  doctor: {
    summary: "check why the hooks might not fire, with a fix for each problem",
    load: () => import("./commands/doctor.ts"),
  },
  lint: {
    summary: "check the library's health (stale folders, oversized files, duplicates, ...)",
    load: () => import("./commands/lint.ts"),
  },
  import: {
    summary: "convert a flat memory bank (projectbrief.md, ...) into library root files",
    load: () => import("./commands/import.ts"),
  },
};

/** The program's version, from deno.json. */
export const VERSION: string = denoConfig.version;

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) =>
    `  ${name.padEnd(width)}  ${c.summary}`
  );
  return [
    `librarian ${VERSION}: path-scoped memory for Claude Code`,
    "",
    "Usage: librarian <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Options: --help, --version. Run 'librarian <command> --help' for a command's options.",
    "Exit codes: 0 fine, 1 problems found, 2 usage error.",
  ].join("\n");
}

/** The commands Claude Code runs as hooks: they read one event on stdin and always exit 0. */
const HOOK_COMMANDS: ReadonlySet<string> = new Set(["inject", "stop"]);

function hookHelp(name: string, summary: string): string {
  return [
    `librarian ${name}: ${summary}`,
    "",
    `Usage: librarian ${name} < hook-event.json`,
    "",
    "A Claude Code hook (wired by hooks/hooks.json): reads one hook event as JSON on stdin, prints",
    "at most one JSON object, always exits 0 and logs one line (see 'librarian status').",
  ].join("\n");
}

/** Dispatches to a command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    console.error(usage());
    return 2;
  }
  if (name === "help" && rest[0] !== undefined) {
    if (COMMANDS[rest[0]]) return await main([rest[0], "--help"]);
    console.error(
      `librarian: no help for unknown command '${
        rest[0]
      }'\nUsage: librarian <command> [options]\n` +
        "Run 'librarian --help' for the list of commands.",
    );
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(`librarian ${VERSION}`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const what = name.startsWith("-") ? "option" : "command";
    console.error(
      `librarian: unknown ${what} '${name}'\nUsage: librarian <command> [options]\n` +
        `Run 'librarian --help' for the list of commands.`,
    );
    return 2;
  }
  if (HOOK_COMMANDS.has(name) && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(hookHelp(name, command.summary));
    return 0;
  }
  const module = await command.load();
  return await module.run(rest);
}

/**
 * The process exit code for a command's result. Claude Code reads exit 2 from a hook as "block",
 * so a hook run (`inject`, `stop`) exits 0 whatever happened, even when this build does not know
 * the command (a hooks.json newer than an installed binary).
 */
export function processExitCode(command: string | undefined, code: number): number {
  return HOOK_COMMANDS.has(command ?? "") ? 0 : code;
}

if (import.meta.main) {
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  const isHook = HOOK_COMMANDS.has(Deno.args[0] ?? "");
  // Hooks expect many "not found" errors (walking up for the library, missing mirror folders) and
  // log only error names and messages, so they skip the cost of capturing stack traces.
  if (isHook) Error.stackTraceLimit = 0;
  try {
    Deno.exitCode = processExitCode(Deno.args[0], await main(Deno.args));
  } catch (error) {
    // A hook never fails the user's action: it exits 0 and stays silent on stdout.
    if (!isHook) {
      console.error(`librarian: ${error instanceof Error ? error.message : error}`);
    }
    Deno.exitCode = isHook ? 0 : 1;
  }
}
