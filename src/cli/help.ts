/**
 * A command's command line as data ({@link CommandSpec}) and the texts made from it: the usage
 * line and the `--help` text.
 *
 * @module
 */

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

/**
 * The one-line usage of a command.
 *
 * @example Usage
 * ```ts
 * import { usageLine } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = { name: "read", synopsis: "<path> [--json]", summary: "", options: {}, positionals: ["path"] };
 * assert.equal(usageLine(spec), "Usage: librarian read <path> [--json]");
 * ```
 */
export function usageLine(spec: CommandSpec): string {
  return `Usage: librarian ${spec.name} ${spec.synopsis}`.trimEnd();
}

/**
 * The `-h, --help` option every command accepts (added to its spec for parsing and for `--help`).
 *
 * @example Usage
 * ```ts
 * import { HELP_OPTION } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(HELP_OPTION.short, "h");
 * ```
 */
export const HELP_OPTION: OptionSpec = {
  type: "boolean",
  short: "h",
  description: "show this help",
};

/**
 * The full `--help` text of a command.
 *
 * @example Usage
 * ```ts
 * import { helpText } from "./help.ts";
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
 * The one line on stderr an old name prints at each run for one release, naming its new form.
 *
 * @example Usage
 * ```ts
 * import { renamedNotice } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   renamedNotice("stats", "sessions --by-file"),
 *   "librarian stats: now 'librarian sessions --by-file'; the old form goes in the next release",
 * );
 * ```
 */
export function renamedNotice(old: string, now: string): string {
  return `librarian ${old}: now 'librarian ${now}'; the old form goes in the next release`;
}
