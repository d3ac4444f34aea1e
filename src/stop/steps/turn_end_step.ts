/**
 * The Stop step that ends the turn's records: another agent's turn record
 * (`core/turn_record.ts`) ends with its turn (not with a subagent's stop), and the log says how
 * the turn's changes were read.
 *
 * @module
 */

import { stateDir } from "../../core/env.ts";
import { clearTurn } from "../../core/turn_record.ts";
import type { StopContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/** Clears another agent's turn record; logs the turn source's fields. */
export const TURN_END: Step<StopContext> = {
  name: "turn-end",
  due: () => true,
  run({ event, env, turn, fields }) {
    if (
      event.agent !== undefined && event.agent !== "claude" &&
      event.hook_event_name !== "SubagentStop"
    ) {
      clearTurn(stateDir(env), event.session_id);
    }
    Object.assign(fields, turn.fields());
  },
};
