/**
 * Reading Claude Code's session transcripts (JSONL under `~/.claude/projects/<encoded>/`) for
 * what the client recorded about hooks (pure).
 *
 * Claude Code 2.1.197 writes hook outcomes as `attachment` entries:
 * - `hook_system_message`: a hook's `systemMessage`, shown to the user (`content`, `hookEvent`).
 * - `hook_success`: a hook run with its `durationMs` as the client measured it (process start to
 *   exit, so it includes `sh`, Deno start-up and module loading). Recorded only for runs that
 *   printed something, and not for SessionStart or UserPromptSubmit.
 *
 * @module
 */

/** A hook attachment of a transcript. */
interface HookAttachment {
  type?: string;
  hookEvent?: string;
  hookName?: string;
  content?: unknown;
  durationMs?: unknown;
}

function attachments(transcripts: string): HookAttachment[] {
  const found: HookAttachment[] = [];
  for (const line of transcripts.split("\n")) {
    if (!line.includes('"attachment"')) continue;
    try {
      const entry = JSON.parse(line) as { attachment?: HookAttachment };
      if (entry.attachment && typeof entry.attachment === "object") found.push(entry.attachment);
    } catch {
      // a line being written: ignore
    }
  }
  return found;
}

/** The `systemMessage`s the client recorded for hooks of `event` (e.g. `Stop`). */
export function systemMessages(transcripts: string, event: string): string[] {
  return attachments(transcripts)
    .filter((a) => a.type === "hook_system_message" && a.hookEvent === event)
    .map((a) => String(a.content ?? ""));
}

/** One hook run as the client timed it. */
export interface HookDuration {
  /** `PreToolUse`, `Stop`, ... */
  event: string;
  /** `PreToolUse:Read`, `Stop`, ... */
  hookName: string;
  ms: number;
}

/** The hook runs the client timed (`hook_success` attachments with `durationMs`). */
export function hookDurations(transcripts: string): HookDuration[] {
  return attachments(transcripts)
    .filter((a) => a.type === "hook_success" && typeof a.durationMs === "number")
    .map((a) => ({
      event: String(a.hookEvent ?? "?"),
      hookName: String(a.hookName ?? a.hookEvent ?? "?"),
      ms: a.durationMs as number,
    }));
}
