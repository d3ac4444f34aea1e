/**
 * Rule builders (pure): the common shapes of a command's rule — reads all its operands, writes
 * them, copies to a destination, searches paths (or the working folder), runs a script, runs
 * tests at paths. See `shell_commands.ts` for what a rule is.
 *
 * @module
 */

import {
  type CommandRule,
  HERE,
  type OptionSpec,
  parseArgs,
  touches,
  valuesOf,
} from "./shell_commands.ts";
import type { ShellWord } from "./shell_scan.ts";

/**
 * Every positional is read (`cat`, `head`, `wc`, ...).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(readsAll({ short: "n" })(w("-n", "5", "a.ts", "-"), [])), ["read:a.ts"]);
 * ```
 */
export function readsAll(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const out = parsed.positionals.filter((w) => w.value !== "-");
    return { touches: touches(out, "read") };
  };
}

/**
 * Every positional is written (`tee`, `touch`, `truncate`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(writesAll()(w("-a", "log.txt"), [])), ["write:log.txt"]);
 * ```
 */
export function writesAll(spec: OptionSpec = {}): CommandRule {
  return (args) => ({ touches: touches(parseArgs(args, spec).positionals, "write") });
}

/**
 * The first positional is a mode or owner, the rest are changed (`chmod`, `chown`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(afterFirst()(w("+x", "run.sh"), [])), ["read:run.sh"]);
 * ```
 */
export function afterFirst(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const skip = parsed.values.has("reference") ? 0 : 1;
    return { touches: touches(parsed.positionals.slice(skip), "read") };
  };
}

/**
 * `cp`/`mv`/`install`: sources are read, the destination (last, or `-t dir`) written.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(copies("t")(w("-r", "a", "b", "dest"), [])), ["read:a", "read:b", "write:dest"]);
 * assert.deepEqual(paths(copies("t")(w("-t", "dir", "a"), [])), ["read:a", "write:dir"]);
 * ```
 */
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
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * const grep = search({ short: "e" }, ["e"], false);
 * assert.deepEqual(paths(grep(w("-rn", "foo", "src"), [])), ["read:src"]);
 * assert.deepEqual(paths(grep(w("-r", "foo"), [])), ["read:."]);
 * assert.deepEqual(paths(grep(w("foo"), [])), []);
 * ```
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

/**
 * A listing (`ls`, `tree`, `du`): its paths, or the working folder.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(lists()(w("-la"), [])), ["read:."]);
 * ```
 */
export function lists(spec: OptionSpec = {}): CommandRule {
  return (args) => {
    const paths = parseArgs(args, spec).positionals;
    return { touches: touches(paths.length > 0 ? paths : [HERE], "read") };
  };
}

/**
 * An interpreter: options in `inline` give the code on the command line (no script); otherwise
 * the first positional is the script it runs. For a shell, the `-c` code is a script to follow.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * const python = interpreter({ short: "c" }, ["c"]);
 * assert.deepEqual(paths(python(w("run.py", "--flag"), [])), ["read:run.py"]);
 * assert.deepEqual(paths(python(w("-c", "print(1)"), [])), []);
 * assert.equal(interpreter({}, [], true)(w("-c", "cat a"), []).script, "cat a");
 * ```
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

/**
 * Strips what test runners add to a path: `::test` (pytest), `:12` (rspec), `/...` (go).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(testPath({ value: "tests/a.py::test_x" }).value, "tests/a.py");
 * assert.equal(testPath({ value: "./pkg/..." }).value, "./pkg");
 * assert.equal(testPath({ value: "spec/a_spec.rb:12" }).value, "spec/a_spec.rb");
 * ```
 */
export function testPath(word: ShellWord): ShellWord {
  if (word.value === null || word.glob) return word;
  const value = word.value.replace(/::.*$/, "").replace(/:\d+(:\d+)*$/, "");
  return { value: value.replace(/\/\.\.\.$/, "") };
}

/**
 * A test runner or checker: its paths (after any `subcommands` word), else the working folder.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const w = (...values: string[]) => values.map((value) => ({ value }));
 * const paths = (use: { touches: { word: { value: string | null }; role: string }[] }) =>
 *   use.touches.map((t) => `${t.role}:${t.word.value}`);
 * assert.deepEqual(paths(runner({}, ["run"])(w("run", "tests/ui"), [])), ["read:tests/ui"]);
 * assert.deepEqual(paths(runner()(w("-x"), [])), ["read:."]);
 * ```
 */
export function runner(spec: OptionSpec = {}, subcommands: string[] = []): CommandRule {
  return (args) => {
    const positionals = parseArgs(args, spec).positionals;
    const paths = subcommands.includes(positionals[0]?.value ?? "\0")
      ? positionals.slice(1)
      : positionals;
    return { touches: touches(paths.length > 0 ? paths.map(testPath) : [HERE], "read") };
  };
}
