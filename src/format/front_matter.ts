/**
 * YAML front matter, read without a YAML package (pure): an auto memory's (`name`, `description`,
 * `type` or `metadata.type`) and a Cursor rule's (`description`, `globs`, `alwaysApply`).
 *
 * A hook must never need the network, and in source mode an npm package is a download (with every
 * other npm package of the workspace) the first time it is imported. Front matter is a small block
 * mapping, so this reads YAML's block mappings the way the `yaml` package does
 * (`src/format/front_matter_test.ts` compares the two): plain scalars with the core schema (numbers,
 * booleans, null), single- and double-quoted scalars (escapes, line folding), literal and folded
 * block scalars, nested mappings, block sequences of scalars, flow collections, comments; and it
 * refuses what that package refuses (a duplicate key, a tab as indentation, `key: a: b`, a
 * reserved character, an unclosed flow collection). Anchors, aliases, tags, complex keys and
 * sequences of collections are not read: such front matter is refused, with the reason.
 *
 * It is bounded, so that one hostile or broken file costs its own entry and nothing else: front
 * matter longer than {@link MAX_FRONT_MATTER_CHARS} characters, or collections nested more than
 * {@link MAX_FRONT_MATTER_DEPTH} deep (by indentation or by brackets), are refused with the reason,
 * and every line is scanned a bounded number of times.
 *
 * @module
 */

import { LibrarianError } from "../core/errors.ts";

/** The outcome of reading front matter: its top-level mapping, or why it is not one. */
export type FrontMatterRead =
  | { kind: "mapping"; fields: Record<string, unknown> }
  | { kind: "malformed"; detail: string };

interface Line {
  /** The line's number in the front matter, from 1. */
  number: number;
  /** Leading spaces. */
  indent: number;
  /** The text after the indentation, without trailing white space. */
  text: string;
  /** The text after the indentation, as it is (what a block scalar keeps). */
  raw: string;
}

/** The longest front matter read (characters); a memory's is a few hundred. */
export const MAX_FRONT_MATTER_CHARS = 64 * 1024;
/** The deepest nesting of collections read; a memory's front matter nests one or two deep. */
export const MAX_FRONT_MATTER_DEPTH = 64;

/** Why front matter is refused; caught in {@link readFrontMatter}, never thrown out of it. */
class FrontMatterError extends LibrarianError {}

/** Fails at `line` when `depth` is past {@link MAX_FRONT_MATTER_DEPTH}. */
function checkDepth(line: Line, depth: number): void {
  if (depth > MAX_FRONT_MATTER_DEPTH) {
    fail(line, `collections nested more than ${MAX_FRONT_MATTER_DEPTH} deep`);
  }
}

function fail(line: Line | undefined, why: string): never {
  throw new FrontMatterError(line ? `${why} at line ${line.number}` : why);
}

