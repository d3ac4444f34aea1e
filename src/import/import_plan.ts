/**
 * The pure part of `librarian import`: which memory-bank file goes to which library root file,
 * and what the library files become. Deterministic: the same folder and library give the same
 * plan, and importing twice changes nothing the second time.
 *
 * @module
 */

import { checkTagType, libraryLine } from "../format/mod.ts";
import { describeHeld, type HeldLine, withoutSecretLines } from "./secret_lines.ts";

/** Well-known memory-bank files (by lower-case stem) and where they go. */
export const KNOWN_FILES: readonly { stem: string; target: string; transient: boolean }[] = [
  { stem: "projectbrief", target: "product", transient: false },
  { stem: "productcontext", target: "product", transient: false },
  { stem: "systempatterns", target: "patterns", transient: false },
  { stem: "techcontext", target: "tech", transient: false },
  { stem: "activecontext", target: "active-context", transient: true },
  { stem: "progress", target: "progress", transient: true },
];

/** A file found in the memory-bank folder. */
export interface SourceFile {
  /** The file name (`projectBrief.md`). */
  name: string;
  /** Its text, or why it cannot be imported as text. */
  content:
    | { kind: "text"; text: string }
    | { kind: "binary" | "not-utf8" }
    /** Not read: the file boundary refused it (a link out, a FIFO, too large), with why. */
    | { kind: "refused"; reason: string };
  /**
   * The library file it goes to (`src/api/claude.md`), when its place is known from where it was
   * found (a nested `CLAUDE.md`, a Cursor rule); otherwise {@link mapSource} decides.
   */
  target?: string;
  /** Said in the provenance line (`Cursor rule; alwaysApply: true`). */
  note?: string;
  /** The number of the text's first line in its file (after front matter); 1 when unset. */
  firstLine?: number;
  /** With {@link target}: a transient memory-bank file (activeContext.md, progress.md). */
  transient?: boolean;
}

/** What happens to one source file. */
export type ImportAction =
  | "create"
  | "append"
  | "already-imported"
  | "skip-transient"
  | "skip-empty"
  | "skip-not-text"
  | "skip-refused"
  | "skip-secret";

/** One line of the mapping. */
export interface ImportEntry {
  source: string;
  /** The library root file it maps to (`product.md`), even when it is skipped. */
  target: string;
  action: ImportAction;
  /** Characters of the source text added (0 when skipped). */
  chars: number;
  /**
   * For `skip-secret`: lines kept out as likely secrets ("line 3 (likely GitHub token)"), never
   * the value; for `skip-refused`: why the file was not read.
   */
  reason?: string;
  /** The lines kept out as likely secrets. */
  held?: HeldLine[];
}

/** The plan: every entry, and the new text of each library file that changes. */
export interface ImportPlan {
  entries: ImportEntry[];
  writes: Map<string, string>;
}

/**
 * A file-name stem in kebab-case: `systemPatterns` → `system-patterns`, `API Guide` →
 * `api-guide`; `imported` when nothing usable is left (pure).
 *
 * @example Usage
 * ```ts
 * import { kebabCase } from "./import_plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(kebabCase("systemPatterns"), "system-patterns");
 * assert.equal(kebabCase("API Guide"), "api-guide");
 * assert.equal(kebabCase("Café"), "cafe");
 * assert.equal(kebabCase("!!!"), "imported");
 * ```
 */
export function kebabCase(stem: string): string {
  const kebab = stem.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (kebab === "") return "imported";
  return checkTagType(kebab).ok ? kebab : `imported-${kebab}`;
}

/** A source's file-name stem (`memory-bank/techContext.md` → `techContext`). */
function stemOf(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}

/**
 * Where a memory-bank file goes, and whether it is transient (pure).
 *
 * @example Usage
 * ```ts
 * import { mapSource } from "./import_plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(mapSource("systemPatterns.md").transient, false);
 * assert.equal(mapSource("notes on API.md").target, "notes-on-api.md");
 * assert.equal(mapSource("activeContext.md").transient, true);
 * ```
 */
export function mapSource(name: string): { target: string; transient: boolean } {
  const known = KNOWN_FILES.find((k) => k.stem === stemOf(name).toLowerCase());
  if (known) return { target: `${known.target}.md`, transient: known.transient };
  return { target: `${kebabCase(stemOf(name))}.md`, transient: false };
}

/**
 * Sources in import order: the well-known files in table order, then the rest by name (pure).
 *
 * @example Usage
 * ```ts
 * import { mapSource, orderSources } from "./import_plan.ts";
 * import assert from "node:assert/strict";
 *
 * const sorted = orderSources([{ name: "zeta.md" }, { name: "alpha.md" }, { name: "projectbrief.md" }]);
 * assert.deepEqual(sorted.map((s) => s.name), ["projectbrief.md", "alpha.md", "zeta.md"]);
 * assert.equal(mapSource("zeta.md").target, "zeta.md");
 * ```
 */
