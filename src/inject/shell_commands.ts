/**
 * Which words of a command name the files it reads or changes (pure): an option parser and the
 * rules for the common file, text and search commands (`cat`, `sed -i`, `mv`, `grep -r`, `find`,
 * `ls`, ...). Interpreters, test runners, git and wrappers are in `shell_runners.ts`.
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

/** The words paired with `role`. */
export const touches = (words: ShellWord[], role: TouchRole): WordTouch[] =>
  words.map((word) => ({ word, role }));

/** Every value given for any of the option `names`. */
export function valuesOf(parsed: ParsedArgs, ...names: string[]): ShellWord[] {
  return names.flatMap((name) => parsed.values.get(name) ?? []);
}

/** Every positional is read (`cat`, `head`, `wc`, ...). */
export function readsAll(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const out = parsed.positionals.filter((w) => w.value !== "-");
    return { touches: touches(out, "read") };
  };
}

/** Every positional is written (`tee`, `touch`, `truncate`). */
export function writesAll(spec: OptionSpec = {}): CommandRule {
  return (args) => ({ touches: touches(parseArgs(args, spec).positionals, "write") });
}

/** The first positional is a mode or owner, the rest are changed (`chmod`, `chown`). */
export function afterFirst(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const skip = parsed.values.has("reference") ? 0 : 1;
    return { touches: touches(parsed.positionals.slice(skip), "read") };
  };
}

/** `cp`/`mv`/`install`: sources are read, the destination (last, or `-t dir`) written. */
export function copies(short: string): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, {
      short,
      long: "target-directory suffix backup mode owner group",
    });
    const target = valuesOf(parsed, "t", "target-directory");
    if (target.length > 0) {
      return { touches: [...touches(parsed.positionals, "read"), ...touches(target, "write")] };
    }
    const sources = parsed.positionals.slice(0, -1);
    const destination = parsed.positionals.slice(-1);
    if (sources.length === 0) return { touches: [] };
    return { touches: [...touches(sources, "read"), ...touches(destination, "write")] };
  };
}

/**
 * A search (`grep`, `rg`, `ag`, `ack`, `fd`): the pattern is the first positional unless an
 * option gave it; the rest are searched. With no path, a recursive search searches the working
 * folder.
 */
export function search(
  spec: OptionSpec,
  patternOptions: string[],
  recursiveByDefault: boolean,
): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const hasPattern = patternOptions.some((o) => parsed.values.has(o) || parsed.flags.has(o));
    const paths = parsed.positionals.slice(hasPattern ? 0 : 1);
    const recursive = recursiveByDefault ||
      ["r", "R", "recursive", "dereference-recursive"].some((f) => parsed.flags.has(f));
    if (paths.length === 0 && recursive) return { touches: [{ word: HERE, role: "read" }] };
    return { touches: touches(paths.filter((w) => w.value !== "-"), "read") };
  };
}

/** A listing (`ls`, `tree`, `du`): its paths, or the working folder. */
export function lists(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const paths = parseArgs(args, spec).positionals;
    return { touches: touches(paths.length > 0 ? paths : [HERE], "read") };
  };
}

/**
 * An interpreter: options in `inline` give the code on the command line (no script); otherwise
 * the first positional is the script it runs. For a shell, the `-c` code is a script to follow.
 */
export function interpreter(spec: OptionSpec, inline: string[], shell = false): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    if (shell && parsed.flags.has("c")) {
      const code = parsed.positionals[0]?.value;
      return code ? { touches: [], script: code } : { touches: [] };
    }
    if (inline.some((o) => parsed.values.has(o) || parsed.flags.has(o))) return { touches: [] };
    return { touches: touches(parsed.positionals.slice(0, 1), "read") };
  };
}

/** Strips what test runners add to a path: `::test` (pytest), `:12` (rspec), `/...` (go). */
export function testPath(word: ShellWord): ShellWord {
  if (word.value === null || word.glob) return word;
  const value = word.value.replace(/::.*$/, "").replace(/:\d+(:\d+)*$/, "");
  return { value: value.replace(/\/\.\.\.$/, "") };
}

/** A test runner or checker: its paths (after any `subcommands` word), else the working folder. */
export function runner(spec: OptionSpec = {}, subcommands: string[] = []): CommandRule {
  return (args) => {
    const positionals = parseArgs(args, spec).positionals;
    const paths = subcommands.includes(positionals[0]?.value ?? "\0")
      ? positionals.slice(1)
      : positionals;
    return { touches: touches(paths.length > 0 ? paths.map(testPath) : [HERE], "read") };
  };
}

/** The same rule under several space-separated names, for a rule table. */
export function each(names: string, rule: CommandRule): Record<string, CommandRule> {
  return Object.fromEntries(names.split(" ").map((name) => [name, rule]));
}
