/**
 * What `librarian import` tells the person (pure): a short summary (files read, what each library
 * level receives, what is handed over, kept, on demand and left with why, lines held back as likely
 * secrets, the root's size against the budget) and a `Next:` line; every mapping line and every
 * entry not read behind `--verbose`.
 *
 * @module
 */

import { plural } from "../core/mod.ts";
import type { ImportEntry } from "./import_plan.ts";
import type { Original } from "./project_sources.ts";
import type { Becoming } from "./become_export.ts";

/** Everything the report needs. */
export interface ImportReport {
  /** The folder or file imported, as shown. */
  source: string;
  /** The library folder, as shown (`_memory_library`). */
  libraryLabel: string;
  entries: readonly ImportEntry[];
  originals: readonly Original[];
  left: readonly { name: string; why: string }[];
  /** Memory files read where they lie, with why (absent: none). */
  inPlace?: readonly { name: string; why: string }[];
  onDemand: readonly { source: string; target: string }[];
  /** Characters of the library root's files after the import, and the budget. */
  rootChars: number;
  budget: number;
  /** `plan`: nothing written yet; `applied`; `dry-run`. */
  state: "plan" | "applied" | "dry-run";
  keepOriginals: boolean;
  /** Other agents' files whose export format is chosen: each becomes that export, or stays. */
  becoming?: readonly Becoming[];
  /** Export writes that failed (after `--export`). */
  exportFailures?: readonly { path: string; error: string }[];
  /** Outputs the export left alone: a file it did not write is in their place (kept). */
  exportCollisions?: readonly { path: string; reason: string }[];
  /** A folder deeper than the root that received text, for the `Next:` line. */
  sampleFolder: string | null;
}

const levelOf = (target: string) => {
  const parts = target.split("/").filter((p) => !p.startsWith("."));
  parts.pop();
  return parts.join("/");
};

const SKIP_WORDS: Partial<Record<ImportEntry["action"], string>> = {
  "skip-transient": "transient: --include-transient imports it",
  "skip-empty": "empty",
  "skip-not-text": "not UTF-8 text",
};

const number = (n: number) => n.toLocaleString("en-US");

/** The reason a handed-over file stays (held lines, not text), or null. */
export function whyKept(original: Original, entries: readonly ImportEntry[]): string | null {
  const own = entries.filter((e) => e.source === original.rel);
  if (own.some((e) => e.action === "skip-not-text")) return "not UTF-8 text";
  return null;
}

/**
 * The report's lines (pure).
 *
 * @example Usage
 * ```ts
 * import { reportLines } from "./import_report.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = reportLines({
 *   source: "/repo", libraryLabel: "_memory_library", rootChars: 120, budget: 9000,
 *   entries: [{ source: "CLAUDE.md", target: "claude.md", action: "create", chars: 120 }],
 *   originals: [{ rel: "CLAUDE.md", kind: "claude", action: "hand-over", targets: ["claude.md"], level: "", keptImports: [], text: "" }],
 *   left: [], onDemand: [], state: "applied", keepOriginals: false, sampleFolder: null,
 * }, false);
 * assert.ok(lines.some((l) => /Handed over.*CLAUDE\.md/.test(l)));
 * assert.match(lines.at(-1)!, /^Next: /);
 * ```
 */
