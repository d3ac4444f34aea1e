/**
 * Which of other agents' files `librarian import` may turn into an export (pure): an `AGENTS.md`,
 * a Cursor rule or a Copilot instructions file whose agent has an export format chosen becomes
 * that export (marked, regenerated from the library) only when nothing of it can be lost: none
 * of its lines is held back as a likely secret, all of its text is in the library, it is not a
 * manual (on-demand) rule, and a dry-run export shows its folder's output written whole (not cut
 * to the format's limit, not left out). Everything else is kept, with the reason and the fix.
 *
 * @module
 */

import { type ExportAction, type ExportFormat, FORMAT_LIMITS, outputPlace } from "../export/mod.ts";
import type { SourceKind } from "./source_formats.ts";
import type { ImportEntry } from "./import_plan.ts";

/** The export format each kind of other agents' file becomes. */
const FORMAT_OF_KIND: Partial<Record<SourceKind | "imported", ExportFormat>> = {
  agents: "agents-md",
  cursor: "cursor",
  copilot: "copilot",
};

/** The agent that reads each format, for the reasons shown. */
const AGENT_OF: Record<ExportFormat, string> = {
  "agents-md": "the agents reading AGENTS.md",
  cursor: "Cursor",
  copilot: "Copilot",
  "claude-rules": "Claude Code",
};

/**
 * The export format a kind of agent memory becomes, or null when none does (pure).
 *
 * @example Usage
 * ```ts
 * import { exportFormatOf } from "./become_export.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(exportFormatOf("agents"), "agents-md");
 * assert.equal(exportFormatOf("cursor"), "cursor");
 * assert.equal(exportFormatOf("windsurf"), null);
 * ```
 */
export function exportFormatOf(kind: SourceKind | "imported"): ExportFormat | null {
  return FORMAT_OF_KIND[kind] ?? null;
}

/** An original as far as the decision needs it. */
export interface Candidate {
  /** Project-relative path. */
  rel: string;
  kind: SourceKind | "imported";
  /** The library folder its text went to (`""`: the root). */
  level: string;
  /** `keep` for other agents' files; only those can become an export. */
  action: string;
}

/** What a dry-run export does for one format and folder, as far as an original needs it. */
export interface FolderExport {
  /** True when the folder's output is written whole. */
  written: boolean;
  why?: string;
  fix?: string;
}

/** What becomes of one other agent's file when its format is chosen. */
export interface Becoming {
  rel: string;
  format: ExportFormat;
  /** Where the export keeps its folder (`AGENTS.md`, `.cursor/rules/librarian.mdc`). */
  output: string;
  /** True when it is (or is to be) replaced by the export. */
  becomes: boolean;
  /** Why it stays, when it does. */
  why?: string;
  /** What to do so it can become the export. */
  fix?: string;
}

/** Entries that mean the text is in the library (or there was none). */
const LANDED = new Set<ImportEntry["action"]>([
  "create",
  "append",
  "already-imported",
  "skip-empty",
]);

/**
 * What becomes of each other agent's file whose format is in `formats` (pure). `folderExport`
 * says what a dry-run export does for a format's folder; `null` before the library is written
 * (the plan), when only what the import itself knows decides.
 *
 * @example Usage
 * ```ts
 * import { planBecoming } from "./become_export.ts";
 * import assert from "node:assert/strict";
 *
 * const originals = [
 *   { rel: "AGENTS.md", kind: "agents" as const, level: "", action: "keep" },
 *   { rel: ".cursor/rules/release.mdc", kind: "cursor" as const, level: "", action: "keep" },
 *   { rel: "CLAUDE.md", kind: "claude" as const, level: "", action: "hand-over" },
 * ];
 * const entries = [
 *   { source: "AGENTS.md", target: "agents.md", action: "create" as const, chars: 9 },
 *   { source: ".cursor/rules/release.mdc", target: ".on-demand/release.md", action: "create" as const, chars: 9 },
 * ];
 * const onDemand = [{ source: ".cursor/rules/release.mdc" }];
 * const written = () => ({ written: true });
 * const plan = planBecoming(originals, entries, onDemand, ["agents-md", "cursor"], written);
 * assert.deepEqual(plan.map((b) => [b.rel, b.becomes]), [
 *   ["AGENTS.md", true],
 *   [".cursor/rules/release.mdc", false],
 * ]);
 * assert.match(plan[1]!.why!, /on-demand form/);
 * const cut = () => ({ written: false, why: "cut", fix: "librarian tidy" });
 * assert.equal(planBecoming(originals, entries, onDemand, ["agents-md"], cut)[0]!.why, "cut");
 * assert.deepEqual(planBecoming(originals, entries, onDemand, [], written), []);
 * ```
 */
