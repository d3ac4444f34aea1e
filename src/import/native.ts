/**
 * Library text that also reaches the model from where it lies (pure): a `CLAUDE.md` (any level) or
 * a file it `@`-imports, an `AGENTS.md`, a `.claude/rules/*.md` rule, another agent's rule the
 * Librarian serves in place (Cursor, Copilot, Windsurf) holds lines that are in the library too, so a session gets them twice: once from the file, once from the library on the
 * first touch of that folder. `doctor` and `lint` report
 * it with the characters it costs and the fix.
 *
 * @module
 */

import type { ExportFormat } from "../format/mod.ts";

/** A file Claude Code loads natively, with its text. */
export interface NativeFile {
  /** Project-relative path (`packages/api/CLAUDE.md`). */
  rel: string;
  text: string;
  /** Set when `librarian export` wrote it: the format (its text is then only what is out of date). */
  exported?: ExportFormat;
}

/** Native text also in the library. */
export interface Doubling {
  rel: string;
  /** Characters of its lines that are also in the library. */
  chars: number;
  /** The library files (library-relative) holding them. */
  libraryFiles: string[];
  /** Set when `librarian export` wrote the file: the format it was written in. */
  exported?: ExportFormat;
  /** Set when the client also loads another export of the same library folder (its path). */
  twin?: string;
}

/** The shortest line compared: shorter ones (`# API`, `- yes`) match by chance. */
const MIN_LINE = 12;

const keyOf = (line: string) => line.trim().replace(/\s+/g, " ");

/**
 * Which native files repeat library text, and how much (pure).
 *
 * @example Usage
 * ```ts
 * import { doubledText } from "./native.ts";
 * import assert from "node:assert/strict";
 *
 * const natives = [{ rel: "CLAUDE.md", text: "# Repo\n- use pnpm workspaces\n- other line here\n" }];
 * const library = [{ relPath: "claude.md", text: "- use pnpm workspaces\n" }];
 * assert.deepEqual(doubledText(natives, library), [
 *   { rel: "CLAUDE.md", chars: 21, libraryFiles: ["claude.md"] },
 * ]);
 * assert.deepEqual(doubledText(natives, [{ relPath: "a.md", text: "- else\n" }]), []);
 * ```
 */
export function doubledText(
  natives: readonly NativeFile[],
  library: readonly { relPath: string; text: string }[],
): Doubling[] {
  const where = new Map<string, Set<string>>();
  for (const file of library) {
    for (const line of file.text.split("\n")) {
      const key = keyOf(line);
      if (key.length < MIN_LINE) continue;
      where.set(key, (where.get(key) ?? new Set()).add(file.relPath));
    }
  }
  const found: Doubling[] = [];
  for (const native of natives) {
    let chars = 0;
    const files = new Set<string>();
    for (const line of new Set(native.text.split("\n").map(keyOf))) {
      const at = line.length >= MIN_LINE ? where.get(line) : undefined;
      if (!at) continue;
      chars += line.length;
      for (const f of at) files.add(f);
    }
    if (chars === 0) continue;
    const exported = native.exported ? { exported: native.exported } : {};
    found.push({ rel: native.rel, chars, libraryFiles: [...files].sort(), ...exported });
  }
  return found;
}

