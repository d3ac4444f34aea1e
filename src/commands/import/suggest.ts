/**
 * `librarian import --suggest` / `--apply` (pure part): a flat memory bank imported as root files
 * sends all its text on every first touch. For each bullet or paragraph of an imported root file
 * that names an existing code folder or file, propose the mirror folder it belongs to; applying
 * a suggestion moves that text into scratch as a tagged block, for `route` to file.
 *
 * @module
 */

/** A bullet (with its continuation lines) or a paragraph of a library file. */
export interface TextUnit {
  /** 1-based line of its first line. */
  line: number;
  raw: string;
}

/** One proposed move. */
export interface Suggestion {
  /** 1-based, in file then line order: what `--only` names. */
  n: number;
  /** The root file, relative to the library (`patterns.md`). */
  file: string;
  line: number;
  raw: string;
  /** The code folder (and so the mirror folder) it belongs to. */
  folder: string;
  /** The existing paths it names. */
  mentions: string[];
}

/** What is at a project path: a file, a folder, or nothing. */
export type PathKind = "file" | "dir" | null;

const BULLET = /^(?:[-*+]|\d+[.)])\s/;

/**
 * Splits Markdown into bullets (each with its indented continuation lines) and paragraphs;
 * headings, HTML comments, fences and blank lines are not units (pure).
 *
 * @example Usage
 * ```ts
 * import { splitUnits } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const units = splitUnits("# T\n- a\n  more\n- b\n\nA paragraph\nstill.\n");
 * assert.deepEqual(units.map((u) => u.line), [2, 4, 6]);
 * assert.equal(units[0]!.raw, "- a\n  more\n");
 * ```
 */
export function splitUnits(text: string): TextUnit[] {
  const lines = text.split(/(?<=\n)/);
  const units: TextUnit[] = [];
  let current: TextUnit | null = null;
  let fenced = false;
  const close = () => {
    if (current) units.push(current);
    current = null;
  };
  lines.forEach((line, i) => {
    const content = line.replace(/\r?\n$/, "");
    if (/^\s*(```|~~~)/.test(content)) {
      fenced = !fenced;
      close();
      return;
    }
    if (fenced || content.trim() === "" || /^#{1,6}\s/.test(content) || /^\s*<!--/.test(content)) {
      close();
      return;
    }
    if (BULLET.test(content)) {
      close();
      current = { line: i + 1, raw: line };
    } else if (current && (/^\s/.test(content) || !BULLET.test(current.raw))) {
      current.raw += line;
    } else {
      close();
      current = { line: i + 1, raw: line };
    }
  });
  close();
  return units.map((u) => (u.raw.endsWith("\n") ? u : { ...u, raw: `${u.raw}\n` }));
}

const TOKEN = /`([^`\s]+)`|(?<![\w/.:-])((?:[\w.-]+\/)+[\w.-]*)/g;

/**
 * The project paths a unit names (in backticks, or path-like with a `/`), cleaned: no leading
 * `./`, no trailing `/` or punctuation; never absolute, `..` or a URL (pure).
 *
 * @example Usage
 * ```ts
 * import { mentionedPaths } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(mentionedPaths("- see `src/api/handler.ts` and ./lib/db/."), [
 *   "src/api/handler.ts",
 *   "lib/db",
 * ]);
 * ```
 */
export function mentionedPaths(raw: string): string[] {
  const found: string[] = [];
  for (const match of raw.matchAll(TOKEN)) {
    let path = (match[1] ?? match[2] ?? "").replace(/^\.\//, "").replace(/[.,;:)!?]+$/, "")
      .replace(/\/+$/, "");
    if (path === "" || path.startsWith("/") || path.includes("://")) continue;
    if (path.split("/").some((s) => s === ".." || s === "" || s === ".")) continue;
    path = path.replace(/\/+/g, "/");
    if (!found.includes(path)) found.push(path);
  }
  return found;
}

/** The common leading folder of several (`""` when they share none) (pure). */
function commonFolder(folders: readonly string[]): string {
  const split = folders.map((f) => f.split("/"));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join("/");
}

/**
 * Suggestions for the units of `files` (root files and their texts) that name existing code
 * paths; `kindOf` says what is at a project-relative path (pure apart from `kindOf`).
 *
 * @example Usage
 * ```ts
 * import { suggestMoves } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const kindOf = (p: string) => (p === "src/api" ? "dir" : p === "src/api/a.ts" ? "file" : null);
 * const [s] = suggestMoves([{ file: "patterns.md", text: "- `src/api/a.ts` validates\n" }], kindOf);
 * assert.equal(s!.folder, "src/api");
 * ```
 */
export function suggestMoves(
  files: readonly { file: string; text: string }[],
  kindOf: (relPath: string) => PathKind,
): Suggestion[] {
  const suggestions: Suggestion[] = [];
  for (const { file, text } of files) {
    for (const unit of splitUnits(text)) {
      const mentions = mentionedPaths(unit.raw).filter((p) => kindOf(p) !== null);
      const folders = mentions.map((p) =>
        kindOf(p) === "dir" ? p : p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ""
      );
      const folder = commonFolder(folders);
      if (mentions.length === 0 || folder === "") continue;
      suggestions.push({ n: suggestions.length + 1, file, ...unit, folder, mentions });
    }
  }
  return suggestions;
}

/**
 * The scratch block a suggestion becomes: `## [TAG: <folder>, type: <root file's name>]` and the
 * unit's text (pure).
 *
 * @example Usage
 * ```ts
 * import { scratchBlockOf } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const block = scratchBlockOf({ folder: "src/api", file: "patterns.md", raw: "- x\n" });
 * assert.equal(block, "## [TAG: src/api, type: patterns]\n- x\n");
 * ```
 */
export function scratchBlockOf(s: Pick<Suggestion, "folder" | "file" | "raw">): string {
  return `## [TAG: ${s.folder}, type: ${s.file.replace(/\.md$/i, "")}]\n${s.raw}`;
}

/**
 * `text` with a suggestion's unit taken out (its first occurrence from its line on), or null
 * when the text no longer holds it (pure).
 *
 * @example Usage
 * ```ts
 * import { withoutUnit } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# a\n- one\n- two\n- one\n";
 * assert.equal(withoutUnit(text, { line: 4, raw: "- one\n" }), "# a\n- one\n- two\n");
 * assert.equal(withoutUnit(text, { line: 1, raw: "- three\n" }), null);
 * ```
 */
export function withoutUnit(text: string, s: Pick<Suggestion, "line" | "raw">): string | null {
  const lines = text.split(/(?<=\n)/);
  const start = lines.slice(0, Math.max(0, s.line - 1)).join("").length;
  const at = text.indexOf(s.raw, start);
  if (at < 0) return null;
  return text.slice(0, at) + text.slice(at + s.raw.length);
}