export function planBecoming(
  originals: readonly Candidate[],
  entries: readonly ImportEntry[],
  onDemand: readonly { source: string }[],
  formats: readonly ExportFormat[],
  folderExport: ((format: ExportFormat, folder: string, rel: string) => FolderExport) | null,
): Becoming[] {
  const out: Becoming[] = [];
  for (const original of originals) {
    const format = exportFormatOf(original.kind);
    if (original.action !== "keep" || format === null || !formats.includes(format)) continue;
    const output = outputPlace(format, original.level).path;
    const base = { rel: original.rel, format, output };
    const stays = (why: string, fix?: string): Becoming => ({
      ...base,
      becomes: false,
      why,
      ...(fix ? { fix } : {}),
    });
    const own = entries.filter((e) => e.source === original.rel);
    const held = own.flatMap((e) => e.held ?? []);
    if (held.length) {
      out.push(stays(
        `${held.map((h) => `line ${h.line}`).join(", ")} held back as a likely secret is only here`,
        "remove it (rotate it if real) or put <!-- librarian: not-a-secret --> on the line above " +
          "it, then import again",
      ));
      continue;
    }
    if (own.some((e) => e.action === "skip-not-text")) {
      out.push(stays("not UTF-8 text: it was not imported"));
      continue;
    }
    const notLanded = own.find((e) => !LANDED.has(e.action));
    if (own.length === 0 || notLanded) {
      out.push(stays(`its text is not in the library (${notLanded?.action ?? "not imported"})`));
      continue;
    }
    if (onDemand.some((o) => o.source === original.rel)) {
      out.push(stays(
        `a manual rule (read on demand): the ${format} export has no on-demand form, so it ` +
          `stays where ${AGENT_OF[format]} can ask for it`,
      ));
      continue;
    }
    const check = folderExport?.(format, original.level, original.rel) ?? { written: true };
    out.push(check.written ? { ...base, becomes: true } : stays(check.why ?? "", check.fix));
  }
  return out;
}

/**
 * What a dry-run export (its actions, folders left out and folders cut) does for `format`'s
 * output of library folder `folder`, for the original at `rel` (pure). An unmarked file at the
 * output's place is the original itself when the place is `rel` (it goes first); anything else
 * there keeps the original.
 *
 * @example Usage
 * ```ts
 * import { folderExportOf } from "./become_export.ts";
 * import assert from "node:assert/strict";
 *
 * const report = {
 *   actions: [
 *     { kind: "collision" as const, format: "agents-md" as const, path: "AGENTS.md", reason: "mine" },
 *     { kind: "create" as const, format: "cursor" as const, path: ".cursor/rules/librarian.mdc", text: "" },
 *     { kind: "create" as const, format: "agents-md" as const, path: "src/AGENTS.md", text: "" },
 *   ],
 *   skipped: [],
 *   cut: [{ format: "agents-md" as const, folder: "src", files: ["src/big.md"] }],
 * };
 * assert.deepEqual(folderExportOf(report, "agents-md", "", "AGENTS.md"), { written: true });
 * assert.equal(folderExportOf(report, "cursor", "", ".cursorrules").written, true);
 * assert.match(folderExportOf(report, "agents-md", "src", "src/AGENTS.md").why!, /cut to/);
 * assert.match(folderExportOf(report, "cursor", "web", ".cursor/rules/w.mdc").why!, /no output/);
 * ```
 */
