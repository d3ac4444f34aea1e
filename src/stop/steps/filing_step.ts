/**
 * The Stop step that files the session library's learnings, syncing auto memory into it
 * (`file_library.ts`). Always due: it finds for itself, with a few `stat` calls, whether there
 * is work.
 *
 * @module
 */

import type { StopContext } from "../stop_context.ts";
import { fileLibrary } from "../file_library.ts";
import type { Step } from "../step.ts";

/** Files the session library: its fields, message, whether it recorded something, its writes. */
export const FILING: Step<StopContext> = {
  name: "filing",
  due: () => true,
  async run(context) {
    const filed = await fileLibrary(context.library, context.env, context.turn);
    Object.assign(context.fields, filed.fields);
    context.messages.push(filed.message);
    context.tagged ||= filed.tagged ?? false;
    context.written = filed.written ?? [];
  },
};
