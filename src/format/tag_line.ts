/**
 * The tag-line grammar (pure): which lines head a scratch block, and what is wrong with a line that
 * looks like an attempted tag but is not one.
 *
 * A **tag line** is, after any byte-order marks are removed from it:
 * - at most 3 spaces of indentation (CommonMark: 4 spaces or a tab make an indented code line,
 *   which is content);
 * - `##`, optional spaces, `[`, `TAG` (any case), `:`, the path, `,`, `type` (any case), `:`,
 *   the type, `]`, optional trailing spaces; spaces are optional around every part, and the path
 *   and type may be quoted with `"`, `'` or backticks.
 *
 * `## [TAG: <path>]` without `, type:` is the **legacy** form: recognised, never filed.
 *
 * A **near miss** is a line that is clearly an attempt at a tag but not a valid one: the wrong
 * number of `#` (`### [TAG: …]`), no `##` (`[TAG: …]`), no brackets (`## TAG: src/api type: x`),
 * no comma before `type:`, no closing `]`, text after it, and so on. A near miss heads its own
 * block (so it never runs into the block above it), with what is wrong and, when they can be read,
 * the path and type it meant; `near_miss.ts` turns that into the fix a person is shown.
 *
 * This module imports nothing: every turn parses scratch, and most turns file nothing.
 *
 * @module
 */

/** The path and type a near miss meant, as written (not yet checked). */
export interface IntendedTag {
  path: string;
  type: string;
}

/** What one line is, as far as tags are concerned. */
export type ParsedTag =
  | { kind: "tagged"; path: string; type: string }
  | { kind: "legacy"; path: string }
  | { kind: "malformed"; problem: string; intended?: IntendedTag };

/** The canonical shape of a tag line, for messages. */
export const TAG_SHAPE = "## [TAG: <path>, type: <name>]";

