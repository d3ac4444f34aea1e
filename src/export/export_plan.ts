/**
 * What an export changes (pure): the files and sections it should hold, against what is on
 * disk, become creates, updates, deletes and collisions. Export only ever changes a file that
 * carries its marker, or its own marked section; a person's file at a generated file's path is a
 * collision, reported and left alone.
 *
 * @module
 */

import { type ExportFormat, isGeneratedText, type OutputPlace } from "./export_formats.ts";
import { findSection, withoutExportSection } from "../format/export_marks.ts";

export { withoutExportSection };

/** One file (or marked section) the export should hold. */
export interface DesiredOutput {
  format: ExportFormat;
  /** The library folder it comes from (`""` for the root). */
  relDir: string;
  place: OutputPlace;
  /** The whole file's text, or for a section the section's text. */
  text: string;
}

/** What happens to one path. */
export type ExportAction =
  | { kind: "create" | "update"; format: ExportFormat; path: string; text: string }
  | { kind: "delete"; format: ExportFormat; path: string }
  | { kind: "unchanged"; format: ExportFormat; path: string }
  | { kind: "collision"; format: ExportFormat; path: string; reason: string };

/** What is on disk: a path's text, or `null` when nothing is there. */
export type DiskText = (path: string) => string | null;

/** Where export's section lies in a text: from the start of its begin line to past its end line. */

/**
 * `text` with its marked section replaced by `section`, or with `section` appended (after a
 * blank line) when it has none; `section` `null` removes the section and the blank line before
 * it. Only whole marker lines count ({@link hasSection}).
 *
 * @example Usage
 * ```ts
 * import { withSection } from "./export_plan.ts";
 * import { generatedText } from "./export_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const section = generatedText("copilot", "_memory_library", "", "x\n");
 * const mine = "# Our rules\n\nBe kind; `<!-- librarian:begin -->` opens the generated part.\n";
 * const both = withSection(mine, section);
 * assert.equal(both, `${mine}\n${section}`);
 * assert.equal(withSection(both, section), both);
 * assert.equal(withSection(both, null), mine);
 * ```
 */
export function withSection(text: string, section: string | null): string {
  const span = findSection(text);
  if (span !== null) {
    const before = text.slice(0, span.start);
    const after = text.slice(span.end);
    if (section !== null) return `${before}${section}${after}`;
    const trimmed = after === "" ? before.replace(/\n\n$/, "\n") : before;
    return `${trimmed}${after}`;
  }
  if (section === null) return text;
  if (text === "") return section;
  return `${text}${text.endsWith("\n") ? "" : "\n"}\n${section}`;
}

/**
 * True when `text` holds export's marked section: whole lines only, the begin line followed by
 * a marker line, then an end line.
 *
 * @example Usage
 * ```ts
 * import { hasSection } from "./export_plan.ts";
 * import { generatedText } from "./export_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(hasSection(`x\n${generatedText("copilot", "_memory_library", "", "y\n")}`));
 * assert.ok(!hasSection("x <!-- librarian:begin -->\ny\n<!-- librarian:end -->\n"));
 * ```
 */
export function hasSection(text: string): boolean {
  return findSection(text) !== null;
}

/**
 * The actions that make the disk hold exactly `desired`.
 *
 * `generatedPaths` are the files found on disk that carry export's marker (and the section files
 * found with a section); any of them not desired is deleted (a section: removed, and its file
 * deleted when nothing else is left in it). With `scoped`, only the desired outputs are
 * considered and nothing else is deleted: the Stop hook re-exports just the folders it filed
 * into.
 *
 * @example Usage
 * ```ts
 * import { planExport } from "./export_plan.ts";
 * import { outputPlace } from "./export_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const place = outputPlace("agents-md", "src");
 * const desired = [{ format: "agents-md" as const, relDir: "src", place, text: "<!-- x -->\n" }];
 * const actions = planExport(desired, [], () => null);
 * assert.deepEqual(actions.map((a) => [a.kind, a.path]), [["create", "src/AGENTS.md"]]);
 * ```
 */
export function planExport(
  desired: readonly DesiredOutput[],
  generatedPaths: readonly { format: ExportFormat; path: string; section: boolean }[],
  disk: DiskText,
  scoped = false,
): ExportAction[] {
  const actions: ExportAction[] = [];
  const wanted = new Set<string>();
  for (const out of desired) {
    const { format, place } = out;
    const path = place.path;
    wanted.add(`${format}\0${path}`);
    const current = disk(path);
    if (place.section) {
      const next = withSection(current ?? "", out.text);
      actions.push(
        next === current
          ? { kind: "unchanged", format, path }
          : { kind: current === null ? "create" : "update", format, path, text: next },
      );
      continue;
    }
    if (current === null) actions.push({ kind: "create", format, path, text: out.text });
    else if (!isGeneratedText(current)) {
      actions.push({
        kind: "collision",
        format,
        path,
        reason: "a file that export did not write is there (it has no Librarian marker)",
      });
    } else if (current === out.text) actions.push({ kind: "unchanged", format, path });
    else actions.push({ kind: "update", format, path, text: out.text });
  }
  if (scoped) return actions;
  for (const found of generatedPaths) {
    if (wanted.has(`${found.format}\0${found.path}`)) continue;
    const current = disk(found.path);
    if (current === null) continue;
    if (!found.section) {
      if (isGeneratedText(current)) {
        actions.push({ kind: "delete", format: found.format, path: found.path });
      }
      continue;
    }
    if (!hasSection(current)) continue;
    const rest = withSection(current, null);
    actions.push(
      rest.trim() === ""
        ? { kind: "delete", format: found.format, path: found.path }
        : { kind: "update", format: found.format, path: found.path, text: rest },
    );
  }
  return actions;
}
