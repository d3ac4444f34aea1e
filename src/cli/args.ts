/**
 * What every human command shares: argument parsing (`node:util` `parseArgs`), the `--help` front
 * end, usage errors (exit 2 with a usage line on stderr) and option values. The spec and its help
 * text live in `cli_help.ts`; `--json` output and terminal colour in `cli_output.ts`.
 *
 * Exit codes: 0 fine, 1 problems found, 2 usage error.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { LibrarianError, messageOf, resolveLocalPath } from "../core/mod.ts";
import { type CommandSpec, HELP_OPTION, helpText, usageLine } from "./help.ts";

/** Everything went as asked, nothing to report. */
export const EXIT_OK = 0;
/** The command ran and found problems (or could not find what it needs, such as a library). */
export const EXIT_PROBLEMS = 1;
/** The command line was wrong. */
export const EXIT_USAGE = 2;

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
 * import { UsageError } from "./args.ts";
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
 * Parses `args` against `spec`.
 *
 * @throws {UsageError} for an unknown option, a missing or empty option value, a wrong number of
 *   positional arguments, or an empty one (`''` would silently mean the current folder).
 *
 * @example Usage
 * ```ts
 * import { parseCommandArgs, UsageError } from "./args.ts";
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
 * import { runCommand, UsageError } from "./args.ts";
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
 * import { stringOption } from "./args.ts";
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
 * import { flag } from "./args.ts";
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
 * import { intOption, UsageError } from "./args.ts";
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
 * import { pathArgument, UsageError } from "./args.ts";
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