/**
 * One doubling in words: what it costs and the fix (pure).
 *
 * @example Usage
 * ```ts
 * import { describeDoubling } from "./native.ts";
 * import assert from "node:assert/strict";
 *
 * const d = describeDoubling({ rel: "CLAUDE.md", chars: 1200, libraryFiles: ["claude.md"] });
 * assert.match(d.message, /1,200 characters Claude Code loads by itself/);
 * const a = describeDoubling({ rel: "AGENTS.md", chars: 90, libraryFiles: ["agents.md"] });
 * assert.match(a.message, /AGENTS\.md: 90 characters agents load by themselves/);
 * assert.match(d.fix, /librarian import CLAUDE\.md --hand-over --yes/);
 * const c = describeDoubling({ rel: ".cursor/rules/db.mdc", chars: 29, libraryFiles: ["db/db.md"] });
 * assert.match(c.message, /29 characters the Librarian sends from where it lies/);
 * assert.match(c.fix, /delete the copied lines from the library/);
 * const e = describeDoubling({ rel: "src/AGENTS.md", chars: 40, libraryFiles: ["src/a.md"], exported: "agents-md" });
 * assert.match(e.message, /older than the library/);
 * assert.equal(e.fix, "run 'librarian export --format agents-md' (it rewrites src/AGENTS.md from the library as it is now)");
 * const t = describeDoubling({
 *   rel: "src/AGENTS.md",
 *   chars: 40,
 *   libraryFiles: ["src/a.md"],
 *   exported: "agents-md",
 *   twin: ".claude/rules/librarian-src.md",
 * });
 * assert.match(t.fix, /librarian export --format agents-md --clean/);
 * ```
 */
export function describeDoubling(d: Doubling): { message: string; fix: string } {
  if (d.twin) return describeTwinExports(d, d.twin);
  if (d.exported) return describeStaleExport(d, d.exported);
  const name = d.rel.slice(d.rel.lastIndexOf("/") + 1);
  const nested = d.rel.includes("/") && !d.rel.startsWith(".claude/");
  const otherAgent =
    /^\.(?:cursor\/rules|github\/instructions|windsurf\/rules)\/|^\.github\/copilot-instructions\.md$/
      .test(d.rel);
  const how = otherAgent
    ? "the Librarian sends from where it lies"
    : name === "AGENTS.md"
    ? nested
      ? "the Librarian sends from where it lies"
      : "agents load by themselves (Codex; Claude Code 2.1.277+ without a CLAUDE.md)"
    : "Claude Code loads by itself";
  return {
    message: `${d.rel}: ${d.chars.toLocaleString("en-US")} characters ${how} ` +
      `are also in the library (${d.libraryFiles.join(", ")}): sent twice per session, ` +
      "once from there and once on the first touch of that folder",
    fix: otherAgent
      ? `delete the copied lines from the library (${d.rel} is read where it lies and sent on ` +
        `the touches it covers), or delete ${d.rel} if no other agent reads it`
      : `delete the copied lines from the library (${d.rel} is read where it lies), or ` +
        `'librarian import ${d.rel} --hand-over --yes' hands it over (a short stub naming the library)`,
  };
}

/**
 * A generated file that doubles: only the text it holds from older library files can (the inject
 * hook leaves the files it holds as they are to the client that loads it, and sends the others).
 */
function describeStaleExport(d: Doubling, format: ExportFormat): { message: string; fix: string } {
  return {
    message: `${d.rel}: ${d.chars.toLocaleString("en-US")} characters of an export older than ` +
      `the library (${d.libraryFiles.join(", ")} changed since, or did not fit): Claude Code ` +
      "loads the export by itself and the Librarian sends the library files it does not hold as " +
      "they are now, so the lines both share are sent twice",
    fix: `run 'librarian export --format ${format}' (it rewrites ${d.rel} from the library as it ` +
      "is now)",
  };
}

/** One library folder exported twice, both loaded by Claude Code itself. */
function describeTwinExports(d: Doubling, twin: string): { message: string; fix: string } {
  return {
    message: `${d.rel}: ${d.chars.toLocaleString("en-US")} characters Claude Code 2.1.3xx loads ` +
      `twice after a Read in that folder: this export (its built-in AGENTS.md loader) and ${twin} ` +
      "export the same library folder",
    fix:
      "keep one of the two formats: 'librarian export --format agents-md --clean' (Claude Code " +
      "keeps the rules; other agents lose the AGENTS.md files), or 'librarian export --format " +
      "claude-rules --clean'",
  };
}
