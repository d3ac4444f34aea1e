/**
 * Parsing `_memory_library/.scratch.md` into blocks (pure).
 *
 * A block starts at a tag line `## [TAG: <path>, type: <name>]` and runs to the next tag line.
 * Tag lines are recognised with any spacing (`##[TAG:a,type:b]`), any case of `TAG` / `type`,
 * CRLF line endings and a UTF-8 BOM. A tag line inside a fenced code block (``` or ~~~) is
 * content, not a tag, so a learning can show the tag syntax in an example.
 *
 * Every block keeps its exact raw text: `bom + blocks.map((b) => b.raw).join("")` is the input,
 * so blocks that are not filed can be written back byte for byte.
 *
 * @module
 */

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
  /** The tag line without its line ending. */
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

/** A line that starts like a tag (`## [TAG`) but does not parse: stays in scratch. */
export interface MalformedBlock extends TagLineBlock {
  kind: "malformed";
  /** What is wrong with the tag line, for a person. */
  problem: string;
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

const TAG_START = /^[ \t]*##[ \t]*\[[ \t]*tag\b/i;
const TAG_FULL = /^[ \t]*##[ \t]*\[[ \t]*tag[ \t]*:(.*)\][ \t]*$/i;
const TYPE_KEY = /,[ \t]*type[ \t]*:/i;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/** Splits text into lines that keep their line endings (the last may have none). */
export function splitLinesKeepingEnds(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

/** A line without its trailing `\n` or `\r\n`. */
export function lineContent(line: string): string {
  if (line.endsWith("\r\n")) return line.slice(0, -2);
  if (line.endsWith("\n")) return line.slice(0, -1);
  return line;
}

/** The line ending of a line (`"\r\n"`, `"\n"` or `""`). */
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

/** True when `line` (without its ending) starts like a tag line (`## [TAG`). */
export function isTagLine(line: string): boolean {
  return TAG_START.test(line);
}

/** The parsed fields of a tag line. */
export type ParsedTag =
  | { kind: "tagged"; path: string; type: string }
  | { kind: "legacy"; path: string }
  | { kind: "malformed"; problem: string };

/** Parses one tag line (without its ending). */
export function parseTagLine(line: string): ParsedTag {
  const full = TAG_FULL.exec(line);
  if (!full) {
    return {
      kind: "malformed",
      problem: line.includes("]")
        ? "tag line has text after the closing ']'"
        : "tag line has no closing ']'",
    };
  }
  const inner = full[1]!;
  if (inner.includes("]") || inner.includes("[")) {
    return { kind: "malformed", problem: "tag line has more than one pair of brackets" };
  }
  // The first `, type:` splits path from type (a plain search: no backtracking over spaces).
  const typeKey = TYPE_KEY.exec(inner);
  if (typeKey) {
    const path = inner.slice(0, typeKey.index);
    return {
      kind: "tagged",
      path: unquote(path),
      type: unquote(inner.slice(typeKey.index + typeKey[0].length)),
    };
  }
  return { kind: "legacy", path: unquote(inner) };
}

/** Trims a tag field and removes one pair of surrounding quotes or backticks. */
function unquote(field: string): string {
  const trimmed = field.trim();
  const quoted = /^(["'`])(.*)\1$/.exec(trimmed);
  return quoted ? quoted[2]!.trim() : trimmed;
}

/**
 * Parses scratch text into blocks.
 *
 * @example
 * ```ts
 * const doc = parseScratch("## [TAG: src/api, type: patterns]\n- retry on 429\n");
 * doc.blocks[0]; // { kind: "tagged", path: "src/api", type: "patterns", body: "- retry on 429\n", ... }
 * ```
 */
export function parseScratch(text: string): ScratchDocument {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = splitLinesKeepingEnds(bom ? text.slice(1) : text);
  const contents = lines.map(lineContent);
  const { fenced, unclosed } = fenceMap(contents);
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!fenced[i] && isTagLine(contents[i]!)) starts.push(i);
  }
  const blocks: ScratchBlock[] = [];
  const firstStart = starts[0] ?? lines.length;
  if (firstStart > 0) {
    blocks.push({ kind: "preamble", raw: lines.slice(0, firstStart).join(""), startLine: 1 });
  }
  for (let s = 0; s < starts.length; s++) {
    const start = starts[s]!;
    const end = starts[s + 1] ?? lines.length;
    const tagLine = contents[start]!;
    const raw = lines.slice(start, end).join("");
    const body = lines.slice(start + 1, end).join("");
    const base: TagLineBlock = {
      raw,
      startLine: start + 1,
      tagLine,
      eol: lineEnding(lines[start]!),
      body,
    };
    const stray = unclosed.find((line) => line > start && line < end);
    if (stray !== undefined) base.unclosedFenceLine = stray + 1;
    const tag = parseTagLine(tagLine);
    if (tag.kind === "tagged") {
      blocks.push({ ...base, kind: "tagged", path: tag.path, type: tag.type });
    } else if (tag.kind === "legacy") blocks.push({ ...base, kind: "legacy", path: tag.path });
    else blocks.push({ ...base, kind: "malformed", problem: tag.problem });
  }
  return { bom, blocks };
}

/** Joins a document back into text (the inverse of {@link parseScratch}). */
export function renderScratch(doc: ScratchDocument): string {
  return doc.bom + doc.blocks.map((block) => block.raw).join("");
}
