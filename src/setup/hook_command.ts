/**
 * The shell command a settings hook runs to start the Librarian, quoted for `sh` or PowerShell.
 *
 * Pure.
 *
 * @module
 */

import { normalizePath, type PathOs } from "../core/mod.ts";

/** How a hook command starts the program. */
export type HookShell = "sh" | "powershell";

/** What the hook commands run: the sh launcher, or a compiled binary directly. */
export interface HookProgram {
  kind: "launcher" | "binary";
  /** Absolute path (any separators; written with `/`). */
  path: string;
}

/**
 * Quotes a word for a POSIX shell (single quotes, so nothing in it expands).
 *
 * @example Usage
 * ```ts
 * import { shSingleQuote } from "./hook_command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shSingleQuote("/my repo"), "'/my repo'");
 * assert.equal(shSingleQuote("it's"), "'it'\\''s'");
 * ```
 */
export function shSingleQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Quotes a word for PowerShell 5.1 and 7: single quotes, so nothing in it expands. PowerShell takes
 * the typographic quotes U+2018 to U+201B for `'` too, so each of them inside is doubled as well.
 *
 * @example Usage
 * ```ts
 * import { powershellQuote } from "./hook_command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(powershellQuote("C:/Users/O\u2019Neil's"), "'C:/Users/O\u2019\u2019Neil''s'");
 * ```
 */
export function powershellQuote(word: string): string {
  return `'${word.replace(/['\u2018-\u201B]/g, "$&$&")}'`;
}

/**
 * The shell command a settings hook runs for `subcommand`.
 *
 * @example Usage
 * ```ts
 * import { hookCommand } from "./hook_command.ts";
 * import assert from "node:assert/strict";
 *
 * const program = { kind: "launcher" as const, path: "C:\\Tools\\librarian\\bin\\librarian" };
 * assert.equal(
 *   hookCommand(program, "inject", "sh", "windows"),
 *   "sh 'C:/Tools/librarian/bin/librarian' inject",
 * );
 * ```
 */
export function hookCommand(
  program: HookProgram,
  subcommand: string,
  shell: HookShell,
  os?: PathOs,
): string {
  const path = normalizePath(program.path, os);
  if (shell === "powershell") return `& ${powershellQuote(path)} ${subcommand}`;
  return program.kind === "launcher"
    ? `sh ${shSingleQuote(path)} ${subcommand}`
    : `${shSingleQuote(path)} ${subcommand}`;
}