export function orderSources<T extends { name: string }>(sources: readonly T[]): T[] {
  const rank = (name: string) => {
    const i = KNOWN_FILES.findIndex((k) => k.stem === stemOf(name).toLowerCase());
    return i < 0 ? KNOWN_FILES.length : i;
  };
  return [...sources].sort((a, b) =>
    rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

/**
 * The line that says where imported text came from (and, for a Cursor rule, how it applied).
 *
 * @example Usage
 * ```ts
 * import { provenanceLine } from "./import_plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   provenanceLine("memory-bank/a.md", "2026-11-30"),
 *   "<!-- imported by 'librarian import' from memory-bank/a.md on 2026-11-30 -->",
 * );
 * assert.match(provenanceLine("r.mdc", "2026-11-30", "a -- b"), /\(a - - b\) -->$/);
 * ```
 */
export function provenanceLine(sourceLabel: string, date: string, note?: string): string {
  const about = note ? ` (${note.replaceAll("--", "- -")})` : "";
  return `<!-- imported by 'librarian import' from ${sourceLabel} on ${date}${about} -->`;
}

/**
 * Plans the import of `sources` into library root files whose current texts are `existing`
 * (`null` for a missing file). Nothing is overwritten: text is appended after a provenance line,
 * and a source whose text is already in its target is not added again. A line holding a likely
 * credential is kept out (`held`; `skip-secret` when nothing else is left); control characters
 * are left out (pure).
 *
 * @example Usage
 * ```ts
 * import { planImport } from "./import_plan.ts";
 * import assert from "node:assert/strict";
 *
 * const sources = [{ name: "notes.md", content: { kind: "text" as const, text: "- use deno\n" } }];
 * const options = { includeTransient: false, sourceDir: "/bank", date: "2026-11-30" };
 * const plan = planImport(sources, new Map([["notes.md", null]]), options);
 * assert.equal(plan.entries[0]?.target, "notes.md");
 * assert.match(plan.writes.get("notes.md") ?? "", /- use deno\n$/);
 * const again = planImport(sources, plan.writes, options);
 * assert.equal(again.writes.size, 0);
 * ```
 */
export function planImport(
  sources: readonly SourceFile[],
  existing: ReadonlyMap<string, string | null>,
  options: { includeTransient: boolean; sourceDir: string; date: string },
): ImportPlan {
  const texts = new Map(existing);
  const writes = new Map<string, string>();
  const entries: ImportEntry[] = [];
  for (const source of orderSources(sources)) {
    const { target, transient } = source.target !== undefined
      ? { target: source.target, transient: source.transient ?? false }
      : mapSource(source.name);
    const entry = (action: ImportAction, chars = 0): ImportEntry => ({
      source: source.name,
      target,
      action,
      chars,
    });
    if (transient && !options.includeTransient) {
      entries.push(entry("skip-transient"));
      continue;
    }
    if (source.content.kind === "refused") {
      entries.push({ ...entry("skip-refused"), reason: source.content.reason });
      continue;
    }
    if (source.content.kind !== "text") {
      entries.push(entry("skip-not-text"));
      continue;
    }
    // The same check as filing, line by line: a credential never reaches a committed library
    // file, and a false alarm costs a line, not the file.
    const { text, held } = withoutSecretLines(source.content.text, source.firstLine ?? 1);
    const withHeld = (e: ImportEntry): ImportEntry =>
      held.length ? { ...e, held, reason: describeHeld(held) } : e;
    // Control characters never reach a library file (a NUL makes it count as binary).
    const body = text.split("\n").map(libraryLine).join("\n").trim();
    if (body === "") {
      entries.push(withHeld(entry(held.length ? "skip-secret" : "skip-empty")));
      continue;
    }
    const current = texts.get(target) ?? null;
    if (current !== null && current.includes(body)) {
      entries.push(withHeld(entry("already-imported")));
      continue;
    }
    const block = `${
      provenanceLine(
        options.sourceDir === "" ? source.name : `${options.sourceDir}/${source.name}`,
        options.date,
        source.note,
      )
    }\n${body}\n`;
    const next = current === null || current.trim() === ""
      ? block
      : `${current.trimEnd()}\n\n${block}`;
    texts.set(target, next);
    writes.set(target, next);
    entries.push(withHeld(entry(current === null ? "create" : "append", body.length)));
  }
  return { entries, writes };
}
