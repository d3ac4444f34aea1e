/**
 * What the Stop hook's steps share: the Stop's context (`pipeline.ts`), and the context of
 * filing one library under its lock (`file_library.ts`). Each step reads what the steps before
 * it recorded, and adds its own log fields and messages.
 *
 * @module
 */

import type { EnvReader, HookEvent, Library, LogValue } from "../core/mod.ts";
import type { MemoryScan } from "../automemory/mod.ts";
import type { Coordination, RouteReport, SyncOutcome, TurnSource } from "../filing/mod.ts";
import type { LeftOver } from "./work.ts";

/** One Stop event in the session's library, as its steps go. */
export interface StopContext {
  readonly event: HookEvent;
  readonly env: EnvReader;
  /** The session's library. */
  readonly library: Library;
  /** The turn's changes, read from its transcript (or turn record) at most once. */
  readonly turn: TurnSource;
  /** The log line's fields, in the order the steps added them. */
  readonly fields: Record<string, LogValue>;
  /** What the user is told, a line each. */
  readonly messages: string[];
  /** Whether this Stop filed or newly kept a block, in any library (or auto memory did). */
  tagged: boolean;
  /** The session library's files written by this Stop. */
  written: readonly string[];
  /** The nudge's reason, when the turn is continued. */
  nudge?: string;
}

/** Filing one library under its lock, as its steps go (`file_library.ts`). */
export interface FilingContext {
  readonly library: Library;
  readonly env: EnvReader;
  /** The auto memory found changed (empty when it is not synced into this library). */
  readonly scan: MemoryScan;
  /** What an earlier run left for this one to finish. */
  readonly left: LeftOver;
  /** The code files the turn changed, when scratch is filed and the transcript says. */
  readonly changed: readonly string[] | undefined;
  /** The library's lock and coordination files, held while the steps run. */
  readonly held: Coordination;
  /** What the auto memory sync did, when it ran. */
  sync?: SyncOutcome;
  /** What routing did (set by the routing step, which always runs). */
  report?: RouteReport;
  /** The log line's fields. */
  readonly fields: Record<string, LogValue>;
  /** What the user is told (`""` for nothing). */
  message: string;
  /** Whether the turn recorded something: a block filed or newly kept, or a memory synced. */
  tagged: boolean;
  /** The library files written. */
  written: readonly string[];
}
