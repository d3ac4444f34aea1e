/**
 * How human commands print: `--json` output, terminal colour and styles, and byte counts for
 * people.
 *
 * @module
 */

import type { EnvReader } from "../core/mod.ts";

/**
 * Prints a value as indented JSON on stdout.
 *
 * @example Usage
 * ```ts
 * import { printJson } from "./output.ts";
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
 * import { colorEnabled } from "./output.ts";
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
 * import { makeStyle } from "./output.ts";
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
 * import { formatBytes } from "./output.ts";
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
