/**
 * What a command rule is (pure): a command's arguments → the words that name paths it reads,
 * writes or searches, and what else it runs; with a getopt-style option parser. The rules are in
 * `shell_files.ts` (file, text and search commands), `shell_runners.ts` (interpreters, test
 * runners) and `shell_git.ts` (git, patch, wrappers); common shapes in `shell_rules.ts`.
 *
 * @module
 */

import type { ShellWord } from "./shell_scan.ts";

/**
 * How a command uses a path: `read` counts when the path exists (file or folder); `write` also
 * when it does not exist yet (a file the command creates); `folder` is a folder it creates.
 */
export type TouchRole = "read" | "write" | "folder";

/** A word that names a path, and how the command uses it. */
export interface WordTouch {
  word: ShellWord;
  role: TouchRole;
}

/** What one command does with its words. */
export interface CommandUse {
  touches: WordTouch[];
  /** A command it runs with the words that follow (`sudo`, `env`, `npx`, `timeout`). */
  runs?: ShellWord[];
  /** A script it runs (`bash -c '...'`). */
  script?: string;
  /** The folder it works in (`git -C dir`, `patch -d dir`); relative paths resolve from it. */
  cwd?: ShellWord;
}

/** A command's rule: its arguments (after the name) and here-documents → what it touches. */
export type CommandRule = (args: ShellWord[], heredocs: string[]) => CommandUse;

/** Options that take a value: short letters, and long names (without `--`). */
export interface OptionSpec {
  short?: string;
  /** Space-separated long names: `"regexp file max-count"`. */
  long?: string;
}

/** Arguments split into options and positionals. */
export interface ParsedArgs {
  positionals: ShellWord[];
  /** Option name (a letter, or a long name) → its values, in order. */
  values: Map<string, ShellWord[]>;
  /** Options given without a value. */
  flags: Set<string>;
}

/** The word for "the working folder" (a search with no path searches it). */
export const HERE: ShellWord = { value: "." };

/**
 * Splits arguments the way getopt does: `-abc` clusters, `-n5` / `-n 5`, `--name=value` /
 * `--name value`, `--` ends the options, and options may follow positionals.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const words = ["-rn", "-e", "foo", "src", "--include=*.ts"].map((value) => ({ value }));
 * const parsed = parseArgs(words, { short: "e" });
 * assert.deepEqual(parsed.positionals, [{ value: "src" }]);
 * assert.equal(parsed.values.get("e")?.[0]?.value, "foo");
 * assert.ok(parsed.flags.has("r") && parsed.flags.has("n"));
 * ```
 */
export function parseArgs(args: ShellWord[], spec: OptionSpec = {}): ParsedArgs {
  const out: ParsedArgs = { positionals: [], values: new Map(), flags: new Set() };
  const long = new Set(spec.long?.split(" "));
  const add = (name: string, value: ShellWord) =>
    out.values.set(name, [...(out.values.get(name) ?? []), value]);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.value;
    if (text === "--") {
      out.positionals.push(...args.slice(i + 1));
      break;
    }
    if (text === null || !text.startsWith("-") || text === "-") {
      out.positionals.push(word);
    } else if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      if (eq >= 0) add(name, { value: text.slice(eq + 1) });
      else if (long.has(name) && i + 1 < args.length) add(name, args[++i]!);
      else out.flags.add(name);
    } else {
      for (let k = 1; k < text.length; k++) {
        const letter = text[k]!;
        if (!spec.short?.includes(letter)) {
          out.flags.add(letter);
          continue;
        }
        if (k + 1 < text.length) add(letter, { value: text.slice(k + 1) });
        else if (i + 1 < args.length) add(letter, args[++i]!);
        break;
      }
    }
  }
  return out;
}

/**
 * The words paired with `role`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(touches([{ value: "a" }], "read"), [{ word: { value: "a" }, role: "read" }]);
 * ```
 */
export const touches = (words: ShellWord[], role: TouchRole): WordTouch[] =>
  words.map((word) => ({ word, role }));

/**
 * Every value given for any of the option `names`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const parsed = parseArgs([{ value: "-fx" }, { value: "--file=y" }], { short: "f" });
 * assert.deepEqual(valuesOf(parsed, "f", "file").map((w) => w.value), ["x", "y"]);
 * ```
 */
export function valuesOf(parsed: ParsedArgs, ...names: string[]): ShellWord[] {
  return names.flatMap((name) => parsed.values.get(name) ?? []);
}

/**
 * The same rule under several space-separated names, for a rule table.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const rule = () => ({ touches: [] });
 * assert.deepEqual(Object.keys(each("cat tac", rule)), ["cat", "tac"]);
 * ```
 */
export function each(names: string, rule: CommandRule): Record<string, CommandRule> {
  return Object.fromEntries(names.split(" ").map((name) => [name, rule]));
}
