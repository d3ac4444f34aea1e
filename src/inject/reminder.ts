/**
 * The tagging reminders: how the model records a learning for the team (pure text).
 *
 * @module
 */

/**
 * The reminder the main agent gets at its first prompt.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { taggingReminder } from "./reminder.ts";
 * const text = taggingReminder("/p/_memory_library/.scratch.md", "/p/_memory_library");
 * assert.match(text, /## \[TAG: /);
 * assert.ok(text.includes("/p/_memory_library/.scratch.md"));
 * ```
 */
export function taggingReminder(scratchPath: string, libraryRoot: string): string {
  return [
    `[Librarian] This project keeps a memory library. To record a learning for the team, append`,
    `a block to ${scratchPath}:`,
    `## [TAG: <code folder, e.g. src/api, or global>, type: <file name, e.g. patterns, tech, edge>]`,
    `- <one learning per bullet>`,
    `Capture why, not what: gotchas, constraints, decisions and their reasons. At the end of the`,
    `turn each block is filed into ${libraryRoot}/<folder>/<type>.md.`,
  ].join("\n");
}

/**
 * The shorter reminder a subagent gets when it starts (subagents see no prompt hook).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { subagentReminder } from "./reminder.ts";
 * assert.match(subagentReminder("/p/_memory_library/.scratch.md"), /\.scratch\.md/);
 * ```
 */
export function subagentReminder(scratchPath: string): string {
  return [
    `[Librarian] This project keeps a memory library. To record something you learned for the`,
    `team, append to ${scratchPath} a block headed`,
    `## [TAG: <code folder, e.g. src/api, or global>, type: <e.g. patterns, tech, edge>]`,
    `with one learning per bullet: why, not what.`,
  ].join("\n");
}
