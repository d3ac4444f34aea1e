/**
 * The export step of `librarian import --export <formats>` (effects), run after the library files
 * are written: a dry-run export decides which of other agents' files become their export
 * ({@link planBecoming}); those are deleted through the repository's boundary, the formats are
 * recorded in the library's settings (as `init --export` does), the real export runs, and an
 * original whose output could not be written is written back, so nothing is lost.
 *
 * @module
 */

import { Boundary, joinPath, type Library, messageOf } from "../core/mod.ts";
import {
  type ExportFormat,
  type ExportReport,
  type RecordAction,
  recordFormats,
  runExport,
} from "../export/mod.ts";
import {
  type Becoming,
  type Candidate,
  folderExportOf,
  planBecoming,
  toRestore,
} from "./become_export.ts";
import type { ImportEntry } from "./import_plan.ts";
import { MAX_SOURCE_BYTES } from "./project_sources.ts";

/** What the export step did. */
export interface ExportStep {
  becoming: Becoming[];
  /** The real export's report. */
  report: ExportReport;
  /** What happened to the settings file. */
  recorded: RecordAction["action"];
  /**
   * Outputs the export left alone because a file it did not write is in their place, less those
   * {@link becoming} already explains (an original kept instead of its export, with the reason).
   */
  blocked: { path: string; reason: string }[];
}

/**
 * Turns the originals that can become their export into it, records `formats` and exports.
 * `originals` carry the text they were read with: one changed since is kept.
 */
export async function becomeExports(
  library: Library,
  input: {
    originals: readonly (Candidate & { text: string })[];
    entries: readonly ImportEntry[];
    onDemand: readonly { source: string }[];
    formats: readonly ExportFormat[];
    trusts?: Parameters<typeof recordFormats>[2];
  },
): Promise<ExportStep> {
  const { formats } = input;
  const dry = await runExport(library, { formats, dryRun: true });
  const becoming = planBecoming(
    input.originals,
    input.entries,
    input.onDemand,
    formats,
    (format, folder, rel) => folderExportOf(dry, format, folder, rel),
  );
  const project = new Boundary(library.projectRoot, "repository");
  const textOf = new Map(input.originals.map((o) => [o.rel, o.text]));
  const removed = new Map<string, string>();
  for (const b of becoming) {
    if (!b.becomes) continue;
    const path = joinPath(library.projectRoot, b.rel);
    const text = textOf.get(b.rel) ?? "";
    try {
      if (project.readText(path, MAX_SOURCE_BYTES) !== text) {
        Object.assign(b, { becomes: false, why: "it changed since it was read; import again" });
        continue;
      }
      project.remove(path);
      removed.set(b.rel, text);
    } catch (error) {
      Object.assign(b, { becomes: false, why: `it could not be removed: ${messageOf(error)}` });
    }
  }
  const recorded = recordFormats(library.root, formats, input.trusts);
  const report = await runExport(library, { formats });
  for (const { becoming: b, error } of toRestore(becoming, report)) {
    const text = removed.get(b.rel) ?? "";
    try {
      project.writeText(joinPath(library.projectRoot, b.rel), text);
      Object.assign(b, {
        becomes: false,
        why: `its ${b.format} export could not be written (${error}); the original is back`,
      });
    } catch (restoreError) {
      // Its text is in the library (the precondition for removing it): say where to find it.
      Object.assign(b, {
        becomes: false,
        why: `its ${b.format} export could not be written (${error}) and it could not be ` +
          `written back (${messageOf(restoreError)}); its text is in the library`,
      });
    }
  }
  const explained = new Set(becoming.filter((b) => !b.becomes).map((b) => b.rel));
  const blocked = report.actions.flatMap((a) =>
    a.kind === "collision" && !explained.has(a.path) ? [{ path: a.path, reason: a.reason }] : []
  );
  return { becoming, report, recorded, blocked };
}
