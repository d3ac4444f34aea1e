/**
 * What every human command shares: argument parsing (`node:util` `parseArgs`), `--help`, usage
 * errors (exit 2 with a usage line on stderr), `--json` output and terminal colour.
 *
 * Exit codes: 0 fine, 1 problems found, 2 usage error.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { EnvReader } from "../core/env.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";
import { resolveLocalPath } from "../core/paths.ts";

/** Everything went as asked, nothing to report. */
export const EXIT_OK = 0;
/** The command ran and found problems (or could not find what it needs, such as a library). */
export const EXIT_PROBLEMS = 1;
/** The command line was wrong. */
export const EXIT_USAGE = 2;

/** One option a command accepts. */
export interface OptionSpec {
  type: "boolean" | "string";
  short?: string;
  /** Shown in `--help` after the option name, for string options (`<n>`). */
  valueName?: string;
  description: string;
}

/** A command's command line, for parsing and for `--help`. */
export interface CommandSpec {
  name: string;
  /** What follows `librarian <name>` in the usage line, e.g. `<path> [--json]`. */
  synopsis: string;
  summary: string;
  /** More lines for `--help`. */
  details?: readonly string[];
  options: Readonly<Record<string, OptionSpec>>;
  /** Names of the positional arguments, in order. */
  positionals: readonly string[];
  /** How many positionals are required (default: all of them). */
  requiredPositionals?: number;
}

/** A parsed command line. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * A command line that does not fit the command's spec: a {@link LibrarianError} with exit status 2
 * and, once {@link runCommand} has seen it, the command's usage line (printed by `main.ts`).
 *
 * @example Usage
 * ```ts
 * import { UsageError } from "./cli.ts";
 * import { LibrarianError } from "../core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new UsageError("unknown option '--bogus'");
 * assert.ok(error instanceof LibrarianError);
 * assert.equal(error.exitCode, 2);
 * ```
 */
export class UsageError extends LibrarianError {
  /** `Usage: librarian <command> ...`, when known. */
  usage: string | undefined;

  constructor(message: string, options: { usage?: string; cause?: unknown } = {}) {
    super(message, { exitCode: EXIT_USAGE, cause: options.cause });
    this.name = "UsageError";
    this.usage = options.usage;
  }
}

/**
 * The one-line usage of a command.
 *
 * @example Usage
 * ```ts
 * import { usageLine } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = { name: "read", synopsis: "<path> [--json]", summary: "", options: {}, positionals: ["path"] };
 * assert.equal(usageLine(spec), "Usage: librarian read <path> [--json]");
 * ```
 */
export function usageLine(spec: CommandSpec): string {
  return `Usage: librarian ${spec.name} ${spec.synopsis}`.trimEnd();
}

const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", description: "show this help" };

/**
 * The full `--help` text of a command.
 *
 * @example Usage
 * ```ts
 * import { helpText } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = {
 *   name: "read",
 *   synopsis: "<path>",
 *   summary: "what a file would be sent",
 *   options: { json: { type: "boolean" as const, description: "print JSON" } },
 *   positionals: ["path"],
 * };
 * const text = helpText(spec);
 * assert.ok(text.startsWith("librarian read: what a file would be sent\n\nUsage: librarian read <path>"));
 * assert.match(text, /--json +print JSON/);
 * assert.match(text, /-h, --help/);
 * ```
 */
export function helpText(spec: CommandSpec): string {
  const options = { ...spec.options, help: HELP_OPTION };
  const names = Object.entries(options).map(([name, o]) => {
    const short = o.short ? `-${o.short}, ` : "    ";
    const value = o.type === "string" ? ` ${o.valueName ?? "<value>"}` : "";
    return { left: `${short}--${name}${value}`, description: o.description };
  });
  const width = Math.max(...names.map((n) => n.left.length));
  return [
    `librarian ${spec.name}: ${spec.summary}`,
    "",
    usageLine(spec),
    ...(spec.details?.length ? ["", ...spec.details] : []),
    "",
    "Options:",
    ...names.map((n) => `  ${n.left.padEnd(width)}  ${n.description}`),
    "",
    "Exit codes: 0 fine, 1 problems found, 2 usage error.",
  ].join("\n");
}

