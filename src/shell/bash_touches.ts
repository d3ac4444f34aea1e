/**
 * The paths a Bash command line names (pure): follows `cd` through `&&` / `;` chains and
 * subshells, applies each command's rule (`shell_commands.ts`, `shell_runners.ts`) and its
 * redirections, and follows nested scripts (`$(...)`, `bash -c '...'`). Paths come back absolute;
 * whether they exist and lie in the project is for the caller to find out.
 *
 * @module
 */

import type { CommandRule, TouchRole } from "./shell_commands.ts";
import { RUNNER_COMMANDS } from "./shell_runners.ts";
import { GIT_AND_WRAPPERS } from "./shell_git.ts";
import { FILE_COMMANDS } from "./shell_files.ts";
import type { ShellWord, SimpleCommand } from "./shell_scan.ts";
import { parseShell } from "./shell_words.ts";
import { basenameOf, isAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";

/** A path a command names: absolute, with how it is used. */
export interface ShellTouch {
  /** Absolute normal-form path (for a glob: the pattern's text, unescaped). */
  path: string;
  role: TouchRole;
  /** For a glob word: the absolute pattern, literal special characters `\`-escaped. */
  glob?: string;
  /**
   * The absolute path as written, its `..` steps kept, when the word has one. `path` takes each
   * `..` back over the name before it, as `cd` does; the kernel goes up from where that name
   * leads when it is a link, which only a look-up can tell (`inject/bash_paths.ts`).
   */
  spelled?: string;
}

/** What a command line names. */
export type CommandTouches =
  | { ok: true; touches: ShellTouch[]; truncated: boolean }
  | { ok: false; reason: string };

/** Where a command line runs. */
export interface ShellContext {
  /** The absolute working folder the command starts in. */
  cwd: string;
  /** `$HOME`, when known. */
  home?: string | undefined;
}

/** A `..` step in a path. */
const PARENT_STEP = /(^|[\\/])\.\.([\\/]|$)/;

/** At most this many paths are collected from one command line. */
export const MAX_TOUCHES = 512;
/** Nested scripts (`$(...)`, `bash -c`) are followed this deep. */
const MAX_DEPTH = 3;

const RULES: Readonly<Record<string, CommandRule>> = {
  ...FILE_COMMANDS,
  ...RUNNER_COMMANDS,
  ...GIT_AND_WRAPPERS,
};
/** Words that open or continue a compound command: skipped before the command name. */
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "!",
  "{",
  "}",
]);
/** Commands whose words are not commands or paths to follow. */
const OPAQUE = new Set([
  "for",
  "case",
  "select",
  "function",
  "[[",
  "[",
  "test",
  "xargs",
  "echo",
  "printf",
]);

/** Escapes a literal path for use as the fixed part of a glob pattern. */
function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{},\\]/g, "\\$&");
}

class Collector {
  touches: ShellTouch[] = [];
  truncated = false;
  constructor(readonly home: string | undefined) {}

  /** The absolute path of a word in folder `cwd`, or null when either is unknown. */
  resolve(word: ShellWord, cwd: string | null): string | null {
    const joined = this.joined(word, cwd);
    return joined === null ? null : normalizePath(joined);
  }

  /** A word's path joined to folder `cwd` as it is written (`..` kept), or null when unknown. */
  joined(word: ShellWord, cwd: string | null): string | null {
    if (word.value === null || word.value === "" || word.value.includes("\0")) return null;
    if (isAbsolutePath(word.value)) return word.value;
    return cwd === null ? null : joinPath(cwd, word.value);
  }

