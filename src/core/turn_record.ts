/**
 * What a turn did, as the inject hook saw it: the Stop nudge's "did this turn change code" for
 * agents whose transcripts the Librarian does not read (Codex CLI, Copilot CLI, Gemini CLI).
 *
 * Each tool event of such an agent appends the calls that may change a file (in Claude Code's
 * shape: `Edit`/`Write` with an absolute `file_path`, one `Edit` per file of a patch, `Bash`
 * with its command) to `<state>/turns/<session>.jsonl`, one JSON line each (appends of one
 * short line need no lock). The Stop hook reads them as the turn's tool uses and removes the
 * file; a new prompt removes it too. Claude Code's turns are read from its transcript instead.
 *
 * @module
 */

import { safeId } from "./hash.ts";
import { isObject } from "./json.ts";
import { joinPath, resolveLocalPath } from "./paths.ts";
import { patchFiles } from "./patch_files.ts";
import { readTextBounded } from "./fs_probe.ts";

/** One recorded tool call, in Claude Code's shape. */
export interface TurnTool {
  name: string;
  input: Record<string, unknown>;
}

/** A shell command longer than this is recorded cut (its start is what names the files). */
export const MAX_RECORDED_COMMAND = 16_384;
/** The most a turn's record is read. */
export const MAX_TURN_RECORD_BYTES = 1_000_000;

/** The tools whose calls a turn record keeps, and the input key naming their file. */
const FILE_KEYS: Readonly<Record<string, string>> = {
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/**
 * The calls one tool event adds to its turn's record (pure): paths made absolute against the
 * event's `cwd`; nothing for a read or an unknown tool.
 *
 * @example Usage
 * ```ts
 * import { turnToolsOf } from "./turn_record.ts";
 * import assert from "node:assert/strict";
 *
 * const patch = "*** Begin Patch\n*** Update File: src/a.ts\n*** Add File: /p/b.ts\n*** End Patch";
 * assert.deepEqual(turnToolsOf({ tool_name: "apply_patch", tool_input: { command: patch }, cwd: "/p" }), [
 *   { name: "Edit", input: { file_path: "/p/src/a.ts" } },
 *   { name: "Edit", input: { file_path: "/p/b.ts" } },
 * ]);
 * assert.deepEqual(turnToolsOf({ tool_name: "Read", tool_input: { file_path: "/p/a" } }), []);
 * ```
 */
export function turnToolsOf(event: Record<string, unknown>): TurnTool[] {
  const tool = event.tool_name;
  const input = isObject(event.tool_input) ? event.tool_input : {};
  const cwd = typeof event.cwd === "string" ? event.cwd : undefined;
  const absolute = (path: unknown): string | null =>
    typeof path === "string" && path.trim() !== ""
      ? resolveLocalPath(path) ?? (cwd ? resolveLocalPath(path, cwd) : null)
      : null;
  if (tool === "apply_patch") {
    const text = input.command ?? input.patch ?? input.input;
    if (typeof text !== "string") return [];
    return patchFiles(text).flatMap((file) => {
      const path = absolute(file.path);
      return path === null ? [] : [{ name: "Edit", input: { file_path: path } }];
    });
  }
  if (tool === "Bash") {
    const command = input.command;
    if (typeof command !== "string" || command.trim() === "") return [];
    return [{ name: "Bash", input: { command: command.slice(0, MAX_RECORDED_COMMAND) } }];
  }
  const key = typeof tool === "string" ? FILE_KEYS[tool] : undefined;
  if (key === undefined) return [];
  const path = absolute(input[key]);
  return path === null ? [] : [{ name: tool as string, input: { [key]: path } }];
}

function recordPath(state: string, session: string): string {
  return joinPath(state, "turns", `${safeId(session)}.jsonl`);
}

/**
 * Appends what this tool event may change to its session's turn record. Never throws: a turn
 * whose record cannot be written is simply not nudged.
 */
export function noteTurnTool(
  state: string | undefined,
  event: Record<string, unknown>,
): void {
  const session = event.session_id;
  if (state === undefined || typeof session !== "string" || session === "") return;
  const tools = turnToolsOf(event);
  if (tools.length === 0) return;
  const text = tools.map((t) => JSON.stringify(t) + "\n").join("");
  const path = recordPath(state, session);
  try {
    try {
      Deno.writeTextFileSync(path, text, { append: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      Deno.mkdirSync(joinPath(state, "turns"), { recursive: true });
      Deno.writeTextFileSync(path, text, { append: true });
    }
  } catch {
    // no record: the Stop finds no change and does not nudge
  }
}

/**
 * The session's recorded calls this turn, oldest first; `undefined` when there is no record
 * (nothing that changes a file was seen, or it could not be read).
 *
 * @example Usage
 * ```ts
 * import { clearTurn, noteTurnTool, readTurnTools } from "./turn_record.ts";
 * import assert from "node:assert/strict";
 *
 * const state = Deno.makeTempDirSync();
 * noteTurnTool(state, { session_id: "s", tool_name: "Write", tool_input: { file_path: "/p/a.ts" } });
 * assert.deepEqual(readTurnTools(state, "s"), [{ name: "Write", input: { file_path: "/p/a.ts" } }]);
 * clearTurn(state, "s");
 * assert.equal(readTurnTools(state, "s"), undefined);
 * ```
 */
export function readTurnTools(
  state: string | undefined,
  session: string | undefined,
): TurnTool[] | undefined {
  if (state === undefined || !session) return undefined;
  const read = readTextBounded(recordPath(state, session), MAX_TURN_RECORD_BYTES);
  if (read.kind !== "text") return undefined;
  const tools: TurnTool[] = [];
  for (const line of read.text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value) && typeof value.name === "string" && isObject(value.input)) {
        tools.push({ name: value.name, input: value.input });
      }
    } catch {
      // a line cut short: skipped
    }
  }
  return tools;
}

/** Removes the session's turn record (the turn ended, or a new one began). Never throws. */
export function clearTurn(state: string | undefined, session: string | undefined): void {
  if (state === undefined || !session) return;
  try {
    Deno.removeSync(recordPath(state, session));
  } catch {
    // none, or it cannot be removed: a later Stop reads it again at worst
  }
}
