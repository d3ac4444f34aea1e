/**
 * `CLAUDE.md`'s `@path` imports (pure): Claude Code loads the named file with the one that names
 * it, so `import` follows them (inside the project, a bounded depth, no cycles) and the library
 * text keeps the knowledge, never a line that only points somewhere; and inject counts a file a
 * loaded `CLAUDE.md` imports as loaded with it. Imports inside fenced code
 * or inline code are text, as they are to Claude Code.
 *
 * @module
 */

/** One `@path` in a text. */
export interface AtImport {
  /** The path as written (`docs/guide.md`, `~/x.md`, `../AGENTS.md`). */
  path: string;
  /** 1-based line. */
  line: number;
}

/** How deep imports are followed (Claude Code's own limit is five hops). */
export const MAX_IMPORT_DEPTH = 5;

const AT = /(^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-][\w.\-/]*)/g;

/** Each line with whether it is inside a fence (the fence lines count as inside). */
function linesWithFences(text: string): { line: string; fenced: boolean }[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && open) {
      fence = open[1]!;
      return { line, fenced: true };
    }
    if (fence !== null) {
      if (open && open[1]!.startsWith(fence[0]!) && open[1]!.length >= fence.length) fence = null;
      return { line, fenced: true };
    }
    return { line, fenced: false };
  });
}

const withoutCodeSpans = (line: string) => line.replace(/`[^`]*`/g, (s) => " ".repeat(s.length));

/** A path that can name a file: it has a dot or a slash, and is not an npm scope or a handle. */
const looksLikeFile = (path: string) => /\.[A-Za-z0-9]+$/.test(path) || path.includes("/");

/**
 * The `@path` imports of a text, in order (pure).
 *
 * @example Usage
 * ```ts
 * import { atImports } from "./at_imports.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const text = `@AGENTS.md\nSee @docs/guide.md and mail a@b.com.\n${fence}\n@not/this.md\n${fence}\n`;
 * assert.deepEqual(atImports(text), [
 *   { path: "AGENTS.md", line: 1 },
 *   { path: "docs/guide.md", line: 2 },
 * ]);
 * ```
 */
export function atImports(text: string): AtImport[] {
  const found: AtImport[] = [];
  linesWithFences(text).forEach(({ line, fenced }, i) => {
    if (fenced) return;
    for (const match of withoutCodeSpans(line).matchAll(AT)) {
      const path = match[2]!.replace(/[.,;:)]+$/, "");
      if (looksLikeFile(path)) found.push({ path, line: i + 1 });
    }
  });
  return found;
}

/**
 * The text with its followed imports taken out: a line that held only imports goes, an import
 * inside a sentence becomes the path in backticks (pure).
 *
 * @example Usage
 * ```ts
 * import { withoutImports } from "./at_imports.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# Rules\n@AGENTS.md\nSee @docs/guide.md first.\n- keep @org/pkg\n";
 * assert.equal(
 *   withoutImports(text, new Set(["AGENTS.md", "docs/guide.md"])),
 *   "# Rules\nSee `docs/guide.md` first.\n- keep @org/pkg\n",
 * );
 * ```
 */
export function withoutImports(text: string, followed: ReadonlySet<string>): string {
  const out: string[] = [];
  for (const { line, fenced } of linesWithFences(text)) {
    if (fenced) {
      out.push(line);
      continue;
    }
    const masked = withoutCodeSpans(line);
    let only = true;
    let result = "";
    let last = 0;
    for (const match of masked.matchAll(AT)) {
      const path = match[2]!.replace(/[.,;:)]+$/, "");
      if (!followed.has(path)) {
        only = false;
        continue;
      }
      const start = match.index + match[1]!.length;
      result += line.slice(last, start) + `\`${path}\``;
      last = start + 1 + path.length;
    }
    result += line.slice(last);
    if (last > 0 && only && masked.replace(AT, "").trim() === "") continue;
    out.push(result);
  }
  return out.join("\n");
}
