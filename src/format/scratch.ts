/**
 * Parsing `_memory_library/.scratch.md` into blocks (pure).
 *
 * A block starts at a tag line `## [TAG: <path>, type: <name>]` (or a legacy tag, or a near miss
 * such as `### [TAG: …]`: see `tag_line.ts` for the grammar) and runs to the next one. CRLF line
 * endings work, and a byte-order mark is ignored wherever it is. A tag line inside a fenced code
 * block (``` or ~~~) is content, not a tag, so a learning can show the tag syntax in an example.
 *
 * Every block keeps its exact raw text: `bom + blocks.map((b) => b.raw).join("")` is the input,
 * so blocks that are not filed can be written back byte for byte.
 *
 * @module
 */

import { type IntendedTag, type ParsedTag, readTagLine } from "./tag_line.ts";

export {
  type IntendedTag,
  isTagLine,
  type ParsedTag,
  parseTagLine,
  readTagLine,
} from "./tag_line.ts";

/** Text before the first tag line (notes, a title): never routed. */
export interface PreambleBlock {
  kind: "preamble";
  /** The exact text, line endings included. */
  raw: string;
  /** 1-based line number of the block's first line. */
  startLine: number;
}

/** Fields every block that starts at a tag line has. */
interface TagLineBlock {
  /** The exact text from the tag line to the next tag line, line endings included. */
  raw: string;
  /** 1-based line number of the tag line. */
  startLine: number;
  /** The tag line without its line ending (and without byte-order marks). */
  tagLine: string;
  /** The line ending of the tag line (`"\n"`, `"\r\n"`, or `""` at the end of the text). */
  eol: string;
  /** The raw text after the tag line. */
  body: string;
  /**
   * 1-based line number of a fence opener in the body that is never closed, if any. Such a
   * fence is treated as plain text when looking for tag lines, and the block is not filed.
   */
  unclosedFenceLine?: number;
}

/** A block with a complete tag: `## [TAG: <path>, type: <name>]`. */
export interface TaggedBlock extends TagLineBlock {
  kind: "tagged";
  /** The tag's path, trimmed (not yet validated). */
  path: string;
  /** The tag's type, trimmed (not yet validated). */
  type: string;
}

/** A block in the legacy form `## [TAG: <path>]`, without `type:`: stays in scratch. */
export interface LegacyBlock extends TagLineBlock {
  kind: "legacy";
  /** The tag's path, trimmed. */
  path: string;
}

/**
 * A near miss: a line that is clearly an attempt at a tag but not a valid one (`### [TAG: …]`,
 * `[TAG: …]`, `## TAG: a type: b`, a missing comma or bracket...). It heads its own block, which
 * stays in scratch.
 */
export interface MalformedBlock extends TagLineBlock {
  kind: "malformed";
  /** What is wrong with the tag line, for a person (`nearMissFix` adds how to fix it). */
  problem: string;
  /** The path and type it meant, when they can be read (not yet checked). */
  intended?: IntendedTag;
}

/** One block of scratch text. */
export type ScratchBlock = PreambleBlock | TaggedBlock | LegacyBlock | MalformedBlock;

/** A block that starts at a tag line (anything but the preamble). */
export type HeadedBlock = TaggedBlock | LegacyBlock | MalformedBlock;

