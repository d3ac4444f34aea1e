/**
 * The Librarian's one program: hooks (`inject`, `stop`) and the commands people run.
 *
 * Each command lives in its own module, loaded only when asked for, so a hook pays for nothing
 * but its own code.
 *
 * @module
 */

import { LibrarianError, messageOf } from "./core/errors.ts";
import { VERSION as PROGRAM_VERSION } from "./version.ts";
import { loadLater } from "./core/load_later.ts";
import { closestCommand, COMMANDS, listedCommands } from "./command_table.ts";
import { renamedNotice } from "./cli/help.ts";
import { HOOK_COMMANDS, prepareProcess } from "./core/process.ts";

/** The helpers for a hook run by hand (the old `--example`, a terminal on stdin). */
function loadHookExample(): Promise<typeof import("./commands/explain/example_event.ts")> {
  return loadLater("commands/explain/example_event.ts");
}

/** The old `--explain` of a hook run by hand (now `librarian explain --event --run`). */
function loadHookExplain(): Promise<typeof import("./commands/explain/explain_event.ts")> {
  return loadLater("commands/explain/explain_event.ts");
}

/**
 * The one place an error a person can act on ({@link LibrarianError}, usage errors included)
 * becomes output and an exit status: with `--json` a JSON object on stdout, else
 * `librarian <command>: <message>` on stderr (plus the usage line for a usage error).
 *
 * @example Usage
 * ```ts
 * import { reportError } from "./main.ts";
 * import { LibrarianError } from "./core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const printed: string[] = [];
 * const original = console.error;
 * console.error = (text: string) => printed.push(text);
 * try {
 *   assert.equal(reportError("lint", [], new LibrarianError("no library", { exitCode: 3 })), 3);
 * } finally {
 *   console.error = original;
 * }
 * assert.deepEqual(printed, ["librarian lint: no library"]);
 * ```
 */
export function reportError(
  command: string,
  args: readonly string[],
  error: LibrarianError,
): number {
  const usage = "usage" in error && typeof error.usage === "string" ? error.usage : undefined;
  if (args.includes("--json")) {
    console.log(JSON.stringify(
      { version: VERSION, ...error.details, error: error.message, exitCode: error.exitCode },
      null,
      2,
    ));
  } else {
    const lines = [`librarian ${command}: ${error.message}`];
    if (usage !== undefined) {
      lines.push(usage, `Run 'librarian ${command} --help' for details.`);
    }
    console.error(lines.join("\n"));
  }
  return error.exitCode;
}

/** The program's version, from deno.json. */
export const VERSION: string = PROGRAM_VERSION;

function usage(): string {
  const listed = listedCommands();
  const width = Math.max(...listed.map(([n]) => n.length));
  const lines = listed.map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    `librarian ${VERSION}: path-scoped memory for Claude Code`,
    "",
    "Usage: librarian <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "The launcher's own commands (bin/librarian, which runs the program):",
    "  fetch-binary           fetch and verify this machine's binary now (session start does it)",
    "  install-binary <file>  verify a downloaded binary and use it (for machines offline)",
    "",
    "Options: --help, --version. Run 'librarian <command> --help' for a command's options.",
    "Exit codes: 0 fine, 1 problems found, 2 usage error.",
  ].join("\n");
}

function hookHelp(name: string, summary: string): string {
  const example = name === "stop" ? " Stop" : "";
  return [
    `librarian ${name}: ${summary}`,
    "",
    `Usage: librarian ${name} < hook-event.json`,
    "",
    "A Claude Code hook (wired by hooks/hooks.json): reads one hook event as JSON on stdin, prints",
    "at most one JSON object, always exits 0 and logs one line (see 'librarian status').",
    "",
    "Running it by hand, and why it does what it does ('librarian explain --help'):",
    `  librarian explain --example${example} | librarian ${name}   a sample event for this project`,
    `  librarian explain --example${example} | librarian explain --event --run   and why, on stderr`,
    ...(name === "inject"
      ? [
        "  librarian explain <path>   why a Read of <path> gets what it gets",
        "",
        "hooks.json runs 'librarian inject --shell' for Bash events: the same hook, with its",
        "shell-command reader loaded at start rather than when the first Bash event needs it.",
      ]
      : []),
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
    const guess = what === "command" ? closestCommand(name) : null;
    console.error(
      `librarian: unknown ${what} '${name}'` + (guess ? `; did you mean \`${guess}\`?` : "") +
        `\nUsage: librarian <command> [options]\n` +
        `Run 'librarian --help' for the list of commands.`,
    );
    return 2;
  }
  if (HOOK_COMMANDS.has(name) && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(hookHelp(name, command.summary));
    return 0;
  }
  if (command.replacedBy !== undefined) console.error(renamedNotice(name, command.replacedBy));
  if (HOOK_COMMANDS.has(name)) {
    // Run by hand: a sample event, an explanation on stderr (both old forms of `librarian
    // explain`, kept for one release), or a hint when stdin is a terminal.
    if (rest.includes("--example")) {
      const now = name === "stop" ? "explain --example Stop" : "explain --example [<event>]";
      console.error(renamedNotice(`${name} --example`, now));
      return await (await loadHookExample()).printHookExample(name, rest);
    }
    if (rest.includes("--explain")) {
      console.error(renamedNotice(`${name} --explain`, "explain --event --run"));
      (await loadHookExplain()).explainThenRun(name);
    } else if (Deno.stdin.isTerminal()) {
      console.error((await loadHookExample()).terminalHint(name));
    }
  }
  const module = await command.load();
  try {
    return await module.run(rest);
  } catch (error) {
    if (error instanceof LibrarianError) return reportError(name, rest, error);
    throw error;
  }
}

/**
 * The process exit code for a command's result. Claude Code reads exit 2 from a hook as "block",
 * so a hook run (`inject`, `stop`) exits 0 whatever happened, even when this build does not know
 * the command (a hooks.json newer than an installed binary).
 *
 * @example Usage
 * ```ts
 * import { processExitCode } from "./main.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(processExitCode("inject", 2), 0);
 * assert.equal(processExitCode("stop", 1), 0);
 * assert.equal(processExitCode("lint", 1), 1);
 * assert.equal(processExitCode(undefined, 2), 2);
 * ```
 */
export function processExitCode(command: string | undefined, code: number): number {
  return HOOK_COMMANDS.has(command ?? "") ? 0 : code;
}

/**
 * Runs the program as a process with `args`: runs the command and sets the exit status. A hook
 * (`inject`, `stop`) exits 0 and prints nothing on failure; its `--example` keeps its status.
 */
export async function runProgram(args: string[]): Promise<void> {
  const isHook = HOOK_COMMANDS.has(args[0] ?? "");
  prepareProcess(isHook);
  try {
    const code = await main(args);
    // `--example` is only ever run by a person: its usage errors keep their exit status.
    Deno.exitCode = args.includes("--example") ? code : processExitCode(args[0], code);
  } catch (error) {
    // A hook never fails the user's action: it exits 0 and stays silent on stdout.
    if (!isHook) {
      console.error(`librarian: ${messageOf(error)}`);
    }
    Deno.exitCode = isHook ? 0 : 1;
  }
}

if (import.meta.main) await runProgram(Deno.args);
