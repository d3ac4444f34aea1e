/**
 * The files a Bash command reads that Claude Code itself treats as read (since 2.1.3xx): after
 * such a command it loads the file's nested `CLAUDE.md` and its `paths:` rules by itself, as after
 * a Read, and says so (InstructionsLoaded). The inject hook must not send those again
 * (`native_sources.ts`).
 *
 * Mirrors the client's own test (2.1.332 bundle, read with `strings`): no `|`, `<` or `>` anywhere
 * in the command; every command of the list is one of `cat [-n] F`, `nl F`, `bat`/`batcat F`,
 * `head [-n N|-N] F`, `tail [-n N|-N] F`, `sed -n 'N,Mp' F` (no `-i`, no `-e`), or, alone, `grep`
 * / `egrep` / `fgrep` / `rg` with plain flags, one pattern and one file (served when it matched);
 * `echo`, `printf`, `true` and `:` may stand beside them; anything else and the client serves
 * none. When unsure this says "not served": a file sent twice costs characters, one not sent at
 * all costs the guidance.
 *
 * Observed with the real CLI: 2.1.332 loads after `cat F` and `grep x F`, and not after
 * `sed -i`, `ls`; 2.1.197 loads nothing after any Bash command.
 *
 * @module
 */

import { parseShell } from "../shell/shell_words.ts";

/** The client's `sed -n` range scripts (`3,9p`, `4p`). */
const SED_RANGE = /^(?:\d+,\d+|\d+)p$/;
/** A command that may stand beside the reads (the client's own list). */
const HARMLESS = /^\s*(echo|printf|true|:)\b/;

const CAT_FLAGS: Record<string, ReadonlySet<string>> = {
  cat: new Set(["-n", "--number"]),
  nl: new Set(),
  bat: new Set(["-n", "--number", "-p", "--plain"]),
  batcat: new Set(["-n", "--number", "-p", "--plain"]),
};

const GREP_SHORT = /^-[niwxEFGPHh]+$/;
const GREP_LONG = new Set([
  "--line-number",
  "--ignore-case",
  "--word-regexp",
  "--line-regexp",
  "--extended-regexp",
  "--fixed-strings",
  "--basic-regexp",
  "--perl-regexp",
  "--with-filename",
  "--no-filename",
  "--color=never",
  "--color=auto",
]);
const RG_SHORT = /^-[iSswxFnNHUP]+$/;
const RG_LONG = new Set([
  "--ignore-case",
  "--smart-case",
  "--case-sensitive",
  "--word-regexp",
  "--line-regexp",
  "--fixed-strings",
  "--line-number",
  "--no-line-number",
  "--with-filename",
  "--no-filename",
  "--multiline",
  "--pcre2",
]);

function sedRead(args: string[]): string | null {
  let quiet = false;
  const plain: string[] = [];
  for (const arg of args) {
    if (!arg.startsWith("-")) {
      plain.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      if (arg === "--in-place" || arg.startsWith("--in-place=") || arg === "--expression") {
        return null;
      }
      if (arg === "--quiet" || arg === "--silent") quiet = true;
    } else {
      if (arg.includes("i") || arg === "-e") return null;
      if (arg.includes("n")) quiet = true;
    }
  }
  return quiet && plain.length === 2 && SED_RANGE.test(plain[0]!) ? plain[1]! : null;
}

function catRead(flags: ReadonlySet<string>, args: string[]): string | null {
  let file: string | null = null;
  for (const arg of args) {
    if (arg.startsWith("-") && arg !== "-") {
      if (!flags.has(arg)) return null;
    } else if (file !== null) return null;
    else file = arg;
  }
  return file === "-" ? null : file;
}

function headTailRead(args: string[]): string | null {
  let file: string | null = null;
  let count: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg === "-n" || arg === "--lines"
      ? args[++i]
      : /^--lines=/.test(arg)
      ? arg.slice(8)
      : /^-n\d+$/.test(arg)
      ? arg.slice(2)
      : /^-\d+$/.test(arg)
      ? arg.slice(1)
      : undefined;
    if (value !== undefined) {
      if (!/^\d+$/.test(value)) return null;
      count = Number(value);
    } else if (arg === "-n" || arg === "--lines" || arg.startsWith("-")) return null;
    else if (file !== null) return null;
    else file = arg;
  }
  return file === null || count === 0 ? null : file;
}

