/**
 * One Claude Code memory file → one scratch block (pure; its front matter read by `format/front_matter.ts`).
 *
 * A memory file has YAML front matter (`name`, `description`, and `type` either at the top level
 * or under `metadata:`). Entries of type `feedback`, `project` or `reference` become a scratch
 * block `## [TAG: global, type: patterns|product|tech]`; `user` entries are personal and never
 * synced.
 *
 * @module
 */

import { isObject } from "../core/json.ts";
import { readFrontMatter } from "../format/front_matter.ts";
import { fenceMap } from "../format/scratch.ts";

/** Auto-memory type → library file type. `user` is deliberately absent: it is personal. */
export const MEMORY_TYPE_MAP: Readonly<Record<string, string>> = {
  feedback: "patterns",
  project: "product",
  reference: "tech",
};

const TYPES_HINT = "types are exact lowercase: user, feedback, project, reference";

/** A parsed memory entry that is synced. */
export interface MemoryEntry {
  /** The entry's `name` (or the file stem). */
  name: string;
  /** The auto-memory type (`feedback`, `project`, `reference`). */
  type: string;
  /** The library type it maps to. */
  mapped: string;
  /** The one-line summary: `description`, else the first body line. */
  summary: string;
  /** The body (the substance, the why), as lines ready to go under the summary bullet. */
  body: string[];
}

/** Why a memory file is not synced. */
export type MemorySkip =
  | "user"
  | "no-front-matter"
  | "malformed"
  | "no-type"
  | "unknown-type"
  | "empty"
  | "too-large";

/** The outcome of parsing one memory file. */
export type ParsedMemory = { kind: "entry"; entry: MemoryEntry } | {
  kind: "skip";
  why: MemorySkip;
  detail?: string;
};

/**
 * Splits `---` front matter from the body; `null` when the text has none.
 *
 * @example Usage
 * ```ts
 * import { splitFrontMatter } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitFrontMatter("---\nname: a\n---\nbody\n"), { yaml: "name: a\n", body: "body\n" });
 * assert.equal(splitFrontMatter("no front matter"), null);
 * ```
 */
export function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const normal = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  if (!normal.startsWith("---\n")) return null;
  const end = /^(?:---|\.\.\.)[ \t]*$/m;
  const rest = normal.slice(4);
  const match = end.exec(rest);
  if (!match) return null;
  return {
    yaml: rest.slice(0, match.index),
    body: rest.slice(match.index + match[0].length).replace(/^\n/, ""),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const SKIPPED_LINE = /^(?:#{1,6}(?:\s|$)|---|```|~~~)/;

function firstBodyLineIndex(lines: readonly string[]): number {
  return lines.findIndex((line) => line.trim() !== "" && !SKIPPED_LINE.test(line.trim()));
}

function stripListMarker(line: string): string {
  return oneLine(line.trim().replace(/^(?:[-*+>]|\d+[.)])\s+/, ""));
}

/**
 * The first meaningful body line: not blank, not a heading, markers stripped.
 *
 * @example Usage
 * ```ts
 * import { firstBodyLine } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(firstBodyLine("# Title\n\n- the point\n"), "the point");
 * ```
 */
export function firstBodyLine(body: string): string {
  const lines = body.split("\n");
  const index = firstBodyLineIndex(lines);
  return index < 0 ? "" : stripListMarker(lines[index]!);
}

// Control characters other than tab never reach a library file.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
/** Lines a scratch parser could take for a tag line or a Librarian marker. */
const TAG_LIKE = /^\s*(?:#+\s*\[?|\[)\s*tag\b|^\s*<!--\s*librarian\s*:/i;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * A memory body as lines to indent under the entry's bullet, so that the whole entry stays one
 * learning (one list item) in scratch and in the library: blank lines outside code fences are
 * dropped, headings become bold lines, a fence never closed is escaped, and lines that a scratch
 * parser could read as a tag line or a Librarian marker are escaped with a backslash.
 *
 * @example Usage
 * ```ts
 * import { bodyLines } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(bodyLines("# Why\n\nThe lockfile is pnpm's.\n"), ["**Why**", "The lockfile is pnpm's."]);
 * assert.deepEqual(bodyLines("## [TAG: src, type: x]\n"), ["\\## [TAG: src, type: x]"]);
 * ```
 */
export function bodyLines(body: string): string[] {
  const lines = body.replaceAll("\r\n", "\n").replace(CONTROL, "").split("\n")
    .map((line) => line.trimEnd());
  const { fenced, unclosed } = fenceMap(lines);
  const open = new Set(unclosed);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (open.has(i)) out.push(`\\${line.trimStart()}`);
    else if (fenced[i]) out.push(/^\s*<!--/.test(line) ? `\\${line.trimStart()}` : line);
    else if (line === "") return;
    else if (TAG_LIKE.test(line)) out.push(`\\${line.trimStart()}`);
    else {
      const heading = HEADING.exec(line);
      out.push(heading ? `**${heading[1]}**` : line);
    }
  });
  return out;
}

