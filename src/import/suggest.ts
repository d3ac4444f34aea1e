/**
 * `librarian import --suggest` / `--apply` (pure part): a flat memory bank imported as root files
 * sends all its text on every first touch. For each section, bullet, numbered list or paragraph
 * of an imported root file that names one code folder (a path, in backticks or not, or the name of
 * a package or folder: a bank names services, not paths), propose the mirror folder it belongs to.
 * Text naming several unrelated folders, or saying it applies everywhere, stays at the root; front
 * matter and fenced code are never units; a numbered list moves whole.
 *
 * @module
 */

import { splitLinesKeepingEnds } from "../format/mod.ts";

/** A section, bullet (with its continuation lines), numbered list or paragraph of a file. */
export interface TextUnit {
  /** 1-based line of its first line. */
  line: number;
  raw: string;
  /** The heading line it sits under (`## Billing`), moved with it; none for a section. */
  heading?: string;
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
  /** The existing paths and the package or folder names it names. */
  mentions: string[];
  /** The heading it sat under, moved with it. */
  heading?: string;
}

/** What is at a project path: a file, a folder, or nothing. */
export type PathKind = "file" | "dir" | null;

const BULLET = /^(?:[-*+]|\d+[.)])\s/;
const NUMBERED = /^\d+[.)]\s/;
const HEADING = /^(#{1,6})\s/;

/**
 * Splits Markdown into bullets (each with its indented continuation lines), numbered lists (whole)
 * and paragraphs, each with the heading it sits under; headings, HTML comments, front matter,
 * fences and blank lines are not units (pure).
 *
 * @example Usage
 * ```ts
 * import { splitUnits } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const units = splitUnits("---\na: b\n---\n# T\n- a\n  more\n1. one\n2. two\n\nA paragraph\nstill.\n");
 * assert.deepEqual(units.map((u) => u.line), [5, 7, 10]);
 * assert.equal(units[0]!.raw, "- a\n  more\n");
 * assert.equal(units[1]!.raw, "1. one\n2. two\n");
 * assert.equal(units[2]!.heading, "# T");
 * ```
 */
export function splitUnits(text: string): TextUnit[] {
  const lines = splitLinesKeepingEnds(text);
  const units: TextUnit[] = [];
  let current: TextUnit | null = null;
  let fenced = false;
  let heading: string | undefined;
  const frontMatter = /^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/.exec(text);
  const skipTo = frontMatter ? frontMatter[0].split("\n").length - 1 : 0;
  const close = () => {
    if (current) units.push(current);
    current = null;
  };
  const open = (i: number, line: string) => {
    current = { line: i + 1, raw: line, ...(heading ? { heading } : {}) };
  };
  lines.forEach((line, i) => {
    if (i < skipTo) return;
    const content = line.replace(/\r?\n$/, "");
    if (/^\s*(```|~~~)/.test(content)) {
      fenced = !fenced;
      close();
      return;
    }
    if (fenced || content.trim() === "" || /^\s*<!--/.test(content)) {
      close();
      return;
    }
    if (HEADING.test(content)) {
      close();
      heading = content.trim();
      return;
    }
    const unit = current as TextUnit | null;
    if (NUMBERED.test(content) && unit && NUMBERED.test(unit.raw)) {
      unit.raw += line; // a numbered list moves whole: no step is cut out of it
    } else if (BULLET.test(content)) {
      close();
      open(i, line);
    } else if (unit && (/^\s/.test(content) || !BULLET.test(unit.raw))) {
      unit.raw += line;
    } else {
      close();
      open(i, line);
    }
  });
  close();
  return units.map((u) => (u.raw.endsWith("\n") ? u : { ...u, raw: `${u.raw}\n` }));
}

/**
 * The sections of a text: each heading with everything up to the next heading of its level or
 * higher (pure).
 *
 * @example Usage
 * ```ts
 * import { sectionsOf } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const s = sectionsOf("# A\n## Billing\n- x\n### sub\n- y\n## Web\n- z\n");
 * assert.deepEqual(s.map((x) => [x.line, x.title]), [[1, "A"], [2, "Billing"], [4, "sub"], [6, "Web"]]);
 * assert.equal(s[1]!.raw, "## Billing\n- x\n### sub\n- y\n");
 * ```
 */
export function sectionsOf(text: string): { line: number; title: string; raw: string }[] {
  const lines = splitLinesKeepingEnds(text);
  const heads: { i: number; level: number; title: string }[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^(#{1,6})\s+(.*?)\s*$/.exec(line.replace(/\r?\n$/, ""));
    if (m) heads.push({ i, level: m[1]!.length, title: m[2]! });
  });
  return heads.map((h, k) => {
    const next = heads.slice(k + 1).find((n) => n.level <= h.level);
    const end = next ? next.i : lines.length;
    return { line: h.i + 1, title: h.title, raw: lines.slice(h.i, end).join("") };
  });
}

/** Words that say a text applies to the whole project: it never moves down. */
const REPO_WIDE =
  /\b(all|every|each) (packages|services|apps|modules|components|folders|repos?)\b|\bacross (the )?(repo|codebase|project|services|packages)|\brepo-?wide\b|\bmonorepo-?wide\b|\beverywhere\b/i;

/** Words that make a one-word name a component's name (`Ledger service`, `billing API`). */
const COMPONENT_WORD =
  "(?:service|services|app|application|package|module|worker|component|server|client|library|lib|api|sdk|cli)";

/**
 * The code folders a text names by name (`names` maps a lower-case package or folder name to its
 * folder). A name of several words (`auth-service`, `wallet registry`) counts wherever it stands;
 * a one-word name, which may be a plain word (`contracts`, `infrastructure`), only in backticks or
 * followed by a component word (`Ledger service`, `storefront app`) (pure).
 *
 * @example Usage
 * ```ts
 * import { namedFolders } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const names = new Map([["billing", "services/billing"], ["web-app", "apps/web"], ["contracts", "contracts"]]);
 * assert.deepEqual(namedFolders("The Billing service retries; see web-app.", names), [
 *   "services/billing",
 *   "apps/web",
 * ]);
 * assert.deepEqual(namedFolders("upgradeable smart contracts; rebilling", names), []);
 * assert.deepEqual(namedFolders("see `contracts`", names), ["contracts"]);
 * ```
 */
export function namedFolders(text: string, names: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  for (const [name, folder] of names) {
    if (!lower.includes(name) || found.includes(folder)) continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = /[-_ ]/.test(name)
      ? `(?<![\\w/-])${escaped}(?![\\w-])`
      : `\`${escaped}\`|(?<![\\w/-])${escaped}\\s+${COMPONENT_WORD}\\b`;
    if (new RegExp(pattern, "i").test(text)) found.push(folder);
  }
  return found;
}

const TOKEN = /`([^`\s]+)`|(?<![\w/.:-])((?:[\w.-]+\/)+[\w.-]*)/g;

/**
 * The project paths a unit names (in backticks, or path-like with a `/`), cleaned: no leading
 * `../commands/import/`, no trailing `/` or punctuation; never absolute, `..` or a URL (pure).
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
 * Suggestions for the sections and units of `files` (root files and their texts) that name one
 * code folder; `kindOf` says what is at a project-relative path (only folders the library can
 * serve), `names` maps package and folder names to their folder (pure apart from `kindOf`).
 *
 * @example Usage
 * ```ts
 * import { suggestMoves } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * const kindOf = (p: string) => (p === "src/api" ? "dir" : p === "src/api/a.ts" ? "file" : null);
 * const [s] = suggestMoves([{ file: "patterns.md", text: "- `src/api/a.ts` validates\n" }], kindOf);
 * assert.equal(s!.folder, "src/api");
 * const names = new Map([["billing", "services/billing"]]);
 * const text = "# Tech\n## Billing service\n- retries twice\n- logs JSON\n## Other\n- x\n";
 * const [section] = suggestMoves([{ file: "tech.md", text }], () => "dir", names);
 * assert.equal(section!.raw, "## Billing service\n- retries twice\n- logs JSON\n");
 * ```
 */
export function suggestMoves(
  files: readonly { file: string; text: string }[],
  kindOf: (relPath: string) => PathKind,
  names: ReadonlyMap<string, string> = new Map(),
): Suggestion[] {
  const suggestions: Suggestion[] = [];
  const folderOf = (raw: string) => {
    // a dot-folder (`.claude/`, `.github/`) is never served: never a target
    const paths = mentionedPaths(raw)
      .filter((p) => !p.split("/").some((x) => x.startsWith(".")) && kindOf(p) !== null);
    const byName = namedFolders(raw, names).filter((f) => kindOf(f) === "dir");
    // a text naming two components by name is about the system, not one of them
    if (byName.length > 1) return { folder: "", mentions: [] };
    const folders = [
      ...paths.map((p) =>
        kindOf(p) === "dir" ? p : p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ""
      ),
      ...byName,
    ];
    return {
      folder: folders.length ? commonFolder(folders) : "",
      mentions: [...paths, ...byName.filter((f) => !paths.includes(f))],
    };
  };
  for (const { file, text } of files) {
    const taken: [number, number][] = [];
    const units: (TextUnit & { folder: string; mentions: string[] })[] = [];
    for (const section of sectionsOf(text)) {
      const inTaken = taken.some(([a, b]) => section.line >= a && section.line < b);
      if (/^#\s/.test(section.raw) || inTaken || REPO_WIDE.test(section.raw)) continue;
      const { folder, mentions } = folderOf(section.title);
      if (folder === "") continue;
      // every folder the section's body names lies inside the one its heading names
      const body = folderOf(section.raw);
      if (commonFolder([folder, body.folder || folder]) !== folder) continue;
      taken.push([section.line, section.line + section.raw.split("\n").length - 1]);
      units.push({ line: section.line, raw: section.raw, folder, mentions });
    }
    for (const unit of splitUnits(text)) {
      if (taken.some(([a, b]) => unit.line >= a && unit.line < b)) continue;
      if (REPO_WIDE.test(unit.raw)) continue;
      const { folder, mentions } = folderOf(unit.raw);
      if (mentions.length === 0 || folder === "") continue;
      units.push({ ...unit, folder, mentions });
    }
    units.sort((a, b) => a.line - b.line);
    for (const unit of units) suggestions.push({ n: suggestions.length + 1, file, ...unit });
  }
  return suggestions;
}

/**
 * What a moved suggestion adds to its folder's file: the heading it sat under (a section carries
 * its own) and its text (pure).
 *
 * @example Usage
 * ```ts
 * import { movedTextOf } from "./suggest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(movedTextOf({ heading: "## Billing", raw: "- x\n" }), "## Billing\n- x\n");
 * assert.equal(movedTextOf({ raw: "## Web\n- y\n" }), "## Web\n- y\n");
 * ```
 */
export function movedTextOf(s: Pick<Suggestion, "heading" | "raw">): string {
  return s.heading ? `${s.heading}\n${s.raw}` : s.raw;
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
  const lines = splitLinesKeepingEnds(text);
  const start = lines.slice(0, Math.max(0, s.line - 1)).join("").length;
  const at = text.indexOf(s.raw, start);
  if (at < 0) return null;
  return text.slice(0, at) + text.slice(at + s.raw.length);
}