const isBlank = (line: Line): boolean => /^[ \t]*(?:#.*)?$/.test(line.text);

/**
 * Reads `yaml` (the text between a memory file's `---` lines) as YAML's block mapping.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFrontMatter } from "./front_matter.ts";
 *
 * assert.deepEqual(
 *   readFrontMatter("name: pnpm\ndescription: 'use pnpm, it''s faster'\nmetadata:\n  type: feedback\n"),
 *   { kind: "mapping", fields: { name: "pnpm", description: "use pnpm, it's faster", metadata: { type: "feedback" } } },
 * );
 * assert.deepEqual(readFrontMatter("description: use pnpm: never npm\n"), {
 *   kind: "malformed",
 *   detail: "a nested mapping in a plain value at line 1",
 * });
 * ```
 */
export function readFrontMatter(yaml: string): FrontMatterRead {
  if (yaml.length > MAX_FRONT_MATTER_CHARS) {
    return {
      kind: "malformed",
      detail: `the front matter is longer than ${MAX_FRONT_MATTER_CHARS} characters`,
    };
  }
  const lines: Line[] = yaml.replaceAll("\r\n", "\n").replace(/\n$/, "").split("\n")
    .map((raw, i) => {
      const indent = raw.length - raw.replace(/^ +/, "").length;
      const rest = raw.slice(indent);
      return { number: i + 1, indent, text: rest.replace(/[ \t]+$/, ""), raw: rest };
    });
  try {
    const first = lines.findIndex((line) => !isBlank(line));
    if (first < 0) return { kind: "malformed", detail: "the front matter is empty" };
    const reader = new Cursor(lines, first);
    const fields = reader.mapping(lines[first]!.indent);
    const rest = reader.next();
    if (rest) fail(rest, "text outside the mapping");
    return { kind: "mapping", fields };
  } catch (error) {
    if (error instanceof FrontMatterError) return { kind: "malformed", detail: error.message };
    throw error;
  }
}

/** A position in the front matter's lines. */
class Cursor {
  /** How many collections the one being read is nested in. */
  private depth = 0;

  constructor(private readonly lines: readonly Line[], private at: number) {}

  /** `read` one level deeper, refused past the depth bound. */
  private deeper<T>(line: Line, read: () => T): T {
    checkDepth(line, ++this.depth);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  /** The next line that is not blank or a comment (not consumed). */
  next(): Line | undefined {
    while (this.at < this.lines.length && isBlank(this.lines[this.at]!)) this.at++;
    const line = this.lines[this.at];
    if (line?.text.startsWith("\t")) fail(line, "a tab as indentation");
    return line;
  }

  /** A block mapping whose keys stand at `indent`. */
  mapping(indent: number): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (let line = this.next(); line && line.indent >= indent; line = this.next()) {
      if (line.indent > indent) fail(line, "a key indented more than the keys before it");
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(fields, key)) fail(line, `a duplicate key '${key}'`);
      this.at++;
      fields[key] = this.value(line, rest);
    }
    return fields;
  }

  /** The value of the key on `line`, whose text after the colon is `rest`. */
  private value(line: Line, rest: string): unknown {
    const text = rest.replace(/^[ \t]+/, "");
    if (text === "" || text.startsWith("#")) return this.nested(line);
    const head = text[0]!;
    if (head === "|" || head === ">") return this.block(line, text);
    if (head === '"' || head === "'") return this.quoted(line, text);
    if (head === "[" || head === "{") return this.flow(line, text);
    if ("&*!".includes(head)) fail(line, "an anchor, alias or tag (not read)");
    if ("@`%".includes(head)) fail(line, `a plain value starting with '${head}'`);
    if (/^[-?:](?:[ \t]|$)/.test(text)) fail(line, "a nested collection on the key's line");
    return this.plain(line, text);
  }

  /** What follows a key with nothing after its colon: a nested mapping, a sequence or null. */
  private nested(line: Line): unknown {
    const next = this.next();
    if (next && /^-(?:[ \t]|$)/.test(next.text) && next.indent >= line.indent) {
      return this.deeper(next, () => this.sequence(next.indent));
    }
    if (next && next.indent > line.indent) {
      return this.deeper(next, () => this.mapping(next.indent));
    }
    return null;
  }

  /** A block sequence of scalars whose dashes stand at `indent`. */
  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let item = this.next(); item && item.indent === indent; item = this.next()) {
      const dash = /^-(?:[ \t]+|$)/.exec(item.text);
      if (!dash) break;
      this.at++;
      const rest = item.text.slice(dash[0].length);
      if (/^(?:-(?:[ \t]|$)|[^'"[{#]*:(?:[ \t]|$))/.test(rest)) {
        fail(item, "a sequence of collections (not read)");
      }
      items.push(this.value(item, rest));
    }
    const after = this.next();
    if (after && after.indent > indent) fail(after, "a line indented inside a sequence");
    return items;
  }

  /** A plain scalar starting with `text`, with its continuation lines, resolved by the core schema. */
  private plain(line: Line, text: string): unknown {
    const parts = [plainPart(line, text)];
    let comment = / #|\t#/.test(text);
    for (let next = this.lines[this.at]; next; next = this.lines[this.at]) {
      if (next.text === "") {
        parts.push("");
        this.at++;
        continue;
      }
      if (next.indent <= line.indent) break;
      if (next.text.startsWith("\t")) fail(next, "a tab as indentation");
      if (next.text.startsWith("#")) {
        comment = true;
        this.at++;
        continue;
      }
      if (comment) fail(next, "a value continued after a comment");
      parts.push(plainPart(next, next.text));
      this.at++;
    }
    while (parts.at(-1) === "") parts.pop();
    const folded = fold(parts);
    return parts.length === 1 ? resolvePlain(folded) : folded;
  }

  /** A single- or double-quoted scalar, over as many lines as it takes. */
  private quoted(line: Line, text: string): string {
    const quote = text[0]!;
    let source = text.slice(1);
    let current = line;
    // Each line's text (decoded), and whether it ended in an escaped line break.
    const segments: Array<{ text: string; joined: boolean }> = [];
    while (true) {
      let piece = "";
      let joined = false;
      let closedAt = -1;
      for (let i = 0; i < source.length; i++) {
        const char = source[i]!;
        if (quote === "'" && char === "'") {
          if (source[i + 1] === "'") {
            piece += "'";
            i++;
            continue;
          }
          closedAt = i;
          break;
        }
        if (quote === '"' && char === '"') {
          closedAt = i;
          break;
        }
        if (quote === '"' && char === "\\") {
          if (i === source.length - 1) {
            joined = true;
            break;
          }
          const escaped = unescape(current, source, i);
          piece += escaped.text;
          i += escaped.length - 1;
          continue;
        }
        piece += char;
      }
      if (segments.length > 0) piece = piece.replace(/^[ \t]+/, "");
      if (closedAt >= 0) {
        const after = source.slice(closedAt + 1);
        if (after !== "" && !/^[ \t]+(?:#.*)?$/.test(after)) {
          fail(current, "text after a quoted value");
        }
        segments.push({ text: piece, joined: false });
        break;
      }
      segments.push({ text: joined ? piece : piece.replace(/[ \t]+$/, ""), joined });
      const next = this.lines[this.at];
      if (!next) fail(line, "a quoted value never closed");
      this.at++;
      current = next;
      source = next.text;
    }
    // Line folding: a break is a space, or a newline for each empty line after it; an escaped
    // break (a backslash at the end of a line) joins with nothing.
    let out = segments[0]!.text;
    let joined = segments[0]!.joined;
    let empties = 0;
    segments.slice(1).forEach((segment, i, rest) => {
      if (segment.text === "" && i < rest.length - 1) {
        empties++;
        return;
      }
      out += joined ? "" : empties > 0 ? "\n".repeat(empties) : " ";
      out += segment.text;
      joined = segment.joined;
      empties = 0;
    });
    return out;
  }

  /** A literal (`|`) or folded (`>`) block scalar. */
  private block(line: Line, header: string): string {
    const match = /^([|>])(?:([1-9])([+-]?)|([+-])([1-9]?))?(?:[ \t]+#.*)?$/.exec(header);
    if (!match) fail(line, "a block scalar header not read");
    const literal = match[1] === "|";
    const explicit = match[2] || match[5] || "";
    const chomp = match[3] || match[4] || "";
    const body: string[] = [];
    let indent = explicit ? line.indent + Number(explicit) : -1;
    for (let next = this.lines[this.at]; next; next = this.lines[this.at]) {
      if (next.text === "") {
        body.push("");
        this.at++;
        continue;
      }
      if (indent < 0) indent = next.indent;
      if (next.indent < indent || indent <= line.indent) break;
      body.push(" ".repeat(next.indent - indent) + next.raw);
      this.at++;
    }
    let trailing = 0;
    while (body.at(-1) === "") {
      body.pop();
      trailing++;
    }
    if (body.length === 0) return chomp === "+" ? "\n".repeat(trailing) : "";
    // Folding: lines of the block's own indentation join with a space, or with a newline for
    // each empty line between them; a more-indented line keeps its breaks.
    const more = (content: string) => /^[ \t]/.test(content);
    let text = "";
    let previous: string | undefined;
    let empties = 0;
    for (const content of body) {
      if (content === "") {
        empties++;
        continue;
      }
      if (previous === undefined) text = "\n".repeat(empties) + content;
      else if (!literal && !more(previous) && !more(content)) {
        text += (empties === 0 ? " " : "\n".repeat(empties)) + content;
      } else text += "\n".repeat(empties + 1) + content;
      previous = content;
      empties = 0;
    }
    if (chomp === "-") return text;
    if (chomp === "+") return text + "\n".repeat(trailing + 1);
    return text + "\n";
  }

  /** A flow collection (`[...]`, `{...}`), over as many lines as it takes. */
  private flow(line: Line, text: string): unknown {
    const sources = [text];
    const scan = new FlowScan();
    // each line is scanned once, whatever the number of lines
    while (!scan.closes(sources.length === 1 ? text : `\n${sources.at(-1)}`)) {
      const next = this.lines[this.at];
      if (!next || (next.text !== "" && next.indent <= line.indent)) {
        fail(line, "a flow collection never closed");
      }
      this.at++;
      sources.push(next.text);
    }
    const flow = new FlowReader(sources.join("\n"), line, this.depth);
    const value = flow.value();
    flow.end();
    return value;
  }
}

/**
 * Whether the brackets of a flow collection have closed, its text fed piece by piece (each piece
 * read once): quotes, escapes and comments are followed across pieces.
 */
class FlowScan {
  private depth = 0;
  private quote = "";
  private escaped = false;
  private comment = false;
  private previous = "";

  /** Reads `piece`, the text after what was fed before; true once the brackets have closed. */
  closes(piece: string): boolean {
    for (const char of piece) {
      const previous = this.previous;
      this.previous = char;
      if (this.escaped) this.escaped = false;
      else if (this.comment) this.comment = char !== "\n";
      else if (this.quote) {
        if (this.quote === '"' && char === "\\") this.escaped = true;
        else if (char === this.quote) this.quote = "";
      } else if (char === '"' || char === "'") this.quote = char;
      else if (char === "[" || char === "{") this.depth++;
      else if (char === "]" || char === "}") {
        if (--this.depth === 0) return true;
      } else if (char === "#" && /\s/.test(previous)) this.comment = true;
    }
    return false;
  }
}

/** A plain scalar in a flow collection, read from `lastIndex` (sticky). */
const FLOW_PLAIN = /(?:[^,[\]{}:#\s]|:(?=[^\s,[\]{}])|\s+(?=[^\s#,[\]{}:])|(?<=\S)#)+/y;

/** A flow collection's text, read into values (nested collections, quoted and plain scalars). */
class FlowReader {
  private at = 0;
  /**
   * `depth`: how many collections the flow collection stands in (its own brackets count on
   * from there).
   */
  constructor(
    private readonly text: string,
    private readonly line: Line,
    private depth: number,
  ) {}

  private space(): void {
    while (this.at < this.text.length) {
      if (/\s/.test(this.text[this.at]!)) this.at++;
      else if (this.text[this.at] === "#" && /\s/.test(this.text[this.at - 1] ?? "")) {
        const end = this.text.indexOf("\n", this.at);
        this.at = end < 0 ? this.text.length : end;
      } else break;
    }
  }

  /** Nothing but a comment may follow the collection. */
  end(): void {
    this.space();
    if (this.at < this.text.length) fail(this.line, "text after a flow collection");
  }

  value(): unknown {
    this.space();
    const char = this.text[this.at];
    if (char === "[") return this.collection("]");
    if (char === "{") return this.collection("}");
    if (char === '"' || char === "'") return this.quoted(char);
    if (char === undefined || "&*!@`%|>".includes(char)) {
      fail(this.line, "a flow value not read");
    }
    FLOW_PLAIN.lastIndex = this.at;
    const plain = FLOW_PLAIN.exec(this.text);
    if (!plain) fail(this.line, "a flow value not read");
    this.at += plain[0].length;
    return resolvePlain(plain[0].replace(/\s*\n\s*/g, " ").trim());
  }

  private quoted(quote: string): string {
    let out = "";
    for (let i = this.at + 1; i < this.text.length; i++) {
      const char = this.text[i]!;
      if (char === quote) {
        if (quote === "'" && this.text[i + 1] === "'") {
          out += "'";
          i++;
          continue;
        }
        this.at = i + 1;
        return out.replace(/[ \t]*\n[ \t]*/g, " ");
      }
      if (quote === '"' && char === "\\") {
        const escaped = unescape(this.line, this.text, i);
        out += escaped.text;
        i += escaped.length - 1;
      } else out += char;
    }
    return fail(this.line, "a quoted value never closed");
  }

  private collection(close: "]" | "}"): unknown {
    checkDepth(this.line, ++this.depth);
    try {
      return this.items(close);
    } finally {
      this.depth--;
    }
  }

  private items(close: "]" | "}"): unknown {
    this.at++;
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    while (true) {
      this.space();
      if (this.text[this.at] === close) {
        this.at++;
        return close === "]" ? list : map;
      }
      const item = this.value();
      this.space();
      let entry: unknown = item;
      if (this.text[this.at] === ":") {
        this.at++;
        this.space();
        const next = this.text[this.at];
        const value = next === "," || next === close ? null : this.value();
        if (close === "]") entry = { [String(item)]: value };
        else {
          if (Object.hasOwn(map, String(item))) fail(this.line, `a duplicate key '${item}'`);
          map[String(item)] = value;
        }
      } else if (close === "}") {
        if (Object.hasOwn(map, String(item))) fail(this.line, `a duplicate key '${item}'`);
        map[String(item)] = null;
      }
      if (close === "]") list.push(entry);
      this.space();
      if (this.text[this.at] === ",") this.at++;
      else if (this.text[this.at] !== close) fail(this.line, "a flow collection not read");
    }
  }
}

/** The key of a mapping line and the text after its colon. */
function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  if (/^-(?:[ \t]|$)/.test(text)) fail(line, "a sequence where a key belongs");
  if (/^[?&*!|>@`%[{]/.test(text)) fail(line, "a key not read (complex, anchored or tagged)");
  if (text[0] === '"' || text[0] === "'") {
    const quote = text[0];
    const close = quote === "'"
      ? /^'((?:[^']|'')*)'[ \t]*:(?:[ \t]|$)/
      : /^"((?:[^"\\]|\\.)*)"[ \t]*:(?:[ \t]|$)/;
    const match = close.exec(text);
    if (!match) fail(line, "a quoted key without a colon after it");
    const key = quote === "'"
      ? match[1]!.replaceAll("''", "'")
      : match[1]!.replace(/\\(.)/g, (_, c: string) => c === "n" ? "\n" : c === "t" ? "\t" : c);
    return { key, rest: text.slice(match[0].length) };
  }
  const colon = /:(?:[ \t]|$)/.exec(text);
  if (!colon) fail(line, "a line that is not 'key: value'");
  const key = text.slice(0, colon.index).replace(/[ \t]+$/, "");
  if (/[ \t]#/.test(key)) fail(line, "a line that is not 'key: value'");
  return { key, rest: text.slice(colon.index + 1) };
}

/** One line of a plain scalar: its comment cut, checked for what a plain value cannot hold. */
function plainPart(line: Line, text: string): string {
  const value = text.replace(/[ \t]+#.*$/, "");
  if (/:(?:[ \t]|$)/.test(value)) fail(line, "a nested mapping in a plain value");
  return value.trim();
}

/** YAML's line folding of plain lines: one break is a space, each further empty line a newline. */
function fold(parts: readonly string[]): string {
  let out = parts[0] ?? "";
  let breaks = 0;
  for (const part of parts.slice(1)) {
    if (part === "") {
      breaks++;
      continue;
    }
    out += breaks > 0 ? "\n".repeat(breaks) : " ";
    out += part;
    breaks = 0;
  }
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

/** The escape at `source[i]` (a backslash) in a double-quoted scalar, and how long it is. */
function unescape(line: Line, source: string, i: number): { text: string; length: number } {
  const code = source[i + 1]!;
  const simple = ESCAPES[code];
  if (simple !== undefined) return { text: simple, length: 2 };
  const width = code === "x" ? 2 : code === "u" ? 4 : code === "U" ? 8 : 0;
  const hex = source.slice(i + 2, i + 2 + width);
  if (width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) {
    fail(line, `an escape '\\${code}' not read`);
  }
  return { text: String.fromCodePoint(parseInt(hex, 16)), length: 2 + width };
}

/** A one-line plain scalar by YAML 1.2's core schema: null, a boolean, a number, else text. */
function resolvePlain(text: string): unknown {
  if (/^(?:~|null|Null|NULL)?$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
