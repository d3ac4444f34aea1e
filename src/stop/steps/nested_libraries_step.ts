/**
 * The Stop step that files the scratch of each library nested in the project that the turn worked
 * in (`packages/a/_memory_library/`, see `filing/nested.ts`): an edit there was told to add
 * learnings to that scratch. Auto memory is synced into the session library only. Optional: due
 * when the turn changed code files.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import { turnSource } from "../../filing/stop_nudge.ts";
import type { StopContext } from "../stop_context.ts";
import { fileLibrary } from "../file_library.ts";
import type { Step } from "../step.ts";
import { scratchHasContent } from "../work.ts";

/** Files each nested library with scratch content; logs `nested: <where>:<result>,...`. */
export const NESTED_LIBRARIES: Step<StopContext> = {
  name: "nested-libraries",
  due: async ({ turn }) => ((await turn.changes())?.files.length ?? 0) > 0,
  async run(context) {
    const { event, env, library: session } = context;
    const files = (await context.turn.changes())?.files ?? [];
    const { nestedLibrariesOf } = await loadLater<typeof import("../../filing/nested.ts")>(
      "filing/nested.ts",
    );
    const filedIn: string[] = [];
    for (const nested of nestedLibrariesOf(session, files)) {
      if (!scratchHasContent(nested)) continue;
      const where = nested.root.slice(session.projectRoot.length + 1);
      const turn = turnSource(event, nested, env);
      const out = await fileLibrary(nested, env, turn, { memory: false });
      filedIn.push(`${where}:${out.fields.result}`);
      if (out.message) {
        context.messages.push(out.message.replace(/^Librarian:/, `Librarian (${where}):`));
      }
      context.tagged ||= out.tagged ?? false;
    }
    context.fields.nested = filedIn.join(",") || undefined;
  },
};