  add(word: ShellWord, role: TouchRole, cwd: string | null): void {
    if (this.touches.length >= MAX_TOUCHES) {
      this.truncated = true;
      return;
    }
    const joined = this.joined(word, cwd);
    if (joined === null) return;
    const path = normalizePath(joined);
    const spelled = PARENT_STEP.test(joined) ? { spelled: joined } : {};
    if (word.glob === undefined) this.touches.push({ path, role, ...spelled });
    else {
      const glob = isAbsolutePath(word.value!)
        ? word.glob
        : cwd === null
        ? null
        : `${escapeGlob(cwd)}/${word.glob}`;
      if (glob !== null) this.touches.push({ path, role, glob, ...spelled });
    }
  }

  /** Follows one script; returns false when it cannot be parsed. */
  script(src: string, start: string | null, depth: number): string | true {
    const parsed = parseShell(src, { home: this.home });
    if (!parsed.ok) return parsed.reason;
    if (parsed.truncated) this.truncated = true;
    let cwd = start;
    const saved: (string | null)[] = [];
    for (const step of parsed.steps) {
      if (step.kind === "open") saved.push(cwd);
      else if (step.kind === "close") cwd = saved.length > 0 ? saved.pop()! : cwd;
      else cwd = this.command(step.command, cwd, depth);
    }
    return true;
  }

  /** Collects one simple command's paths; returns the working folder after it. */
  command(command: SimpleCommand, cwd: string | null, depth: number): string | null {
    if (depth < MAX_DEPTH) {
      for (const nested of command.nested) this.script(nested, cwd, depth + 1);
    }
    for (const r of command.redirects) this.add(r.target, r.op === "<" ? "read" : "write", cwd);
    let words = command.words.filter((w) => !w.assignment);
    while (words.length > 0 && KEYWORDS.has(words[0]!.value ?? "")) words = words.slice(1);
    const name = words[0]?.value;
    if (name === "cd" || name === "pushd" || name === "popd") {
      const next = name === "popd" ? null : this.chdir(words.slice(1), cwd);
      return command.subshell ? cwd : next;
    }
    this.run(words, cwd, command.heredocs, depth, 0);
    return cwd;
  }

  /** The folder `cd` moves to: `$HOME` with no argument; unknown for `-`, `+N` or a variable. */
  chdir(args: ShellWord[], cwd: string | null): string | null {
    const operands = args.filter((w) => !/^-[LPe@]+$/.test(w.value ?? ""));
    if (operands.length === 0) return this.home ?? null;
    const target = operands[0]!;
    if (target.glob !== undefined || /^[-+]/.test(target.value ?? "")) return null;
    return this.resolve(target, cwd);
  }

  run(words: ShellWord[], cwd: string | null, heredocs: string[], depth: number, hops: number) {
    const name = words[0]?.value;
    if (!name || OPAQUE.has(name)) return;
    if (name.includes("/")) this.add(words[0]!, "read", cwd); // a script run by its path
    const rule = RULES[basenameOf(name)];
    if (!rule) return;
    const use = rule(words.slice(1), heredocs);
    const here = use.cwd ? this.resolve(use.cwd, cwd) : cwd;
    for (const touch of use.touches) this.add(touch.word, touch.role, here);
    if (use.script !== undefined && depth < MAX_DEPTH) this.script(use.script, here, depth + 1);
    if (use.runs && hops < 4) this.run(use.runs, here, heredocs, depth, hops + 1);
  }
}

/**
 * The paths a Bash command line names, resolved against `context.cwd`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const found = touchesOfCommand("cd src/api && sed -i 's/a/b/' x.ts > /dev/null", { cwd: "/repo" });
 * assert.ok(found.ok);
 * assert.deepEqual(found.touches, [
 *   { path: "/dev/null", role: "write" },
 *   { path: "/repo/src/api/x.ts", role: "write" },
 * ]);
 * ```
 */
export function touchesOfCommand(command: string, context: ShellContext): CommandTouches {
  const collector = new Collector(context.home);
  const result = collector.script(command, normalizePath(context.cwd), 0);
  if (result !== true) return { ok: false, reason: result };
  return { ok: true, touches: collector.touches, truncated: collector.truncated };
}
