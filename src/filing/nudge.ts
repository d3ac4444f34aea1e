/**
 * The stop nudge (pure): whether a turn that changed code but recorded no learning gets one
 * bounded continuation (Claude Code: the Stop's `additionalContext`; other agents:
 * `{"decision": "block", "reason": ...}`; {@link nudgeOutput}), and what the reason says.
 *
 * The rules, in the order they are checked (cheapest first, so that most turns never read the
 * transcript): `LIBRARIAN_NUDGE=off`; `stop_hook_active` (the turn already continues because of a
 * Stop hook); the turn tagged something (this Stop filed or kept a block); `session` mode and this
 * session was nudged before; then, from the transcript: the turn wrote into the library (scratch
 * or a library file, also through a Bash command that writes `.scratch.md`: reading it is no
 * tag); no code file changed (Edit, Write, MultiEdit, NotebookEdit that did not fail, or a Bash
 * command that did not fail and writes a project file: `sed -i`, `>`, `tee`, ..., read by the same
 * shell reader as the inject hook's touches; inside the project, outside the library). The reason
 * itself is written by `nudge_reason.ts`, loaded only when a nudge is sent.
 *
 * @module
 */

import { type Library, placeFile, SCRATCH_FILE_NAME } from "../core/discover.ts";
import { resolveLocalPath } from "../core/paths.ts";
import type { TurnActivity } from "./transcript.ts";

/** `LIBRARIAN_NUDGE`: at most once per session (default), after every such turn, or never. */
export type NudgeMode = "session" | "turn" | "off";