export function folderExportOf(
  report: {
    actions: readonly ExportAction[];
    skipped: readonly { format: ExportFormat; folder: string; reason: string }[];
    cut: readonly { format: ExportFormat; folder: string; files: readonly string[] }[];
  },
  format: ExportFormat,
  folder: string,
  rel: string,
): FolderExport {
  const place = outputPlace(format, folder).path;
  const where = folder === "" ? "the root" : `${folder}/`;
  const skipped = report.skipped.filter((s) => s.format === format && s.folder === folder);
  const action = report.actions.find((a) => a.format === format && a.path === place);
  if (action === undefined || action.kind === "delete") {
    return {
      written: false,
      why: skipped.length
        ? `the ${format} export leaves ${where} out: ${skipped[0]!.reason}`
        : `the ${format} export would write no output for ${where}`,
    };
  }
  if (action.kind === "collision" && place !== rel) {
    return {
      written: false,
      why: `${place} is a file export did not write (no Librarian marker); export leaves it alone`,
      fix: `move ${place} away, then import again`,
    };
  }
  const cut = report.cut.find((c) => c.format === format && c.folder === folder);
  if (cut) {
    const limit = FORMAT_LIMITS[format];
    return {
      written: false,
      why: `the ${format} export of ${where} would be cut to the format's limit (` +
        `${limit.chars.toLocaleString("en-US")} characters, ${limit.lines} lines): ` +
        `${cut.files.join(", ")} would only be named`,
      fix: "'librarian import --suggest' moves root text into its folders and 'librarian tidy' " +
        "keeps files small; then import again",
    };
  }
  if (skipped.length) {
    return {
      written: false,
      why: `the ${format} export of ${where} leaves out: ${skipped[0]!.reason}`,
    };
  }
  return { written: true };
}

/**
 * The originals replaced by an export whose output the real export did not write (it failed, or
 * planned no write there): each is written back, so nothing is lost (pure).
 *
 * @example Usage
 * ```ts
 * import { toRestore } from "./become_export.ts";
 * import assert from "node:assert/strict";
 *
 * const became = [
 *   { rel: ".cursorrules", format: "cursor" as const, output: ".cursor/rules/librarian.mdc", becomes: true },
 *   { rel: "AGENTS.md", format: "agents-md" as const, output: "AGENTS.md", becomes: true },
 * ];
 * const report = {
 *   actions: [
 *     { kind: "create" as const, format: "cursor" as const, path: ".cursor/rules/librarian.mdc", text: "" },
 *     { kind: "create" as const, format: "agents-md" as const, path: "AGENTS.md", text: "" },
 *   ],
 *   failures: [{ path: ".cursor/rules/librarian.mdc", error: "refused" }],
 * };
 * assert.deepEqual(toRestore(became, report).map((r) => [r.becoming.rel, r.error]), [
 *   [".cursorrules", "refused"],
 * ]);
 * ```
 */
export function toRestore(
  becoming: readonly Becoming[],
  report: {
    actions: readonly ExportAction[];
    failures: readonly { path: string; error: string }[];
  },
): { becoming: Becoming; error: string }[] {
  const out: { becoming: Becoming; error: string }[] = [];
  for (const b of becoming) {
    if (!b.becomes) continue;
    const failure = report.failures.find((f) => f.path === b.output);
    const action = report.actions.find((a) => a.format === b.format && a.path === b.output);
    const done = action !== undefined &&
      (action.kind === "create" || action.kind === "update" || action.kind === "unchanged");
    if (failure) out.push({ becoming: b, error: failure.error });
    else if (!done) {
      out.push({
        becoming: b,
        error: action?.kind === "collision" ? action.reason : "the export wrote no output there",
      });
    }
  }
  return out;
}
