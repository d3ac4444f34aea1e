/**
 * The Stop step of a SubagentStop: the subagent is never nudged itself; the code files it changed
 * (read from its own transcript) are noted for its session's next Stop, which counts them with its
 * turn (`filing/subagent_changes.ts`), unless the subagent recorded a learning. The writer
 * (`filing/subagent_note.ts`) is loaded only here.
 *
 * @module
 */

import { stateDir } from "../../core/env.ts";
import { loadLater } from "../../core/load_later.ts";
import type { LogValue } from "../../core/log.ts";
import type { StopContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/** Notes a subagent's changed code files for its parent's next Stop; logs `subagent: <why>`. */
export const SUBAGENT_NOTE: Step<StopContext> = {
  name: "subagent-note",
  due: ({ event }) => event.hook_event_name === "SubagentStop",
  async run(context) {
    Object.assign(context.fields, await noteForParent(context));
  },
};

async function noteForParent(
  { event, env, tagged, turn }: StopContext,
): Promise<Record<string, LogValue>> {
  const state = stateDir(env);
  if (event.agent !== undefined && event.agent !== "claude") return { subagent: "other-agent" };
  if (tagged) return { subagent: "tagged" };
  const changes = await turn.changes();
  if (changes?.tagged) return { subagent: "tagged" };
  const files = changes?.files ?? [];
  if (!state || !event.session_id || typeof event.agent_id !== "string" || files.length === 0) {
    return { subagent: files.length === 0 ? "no-code-changed" : "not-noted" };
  }
  const { noteSubagentChanges } = await loadLater<typeof import("../../filing/subagent_note.ts")>(
    "filing/subagent_note.ts",
  );
  const noted = noteSubagentChanges(state, event.session_id, event.agent_id, files);
  return { subagent: noted ? "noted" : "not-noted" };
}
