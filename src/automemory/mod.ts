/**
 * The door of `automemory/`: what other folders use of it. Claude Code's auto memory into scratch:
 * where it lives and the sync's mode, for `doctor`. The Stop hook loads the sync itself (its
 * modules directly, or later).
 *
 * @module
 */

export { memoryDirs } from "./memory_locate.ts";
export { autoMemoryMode } from "./mode.ts";
export { type MemoryScan } from "./scan.ts";
