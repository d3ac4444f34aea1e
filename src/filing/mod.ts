/**
 * The door of `filing/`: what other folders use of it. The filing core and its parts the commands
 * share: routing the scratch file under the library's lock, its verdict on a block, appending
 * learnings, rewriting scratch.
 *
 * @module
 */

export { appendLearnings } from "./append.ts";
export { classifyBlock, type KeepCode } from "./classify.ts";
export { type Coordination, lockLibrary } from "./coordination.ts";
export { coordinationPaths } from "./coordination_paths.ts";
export { type RouteReport } from "./route_report.ts";
export { routeScratch } from "./route_scratch.ts";
export { rewriteScratch } from "./scratch_rewrite.ts";
export { type TurnSource } from "./stop_nudge.ts";
export { type SyncOutcome } from "./stop_summary.ts";