const BRACKETED = /^##[ \t]*\[[ \t]*tag\b/i;
const FULL = /^##[ \t]*\[[ \t]*tag[ \t]*:(.*)\][ \t]*$/i;
const WRONG_HASHES = /^(#+)[ \t]*\[[ \t]*tag\b/i;
const NO_HASHES = /^\[[ \t]*tag[ \t]*:/i;
const NO_BRACKETS = /^(#+)[ \t]*(tag)\b[ \t]*:?(.*)$/i;
const TYPE_KEY = /,[ \t]*type[ \t]*:/i;
const BARE_TYPE_KEY = /(?:^|[ \t,])type[ \t]*:/i;
const TYPE_WITHOUT_COLON = /,[ \t]*type\b(?![ \t]*:)/i;

/**
 * The line as tag recognition sees it: byte-order marks removed, and `null` when its indentation
 * makes it content (4 or more spaces, or a tab, before the first other character).
 */
function unindented(line: string): string | null {
  const text = line.includes("\uFEFF") ? line.replaceAll("\uFEFF", "") : line;
  let i = 0;
  while (text[i] === " ") i++;
  if (i > 3 || text[i] === "\t") return null;
  return text.slice(i);
}

/** Trims a tag field and removes one pair of surrounding quotes or backticks. */
function unquote(field: string): string {
  const trimmed = field.trim();
  const quoted = /^(["'`])(.*)\1$/.exec(trimmed);
  return quoted ? quoted[2]!.trim() : trimmed;
}

/** The path and type a near miss most likely meant, when both can be read. */
function intendedTag(afterTag: string): IntendedTag | null {
  let inner = afterTag.trim().replace(/^:/, "");
  const close = inner.indexOf("]");
  if (close >= 0) inner = inner.slice(0, close);
  const key = /,?[ \t]*\btype[ \t]*:?/i.exec(inner);
  if (!key) return null;
  const path = unquote(inner.slice(0, key.index)).replace(/,$/, "").trim();
  const type = unquote(inner.slice(key.index + key[0].length));
  return path && type ? { path, type } : null;
}

function nearMiss(problem: string, afterTag: string): ParsedTag {
  const intended = intendedTag(afterTag);
  return intended ? { kind: "malformed", problem, intended } : { kind: "malformed", problem };
}

/** Parses a line that starts with `## [TAG` (already unindented). */
function parseBracketed(text: string): ParsedTag {
  const afterTag = text.replace(/^##[ \t]*\[[ \t]*tag/i, "");
  const full = FULL.exec(text);
  if (!full) {
    if (!/^[ \t]*:/.test(afterTag)) return nearMiss("no ':' after 'TAG'", afterTag);
    return text.includes("]")
      ? nearMiss("text after the closing ']' (put it on the next line)", afterTag)
      : nearMiss("no closing ']'", afterTag);
  }
  const inner = full[1]!;
  if (inner.includes("]") || inner.includes("[")) {
    return nearMiss("more than one pair of brackets", afterTag);
  }
  // The first `, type:` splits path from type (a plain search: no backtracking over spaces).
  const typeKey = TYPE_KEY.exec(inner);
  if (typeKey) {
    return {
      kind: "tagged",
      path: unquote(inner.slice(0, typeKey.index)),
      type: unquote(inner.slice(typeKey.index + typeKey[0].length)),
    };
  }
  if (BARE_TYPE_KEY.test(inner)) return nearMiss("no comma before 'type:'", afterTag);
  if (TYPE_WITHOUT_COLON.test(inner)) return nearMiss("no ':' after 'type'", afterTag);
  if (inner.includes(",") || inner.includes(":")) {
    return nearMiss("expected '<path>, type: <name>' inside the brackets", afterTag);
  }
  return { kind: "legacy", path: unquote(inner) };
}

/**
 * Reads one line (without its ending) as a tag line: a valid tag, a legacy tag, a near miss
 * (`malformed`, with what to fix), or `null` for an ordinary line.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(readTagLine("## [TAG: src/api, type: patterns]"), {
 *   kind: "tagged",
 *   path: "src/api",
 *   type: "patterns",
 * });
 * assert.deepEqual(readTagLine("### [TAG: src/api, type: patterns]"), {
 *   kind: "malformed",
 *   problem: "3 '#' instead of 2",
 *   intended: { path: "src/api", type: "patterns" },
 * });
 * assert.equal(readTagLine("    ## [TAG: src/api, type: patterns]"), null);
 * assert.equal(readTagLine("- use retries"), null);
 * ```
 */
export function readTagLine(line: string): ParsedTag | null {
  const text = unindented(line);
  if (text === null || (text[0] !== "#" && text[0] !== "[")) return null;
  if (BRACKETED.test(text)) return parseBracketed(text);
  const hashes = WRONG_HASHES.exec(text);
  if (hashes) {
    const afterTag = text.replace(WRONG_HASHES, "");
    return nearMiss(`${hashes[1]!.length} '#' instead of 2`, afterTag);
  }
  if (NO_HASHES.test(text)) {
    return nearMiss("no '##' before '[TAG'", text.replace(/^\[[ \t]*tag/i, ""));
  }
  const bare = NO_BRACKETS.exec(text);
  // `## TAG: …` in capitals, or any case with a `type:` after it; `## Tag lines` is a heading.
  if (bare && (bare[2] === "TAG" || BARE_TYPE_KEY.test(bare[3]!))) {
    return nearMiss("no brackets around 'TAG: …'", bare[3]!);
  }
  return null;
}

/**
 * True when `line` (without its ending) heads a block: a tag, a legacy tag or a near miss.
 *
 * @example Usage
 * ```ts
 * import { isTagLine } from "./tag_line.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isTagLine("## [TAG: src/api, type: patterns]"));
 * assert.ok(isTagLine("## [tag src/api]"));
 * assert.ok(!isTagLine("- a learning"));
 * ```
 */
export function isTagLine(line: string): boolean {
  return readTagLine(line) !== null;
}

/**
 * Parses one line already known to head a block ({@link isTagLine}); an ordinary line comes back
 * as `malformed`.
 *
 * @example Usage
 * ```ts
 * import { parseTagLine } from "./tag_line.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseTagLine("## [TAG: src/api, type: patterns]"), {
 *   kind: "tagged",
 *   path: "src/api",
 *   type: "patterns",
 * });
 * assert.equal(parseTagLine("plain text").kind, "malformed");
 * ```
 */
export function parseTagLine(line: string): ParsedTag {
  return readTagLine(line) ?? { kind: "malformed", problem: "not a tag line" };
}