function grepRead(rg: boolean, args: string[]): string | null {
  const plain: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("-") || arg === "-") {
      plain.push(arg);
      continue;
    }
    const context = arg === "-A" || arg === "-B" || arg === "-C" ||
      (rg && ["--after-context", "--before-context", "--context"].includes(arg));
    if (context) {
      if (!/^\d+$/.test(args[++i] ?? "")) return null;
      continue;
    }
    const ok = /^-[ABC]\d+$/.test(arg) ||
      /^--(?:after-context|before-context|context)=\d+$/.test(arg) ||
      (rg ? RG_SHORT.test(arg) || RG_LONG.has(arg) : GREP_SHORT.test(arg) || GREP_LONG.has(arg));
    if (!ok) return null;
  }
  if (plain.length !== 2) return null;
  const file = plain[1]!;
  return file === "-" || /[*?[{]/.test(file) ? null : file;
}

/** The file one command (its words) reads the client's way, or `null`. */
function readOf(words: string[], alone: boolean): string | null {
  const [name, ...args] = words;
  if (name === "sed") return sedRead(args);
  const catFlags = CAT_FLAGS[name ?? ""];
  if (catFlags) return catRead(catFlags, args);
  if (name === "head" || name === "tail") return headTailRead(args);
  if (alone && (name === "grep" || name === "egrep" || name === "fgrep" || name === "rg")) {
    return grepRead(name === "rg", args);
  }
  return null;
}

/**
 * The files (as the command names them) a Bash command reads that Claude Code 2.1.3xx treats as
 * read by itself, loading their nested memory files; empty when it treats none so.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { clientReadsOfCommand } from "./client_bash_reads.ts";
 * assert.deepEqual(clientReadsOfCommand("cat src/a.ts"), ["src/a.ts"]);
 * assert.deepEqual(clientReadsOfCommand("grep -n TODO src/a.ts"), ["src/a.ts"]);
 * assert.deepEqual(clientReadsOfCommand("sed -n '3,9p' src/a.ts && echo done"), ["src/a.ts"]);
 * assert.deepEqual(clientReadsOfCommand("head -5 a.ts && tail -n 2 b.ts"), ["a.ts", "b.ts"]);
 * assert.deepEqual(clientReadsOfCommand("sed -i 's/a/b/' src/a.ts"), []);
 * assert.deepEqual(clientReadsOfCommand("cat src/a.ts | wc -l"), []);
 * assert.deepEqual(clientReadsOfCommand("cat a.ts && ls"), []);
 * assert.deepEqual(clientReadsOfCommand("grep x a.ts && echo"), [], "grep only alone");
 * assert.deepEqual(clientReadsOfCommand("ls src"), []);
 * ```
 */
export function clientReadsOfCommand(command: string): string[] {
  if (/[|<>]/.test(command)) return [];
  const parsed = parseShell(command);
  if (!parsed.ok || parsed.truncated) return [];
  const steps = parsed.steps;
  const commands = steps.flatMap((s) => s.kind === "command" ? [s.command] : []);
  if (commands.length === 0 || commands.length !== steps.length) return [];
  const reads: string[] = [];
  for (const one of commands) {
    const words = one.words.map((w) => w.value);
    const plain = one.nested.length === 0 && one.redirects.length === 0 &&
      one.heredocs.length === 0 && !one.subshell && one.words.every((w) => !w.assignment);
    const known = words.every((w): w is string => w !== null);
    const file = plain && known && one.words.every((w) => w.glob === undefined)
      ? readOf(words, commands.length === 1)
      : null;
    if (file !== null) reads.push(file);
    else if (!(known && HARMLESS.test(words.join(" ")))) return [];
  }
  return reads;
}

/** The search commands whose lone read the client serves only when it matched. */
const SEARCHES = /^\s*(?:grep|egrep|fgrep|rg)\s/;

/**
 * The files of a Bash command's client read (see {@link clientReadsOfCommand}) whose nested memory
 * the client did NOT load after all, known once the command ran (PostToolUse): a lone `grep` /
 * `rg` that matched nothing (its `tool_response.stdout` empty). Observed with 2.1.332: after
 * `grep -n x F` with no match the client loads nothing (no InstructionsLoaded, no memory in the
 * next request); after a match it does. Empty for anything else.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { unservedClientReads } from "./client_bash_reads.ts";
 * assert.deepEqual(unservedClientReads("grep -n x src/a.ts", { stdout: "" }), ["src/a.ts"]);
 * assert.deepEqual(unservedClientReads("rg x src/a.ts", { stdout: "  \n" }), ["src/a.ts"]);
 * assert.deepEqual(unservedClientReads("grep -n x src/a.ts", { stdout: "1:x" }), []);
 * assert.deepEqual(unservedClientReads("cat src/a.ts", { stdout: "" }), []);
 * assert.deepEqual(unservedClientReads("grep x src/a.ts", {}), [], "no output known");
 * ```
 */
export function unservedClientReads(command: string, response: unknown): string[] {
  if (!SEARCHES.test(command)) return [];
  const stdout = typeof response === "object" && response !== null
    ? (response as Record<string, unknown>).stdout
    : undefined;
  if (typeof stdout !== "string" || stdout.trim() !== "") return [];
  return clientReadsOfCommand(command);
}