/** The tools that change a file, and the input key naming it. */
export const EDIT_TOOLS: Readonly<Record<string, string>> = {
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/**
 * The Stop hook output that hands the nudge's reason to the agent (pure). Claude Code gets it as
 * the Stop's `hookSpecificOutput.additionalContext`: the model continues with it, sees it once
 * (`<system-reminder>Stop hook additional context: …`), and the next Stop has `stop_hook_active`,
 * on 2.1.197 and on 2.1.332 alike. `{"decision": "block", "reason"}` continues too, but 2.1.332
 * sends such a reason twice (a reminder framed as "Stop hook feedback" and a system message framed
 * as "Stop hook blocking error"), measured with the real clients (tests/e2e/nudge_test.ts). The
 * other agents (Codex, Copilot, Gemini) continue only on `decision: "block"`.
 *
 * @example Usage
 * ```ts
 * import { nudgeOutput } from "./nudge.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(nudgeOutput("Record it.", undefined), {
 *   hookSpecificOutput: { hookEventName: "Stop", additionalContext: "Record it." },
 * });
 * assert.deepEqual(nudgeOutput("Record it.", "codex"), { decision: "block", reason: "Record it." });
 * ```
 */
export function nudgeOutput(
  reason: string,
  agent: string | undefined,
): Record<string, unknown> {
  if (agent !== undefined && agent !== "claude") return { decision: "block", reason };
  return { hookSpecificOutput: { hookEventName: "Stop", additionalContext: reason } };
}

/**
 * The mode `LIBRARIAN_NUDGE` asks for; anything unknown means the default, `session`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(nudgeModeOf(undefined), "session");
 * assert.equal(nudgeModeOf("Turn"), "turn");
 * assert.equal(nudgeModeOf("0"), "off");
 * ```
 */
export function nudgeModeOf(raw: string | undefined): NudgeMode {
  const value = raw?.trim().toLowerCase();
  if (value === "turn" || value === "off") return value;
  if (value === "0" || value === "false" || value === "no" || value === "never") return "off";
  return "session";
}

/** A word that names the scratch file (quotes taken off). */
function namesScratch(word: string | undefined): boolean {
  if (word === undefined) return false;
  const bare = word.replace(/^["']|["']$/g, "").replace(/^of=/, "");
  return bare === SCRATCH_FILE_NAME || bare.endsWith(`/${SCRATCH_FILE_NAME}`);
}

/** Redirection into scratch: `>`, `>>`, `&>`, `2>>`, `>|`, with or without a space before it. */
const REDIRECT_INTO = /(?:^|[^<>])(?:\d|&)?>>?\|?[ \t]*(["']?[^\s;&|<>()]+)/g;

/** Commands that write the file their arguments name, and which argument that is. */
const WRITERS: Readonly<Record<string, "any" | "last" | "in-place">> = {
  tee: "any",
  dd: "any",
  cp: "last",
  mv: "last",
  install: "last",
  rsync: "last",
  ln: "last",
  sed: "in-place",
  perl: "in-place",
  gsed: "in-place",
};

/** `command` without the bodies of its here-documents (`<<EOF` … `EOF`). */
function withoutHereDocuments(command: string): string {
  const kept: string[] = [];
  let until: string | null = null;
  for (const line of command.split("\n")) {
    if (until !== null) {
      if (line.trim() === until) until = null;
      continue;
    }
    kept.push(line);
    until = /<<-?[ \t]*["']?([\w.-]+)["']?/.exec(line)?.[1] ?? null;
  }
  return kept.join("\n");
}

/**
 * Whether a Bash command writes the scratch file (a redirection into it, `tee`, `sed -i`, a copy
 * or move onto it): that is tagging. A command that only reads it (`cat`, `grep`, `head`, a copy
 * out of it) is not, so the nudge still comes.
 *
 * @example Usage
 * ```ts
 * import { bashWritesScratch } from "./nudge.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(bashWritesScratch("cat >> _memory_library/.scratch.md <<'EOF'\n- a\nEOF"));
 * assert.ok(bashWritesScratch("printf '%s\\n' x | tee -a _memory_library/.scratch.md"));
 * assert.ok(!bashWritesScratch("cat _memory_library/.scratch.md"));
 * assert.ok(!bashWritesScratch("cp _memory_library/.scratch.md /tmp/notes.md"));
 * ```
 */
export function bashWritesScratch(command: string): boolean {
  if (!command.includes(SCRATCH_FILE_NAME)) return false;
  // Here-document bodies are data, not commands.
  const head = withoutHereDocuments(command);
  for (const match of head.matchAll(REDIRECT_INTO)) if (namesScratch(match[1])) return true;
  for (const segment of head.split(/[;&|\n]+|\$\(|`/)) {
    const words = segment.trim().split(/\s+/).filter((word) =>
      !/^\w+=/.test(word) || word.startsWith("of=")
    );
    while (words[0] === "sudo" || words[0] === "command" || words[0] === "env") words.shift();
    const name = words[0]?.replace(/^.*\//, "");
    const rule = name === undefined ? undefined : WRITERS[name];
    if (rule === undefined) continue;
    const args = words.slice(1);
    if (rule === "any" && args.some(namesScratch)) return true;
    if (rule === "last" && namesScratch(args.filter((a) => !a.startsWith("-")).at(-1))) return true;
    if (
      rule === "in-place" && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a)) &&
      args.some(namesScratch)
    ) return true;
  }
  return false;
}

/** What a turn changed, as far as the transcript tells. */
export interface TurnChanges {
  /** Project-relative code files changed, sorted, each once. */
  files: string[];
  /** True when the turn wrote into the library (a learning was recorded). */
  tagged: boolean;
}

/**
 * The absolute paths a Bash command line writes, run in an absolute folder (`shell/`'s reader,
 * which the caller loads only for a turn that ran Bash).
 */
export type BashWrites = (command: string, cwd: string) => string[];

/**
 * The code files a turn changed and whether it wrote into the library. Bash commands count
 * through `bashWrites` when given (the files they write), else only by naming scratch.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const library = { root: "/r/_memory_library", projectRoot: "/r", foundBy: "cwd" as const };
 * const changes = turnChanges({
 *   complete: true,
 *   toolUses: [
 *     { name: "Read", input: { file_path: "/r/src/a.ts" }, failed: false },
 *     { name: "Edit", input: { file_path: "/r/src/a.ts" }, failed: false },
 *     { name: "Write", input: { file_path: "src/b.ts" }, failed: true },
 *   ],
 * }, library, "/r", "linux");
 * assert.deepEqual(changes, { files: ["src/a.ts"], tagged: false });
 * ```
 */
export function turnChanges(
  activity: TurnActivity,
  library: Library,
  cwd: string | undefined,
  os?: string,
  bashWrites?: BashWrites,
): TurnChanges {
  const files = new Set<string>();
  let tagged = false;
  for (const use of activity.toolUses) {
    if (use.failed) continue;
    if (use.name === "Bash") {
      const command = use.input.command;
      if (typeof command !== "string") continue;
      if (bashWritesScratch(command)) tagged = true;
      const base = resolveLocalPath(cwd ?? "", undefined, os) ?? library.projectRoot;
      for (const path of bashWrites?.(command, base) ?? []) {
        const placement = placeFile(path, library, os);
        if (placement.kind === "in-library") tagged = true;
        else if (placement.kind === "project") files.add(placement.relPath);
      }
      continue;
    }
    const key = EDIT_TOOLS[use.name];
    const raw = key === undefined ? undefined : use.input[key];
    if (typeof raw !== "string" || raw.trim() === "") continue;
    const path = resolveLocalPath(raw, undefined, os) ??
      resolveLocalPath(raw, cwd ?? library.projectRoot, os);
    if (path === null) continue;
    const placement = placeFile(path, library, os);
    if (placement.kind === "in-library") tagged = true;
    else if (placement.kind === "project") files.add(placement.relPath);
  }
  return { files: [...files].sort(), tagged };
}

/** Why a turn is not nudged. */
export type NudgeSkip =
  | "off"
  | "stop-hook-active"
  | "tagged"
  | "already-nudged"
  | "no-transcript"
  | "no-code-changed";

/** The facts known without reading the transcript. */
export interface NudgeGateFacts {
  mode: NudgeMode;
  stopHookActive: boolean;
  /** This Stop filed or kept at least one scratch block. */
  taggedThisStop: boolean;
  /** Asked only in `session` mode, and only when every cheaper check passed. */
  nudgedBefore: () => boolean;
}

/**
 * The checks that need no transcript, cheapest first; `undefined` when the turn may be nudged.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const facts = { mode: "session" as const, stopHookActive: false, taggedThisStop: false };
 * assert.equal(nudgeGate({ ...facts, nudgedBefore: () => false }), undefined);
 * assert.equal(nudgeGate({ ...facts, stopHookActive: true, nudgedBefore: () => false }), "stop-hook-active");
 * assert.equal(nudgeGate({ ...facts, nudgedBefore: () => true }), "already-nudged");
 * ```
 */
export function nudgeGate(facts: NudgeGateFacts): NudgeSkip | undefined {
  if (facts.mode === "off") return "off";
  if (facts.stopHookActive) return "stop-hook-active";
  if (facts.taggedThisStop) return "tagged";
  if (facts.mode === "session" && facts.nudgedBefore()) return "already-nudged";
  return undefined;
}

/**
 * The checks on what the transcript says; `undefined` when the turn is nudged.
 *
 * @example Usage
 * ```ts
 * import { nudgeSkipFor } from "./nudge.ts";
 * import assert from "node:assert/strict";
 * assert.equal(nudgeSkipFor(undefined), "no-transcript");
 * assert.equal(nudgeSkipFor({ files: ["src/a.ts"], tagged: true }), "tagged");
 * assert.equal(nudgeSkipFor({ files: [], tagged: false }), "no-code-changed");
 * assert.equal(nudgeSkipFor({ files: ["src/a.ts"], tagged: false }), undefined);
 * ```
 */
export function nudgeSkipFor(changes: TurnChanges | undefined): NudgeSkip | undefined {
  if (!changes) return "no-transcript";
  if (changes.tagged) return "tagged";
  if (changes.files.length === 0) return "no-code-changed";
  return undefined;
}
