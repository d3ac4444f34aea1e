/**
 * The door of `inject/`: what other folders use of it. The inject hook's decisions, for the
 * commands that show them (`read`, `hook explain`, `sessions`): a file's and a command's context,
 * the ledger and the context window.
 *
 * @module
 */

export { locateCommandContext, type NoCommandContextReason } from "./command_context.ts";
export {
  buildFileContext,
  decideFileContext,
  type FileContext,
  locateFileContext,
  type NoContextReason,
} from "./file_context.ts";
export { FILE_TOOLS } from "./inject_hook.ts";
export { loadLedger } from "./ledger.ts";
export { parseLedger } from "./ledger_format.ts";
export { ruleAgentOf } from "./rule_files.ts";
export { rootFilesAtStart } from "./start.ts";
export { ledgerKeyOf, windowStateDir } from "./window.ts";
