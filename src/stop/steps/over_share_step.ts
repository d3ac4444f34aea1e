/**
 * The filing step that names a library file which, as this turn grew it, crossed its fair share
 * of the context budget, with the fix, told once as it crosses (`filing/over_share.ts`).
 * Optional: due only when routing grew a file.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import { readBudget } from "../../core/env.ts";
import type { FilingContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/** Adds the over-share warnings to the message, and their count to the log. */
export const OVER_SHARE: Step<FilingContext> = {
  name: "over-share",
  due: ({ report }) => report?.status === "routed" && report.grown.some((g) => g.after > g.before),
  async run(context) {
    const { overShareMessages } = await loadLater<typeof import("../../filing/over_share.ts")>(
      "filing/over_share.ts",
    );
    const grown = context.report?.grown ?? [];
    const over = overShareMessages(context.library, grown, readBudget(context.env).budget);
    if (over.length > 0) {
      context.fields.over_share = over.length;
      context.message = context.message === ""
        ? `Librarian: ${over.join("; ")}`
        : `${context.message}; ${over.join("; ")}`;
    }
  },
};
