/**
 * The shell tokenizer's vocabulary (words, redirections, commands) and its scanning helpers
 * (pure): where a quoted string, substitution or here-document ends, and brace expansion.
 *
 * @module
 */

import { LibrarianError } from "../core/errors.ts";

/** One word after expansion: its text, or `null` when it is only known at run time. */
export interface ShellWord {
  value: string | null;
  /** A glob pattern (unquoted `*`, `?`, `[`) in which literal special characters are `\`-escaped. */
  glob?: string;
  /** True for a `NAME=value` assignment before a command's name. */
  assignment?: boolean;
}

/** A redirection such as `> out.txt` or `2>> log`. */
export interface Redirect {
  /** The operator without its file descriptor: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`. */
  op: string;
  target: ShellWord;
}

/** One simple command: its words (assignments included), redirections and here-documents. */
export interface SimpleCommand {
  words: ShellWord[];
  redirects: Redirect[];
  /** Bodies of the here-documents fed to this command, in order. */
  heredocs: string[];
  /** Scripts that run inside it (command and process substitutions). */
  nested: string[];
  /** True when it runs in a subshell of its own (a pipeline part, or sent to the background). */
  subshell: boolean;
}

/** A step of a script: a command, or the start or end of a `( ... )` subshell. */
export type ScriptStep =
  | { kind: "command"; command: SimpleCommand }
  | { kind: "open" }
  | { kind: "close" };

/** The outcome of tokenizing a script. */
export type ParsedScript =
  | {
    ok: true;
    steps: ScriptStep[]; /** True when only the first words were read. */
    truncated: boolean;
  }
  | { ok: false; reason: string };

/** What the tokenizer needs to know about the environment. */
export interface ShellEnv {
  /** `$HOME`, for `~` and `$HOME`; unknown when missing. */
  home?: string | undefined;
}

/**
 * At most this many words, operators and parentheses are read; the rest of a longer command line
 * is not looked at.
 */
export const MAX_WORDS = 4_000;

/** A command line Bash itself would reject (an unterminated quote or substitution). */
export class ShellSyntaxError extends LibrarianError {
  constructor(message: string) {
    super(message);
    this.name = "ShellSyntaxError";
  }
}

/**
 * The index just after the `)` closing a `$(` / `<(` whose body starts at `start`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const src = "$(echo \")\" (a)) rest";
 * assert.equal(src.slice(skipParens(src, 2)), " rest");
 * ```
 */
export function skipParens(src: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) break;
      i = end + 1;
    } else if (c === '"') i = skipDoubleQuoted(src, i + 1);
    else if (c === "`") i = skipBackticks(src, i + 1);
    else if (c === "(") depth++, i++;
    else if (c === ")") {
      if (--depth === 0) return i + 1;
      i++;
    } else i++;
  }
  throw new ShellSyntaxError("unterminated $( or <(");
}

/** The index just after the `"` closing a string whose body starts at `start`. */
function skipDoubleQuoted(src: string, start: number): number {
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else if (c === "$" && src[i + 1] === "(") i = skipParens(src, i + 2);
    else if (c === "`") i = skipBackticks(src, i + 1);
    else i++;
  }
  throw new ShellSyntaxError("unterminated double quote");
}

/**
 * The index just after the backquote closing a substitution whose body starts at `start`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(skipBackticks("`ls \\` x` y", 1), 9);
 * ```
 */
export function skipBackticks(src: string, start: number): number {
  for (let i = start; i < src.length; i++) {
    if (src[i] === "\\") i++;
    else if (src[i] === "`") return i + 1;
  }
  throw new ShellSyntaxError("unterminated backquote");
}

