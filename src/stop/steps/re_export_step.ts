/**
 * The filing step that keeps the exports `librarian init --export` recorded current (nothing
 * when none are), and finishes one an earlier run left due, even in a turn that files nothing
 * (`export/after_filing.ts`). Optional: due when routing wrote a file or an export is left due.
 *
 * @module
 */

import { loadLater } from "../../core/load_later.ts";
import type { FilingContext } from "../stop_context.ts";
import type { Step } from "../step.ts";

/** Re-exports the filed files; records what changed, or the error in the log and the message. */
export const RE_EXPORT: Step<FilingContext> = {
  name: "re-export",
  due: ({ report, left }) =>
    (report?.status === "routed" && report.targets.length > 0) || left.exportDue,
  async run(context) {
    const { reexportFiled } = await loadLater<typeof import("../../export/after_filing.ts")>(
      "export/after_filing.ts",
    );
    const exported = await reexportFiled(
      context.library,
      (context.report?.targets ?? []).map((t) => t.target),
      context.held.paths.exportPending,
    );
    if (exported?.changed) context.fields.exported = exported.changed;
    if (exported?.error) {
      context.fields.export_error = exported.error;
      context.message = context.message === ""
        ? `Librarian: ${exported.error}.`
        : `${context.message} ${exported.error}.`;
    }
  },
};