/**
 * Parses one memory file's text: its entry, or why it is not synced.
 *
 * @example Usage
 * ```ts
 * import { parseMemoryFile } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "---\nname: pnpm\ndescription: use pnpm\nmetadata:\n  type: feedback\n---\nNever npm.\n";
 * const parsed = parseMemoryFile(text, "feedback_pnpm");
 * assert.deepEqual(parsed, {
 *   kind: "entry",
 *   entry: { name: "pnpm", type: "feedback", mapped: "patterns", summary: "use pnpm", body: ["Never npm."] },
 * });
 * ```
 */
export function parseMemoryFile(text: string, stem: string): ParsedMemory {
  const parts = splitFrontMatter(text);
  if (!parts) return { kind: "skip", why: "no-front-matter" };
  const read = readFrontMatter(parts.yaml);
  if (read.kind === "malformed") return { kind: "skip", why: "malformed", detail: read.detail };
  const fields = read.fields;
  const nested = isObject(fields.metadata) ? fields.metadata.type : undefined;
  // As Claude Code reads it: `metadata.type` wins over a top-level `type`.
  const rawType = typeof nested === "string"
    ? nested
    : typeof fields.type === "string"
    ? fields.type
    : undefined;
  if (rawType === undefined) return { kind: "skip", why: "no-type" };
  const type = rawType.trim();
  if (type === "user") return { kind: "skip", why: "user" };
  const mapped = MEMORY_TYPE_MAP[type];
  if (!mapped) {
    const shown = oneLine(type).slice(0, 40);
    return { kind: "skip", why: "unknown-type", detail: `${shown} (${TYPES_HINT})` };
  }
  const rawName = fields.name;
  const name = oneLine(
    typeof rawName === "string" || typeof rawName === "number" ? String(rawName) : "",
  ).replace(CONTROL, "") || stem;
  const description = typeof fields.description === "string"
    ? oneLine(fields.description.replace(CONTROL, ""))
    : "";
  const raw = parts.body.split("\n");
  // Without a description, the first body line is the summary (and is not repeated under it).
  const first = description ? -1 : firstBodyLineIndex(raw);
  const summary = description ||
    (first < 0 ? "" : stripListMarker(raw[first]!.replace(CONTROL, "")));
  // A title above that line is dropped with it (the entry's name says the same).
  const kept = raw.filter((line, i) =>
    i > first || (i < first && !/^\s*#{1,6}(?:\s|$)/.test(line))
  );
  const body = bodyLines((first < 0 ? raw : kept).join("\n"));
  if (summary === "") return { kind: "skip", why: "empty" };
  return { kind: "entry", entry: { name, type, mapped, summary, body } };
}

/**
 * The scratch block for one entry: its bullet `- <name>: <summary>` with the body indented
 * under it, filed into the library root's `<mapped type>.md`.
 *
 * @example Usage
 * ```ts
 * import { memoryBlock } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = { name: "pnpm", type: "feedback", mapped: "patterns", summary: "use pnpm", body: ["Always use pnpm, never npm."] };
 * assert.equal(memoryBlock(entry), "## [TAG: global, type: patterns]\n- pnpm: use pnpm\n  Always use pnpm, never npm.\n");
 * ```
 */
export function memoryBlock(entry: MemoryEntry, eol = "\n"): string {
  const lines = [
    `## [TAG: global, type: ${entry.mapped}]`,
    `- ${entry.name}: ${entry.summary}`,
    ...entry.body.map((line) => line === "" ? "" : `  ${line}`),
  ];
  return lines.join(eol) + eol;
}
