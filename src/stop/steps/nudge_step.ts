/**
 * The Stop step that may continue a turn which changed code but recorded no learning, once, with
 * a reason naming the folders and their tag lines (`filing/stop_nudge.ts`, whose rules decide:
 * `LIBRARIAN_NUDGE=session|turn|off`, never when `stop_hook_active` is set).
 *
 * @module
 */

import { decideStopNudge } from "../../filing/stop_nudge.ts";
import type { StopContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/** Decides the nudge: its log fields, and its reason when the turn is continued. */
export const NUDGE: Step<StopContext> = {
  name: "nudge",
  // a subagent is never nudged itself (`subagent_note_step.ts`); the nudge's own rules log why it is
  // not sent
  due: ({ event }) => event.hook_event_name !== "SubagentStop",
  async run(context) {
    const { event, library, env, tagged, turn } = context;
    const nudge = await decideStopNudge(event, library, env, tagged, turn);
    Object.assign(context.fields, nudge.fields);
    if (nudge.reason !== undefined) context.nudge = nudge.reason;
  },
};