export function reportLines(r: ImportReport, verbose: boolean): string[] {
  const out: string[] = [];
  const verb = r.state === "applied" ? "Imported" : "Would import";
  const sources = new Set(r.entries.map((e) => e.source));
  out.push(
    `${verb} ${plural(sources.size, "memory file")} from ${r.source} into ${r.libraryLabel}/:`,
  );
  if (verbose) {
    const width = Math.max(0, ...r.entries.map((e) => e.source.length));
    for (const e of r.entries) {
      out.push(
        `  ${e.source.padEnd(width)}  → ${e.target}  ${e.action}${
          e.chars ? ` (${number(e.chars)} chars)` : ""
        }`,
      );
    }
  }
  const levels = new Map<string, { files: Set<string>; chars: number }>();
  for (const e of r.entries) {
    if (e.action !== "create" && e.action !== "append") continue;
    if (r.onDemand.some((o) => o.target === e.target)) continue;
    const level = levelOf(e.target);
    const at = levels.get(level) ?? { files: new Set(), chars: 0 };
    at.files.add(e.source);
    at.chars += e.chars;
    levels.set(level, at);
  }
  for (const [level, at] of [...levels].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    out.push(
      `  ${level === "" ? "the root" : `${level}/`}: ${number(at.chars)} chars from ${
        [...at.files].join(", ")
      }`,
    );
  }
  if (r.onDemand.length) {
    out.push(
      `On demand (named in their folder's context, read when they fit; never sent on every touch): ${
        r.onDemand.map((o) => `${o.source} → ${o.target}`).join(", ")
      }`,
    );
  }
  const handed = r.originals.filter((o) => o.action === "hand-over");
  const doubled = handed.filter((o) => r.keepOriginals || whyKept(o, r.entries) !== null);
  const stubbed = handed.filter((o) => !doubled.includes(o));
  if (stubbed.length) {
    out.push(
      `Handed over (${
        r.state === "applied" ? "now" : "to become"
      } a short stub naming the library; ` +
        `Claude Code no longer loads the text twice): ${stubbed.map((o) => o.rel).join(", ")}`,
    );
  }
  for (const o of doubled) {
    const why = r.keepOriginals ? "--keep-originals" : whyKept(o, r.entries);
    out.push(
      `Loaded twice: ${o.rel} is kept (${why}); Claude Code loads it natively and the Librarian ` +
        "sends the same text. Fix: import again without --keep-originals.",
    );
  }
  const left = r.originals.filter((o) => o.action === "left");
  if (left.length) {
    out.push(
      `Imported through @ (left in place; the stub no longer imports them): ${
        left.map((o) => o.rel).join(", ")
      }`,
    );
  }
  for (const p of r.inPlace ?? []) out.push(`Read in place (not imported): ${p.name}: ${p.why}`);
  const becoming = r.becoming ?? [];
  const formats = [...new Set(becoming.filter((b) => b.becomes).map((b) => b.format))];
  for (const format of formats) {
    const rels = becoming.filter((b) => b.becomes && b.format === format).map((b) => b.rel);
    out.push(
      r.state === "applied"
        ? `Became the ${format} export (marked, regenerated from the library): ${rels.join(", ")}`
        : `To become the ${format} export (regenerated from the library; kept if a dry-run ` +
          `export cut or left out its folder): ${rels.join(", ")}`,
    );
  }
  for (const b of becoming) {
    if (b.becomes) continue;
    out.push(
      `Kept instead of the ${b.format} export: ${b.rel} (${b.why})${
        b.fix ? `. Fix: ${b.fix}.` : ""
      }`,
    );
  }
  const decided = new Set(becoming.map((b) => b.rel));
  const kept = r.originals.filter((o) => o.action === "keep" && !decided.has(o.rel));
  if (kept.length) {
    out.push(`Kept (other agents read them): ${kept.map((o) => o.rel).join(", ")}`);
  }
  for (const f of r.exportFailures ?? []) {
    out.push(`Export could not write ${f.path}: ${f.error}`);
  }
  for (const c of r.exportCollisions ?? []) {
    out.push(
      `Export did not write ${c.path}: ${c.reason}; it stays as it is. Fix: import again ` +
        "without --keep-originals, or move that file's text into the library and delete it.",
    );
  }
  for (const e of r.entries) {
    if (!e.held?.length) continue;
    out.push(
      `Held back from ${e.source}: ${e.reason}. Remove it (rotate it if real), or put ` +
        "<!-- librarian: not-a-secret --> on the line above it, then import again.",
    );
  }
  const skipped = r.entries.filter((e) =>
    e.action.startsWith("skip") && e.action !== "skip-secret"
  );
  const leftOut = [
    ...r.left,
    ...skipped.map((e) => ({
      name: e.source,
      why: e.action === "skip-refused" && e.reason !== undefined
        ? e.reason
        : SKIP_WORDS[e.action] ?? e.action,
    })),
  ];
  if (leftOut.length) {
    out.push(`Left out: ${leftOut.map((l) => `${l.name} (${l.why})`).join("; ")}`);
  }
  const over = r.rootChars > r.budget;
  out.push(
    `Root: ${number(r.rootChars)} of ${number(r.budget)} characters a first touch can carry` +
      (over
        ? " (over: the fair budget cuts every file; 'librarian import --suggest' moves text down)"
        : "."),
  );
  out.push(nextLine(r, over));
  return out;
}

function nextLine(r: ImportReport, over: boolean): string {
  if (r.state === "plan") return "Next: librarian import --yes applies this plan.";
  if (r.state === "dry-run") {
    return "Next: run it without --dry-run to see the plan, --yes to apply.";
  }
  const read = `librarian read ${r.sampleFolder ?? "."}`;
  if (over) return `Next: librarian import --suggest, then ${read} to see what Claude is sent.`;
  const exports = (r.becoming ?? []).some((b) => b.becomes)
    ? ", the stubs and the exports"
    : " and the stubs";
  return `Next: ${read} shows what Claude is sent; commit ${r.libraryLabel}/${exports}.`;
}
