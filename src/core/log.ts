/**
 * The hook log: one line per event, so people can see that hooks fire and what they cost.
 *
 * Line format (parsed back by {@link parseLogLine} for `librarian status` and `doctor`):
 *
 * ```
 * 2026-11-30T06:40:00.123Z inject event=PreToolUse tool=Read file=src/a.ts sent=2 chars=1234 hits=1 ms=18.4
 * ```
 *
 * Values with spaces, quotes or `=` are written as JSON strings. The file rotates to `<log>.1`
 * past 1 MiB. Logging never throws: a hook must not fail because its log cannot be written.
 *
 * @module
 */

import { dirnameOf } from "./paths.ts";
import { utcIsoTime } from "./utc_time.ts";

/** Rotate the log once it grows past this many bytes. */
export const LOG_ROTATE_BYTES = 1024 * 1024;

/** A value that can be logged. */
export type LogValue = string | number | boolean | undefined;

/** One parsed log line. */
export interface LogRecord {
  time: string;
  command: string;
  fields: Record<string, string>;
}

/** Longer values are cut to this many characters (a log line stays readable and bounded). */
export const MAX_LOG_VALUE = 2000;

function formatValue(value: string | number | boolean): string {
  let text = typeof value === "number" && !Number.isInteger(value)
    ? value.toFixed(1)
    : String(value);
  if (text.length > MAX_LOG_VALUE) text = `${text.slice(0, MAX_LOG_VALUE)}…`;
  // quoted as JSON: spaces, quotes, `=`, and control characters (a NUL or an escape sequence in
  // a file path must not reach the log raw, nor a terminal through 'librarian status')
  if (text !== "" && !NEEDS_QUOTES.test(text)) return text;
  // JSON escapes the C0 controls; DEL, the C1 controls and the line separators are escaped here
  return JSON.stringify(text).replace(
    UNESCAPED_BY_JSON,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * What a value cannot hold unquoted: white space, `"`, `=`, and the control characters (C0, DEL,
 * C1: Unicode category Cc). Regular expressions with plain ranges, not `\p{Cc}` and not a loop
 * over the characters: a hook runs for milliseconds, so its code never leaves V8's interpreter,
 * where a loop over a 2,000-character value costs a millisecond and a compiled range costs
 * microseconds.
 */
// deno-lint-ignore no-control-regex
const NEEDS_QUOTES = /[\s"=\u0000-\u001f\u007f-\u009f]/;
/**
 * What `JSON.stringify` leaves raw but a log line must not hold: DEL, the C1 controls, and U+2028
 * and U+2029, which end a line for a reader's regular expressions.
 */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * Formats one log line (without the newline). Undefined fields are left out.
 *
 * @example Usage
 * ```ts
 * import { formatLogLine } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const line = formatLogLine(new Date(0), "inject", { tool: "Read", file: "a b.ts", skip: undefined });
 * assert.equal(line, '1970-01-01T00:00:00.000Z inject tool=Read file="a b.ts"');
 * ```
 */
export function formatLogLine(
  time: Date,
  command: string,
  fields: Record<string, LogValue>,
): string {
  // not time.toISOString(): its first call costs a hook 0.2 ms (utc_time.ts)
  const parts = [utcIsoTime(time.getTime()), command];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`${key}=${formatValue(value)}`);
  }
  return parts.join(" ");
}

const FIELD = /([A-Za-z_][\w-]*)=("(?:[^"\\]|\\.)*"|\S*)/g;

/**
 * Parses a line written by {@link formatLogLine}; `null` for anything else.
 *
 * @example Usage
 * ```ts
 * import { formatLogLine, parseLogLine } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const record = parseLogLine(formatLogLine(new Date(0), "stop", { file: "a b.md", filed: 2 }));
 * assert.deepEqual(record?.fields, { file: "a b.md", filed: "2" });
 * assert.equal(record?.command, "stop");
 * assert.equal(parseLogLine("not a log line"), null);
 * ```
 */
export function parseLogLine(line: string): LogRecord | null {
  const match = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) (\S+)(.*)$/.exec(line.trim());
  if (!match) return null;
  const fields: Record<string, string> = {};
  for (const field of match[3]!.matchAll(FIELD)) {
    const raw = field[2]!;
    let value = raw;
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        value = raw;
      }
    }
    fields[field[1]!] = value;
  }
  return { time: match[1]!, command: match[2]!, fields };
}

/**
 * Appends one line to the log at `path` (creating its folder, rotating past 1 MiB); a `path`
 * that is not a regular file (a FIFO, a device, a folder) is left alone.
 * Never throws; returns false when the line could not be written. Synchronous: it runs once per
 * hook, where a sync call is cheaper than an async one (callers may still `await` it).
 *
 * @example Usage
 * ```ts
 * import { appendLog, parseLogLine } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/logs/librarian.log`;
 * assert.ok(appendLog(path, "inject", { sent: 1 }));
 * assert.equal(parseLogLine(Deno.readTextFileSync(path))?.fields.sent, "1");
 * assert.equal(appendLog(undefined, "inject", {}), false);
 * ```
 */
export function appendLog(
  path: string | undefined,
  command: string,
  fields: Record<string, LogValue>,
  now: Date = new Date(),
): boolean {
  if (!path) return false;
  const line = formatLogLine(now, command, fields) + "\n";
  try {
    try {
      const info = Deno.statSync(path);
      // only ever a regular file: appending to a FIFO with no reader would block the hook forever
      if (!info.isFile) return false;
      if (info.size > LOG_ROTATE_BYTES) Deno.renameSync(path, `${path}.1`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      Deno.mkdirSync(dirnameOf(path), { recursive: true });
    }
    Deno.writeTextFileSync(path, line, { append: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Milliseconds since the process started (includes runtime start-up and module loading).
 *
 * @example Usage
 * ```ts
 * import { elapsedMs } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const ms = elapsedMs();
 * assert.ok(ms > 0);
 * assert.equal(Math.round(ms * 10) / 10, ms);
 * ```
 */
export function elapsedMs(): number {
  return Math.round(performance.now() * 10) / 10;
}