/** Parsed scratch text. */
export interface ScratchDocument {
  /** `"\uFEFF"` when the text started with a byte-order mark, else `""`. */
  bom: string;
  /** The blocks, in order; their raw texts concatenate to the input (after the BOM). */
  blocks: ScratchBlock[];
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/**
 * Splits text into lines that keep their line endings (the last may have none).
 *
 * @example Usage
 * ```ts
 * import { splitLinesKeepingEnds } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitLinesKeepingEnds("a\r\nb\nc"), ["a\r\n", "b\n", "c"]);
 * assert.deepEqual(splitLinesKeepingEnds(""), []);
 * ```
 */
export function splitLinesKeepingEnds(text: string): string[] {
  // by hand: a split on a look-behind (`/(?<=\n)/`) tried the pattern at every character, and
  // filing splits every block it reads (a routing pass of 2,000 entries spent 4 ms in it)
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * A line without its trailing `\n` or `\r\n`.
 *
 * @example Usage
 * ```ts
 * import { lineContent } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lineContent("a\r\n"), "a");
 * assert.equal(lineContent("b\n"), "b");
 * assert.equal(lineContent("c"), "c");
 * ```
 */
export function lineContent(line: string): string {
  if (line.endsWith("\r\n")) return line.slice(0, -2);
  if (line.endsWith("\n")) return line.slice(0, -1);
  return line;
}

/**
 * The line ending of a line (`"\r\n"`, `"\n"` or `""`).
 *
 * @example Usage
 * ```ts
 * import { lineEnding } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lineEnding("a\r\n"), "\r\n");
 * assert.equal(lineEnding("b\n"), "\n");
 * assert.equal(lineEnding("c"), "");
 * ```
 */
export function lineEnding(line: string): string {
  if (line.endsWith("\r\n")) return "\r\n";
  if (line.endsWith("\n")) return "\n";
  return "";
}

/** A fence opener: its character, length, and whether it is a valid opener. */
function fenceOpener(content: string): { char: "`" | "~"; length: number } | null {
  const match = FENCE_OPEN.exec(content);
  if (!match) return null;
  const marker = match[1]!;
  const char = marker[0] === "`" ? "`" : "~";
  // A backtick fence's info string may not contain backticks (CommonMark).
  if (char === "`" && match[2]!.includes("`")) return null;
  return { char, length: marker.length };
}

/** A line that could close a fence: its one fence character and run length, else null. */
function closerOf(content: string): { char: string; length: number } | null {
  const trimmed = content.trim();
  const char = trimmed[0];
  if (trimmed.length < 3 || (char !== "`" && char !== "~")) return null;
  for (const c of trimmed) if (c !== char) return null;
  return { char, length: trimmed.length };
}

/**
 * Marks which lines are inside fenced code blocks (delimiters included), and which fence
 * openers are never closed. An unclosed opener is treated as plain text, and scanning resumes
 * on the next line, so one forgotten fence cannot swallow every later block.
 *
 * @example Usage
 * ```ts
 * import { fenceMap } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const map = fenceMap([fence, "## [TAG: x, type: y]", fence, "~~~", "open"]);
 * assert.deepEqual(map.fenced, [true, true, true, false, false]);
 * assert.deepEqual(map.unclosed, [3]);
 * ```
 */
export function fenceMap(contents: readonly string[]): { fenced: boolean[]; unclosed: number[] } {
  const n = contents.length;
  const fenced = new Array<boolean>(n).fill(false);
  const unclosed: number[] = [];
  const closers = contents.map(closerOf);
  // The longest closer of each kind from each line on: an opener with none long enough after it
  // is known to be unclosed at once, so the scan stays linear however many fences are left open.
  const longestFrom = { "`": new Uint32Array(n + 1), "~": new Uint32Array(n + 1) };
  for (let k = n - 1; k >= 0; k--) {
    longestFrom["`"][k] = longestFrom["`"][k + 1]!;
    longestFrom["~"][k] = longestFrom["~"][k + 1]!;
    const closer = closers[k];
    if (closer) {
      const run = longestFrom[closer.char as "`" | "~"];
      run[k] = Math.max(run[k]!, closer.length);
    }
  }
  const closes = (k: number, open: { char: string; length: number }) =>
    closers[k]?.char === open.char && closers[k]!.length >= open.length;
  let i = 0;
  while (i < n) {
    const open = fenceOpener(contents[i]!);
    if (!open) {
      i++;
      continue;
    }
    if (longestFrom[open.char][i + 1]! < open.length) {
      unclosed.push(i);
      i++;
      continue;
    }
    let close = i + 1;
    while (!closes(close, open)) close++;
    for (let k = i; k <= close; k++) fenced[k] = true;
    i = close + 1;
  }
  return { fenced, unclosed };
}

/**
 * Parses scratch text into blocks.
 *
 * @example Usage
 * ```ts
 * import { parseScratch } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = parseScratch("note\n## [TAG: src/api, type: patterns]\n- retry on 429\n");
 * assert.deepEqual(doc.blocks.map((b) => b.kind), ["preamble", "tagged"]);
 * const block = doc.blocks[1];
 * assert.ok(block?.kind === "tagged");
 * assert.deepEqual([block.path, block.type, block.body], ["src/api", "patterns", "- retry on 429\n"]);
 * ```
 */
export function parseScratch(text: string): ScratchDocument {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = splitLinesKeepingEnds(bom ? text.slice(1) : text);
  // A byte-order mark anywhere (two files that each began with one, appended) is not text.
  const contents = lines.map((line) => lineContent(line).replaceAll("\uFEFF", ""));
  const { fenced, unclosed } = fenceMap(contents);
  const starts: Array<[number, ParsedTag]> = [];
  for (let i = 0; i < lines.length; i++) {
    const tag = fenced[i] ? null : readTagLine(contents[i]!);
    if (tag) starts.push([i, tag]);
  }
  const blocks: ScratchBlock[] = [];
  const firstStart = starts[0]?.[0] ?? lines.length;
  if (firstStart > 0) {
    blocks.push({ kind: "preamble", raw: lines.slice(0, firstStart).join(""), startLine: 1 });
  }
  for (let s = 0; s < starts.length; s++) {
    const [start, tag] = starts[s]!;
    const end = starts[s + 1]?.[0] ?? lines.length;
    const base: TagLineBlock = {
      raw: lines.slice(start, end).join(""),
      startLine: start + 1,
      tagLine: contents[start]!,
      eol: lineEnding(lines[start]!),
      body: lines.slice(start + 1, end).join(""),
    };
    const stray = unclosed.find((line) => line > start && line < end);
    if (stray !== undefined) base.unclosedFenceLine = stray + 1;
    if (tag.kind === "tagged") {
      blocks.push({ ...base, kind: "tagged", path: tag.path, type: tag.type });
    } else if (tag.kind === "legacy") blocks.push({ ...base, kind: "legacy", path: tag.path });
    else {
      const malformed: MalformedBlock = { ...base, kind: "malformed", problem: tag.problem };
      if (tag.intended) malformed.intended = tag.intended;
      blocks.push(malformed);
    }
  }
  return { bom, blocks };
}

/**
 * Joins a document back into text (the inverse of {@link parseScratch}).
 *
 * @example Usage
 * ```ts
 * import { parseScratch, renderScratch } from "./scratch.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "\uFEFFnote\r\n## [TAG: global, type: tech]\n- a\n";
 * assert.equal(renderScratch(parseScratch(text)), text);
 * ```
 */
export function renderScratch(doc: ScratchDocument): string {
  return doc.bom + doc.blocks.map((block) => block.raw).join("");
}
