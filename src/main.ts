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
    load: () => import("./hooks/inject.ts"),
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
  ].join("\n");
}

/** Dispatches to a command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(`librarian ${VERSION}`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`librarian: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const module = await command.load();
  return await module.run(rest);
}

if (import.meta.main) {
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  const isHook = Deno.args[0] === "inject" || Deno.args[0] === "stop";
  try {
    Deno.exitCode = await main(Deno.args);
  } catch (error) {
    // A hook never fails the user's action: it exits 0 and stays silent on stdout.
    if (!isHook) {
      console.error(`librarian: ${error instanceof Error ? error.message : error}`);
    }
    Deno.exitCode = isHook ? 0 : 1;
  }
}
