/**
 * The last hook runs, read back from the end of the log with {@link parseLogLine}.
 *
 * @module
 */

import { type LogRecord, parseLogLine } from "./log.ts";
import { normalizePath } from "./paths.ts";
import { isRegularFile } from "./read_text.ts";

/**
 * How much of the log's end is read: the whole log, which rotates past 1 MiB, so a project whose
 * runs are interleaved with other projects' still finds its own.
 */
const TAIL_BYTES = 1024 * 1024 + 64 * 1024;

/**
 * The log's last records, oldest first; `null` when the log file does not exist or is not a
 * regular file (opening a FIFO for reading would wait for a writer forever).
 *
 * @example Usage
 * ```ts
 * import { readLogTail } from "./log_tail.ts";
 * import { appendLog } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/librarian.log`;
 * assert.equal(await readLogTail(path, 10), null);
 * for (const n of [1, 2, 3]) appendLog(path, "inject", { n });
 * const records = await readLogTail(path, 2);
 * assert.deepEqual(records?.map((r) => r.fields.n), ["2", "3"]);
 * ```
 */
export async function readLogTail(path: string, limit: number): Promise<LogRecord[] | null> {
  if (!isRegularFile(path)) return null;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    const start = Math.max(0, size - TAIL_BYTES);
    await file.seek(start, Deno.SeekMode.Start);
    const bytes = new Uint8Array(size - start);
    let filled = 0;
    while (filled < bytes.length) {
      const n = await file.read(bytes.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    const lines = new TextDecoder().decode(bytes.subarray(0, filled)).split("\n");
    if (start > 0) lines.shift(); // a partial first line
    const records = lines.map(parseLogLine).filter((r): r is LogRecord => r !== null);
    return limit > 0 ? records.slice(-limit) : [];
  } finally {
    file.close();
  }
}

/**
 * True when a record was written by a hook run for the project at `projectRoot` (its `project`
 * field is that folder or one inside it). Records without the field (older versions) are not
 * claimed by any project.
 *
 * @example Usage
 * ```ts
 * import { isProjectRecord } from "./log_tail.ts";
 * import assert from "node:assert/strict";
 *
 * const record = (project: string) => ({ time: "", command: "inject", fields: { project } });
 * assert.ok(isProjectRecord(record("/work/repo"), "/work/repo"));
 * assert.ok(isProjectRecord(record("/work/repo/src"), "/work/repo"));
 * assert.ok(!isProjectRecord(record("/work/repo2"), "/work/repo"));
 * ```
 */
export function isProjectRecord(record: LogRecord, projectRoot: string): boolean {
  const project = record.fields.project;
  if (!project) return false;
  const root = normalizePath(projectRoot).replace(/\/+$/, "");
  const at = normalizePath(project).replace(/\/+$/, "");
  return at === root || at.startsWith(`${root}/`);
}

/**
 * The last `limit` runs of the log at `path` for the project at `projectRoot`, oldest first.
 *
 * @example Usage
 * ```ts
 * import { readProjectRuns } from "./log_tail.ts";
 * import { appendLog } from "./log.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/librarian.log`;
 * appendLog(path, "stop", { project: "/a", n: 1 });
 * appendLog(path, "stop", { project: "/b", n: 2 });
 * appendLog(path, "stop", { project: "/a", n: 3 });
 * const runs = await readProjectRuns(path, "/a", 10);
 * assert.deepEqual(runs?.map((r) => r.fields.n), ["1", "3"]);
 * ```
 */
export async function readProjectRuns(
  path: string,
  projectRoot: string,
  limit: number,
): Promise<LogRecord[] | null> {
  const records = await readLogTail(path, Number.MAX_SAFE_INTEGER);
  if (records === null) return null;
  const mine = records.filter((r) => isProjectRecord(r, projectRoot));
  return limit > 0 ? mine.slice(-limit) : [];
}

/**
 * Text from the log made safe for a terminal: control characters shown as `\u001b` escapes.
 *
 * @example Usage
 * ```ts
 * import { safeText } from "./log_tail.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(safeText("a\x1b[31mb"), "a\\u001b[31mb");
 * ```
 */
export function safeText(text: string): string {
  return text.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A log record as one line for people: time, command, event, result, milliseconds, file.
 *
 * @example Usage
 * ```ts
 * import { describeRecord } from "./log_tail.ts";
 * import assert from "node:assert/strict";
 *
 * const record = {
 *   time: "2026-11-30T06:40:00.123Z",
 *   command: "inject",
 *   fields: { event: "PreToolUse", tool: "Read", file: "src/a.ts", ms: "18.4" },
 * };
 * assert.equal(describeRecord(record), "2026-11-30 06:40:00Z  inject  PreToolUse  Read  src/a.ts  18.4 ms");
 * ```
 */
export function describeRecord(record: LogRecord): string {
  const f = record.fields;
  const parts = [record.time.replace("T", " ").replace(/\.\d+Z$/, "Z"), record.command];
  if (f.event) parts.push(f.event);
  if (f.tool) parts.push(f.tool);
  if (f.result) parts.push(f.result);
  if (f.file) parts.push(f.file);
  if (f.ms) parts.push(`${f.ms} ms`);
  // a file path may hold control characters: never send them to the terminal raw
  return safeText(parts.join("  "));
}

/**
 * How long ago `time` was, in words (`12 s`, `5 min`, `3 h`, `2 days`).
 *
 * @example Usage
 * ```ts
 * import { ageOf } from "./log_tail.ts";
 * import assert from "node:assert/strict";
 *
 * const now = new Date("2026-11-30T12:00:00Z");
 * assert.equal(ageOf("2026-11-30T11:59:48Z", now), "12 s ago");
 * assert.equal(ageOf("2026-11-30T11:55:00Z", now), "5 min ago");
 * assert.equal(ageOf("2026-11-28T12:00:00Z", now), "2 days ago");
 * ```
 */
export function ageOf(time: string, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(time)) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}
