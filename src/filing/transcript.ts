/**
 * What the current turn did, read from Claude Code's session transcript (`transcript_path`).
 *
 * The transcript is JSONL, one entry per line, and can be many megabytes. It is read from the end,
 * in chunks, only back to the turn's user prompt (or a byte bound). Claude Code 2.1.197 writes:
 * - `user` entries: a prompt (`message.content` a string, or a list without `tool_result`), tool
 *   results (a list of `tool_result` blocks, `is_error` on failure), or hook feedback such as
 *   "Stop hook feedback:" (`isMeta: true`, part of the same turn);
 * - `assistant` entries: one per content block, `tool_use` (`id`, `name`, `input`) or `text`;
 * - others (`attachment`, `queue-operation`, `last-prompt`, ...), and `isSidechain` entries of
 *   subagents: not part of the main turn's record here.
 *
 * Anything of another shape is skipped ("nothing known"), a missing or unreadable transcript has no
 * turn, and nothing here throws. This module reads the file once; waiting for Claude Code to write
 * it (it drains its transcript queue every 100 ms) is the Stop hook's `readTurn`, in
 * `stop_nudge.ts`.
 *
 * @module
 */

import { isObject, type Json } from "../core/json.ts";
import { isLocalAbsolutePath, normalizePath } from "../core/paths.ts";

/** One tool call the model made in the turn. */
export interface TurnToolUse {
  /** The `tool_use` id, when the entry had one. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
  /** True when its result was an error (refused, or the tool failed). */
  failed: boolean;
}

/** What the transcript says the current turn did. */
export interface TurnActivity {
  /** True when the turn's prompt was found: every tool use of the turn is listed. */
  complete: boolean;
  /** The turn's tool calls, oldest first. */
  toolUses: TurnToolUse[];
  /**
   * The text of the newest assistant entry (`""` when it holds no text), or `undefined` when the
   * turn has no assistant entry yet: tells whether the transcript has caught up with the turn.
   */
  newestAssistantText?: string;
}

function objectOrNull(value: unknown): Json | null {
  return isObject(value) ? value : null;
}

function parseLine(line: string): Json | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    return objectOrNull(JSON.parse(trimmed));
  } catch {
    return null; // a line being written, or not JSON
  }
}

/** Collects a turn from transcript lines given newest first; {@link feed} says when it is done. */
export class TurnScanner {
  #sidechain: boolean;
  #uses: TurnToolUse[] = [];
  #failed = new Set<string>();
  #newestText: string | undefined;
  #complete = false;

  /**
   * @param sidechain read a subagent's own transcript (`agent_transcript_path`), whose entries
   *   are all `isSidechain`; otherwise such entries are skipped.
   */
  constructor(sidechain = false) {
    this.#sidechain = sidechain;
  }

  /** Takes the next older line; returns true once the turn's prompt has been reached. */
  feed(line: string): boolean {
    if (this.#complete) return true;
    const entry = parseLine(line);
    if (!entry || (entry.isSidechain === true && !this.#sidechain)) return false;
    const message = objectOrNull(entry.message);
    const content = message?.content;
    if (entry.type === "assistant" && Array.isArray(content)) {
      const texts: string[] = [];
      for (let i = content.length - 1; i >= 0; i--) {
        const block = objectOrNull(content[i]);
        if (block?.type === "text" && typeof block.text === "string") texts.unshift(block.text);
        const input = objectOrNull(block?.input);
        if (block?.type === "tool_use" && typeof block.name === "string" && input) {
          const use: TurnToolUse = { name: block.name, input, failed: false };
          if (typeof block.id === "string") use.id = block.id;
          this.#uses.push(use);
        }
      }
      this.#newestText ??= texts.join("\n");
      return false;
    }
    if (entry.type !== "user" || entry.isMeta === true) return false;
    if (typeof content === "string") return this.#done();
    if (!Array.isArray(content)) return false;
    let results = 0;
    for (const item of content) {
      const block = objectOrNull(item);
      if (block?.type !== "tool_result") continue;
      results++;
      if (block.is_error === true && typeof block.tool_use_id === "string") {
        this.#failed.add(block.tool_use_id);
      }
    }
    return results === 0 && content.length > 0 ? this.#done() : false;
  }

  #done(): boolean {
    this.#complete = true;
    return true;
  }

  /** The turn as seen so far. */
  result(): TurnActivity {
    const toolUses = [...this.#uses].reverse().map((use) => ({
      ...use,
      failed: use.id !== undefined && this.#failed.has(use.id),
    }));
    const activity: TurnActivity = { complete: this.#complete, toolUses };
    if (this.#newestText !== undefined) activity.newestAssistantText = this.#newestText;
    return activity;
  }
}

/**
 * The current turn of a transcript given as text (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const text = [
 *   '{"type":"user","message":{"role":"user","content":"Fix it."}}',
 *   '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/r/a.ts"}}]}}',
 *   '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}',
 *   '{"type":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}',
 * ].join("\n");
 * const turn = turnOfText(text);
 * assert.equal(turn.complete, true);
 * assert.deepEqual(turn.toolUses.map((u) => u.name), ["Write"]);
 * assert.equal(turn.newestAssistantText, "Done.");
 * ```
 */
export function turnOfText(text: string): TurnActivity {
  const scanner = new TurnScanner();
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) if (scanner.feed(lines[i]!)) break;
  return scanner.result();
}

/** The most bytes read back from the end of a transcript for one turn. */
export const MAX_TURN_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** What a scan did, for tests of its cost: every byte it looked at for a line break or copied. */
export interface ScanStats {
  bytesExamined: number;
}

/** The bytes of `pieces` (oldest first) as one array. */
function joined(pieces: readonly Uint8Array[], stats: ScanStats): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  stats.bytesExamined += length;
  return out;
}

