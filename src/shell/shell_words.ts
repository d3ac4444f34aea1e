/**
 * A small shell tokenizer (pure): splits a Bash command line into simple commands, words and
 * redirections as Bash would. Quotes, escapes, `~`, `$HOME`, `$PWD` (at a word's start), brace
 * lists and here-documents are handled; what is only known at run time (other variables,
 * substitutions) makes a word unknown (`value: null`): skipped, never guessed. Substituted
 * commands come back as nested scripts; glob words keep their pattern for the caller to expand.
 *
 * @module
 */

import {
  ESCAPE_IN_PATTERN,
  expandBraces,
  lineEnd,
  MAX_WORDS,
  OPERATORS,
  type ParsedScript,
  PLAIN_RUN,
  readAnsiQuoted,
  readHeredocBody,
  type ScriptStep,
  type ShellEnv,
  ShellSyntaxError,
  type ShellWord,
  type SimpleCommand,
  skipBackticks,
  skipParens,
  unescapePattern,
} from "./shell_scan.ts";

/**
 * Tokenizes `src` as Bash would.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const parsed = parseShell("cd src && cat 'a b.ts' > ~/out", { home: "/home/me" });
 * assert.ok(parsed.ok);
 * const [cd, cat] = parsed.steps.map((s) => s.kind === "command" ? s.command : null);
 * assert.deepEqual(cd?.words.map((w) => w.value), ["cd", "src"]);
 * assert.deepEqual(cat?.words.map((w) => w.value), ["cat", "a b.ts"]);
 * assert.deepEqual(cat?.redirects, [{ op: ">", target: { value: "/home/me/out" } }]);
 * ```
 */
export function parseShell(src: string, env: ShellEnv = {}): ParsedScript {
  try {
    const tokenizer = new Tokenizer(src, env);
    const steps = tokenizer.run();
    return { ok: true, steps, truncated: tokenizer.words >= MAX_WORDS };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: "nested too deeply" };
    throw error;
  }
}

class Tokenizer {
  i = 0;
  steps: ScriptStep[] = [];
  current: SimpleCommand = Tokenizer.blank();
  pendingHeredocs: { delimiter: string; stripTabs: boolean; command: SimpleCommand }[] = [];
  nextIsSubshell = false;
  /** Words read so far. */
  words = 0;

  constructor(readonly src: string, readonly env: ShellEnv) {}

  static blank(): SimpleCommand {
    return { words: [], redirects: [], heredocs: [], nested: [], subshell: false };
  }

