/**
 * One Claude Code memory file → one scratch block (pure; the YAML parser is passed in).
 *
 * A memory file has YAML front matter (`name`, `description`, and `type` either at the top level
 * or under `metadata:`). Entries of type `feedback`, `project` or `reference` become a scratch
 * block `## [TAG: global, type: patterns|product|tech]`; `user` entries are personal and never
 * synced.
 *
 * @module
 */

import { messageOf } from "../core/errors.ts";

/** Auto-memory type → library file type. `user` is deliberately absent: it is personal. */
export const MEMORY_TYPE_MAP: Readonly<Record<string, string>> = {
  feedback: "patterns",
  project: "product",
  reference: "tech",
};

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

/** A YAML parser: text → value; throws on malformed input. */
export type YamlParse = (text: string) => unknown;

/** Splits `---` front matter from the body; `null` when the text has none. */
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

/** The first meaningful body line: not blank, not a heading, markers stripped. */
export function firstBodyLine(body: string): string {
  for (const line of body.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || /^#{1,6}(\s|$)/.test(trimmed) || /^(?:---|```|~~~)/.test(trimmed)) {
      continue;
    }
    return oneLine(trimmed.replace(/^(?:[-*+>]|\d+[.)])\s+/, ""));
  }
  return "";
}

/** Parses one memory file's text. */
export function parseMemoryFile(text: string, stem: string, parseYaml: YamlParse): ParsedMemory {
  const parts = splitFrontMatter(text);
  if (!parts) return { kind: "skip", why: "no-front-matter" };
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (error) {
    const detail = messageOf(error).split("\n")[0];
    return { kind: "skip", why: "malformed", ...(detail ? { detail } : {}) };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { kind: "skip", why: "malformed", detail: "front matter is not a mapping" };
  }
  const fields = data as Record<string, unknown>;
  const metadata = fields.metadata;
  const rawType = typeof fields.type === "string"
    ? fields.type
    : metadata && typeof metadata === "object" &&
        typeof (metadata as Record<string, unknown>).type === "string"
    ? (metadata as Record<string, string>).type
    : undefined;
  if (rawType === undefined) return { kind: "skip", why: "no-type" };
  const type = rawType.trim().toLowerCase();
  if (type === "user") return { kind: "skip", why: "user" };
  const mapped = MEMORY_TYPE_MAP[type];
  if (!mapped) return { kind: "skip", why: "unknown-type", detail: type };
  const rawName = fields.name;
  const name = oneLine(
    typeof rawName === "string" || typeof rawName === "number" ? String(rawName) : "",
  ) || stem;
  const description = typeof fields.description === "string" ? oneLine(fields.description) : "";
  const summary = description || firstBodyLine(parts.body);
  if (summary === "") return { kind: "skip", why: "empty" };
  return { kind: "entry", entry: { name, type, mapped, summary } };
}

/** The scratch block for one entry. */
export function memoryBlock(entry: MemoryEntry, eol = "\n"): string {
  return `## [TAG: global, type: ${entry.mapped}]${eol}- ${entry.name}: ${entry.summary}${eol}`;
}
