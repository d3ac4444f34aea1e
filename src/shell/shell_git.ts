/**
 * The rules for `git`, `patch` and wrappers that run another command (`sudo`, `env`, `timeout`,
 * `npx`, ...) (pure). See `shell_commands.ts` for what a rule is.
 *
 * @module
 */

import {
  type CommandRule,
  type CommandUse,
  each,
  type OptionSpec,
  parseArgs,
  touches,
  valuesOf,
  type WordTouch,
} from "./shell_commands.ts";
import type { ShellWord } from "./shell_scan.ts";

/**
 * The paths a unified diff changes: `+++` targets (written) and `---` sources (read), with
 * `strip` leading folders removed (`-p1`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const body = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b";
 * assert.deepEqual(patchTargets(body, 1).map((t) => t.word.value), ["src/x.ts", "src/x.ts"]);
 * ```
 */
export function patchTargets(body: string, strip: number): WordTouch[] {
  const out: WordTouch[] = [];
  for (const line of body.split("\n")) {
    const m = /^(\+\+\+|---) ([^\t\n]+)/.exec(line);
    if (!m || m[2]!.trim() === "/dev/null") continue;
    const path = m[2]!.trim().split("/").slice(strip).join("/");
    if (path !== "") out.push({ word: { value: path }, role: m[1] === "+++" ? "write" : "read" });
  }
  return out;
}

/** `patch [-pN] [-d dir] [file [patchfile]]`, with the targets of a here-document patch. */
function patch(args: ShellWord[], heredocs: string[]): CommandUse {
  const parsed = parseArgs(args, {
    short: "pioDdFrBYzV",
    long: "strip input output directory suffix",
  });
  const stripText = valuesOf(parsed, "p", "strip")[0]?.value;
  const strip = Number(stripText ?? "NaN");
  const dir = valuesOf(parsed, "d", "directory")[0];
  const [original, patchFile] = parsed.positionals;
  const out: WordTouch[] = [
    ...touches(original ? [original] : [], "write"),
    ...touches([...(patchFile ? [patchFile] : []), ...valuesOf(parsed, "i", "input")], "read"),
    ...touches(valuesOf(parsed, "o", "output"), "write"),
    // without -p, patch's choice of names depends on what exists: not guessed
    ...(Number.isInteger(strip) ? heredocs.flatMap((body) => patchTargets(body, strip)) : []),
  ];
  return dir ? { touches: out, cwd: dir } : { touches: out };
}

/** `git [-C dir] mv|rm|add|checkout -- paths|restore|apply|blame`, `git diff|log -- paths`. */
function git(args: ShellWord[], heredocs: string[]): CommandUse {
  let i = 0;
  let cwd: ShellWord | undefined;
  for (; i < args.length; i++) {
    const text = args[i]!.value ?? "";
    if (text === "-C") cwd = args[++i];
    else if (text === "-c" || text === "--git-dir" || text === "--work-tree") i++;
    else if (!text.startsWith("-")) break;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  let out: WordTouch[] = [];
  if (sub === "mv" || sub === "rm") {
    const positionals = parseArgs(rest).positionals;
    out = sub === "mv" && positionals.length > 1
      ? [...touches(positionals.slice(0, -1), "read"), ...touches(positionals.slice(-1), "write")]
      : touches(positionals, "read");
  } else if (sub === "diff" || sub === "log" || sub === "add") {
    // revisions and paths mix before `--`: only what follows it is surely a path (for add, all)
    const dash = rest.findIndex((w) => w.value === "--");
    const paths = sub === "add"
      ? parseArgs(rest).positionals
      : dash < 0
      ? []
      : rest.slice(dash + 1);
    out = touches(paths, "read");
  } else if (sub === "blame") {
    out = touches(
      parseArgs(rest, { short: "LSCM", long: "contents" }).positionals.slice(-1),
      "read",
    );
  } else if (sub === "checkout") {
    const dash = rest.findIndex((w) => w.value === "--");
    out = dash < 0 ? [] : touches(rest.slice(dash + 1), "write");
  } else if (sub === "restore") {
    out = touches(parseArgs(rest, { short: "s", long: "source" }).positionals, "write");
  } else if (sub === "apply") {
    const parsed = parseArgs(rest, { short: "p", long: "directory exclude include" });
    const strip = Number(parsed.values.get("p")?.[0]?.value ?? "1");
    out = [
      ...touches(parsed.positionals, "read"),
      ...(Number.isInteger(strip) ? heredocs.flatMap((b) => patchTargets(b, strip)) : []),
    ];
  }
  return cwd ? { touches: out, cwd } : { touches: out };
}

/** A wrapper's own options (values by name), and the command it runs after them. */
function unwrap(
  args: ShellWord[],
  spec: OptionSpec,
): { values: Map<string, ShellWord>; rest: ShellWord[] } {
  const long = new Set(spec.long?.split(" "));
  const values = new Map<string, ShellWord>();
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value ?? "";
    if (text === "--") {
      i++;
      break;
    }
    if (!text.startsWith("-") || text === "-") break;
    if (text.startsWith("--")) {
      if (long.has(text.slice(2))) values.set(text.slice(2), args[++i] ?? { value: null });
    } else if (spec.short?.includes(text[1]!)) {
      values.set(
        text[1]!,
        text.length > 2 ? { value: text.slice(2) } : args[++i] ?? { value: null },
      );
    }
  }
  while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!.value ?? "")) i++;
  return { values, rest: args.slice(i) };
}

/** A wrapper (`sudo`, `nice`, `timeout 5`): runs the command after its options and `leading` words. */
function wraps(spec: OptionSpec, leading = 0): CommandRule {
  return (args) => ({ touches: [], runs: unwrap(args, spec).rest.slice(leading) });
}

/** `env [-C dir] [NAME=value]... command`. */
function env(args: ShellWord[]): CommandUse {
  const { values, rest } = unwrap(args, { short: "Cu", long: "chdir unset" });
  const dir = values.get("C") ?? values.get("chdir");
  return dir ? { touches: [], runs: rest, cwd: dir } : { touches: [], runs: rest };
}

/** The rules for git, patch and wrappers, by command name. */
export const GIT_AND_WRAPPERS: Readonly<Record<string, CommandRule>> = {
  git,
  patch,
  env,
  npx: wraps({ short: "p", long: "package" }),
  sudo: wraps({ short: "ugCDhpUrt", long: "user group" }),
  time: wraps({ short: "fo" }),
  nice: wraps({ short: "n" }),
  exec: wraps({ short: "a" }),
  stdbuf: wraps({ short: "ioe" }),
  timeout: wraps({ short: "sk", long: "signal kill-after" }, 1),
  ...each("bunx pnpx nohup command builtin", wraps({})),
};
