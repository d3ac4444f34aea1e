/**
 * The PostToolUse (Bash) event: what the client turned out not to load after a Bash read.
 *
 * Claude Code 2.1.3xx loads a file's nested `CLAUDE.md` and `paths:` rules itself after a Bash
 * command it takes for a read of it (`cat F`, `grep x F`: `client_bash_reads.ts`), so the
 * PreToolUse hook leaves those to it. But a lone `grep` / `rg` that matches nothing makes the
 * client load nothing, and the PreToolUse decided before the command ran. Once it ran, this
 * sends what was left to the client, through the same ledger (so never twice) and budget.
 *
 * Observed with the real CLI (2.1.197 and 2.1.332): PostToolUse fires after the command, before
 * the client's InstructionsLoaded for that command (so the ledger cannot yet tell what the client
 * loads: the tool's output does); its `additionalContext` reaches the model in the next request
 * on both versions. hooks.json runs this only for commands that start with a search (`if:
 * Bash(grep *)`, ...), so any other Bash command costs no process at all.
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { resolveLocalPath } from "../core/paths.ts";
import { projectTouchesOf } from "./bash_paths.ts";
import { unservedClientReads } from "./client_bash_reads.ts";
import { type CommandLocation, locateTouches, workingFolder } from "./command_context.ts";
import { clientLoadsAfterWriteAndShellRead } from "./native_sources.ts";

/**
 * PostToolUse (Bash): where the files of a lone search that matched nothing get their context
 * (every source that applies: the ledger leaves only what the PreToolUse left to the client), or
 * why there is nothing to send (the log's `result`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { locateUnmatchedSearch } from "./after_shell_read.ts";
 * const event = { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
 * const under197 = locateUnmatchedSearch(event, envFrom({}));
 * assert.equal(under197.kind === "none" && under197.result, "client-loads-nothing-after-commands");
 * const under332 = locateUnmatchedSearch(event, envFrom({ CLAUDE_PID: "1" }));
 * assert.equal(under332.kind === "none" && under332.result, "not-an-unmatched-search");
 * ```
 */
export function locateUnmatchedSearch(
  event: HookEvent,
  env: EnvReader,
): (CommandLocation & { kind: "located" }) | { kind: "none"; result: string } {
  if (event.tool_name !== "Bash") return { kind: "none", result: "tool-not-served" };
  // other agents and 2.1.197 load nothing after a command: the PreToolUse sent it all
  const byClaude = event.agent === undefined || event.agent === "claude";
  if (!byClaude || !clientLoadsAfterWriteAndShellRead(env)) {
    return { kind: "none", result: "client-loads-nothing-after-commands" };
  }
  const command = event.tool_input?.command;
  const folder = workingFolder(event.cwd);
  if (typeof command !== "string" || folder === null) {
    return { kind: "none", result: "not-an-unmatched-search" };
  }
  const named = unservedClientReads(command, event.tool_response).flatMap((file) => {
    const path = resolveLocalPath(file, folder);
    return path === null ? [] : [{ path, role: "read" as const }];
  });
  if (named.length === 0) return { kind: "none", result: "not-an-unmatched-search" };
  const found = projectTouchesOf(named, env);
  const location = locateTouches(found.touches, found.truncated, []);
  return location.kind === "none" ? { kind: "none", result: location.reason } : location;
}
