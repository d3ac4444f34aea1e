/**
 * `librarian read --command '<shell command>'`: what the inject hook would send before a Bash
 * tool call runs that command (the same location and decision, with no session ledger).
 *
 * @module
 */

import type { EnvReader } from "../../core/mod.ts";
import {
  decideFileContext,
  type FileContext,
  locateCommandContext,
  type NoCommandContextReason,
} from "../../inject/mod.ts";

/** The context a command line would get, or why it gets none. */
export type CommandReadContext =
  | FileContext
  | { kind: "none"; reason: NoCommandContextReason; relPath?: string; library?: undefined };

/** Why a command would be sent nothing, in words. */
export const NO_COMMAND_CONTEXT: Record<NoCommandContextReason, string> = {
  "no-command": "the command is empty",
  "unparseable": "the command cannot be parsed as a shell command line",
  "no-project-paths":
    "it names no existing file or folder (nor a file it writes) inside a project with a library, below the project root",
  "no-library-files": "no library file applies to the folders it touches or their ancestors",
};

/**
 * The context a Bash tool call running `command` in folder `cwd` would be sent, ignoring what
 * the session was already sent.
 *
 * @example Usage
 * ```ts
 * import { commandReadContext } from "./command.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library/src`, { recursive: true });
 * Deno.mkdirSync(`${project}/src`);
 * Deno.writeTextFileSync(`${project}/src/a.ts`, "");
 * Deno.writeTextFileSync(`${project}/_memory_library/src/notes.md`, "- src knowledge\n");
 * const context = commandReadContext("cat src/a.ts", { env: envFrom({}), budget: 9000, cwd: project });
 * assert.equal(context.kind, "context");
 * assert.ok(JSON.stringify(context).includes("src knowledge"));
 * ```
 */
export function commandReadContext(
  command: string,
  options: { env: EnvReader; budget: number; cwd: string },
): CommandReadContext {
  const location = locateCommandContext("Bash", { command }, options.cwd, options.env);
  if (location.kind === "none") {
    const detail = location.detail;
    return detail === undefined || location.reason !== "no-library-files"
      ? { kind: "none", reason: location.reason }
      : { kind: "none", reason: location.reason, relPath: detail };
  }
  return decideFileContext(location, options.budget, {});
}
