/**
 * The Stop step that keeps the stale record the inject hook marks stale learnings from
 * (`git/stale_check.ts`): a few stats when nothing moved; extended without git when this turn
 * only appended learnings about code as it left it; else remade, asking git, when `HEAD`, a
 * library file or a cited code file changed. Never fails the turn.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import type { LogValue } from "../../core/log.ts";
import { staleRecordNeed } from "../../git/stale_check.ts";
import type { StopContext } from "../stop_context.ts";
import { errorText, type Step } from "../step.ts";

/** Keeps the stale record; logs `stale_record` when it did anything. */
export const STALE_RECORD: Step<StopContext> = {
  name: "stale-record",
  due: () => true, // its check (`staleRecordNeed`) is the first thing it runs
  async run(context) {
    Object.assign(context.fields, await keepStaleRecord(context));
  },
};

async function keepStaleRecord(
  { library, env, written }: StopContext,
): Promise<Record<string, LogValue>> {
  try {
    const need = staleRecordNeed(library, env, written.length > 0);
    if (need === null) return {};
    if (written.length > 0) {
      const { extendStaleRecord } = await loadLater<typeof import("../../git/stale_extend.ts")>(
        "git/stale_extend.ts",
      );
      if (extendStaleRecord(library, need, written)) return { stale_record: "extended" };
    }
    const { remakeStaleRecord } = await loadLater<typeof import("../../git/stale_refresh.ts")>(
      "git/stale_refresh.ts",
    );
    const outcome = await remakeStaleRecord(library, need);
    return {
      stale_record: outcome.kind === "written" ? `written:${outcome.stale}` : outcome.kind,
    };
  } catch (error) {
    return { stale_record: `skipped:${errorText(error)}` };
  }
}