/**
 * Feeds the lines of an open file to `scanner`, newest first; returns whether the bound was hit.
 * Linear in the bytes read: each chunk is searched for line breaks once, and a line longer than
 * a chunk (a pasted image in a prompt) is kept as pieces and joined once, when its start is found.
 */
function scanFromEnd(
  file: Deno.FsFile,
  size: number,
  scanner: TurnScanner,
  maxBytes: number,
  stats: ScanStats,
) {
  const decoder = new TextDecoder();
  let position = size;
  /** The newest line's bytes read so far, later ones last. */
  let pieces: Uint8Array[] = [];
  const feed = (head: Uint8Array) => {
    const line = joined([head, ...pieces], stats);
    pieces = [];
    return line.length > 0 && scanner.feed(decoder.decode(line));
  };
  while (position > 0) {
    if (size - position >= maxBytes) return true;
    const start = Math.max(0, position - CHUNK_BYTES);
    const chunk = new Uint8Array(position - start);
    file.seekSync(start, Deno.SeekMode.Start);
    let read = 0;
    while (read < chunk.length) {
      const n = file.readSync(chunk.subarray(read));
      if (n === null || n === 0) break;
      read += n;
    }
    position = start;
    stats.bytesExamined += chunk.length;
    let end = chunk.length;
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== NEWLINE) continue;
      if (feed(chunk.subarray(i + 1, end))) return false;
      end = i;
    }
    if (end > 0) pieces.unshift(chunk.subarray(0, end));
  }
  if (pieces.length > 0) feed(new Uint8Array(0));
  return false;
}

/** What {@link readTurnOnce} (and the Stop hook's `readTurn`) found. */
export interface TurnRead {
  /** The turn, or `undefined` when there is no usable transcript. */
  activity?: TurnActivity;
  /**
   * - `ok`: read back to the turn's prompt;
   * - `truncated`: the byte bound came first (the turn's older tool uses are not listed);
   * - `lagging`: the transcript never showed the turn's last message within the wait;
   * - `missing` / `unreadable`: no transcript to read (not a file, not an absolute path, ...).
   */
  status: "ok" | "truncated" | "lagging" | "missing" | "unreadable";
  /** Milliseconds spent waiting for the transcript to catch up. */
  waitedMs: number;
  /** The transcript's size when it was read. */
  size?: number;
}

/**
 * Reads the current turn from the transcript at `path` once. Never throws.
 *
 * @example Usage
 * ```ts
 * import { readTurnOnce } from "./transcript.ts";
 * import assert from "node:assert/strict";
 * const path = `${Deno.makeTempDirSync()}/t.jsonl`;
 * const edit = { type: "tool_use", id: "t1", name: "Edit", input: { file_path: "/p/a.ts" } };
 * const lines = ["fix it", [edit], [{ type: "text", text: "Done." }]].map((content, i) =>
 *   JSON.stringify({ type: i === 0 ? "user" : "assistant", message: { content } }));
 * Deno.writeTextFileSync(path, lines.join("\n"));
 * const { status, activity } = readTurnOnce(path);
 * assert.equal(status, "ok");
 * assert.deepEqual(activity?.toolUses.map((u) => [u.name, u.failed]), [["Edit", false]]);
 * assert.equal(activity?.newestAssistantText, "Done.");
 * assert.equal(readTurnOnce(`${path}.missing`).status, "missing");
 * ```
 */
export function readTurnOnce(
  path: unknown,
  maxBytes: number = MAX_TURN_BYTES,
  stats: ScanStats = { bytesExamined: 0 },
  sidechain = false,
): TurnRead {
  if (typeof path !== "string" || path.trim() === "") return { status: "missing", waitedMs: 0 };
  const normal = normalizePath(path);
  if (!isLocalAbsolutePath(normal)) return { status: "missing", waitedMs: 0 };
  let file: Deno.FsFile;
  try {
    // stat first: opening a FIFO for reading would block until something writes to it
    if (!Deno.statSync(normal).isFile) return { status: "unreadable", waitedMs: 0 };
    file = Deno.openSync(normal, { read: true });
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return { status: missing ? "missing" : "unreadable", waitedMs: 0 };
  }
  try {
    const info = file.statSync();
    if (!info.isFile) return { status: "unreadable", waitedMs: 0 };
    const scanner = new TurnScanner(sidechain);
    const truncated = scanFromEnd(file, info.size, scanner, maxBytes, stats);
    const activity = scanner.result();
    const status = activity.complete ? "ok" : truncated ? "truncated" : "ok";
    return { activity, status, waitedMs: 0, size: info.size };
  } catch {
    return { status: "unreadable", waitedMs: 0 };
  } finally {
    file.close();
  }
}
