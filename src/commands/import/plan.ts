/**
 * The pure part of `librarian import`: which memory-bank file goes to which library root file,
 * and what the library files become. Deterministic: the same folder and library give the same
 * plan, and importing twice changes nothing the second time.
 *
 * @module
 */

import { libraryLine } from "../../format/markdown.ts";
import { NOT_SECRET_MARKER } from "../../format/markers.ts";
import { type SecretSpan, withoutSecretLines } from "../../format/secrets.ts";
import { checkTagType } from "../../format/tag_rules.ts";

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
  content: { kind: "text"; text: string } | { kind: "binary" | "not-utf8" };
  /**
   * The library file it goes to (`src/api/claude.md`), when its place is known from where it was
   * found (a nested `CLAUDE.md`, a Cursor rule); otherwise {@link mapSource} decides.
   */
  target?: string;
  /** Said in the provenance line (`Cursor rule; alwaysApply: true`). */
  note?: string;
}

/** What happens to one source file. */
export type ImportAction =
  | "create"
  | "append"
  | "already-imported"
  | "skip-transient"
  | "skip-empty"
  | "skip-not-text"
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
   * Lines set aside for a likely credential, never the value: for `skip-secret` (every line that
   * held text did) and for a `create` or `append` that copied the rest ("likely GitHub token
   * (line 3)").
   */
  reason?: string;
}

/**
 * One line for a person naming the lines set aside and what each looked like, never the value:
 * "likely GitHub token (line 3)", "likely private key (lines 4-9) and 1 more".
 *
 * @example Usage
 * ```ts
 * import { describeSetAside } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   describeSetAside([{ kind: "GitHub token", line: 3, endLine: 3 }]),
 *   "likely GitHub token (line 3)",
 * );
 * assert.equal(
 *   describeSetAside([
 *     { kind: "private key", line: 4, endLine: 9 },
 *     { kind: "password", line: 12, endLine: 12 },
 *   ]),
 *   "likely private key (lines 4-9), likely password (line 12)",
 * );
 * ```
 */
export function describeSetAside(spans: readonly SecretSpan[]): string {
  const words = spans.slice(0, 3).map(({ kind, line, endLine }) =>
    `likely ${kind} (${endLine > line ? `lines ${line}-${endLine}` : `line ${line}`})`
  );
  return words.join(", ") + (spans.length > 3 ? ` and ${spans.length - 3} more` : "");
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
 * import { kebabCase } from "./plan.ts";
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

function stemOf(name: string): string {
  return name.replace(/\.md$/i, "");
}

/**
 * Where a memory-bank file goes, and whether it is transient (pure).
 *
 * @example Usage
 * ```ts
 * import { mapSource } from "./plan.ts";
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
 * import { mapSource, orderSources } from "./plan.ts";
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
 * import { provenanceLine } from "./plan.ts";
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
 * and a source whose text is already in its target is not added again. A source holding a likely
 * credential is not imported at all (`skip-secret`); control characters are left out (pure).
 *
 * @example Usage
 * ```ts
 * import { planImport } from "./plan.ts";
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
      ? { target: source.target, transient: false }
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
    if (source.content.kind !== "text") {
      entries.push(entry("skip-not-text"));
      continue;
    }
    const whole = source.content.text;
    if (whole.split("\n").map(libraryLine).join("\n").trim() === "") {
      entries.push(entry("skip-empty"));
      continue;
    }
    // The same check as filing: a credential never reaches a committed library file. Only the
    // lines that hold one are set aside (a key with its body); the rest is imported.
    const { text, spans } = NOT_SECRET_MARKER.test(whole)
      ? { text: whole, spans: [] }
      : withoutSecretLines(whole);
    const setAside = spans.length > 0 ? { reason: describeSetAside(spans) } : {};
    // Control characters never reach a library file (a NUL makes it count as binary).
    const body = text.split("\n").map(libraryLine).join("\n").trim();
    if (body === "") {
      entries.push({ ...entry("skip-secret"), ...setAside });
      continue;
    }
    const current = texts.get(target) ?? null;
    if (current !== null && current.includes(body)) {
      entries.push({ ...entry("already-imported"), ...setAside });
      continue;
    }
    const block = `${
      provenanceLine(`${options.sourceDir}/${source.name}`, options.date, source.note)
    }\n${body}\n`;
    const next = current === null || current.trim() === ""
      ? block
      : `${current.trimEnd()}\n\n${block}`;
    texts.set(target, next);
    writes.set(target, next);
    entries.push({ ...entry(current === null ? "create" : "append", body.length), ...setAside });
  }
  return { entries, writes };
}
