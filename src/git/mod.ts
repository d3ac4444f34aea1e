/**
 * The door of `git/`: what other folders use of it. Every git question the commands ask: running
 * git, the repository root, renames, and the staleness of learnings (the stale scan and the stale
 * record).
 *
 * @module
 */

export { runGit } from "./git_run.ts";
export { gitRenames, type Rename } from "./renames.ts";
export { gitRootAbove } from "./root.ts";
export { refreshStaleRecord } from "./stale_refresh.ts";
export { scanStaleness, staleReason } from "./stale_scan.ts";
export { DEFAULT_CHANGE_RATIO, type Learning, type SourceFate } from "./staleness.ts";