/**
 * Parses `args` against `spec`.
 *
 * @throws {UsageError} for an unknown option, a missing or empty option value, a wrong number of
 *   positional arguments, or an empty one (`''` would silently mean the current folder).
 *
 * @example Usage
 * ```ts
 * import { parseCommandArgs, UsageError } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = {
 *   name: "read",
 *   synopsis: "<path>",
 *   summary: "",
 *   options: { budget: { type: "string" as const, description: "" } },
 *   positionals: ["path"],
 * };
 * const parsed = parseCommandArgs(spec, ["src/a.ts", "--budget", "500"]);
 * assert.equal(parsed.values.budget, "500");
 * assert.deepEqual(parsed.positionals, ["src/a.ts"]);
 * assert.throws(() => parseCommandArgs(spec, ["--bogus", "a"]), UsageError);
 * assert.throws(() => parseCommandArgs(spec, []), UsageError);
 * ```
 */
export function parseCommandArgs(spec: CommandSpec, args: string[]): ParsedArgs {
  const options: Record<string, { type: "boolean" | "string"; short?: string }> = {};
  for (const [name, o] of Object.entries({ ...spec.options, help: HELP_OPTION })) {
    options[name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(firstSentence(messageOf(error)), { cause: error });
  }
  const positionals = parsed.positionals;
  const required = spec.requiredPositionals ?? spec.positionals.length;
  if (parsed.values.help !== true) {
    const blank = positionals.findIndex((p) => p.trim() === "");
    if (blank >= 0) {
      throw new UsageError(`${spec.positionals[blank] ?? "an argument"} is empty`);
    }
    for (const [name, value] of Object.entries(parsed.values)) {
      if (typeof value === "string" && value.trim() === "") {
        throw new UsageError(`--${name} needs a value, got an empty one`);
      }
    }
    if (positionals.length < required) {
      throw new UsageError(`missing ${spec.positionals.slice(positionals.length).join(", ")}`);
    }
    if (positionals.length > spec.positionals.length) {
      const extra = positionals.slice(spec.positionals.length).join(" ");
      throw new UsageError(`unexpected argument: ${extra}`);
    }
  }
  return { values: parsed.values as ParsedArgs["values"], positionals };
}

/** `node:util`'s messages in the program's voice: `unknown option '--bogus'`. */
function firstSentence(message: string): string {
  const first = message.split("\n")[0]!.replace(/\. To specify a positional.*$/, "");
  return first.charAt(0).toLowerCase() + first.slice(1);
}

/**
 * Runs a command body with the shared front end: `--help` prints help and exits 0. A usage error
 * (from parsing or from the body) leaves with the command's usage line attached; `main.ts` turns
 * it, like every {@link LibrarianError}, into output and an exit status.
 *
 * @example Usage
 * ```ts
 * import { runCommand, UsageError } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = { name: "demo", synopsis: "[--json]", summary: "", options: {}, positionals: [] };
 * assert.equal(await runCommand(spec, [], () => Promise.resolve(3)), 3);
 * const error = await runCommand(spec, ["extra"], () => Promise.resolve(0)).catch((e) => e);
 * assert.ok(error instanceof UsageError);
 * assert.equal(error.usage, "Usage: librarian demo [--json]");
 * ```
 */
export async function runCommand(
  spec: CommandSpec,
  args: string[],
  body: (parsed: ParsedArgs) => Promise<number>,
): Promise<number> {
  try {
    const parsed = parseCommandArgs(spec, args);
    if (parsed.values.help === true) {
      console.log(helpText(spec));
      return EXIT_OK;
    }
    return await body(parsed);
  } catch (error) {
    if (error instanceof UsageError) error.usage ??= usageLine(spec);
    throw error;
  }
}

/**
 * A string option's value, or undefined.
 *
 * @example Usage
 * ```ts
 * import { stringOption } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = { values: { format: "agents", json: true }, positionals: [] };
 * assert.equal(stringOption(parsed, "format"), "agents");
 * assert.equal(stringOption(parsed, "json"), undefined);
 * ```
 */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * True when a boolean option was given.
 *
 * @example Usage
 * ```ts
 * import { flag } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = { values: { json: true, format: "agents" }, positionals: [] };
 * assert.equal(flag(parsed, "json"), true);
 * assert.equal(flag(parsed, "format"), false);
 * ```
 */
export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

/**
 * A whole-number option within [min, max], or `fallback` when absent.
 *
 * @throws {UsageError} when the value is not such a number.
 *
 * @example Usage
 * ```ts
 * import { intOption, UsageError } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = { values: { limit: "20", bad: "0x10" }, positionals: [] };
 * assert.equal(intOption(parsed, "limit", 5, 1, 100), 20);
 * assert.equal(intOption(parsed, "missing", 5, 1, 100), 5);
 * assert.throws(() => intOption(parsed, "bad", 5, 1, 100), UsageError);
 * assert.throws(() => intOption(parsed, "limit", 5, 1, 10), UsageError);
 * ```
 */
export function intOption(
  parsed: ParsedArgs,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = stringOption(parsed, name);
  if (raw === undefined) return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN; // not 0x10, 1e3, " 5" or ""
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/**
 * A path given on the command line, made absolute against `cwd`.
 *
 * @throws {UsageError} when it cannot name a file here (a Windows drive path on Linux or macOS,
 *   a NUL character, an absurd length): used as is, `C:\\x` would become a folder `C:` inside
 *   the current folder.
 *
 * @example Usage
 * ```ts
 * import { pathArgument, UsageError } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pathArgument("src/../lib/a.ts", "/repo"), "/repo/lib/a.ts");
 * assert.equal(pathArgument("/etc/x", "/repo"), "/etc/x");
 * if (Deno.build.os !== "windows") assert.throws(() => pathArgument("C:\\x", "/repo"), UsageError);
 * ```
 */
export function pathArgument(value: string, cwd: string): string {
  const path = resolveLocalPath(value, cwd);
  if (path === null) throw new UsageError(`'${value}' is not a path on this machine`);
  return path;
}

/**
 * Prints a value as indented JSON on stdout.
 *
 * @example Usage
 * ```ts
 * import { printJson } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const printed: string[] = [];
 * const original = console.log;
 * console.log = (text: string) => printed.push(text);
 * try {
 *   printJson({ ok: true });
 * } finally {
 *   console.log = original;
 * }
 * assert.deepEqual(printed, ['{\n  "ok": true\n}']);
 * ```
 */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** Text styles; each is the identity when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * True when colour may be used: stdout is a terminal, `NO_COLOR` is unset or empty, not `TERM=dumb`.
 *
 * @example Usage
 * ```ts
 * import { colorEnabled } from "./cli.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(colorEnabled(envFrom({}), true), true);
 * assert.equal(colorEnabled(envFrom({}), false), false);
 * assert.equal(colorEnabled(envFrom({ NO_COLOR: "1" }), true), false);
 * assert.equal(colorEnabled(envFrom({ TERM: "dumb" }), true), false);
 * ```
 */
export function colorEnabled(
  env: EnvReader,
  isTerminal: boolean = Deno.stdout.isTerminal(),
): boolean {
  if (!isTerminal) return false;
  if ((env("NO_COLOR") ?? "") !== "") return false;
  return env("TERM") !== "dumb";
}

/**
 * The styles for this process (plain text unless {@link colorEnabled}).
 *
 * @example Usage
 * ```ts
 * import { makeStyle } from "./cli.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(makeStyle(envFrom({}), true).red("x"), "\x1b[31mx\x1b[39m");
 * assert.equal(makeStyle(envFrom({}), false).red("x"), "x");
 * ```
 */
export function makeStyle(env: EnvReader, isTerminal?: boolean): Style {
  const on = colorEnabled(env, isTerminal);
  const sgr = (open: number, close: number) => (text: string) =>
    on ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

/**
 * A byte count for people: `812 B`, `4.2 KB`, `1.3 MB`.
 *
 * @example Usage
 * ```ts
 * import { formatBytes } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatBytes(812), "812 B");
 * assert.equal(formatBytes(4300), "4.2 KB");
 * assert.equal(formatBytes(1_363_149), "1.3 MB");
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `1 file`, `2 files` (one definition, shared with the Stop hook). */
export { plural } from "../core/words.ts";
