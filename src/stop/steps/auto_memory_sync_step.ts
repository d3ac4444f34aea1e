/**
 * The filing step that turns new or edited Claude Code memories (not `user`) into scratch
 * blocks, before routing files them (`automemory/sync.ts`). Optional: due only when the scan
 * found a memory changed or gone.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import type { FilingContext } from "../stop_context.ts";
import { errorText, type Step } from "../step.ts";

/** Syncs the changed auto memory into scratch; a failure is recorded, never thrown. */
export const AUTO_MEMORY_SYNC: Step<FilingContext> = {
  name: "auto-memory-sync",
  due: ({ scan }) => scan.changed.length > 0 || scan.stale.length > 0,
  async run(context) {
    const { syncAutoMemory } = await loadLater<typeof import("../../automemory/sync.ts")>(
      "automemory/sync.ts",
    );
    try {
      context.sync = await syncAutoMemory(context.library, context.env, context.scan);
    } catch (error) {
      // Records are written after scratch: whatever was not synced is synced on a later turn.
      context.sync = { synced: [], skipped: [], unchanged: 0, error: errorText(error) };
    }
  },
};
