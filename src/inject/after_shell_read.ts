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
import { readBudget } from "../core/env.ts";
import type { HookEvent } from "../core/hook_io.ts";
import { normalizePath, resolveLocalPath } from "../core/paths.ts";
import { projectTouchesOf } from "./bash_paths.ts";
import { unservedClientReads } from "./client_bash_reads.ts";
import { locateTouches } from "./command_context.ts";
import { decideFileContext } from "./file_context.ts";
import { clientLoadsAfterWriteAndShellRead } from "./native_sources.ts";
import { decideTouch, type Touch } from "./touch.ts";
import { decideOnce, type Decision, ledgerKeyOf, type Outcome, windowStateDir } from "./window.ts";

/** The working folder of an event: its `cwd` when absolute, else the process's. */
function workingFolder(cwd: unknown): string | null {
  const given = typeof cwd === "string" ? resolveLocalPath(cwd) : null;
  if (given !== null) return given;
  try {
    return normalizePath(Deno.cwd());
  } catch {
    return null;
  }
}

/** A decision whose output is the PostToolUse event's (no hold: nothing is written here). */
function asPostToolUse(decision: Decision): Decision {
  return decision.output
    ? { ...decision, output: { ...decision.output, event: "PostToolUse" } }
    : decision;
}

/**
 * PostToolUse (Bash): the native sources of the files a lone search read the client's way and
 * matched nothing in, where the ledger does not hold them yet.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { onPostToolUse } from "./after_shell_read.ts";
 * const event = { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
 * assert.equal(onPostToolUse(event, envFrom({})).result, "client-loads-nothing-after-commands");
 * assert.equal(onPostToolUse(event, envFrom({ CLAUDE_PID: "1" })).result, "not-an-unmatched-search");
 * ```
 */
export function onPostToolUse(event: HookEvent, env: EnvReader): Outcome {
  const tool = event.tool_name ?? "";
  if (tool !== "Bash") return { tool, result: "tool-not-served" };
  // other agents and 2.1.197 load nothing after a command: the PreToolUse sent it all
  const byClaude = event.agent === undefined || event.agent === "claude";
  if (!byClaude || !clientLoadsAfterWriteAndShellRead(env)) {
    return { tool, result: "client-loads-nothing-after-commands" };
  }
  const command = event.tool_input?.command;
  const folder = workingFolder(event.cwd);
  const unserved = typeof command === "string" && folder !== null
    ? unservedClientReads(command, event.tool_response)
    : [];
  if (unserved.length === 0) return { tool, result: "not-an-unmatched-search" };
  const named = unserved.flatMap((file) => {
    const path = resolveLocalPath(file, folder!);
    return path === null ? [] : [{ path, role: "read" as const }];
  });
  const found = projectTouchesOf(named, env);
  const location = locateTouches(found.touches, found.truncated, []);
  if (location.kind === "none") return { tool, result: location.reason };
  const { budget, warning } = readBudget(env);
  const state = windowStateDir(env);
  const ledgerKey = ledgerKeyOf(event);
  const touch: Touch = {
    tool,
    location,
    target: undefined,
    written: [],
    ledgerOn: Boolean(state && ledgerKey),
    contextFor: (sent, ending, reserved) =>
      decideFileContext(location, budget, sent, { ending, reserved }),
  };
  const outcome = decideOnce(
    event,
    env,
    state,
    ledgerKey,
    (ledger) => asPostToolUse(decideTouch(touch, ledger, false)),
  );
  return { tool, file: location.touched.join(","), warning, unmatched: true, ...outcome };
}