/** A run of characters that stand for themselves in a word. */
export const PLAIN_RUN = /[^\s;&|<>()\\'"`$]+/y;
/** Characters escaped in a word's pattern when they were quoted (so they match literally). */
export const ESCAPE_IN_PATTERN = "*?[]{},\\";
/** Control and redirection operators, longest first. */
export const OPERATORS = "&& || ;; ;& |& &>> &> >> >| >& <<< <<- << <> <& > < | & ;".split(" ");

/** The escapes of `$'...'` strings. */
const ANSI_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** A word with more `{` than this is not brace-expanded. */
export const MAX_BRACE_LISTS = 8;

/**
 * Expands unquoted `{a,b}` brace lists in a pattern (escapes respected); at most 256 words, and
 * none for a word with more than {@link MAX_BRACE_LISTS} lists.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(expandBraces("src/{a,b}.ts"), ["src/a.ts", "src/b.ts"]);
 * assert.deepEqual(expandBraces("\\{a,b}"), ["\\{a,b}"]);
 * ```
 */
export function expandBraces(pattern: string): string[] {
  // more lists than anyone types: such a word is not expanded (its value is then unknown)
  if ((pattern.match(/(^|[^\\])\{/g)?.length ?? 0) > MAX_BRACE_LISTS) return [];
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "{") {
      if (depth++ === 0) open = i, commas.length = 0;
    } else if (c === "," && depth === 1) commas.push(i);
    else if (c === "}" && depth > 0 && --depth === 0) {
      if (commas.length === 0) continue; // `{}` or `{x}`: literal
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      const cuts = [open, ...commas, i];
      const out: string[] = [];
      for (let k = 0; k + 1 < cuts.length && out.length < 256; k++) {
        out.push(...expandBraces(head + pattern.slice(cuts[k]! + 1, cuts[k + 1]) + tail));
      }
      return out.slice(0, 256);
    }
  }
  return [pattern];
}

/**
 * Removes the `\` escapes of a pattern.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(unescapePattern("a\\*b"), "a*b");
 * ```
 */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/**
 * The body of a here-document starting at `start` (the line after its operator): the lines up to
 * the one equal to `delimiter` (leading tabs dropped for `<<-`), or to the end of the script.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const src = "cat <<EOF\nline 1\nEOF\nls";
 * assert.deepEqual(readHeredocBody(src, 10, "EOF", false), { body: "line 1", next: 21 });
 * ```
 */
export function readHeredocBody(
  src: string,
  start: number,
  delimiter: string,
  stripTabs: boolean,
): { body: string; next: number } {
  let i = start;
  let bodyEnd = start;
  const tabbed: string[] = [];
  while (i < src.length) {
    let end = src.indexOf("\n", i);
    if (end < 0) end = src.length;
    let line = src.slice(i, end);
    if (stripTabs) line = line.replace(/^\t+/, "");
    if (line === delimiter) {
      return { body: stripTabs ? tabbed.join("\n") : src.slice(start, bodyEnd), next: end + 1 };
    }
    if (stripTabs) tabbed.push(line);
    bodyEnd = end;
    i = end + 1;
  }
  return { body: stripTabs ? tabbed.join("\n") : src.slice(start, bodyEnd), next: src.length };
}

/**
 * The text of a `$'...'` string whose body starts at `start`, and the index after it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(readAnsiQuoted("$'a\\tb' c", 2), { text: "a\tb", next: 7 });
 * ```
 */
export function readAnsiQuoted(src: string, start: number): { text: string; next: number } {
  let text = "";
  let i = start;
  while (i < src.length && src[i] !== "'") {
    if (src[i] === "\\" && i + 1 < src.length) {
      const e = src[i + 1]!;
      text += ANSI_ESCAPES[e] ?? `\\${e}`;
      i += 2;
    } else text += src[i++];
  }
  if (i >= src.length) throw new ShellSyntaxError("unterminated $'");
  return { text, next: i + 1 };
}

/**
 * The index of the newline ending the line at `i`, or the end of `src`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lineEnd("a # b\nc", 2), 5);
 * assert.equal(lineEnd("a # b", 2), 5);
 * ```
 */
export function lineEnd(src: string, i: number): number {
  const end = src.indexOf("\n", i);
  return end < 0 ? src.length : end;
}
