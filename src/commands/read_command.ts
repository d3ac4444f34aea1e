/**
 * `librarian read --command '<shell command>'`: what the inject hook would send before a Bash
 * tool call runs that command (the same location and decision, with no session ledger).
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";
import { locateCommandContext, type NoCommandContextReason } from "../inject/command_context.ts";
import { decideFileContext, type FileContext } from "../inject/file_context.ts";

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