  run(): ScriptStep[] {
    const src = this.src;
    while (this.i < src.length && this.words < MAX_WORDS) {
      const c = src[this.i]!;
      if (c !== " " && c !== "\t") this.words++;
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && src[this.i + 1] === "\n") this.i += 2;
      else if (c === "#") this.i = lineEnd(src, this.i); // a comment
      else if (c === "\n") this.i++, this.endCommand(false), this.readHeredocs();
      else if (c === "(" || c === ")") {
        this.endCommand(false);
        this.steps.push({ kind: c === "(" ? "open" : "close" });
        this.i++;
      } else if (/[0-9]/.test(c) && this.skipFdNumber()) continue;
      else if (!this.operator()) this.readWords();
    }
    this.endCommand(false);
    return this.steps;
  }

  /** Skips the `2` of `2>file`; false when the digits are a word of their own. */
  skipFdNumber(): boolean {
    const m = /^[0-9]+(?=[<>][^(])/.exec(this.src.slice(this.i, this.i + 12));
    if (m !== null) this.i += m[0].length;
    return m !== null;
  }

  operator(): boolean {
    const src = this.src;
    if ((src[this.i] === "<" || src[this.i] === ">") && src[this.i + 1] === "(") return false;
    const op = OPERATORS.find((o) => src.startsWith(o, this.i));
    if (op === undefined) return false;
    this.i += op.length;
    if (op === "|" || op === "|&") this.current.subshell = true, this.endCommand(true);
    else if (op === "&") this.current.subshell = true, this.endCommand(false);
    else if (/^[;&|]/.test(op) && !op.includes(">")) this.endCommand(false);
    else this.redirect(op);
    return true;
  }

  redirect(op: string): void {
    while (this.src[this.i] === " " || this.src[this.i] === "\t") this.i++;
    const target = this.readWord()[0] ?? { value: null };
    if (this.lastRawWord === "") throw new ShellSyntaxError(`nothing after ${op}`);
    if (op === "<<" || op === "<<-") {
      const delimiter = this.lastRawWord.replace(/["'\\]/g, "");
      this.pendingHeredocs.push({ delimiter, stripTabs: op === "<<-", command: this.current });
    } else if (op === ">&" && !/^([0-9]+-?|-)$/.test(target.value ?? "0")) {
      this.current.redirects.push({ op: "&>", target }); // `>&file`: both streams to a file
    } else if (op !== "<<<" && op !== "<&" && op !== ">&") {
      this.current.redirects.push({ op, target });
    }
  }

  readHeredocs(): void {
    for (const doc of this.pendingHeredocs) {
      const { body, next } = readHeredocBody(this.src, this.i, doc.delimiter, doc.stripTabs);
      doc.command.heredocs.push(body);
      this.i = next;
    }
    this.pendingHeredocs = [];
  }

  endCommand(pipedToNext: boolean): void {
    const c = this.current;
    if (this.nextIsSubshell) c.subshell = true;
    this.nextIsSubshell = pipedToNext;
    if (c.words.length || c.redirects.length || c.nested.length) {
      this.steps.push({ kind: "command", command: c });
    }
    this.current = Tokenizer.blank();
  }

  readWords(): void {
    const words = this.readWord();
    const last = this.current.words.at(-1);
    const atStart = last === undefined || last.assignment === true;
    if (atStart && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(this.lastRawWord)) {
      this.current.words.push({
        value: words.length === 1 ? words[0]!.value : null,
        assignment: true,
      });
    } else this.current.words.push(...words);
  }

  lastRawWord = "";
  /** The word being read: literal specials `\`-escaped, unquoted ones raw. */
  pattern = "";
  unknown = false;
  hasGlob = false;

  literal(text: string): void {
    for (const ch of text) this.pattern += ESCAPE_IN_PATTERN.includes(ch) ? `\\${ch}` : ch;
  }

  /** Reads one word at `this.i`; a brace list may make it several. */
  readWord(): ShellWord[] {
    const src = this.src;
    const start = this.i;
    this.pattern = "";
    this.unknown = false;
    this.hasGlob = false;
    if (src[this.i] === "~") this.tilde();
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (/[\s;&|<>()]/.test(c)) {
        if ((c === "<" || c === ">") && src[this.i + 1] === "(" && this.i === start) {
          this.substitution(this.i + 2);
          continue;
        }
        break;
      }
      if (c === "\\") {
        if (src[this.i + 1] !== "\n") this.literal(src[this.i + 1] ?? "");
        this.i += 2;
      } else if (c === "'") {
        const end = src.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError("unterminated single quote");
        this.literal(src.slice(this.i + 1, end));
        this.i = end + 1;
      } else if (c === '"') this.doubleQuoted();
      else if (c === "`") this.backticks();
      else if (c === "$") this.dollar(false);
      else {
        PLAIN_RUN.lastIndex = this.i;
        const run = PLAIN_RUN.exec(src)?.[0] ?? c;
        if (/[*?[]/.test(run)) this.hasGlob = true;
        this.pattern += run;
        this.i += run.length;
      }
    }
    this.lastRawWord = src.slice(start, this.i);
    if (this.unknown) return [{ value: null }];
    if (!/[\\{]/.test(this.pattern)) {
      return [this.hasGlob ? { value: this.pattern, glob: this.pattern } : { value: this.pattern }];
    }
    const expanded = expandBraces(this.pattern);
    if (expanded.length === 0) return [{ value: null }];
    return expanded.map((p) =>
      this.hasGlob && /(^|[^\\])(\\\\)*[*?[]/.test(p)
        ? { value: unescapePattern(p), glob: p }
        : { value: unescapePattern(p) }
    );
  }

  /** `~` and `~/...` become `$HOME`; `~user`, `~+` and the like are not guessed. */
  tilde(): void {
    const m = /^~[^/\s;&|<>()]*/.exec(this.src.slice(this.i, this.i + 256))!;
    if (m[0] === "~" && this.env.home !== undefined) this.literal(this.env.home);
    else this.unknown = true;
    this.i += m[0].length;
  }

  /** A `$(...)` / `<(...)` / `>(...)` whose body starts at `bodyStart`: a nested script. */
  substitution(bodyStart: number): void {
    const end = skipParens(this.src, bodyStart);
    if (this.src[bodyStart] !== "(") this.nest(this.src.slice(bodyStart, end - 1));
    this.i = end;
    this.unknown = true;
  }

  /** Keeps a substituted command (the first 16 of a command) for the caller to follow. */
  nest(script: string): void {
    if (this.current.nested.length < 16) this.current.nested.push(script);
  }

  backticks(): void {
    const end = skipBackticks(this.src, this.i + 1);
    this.nest(this.src.slice(this.i + 1, end - 1).replace(/\\([`\\$])/g, "$1"));
    this.i = end;
    this.unknown = true;
  }

  dollar(inQuotes: boolean): void {
    const src = this.src;
    const next = src[this.i + 1];
    if (next === "(") this.substitution(this.i + 2);
    else if (next === "'" && !inQuotes) {
      const { text, next } = readAnsiQuoted(src, this.i + 2);
      this.literal(text);
      this.i = next;
    } else if (next === "{") {
      const end = src.indexOf("}", this.i + 2);
      if (end < 0) throw new ShellSyntaxError("unterminated ${");
      this.variable(src.slice(this.i + 2, end));
      this.i = end + 1;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9?#$!@*-]/.exec(src.slice(this.i + 1, this.i + 200));
      if (m === null) {
        if (next !== '"' || inQuotes) this.literal("$");
        this.i++;
        return;
      }
      this.variable(m[0]);
      this.i += 1 + m[0].length;
    }
  }

  doubleQuoted(): void {
    const src = this.src;
    this.i++;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === "\\" && '$`"\\\n'.includes(src[this.i + 1] ?? "\0")) {
        if (src[this.i + 1] !== "\n") this.literal(src[this.i + 1]!);
        this.i += 2;
      } else if (c === "$") this.dollar(true);
      else if (c === "`") this.backticks();
      else this.literal(c), this.i++;
    }
    throw new ShellSyntaxError("unterminated double quote");
  }

  /** Expands `$name` / `${name}`: `HOME`, and `PWD` at a word's start (as `.`); else unknown. */
  variable(name: string): void {
    if (name === "HOME" && this.env.home !== undefined) this.literal(this.env.home);
    else if (name === "PWD" && this.pattern === "") this.literal(".");
    else this.unknown = true;
  }
}
