/**
 * The project's own memory files, read where they lie: a nested `CLAUDE.md` or `AGENTS.md` on a
 * touched path's way up to the project root, and a `.claude/rules/*.md` rule whose `paths:` globs
 * match a touched path. They are library sources with their own scope (their folder, or their
 * globs), read-only to the Librarian: nothing has to move for the inject hook to send them, and a
 * teammate without the plugin still has them.
 *
 * Sent only where Claude Code does not send them itself:
 * - the root `CLAUDE.md` and `AGENTS.md` are loaded at session start (by the client): never here;
 * - a nested `CLAUDE.md` and a matching `paths:` rule are loaded by the client after a Read (2.1.197)
 *   or a Read or Write (2.1.332) in their scope: a file tool's touch only records them as in the
 *   context window ({@link clientLoadedSources}), but a Write under a client that loads nothing
 *   after it ({@link clientLoadsAfterWriteAndShellRead}) sends them; a Bash touch sends them, except for the files a
 *   2.1.3xx client takes the command for a read of (`cat F`, `grep x F`: it loads theirs itself,
 *   `client_bash_reads.ts`, {@link commandNativeSources});
 * - a nested `AGENTS.md` is loaded by Claude Code 2.1.3xx's built-in loader after a Read, in a
 *   project without a `CLAUDE.md` ({@link builtinLoadedAgents}): recorded there, like a nested
 *   `CLAUDE.md`; every other touch may send it.
 *
 * A link among them is never followed: a memory file is the project's own text.
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";
import { dirnameOf, joinPath } from "../core/paths.ts";
import type { LibraryFile } from "../core/walk.ts";
import { mirrorLevels } from "../core/walk.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import { makeFingerprint } from "./ledger_format.ts";
import { MAX_READ_BYTES } from "./choose.ts";

/** The memory file names Claude Code or other agents load for a folder. */
export const NATIVE_FOLDER_FILES = ["CLAUDE.md", "AGENTS.md"] as const;

/** Where Claude Code's path-scoped rules are, project-relative. */
export const RULES_FOLDER = ".claude/rules";

/** At most this many rule files are read (a rules folder is a handful of files). */
export const MAX_RULES = 64;

/** How a touch reaches the files: a file tool (the client loads some itself) or a command. */
export type TouchKind = "file-tool" | "command";

/** A path-scoped rule: its project-relative path and its globs. */
export interface ScopedRule {
  relPath: string;
  absPath: string;
  globs: string[];
}

/** A native source, as the inject side serves it (a {@link LibraryFile} marked `native`). */
export type NativeSource = LibraryFile & { native: "folder" | "rule" };

/** True when `path` is a regular file and not a link (a memory file is never followed out). */
function isPlainFile(path: string): boolean {
  try {
    const info = Deno.lstatSync(path);
    return info.isFile;
  } catch {
    return false;
  }
}

function isPlainFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Splits `{a,b}` alternatives (not nested) into plain patterns. */
function expandBraces(glob: string): string[] {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (!match) return [glob];
  const [head, tail] = [glob.slice(0, match.index), glob.slice(match.index + match[0].length)];
  return match[1]!.split(",").flatMap((alt) => expandBraces(`${head}${alt}${tail}`));
}

/** The regular expression for one project-relative glob (`**`, `*`, `?`, `[...]`). */
function globToRegex(glob: string): RegExp {
  let pattern = glob.trim().replace(/^\.\//, "").replace(/^\/+/, "");
  // a pattern without a slash matches a name at any depth (as in .gitignore)
  if (!pattern.replace(/\/$/, "").includes("/")) pattern = `**/${pattern}`;
  if (pattern.endsWith("/")) pattern += "**";
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        out += `[${pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${out}$`, "u");
  } catch {
    return /$^/;
  }
}

/**
 * True when a rule's globs cover a touched project-relative path (a folder ends in `/`: covered
 * when the globs cover what is in it).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { globsCover } from "./native_sources.ts";
 * assert.ok(globsCover(["internal-packages/database/**"], "internal-packages/database/schema.prisma"));
 * assert.ok(globsCover(["internal-packages/database/**"], "internal-packages/database/"));
 * assert.ok(!globsCover(["internal-packages/database/**"], "internal-packages/api/x.ts"));
 * assert.ok(globsCover(["src/**\/*.{ts,tsx}"], "src/ui/a.tsx"));
 * assert.ok(globsCover(["*.md"], "docs/a.md"));
 * assert.ok(!globsCover(["src/*.ts"], "src/ui/a.ts"));
 * ```
 */
export function globsCover(globs: readonly string[], relPath: string): boolean {
  const folder = relPath.endsWith("/");
  const subject = folder ? `${relPath}\u0000` : relPath;
  return globs.some((glob) =>
    expandBraces(glob).some((one) => {
      const regex = globToRegex(one);
      return regex.test(subject) || (folder && regex.test(relPath.slice(0, -1)));
    })
  );
}

/**
 * True when the client running the hook loads a nested `CLAUDE.md` and its `paths:` rules by itself
 * after a Write and after a Bash read (`client_bash_reads.ts`), as Claude Code 2.1.332 does
 * (observed); 2.1.197 loads them after a Read only. Told by `CLAUDE_PID`, which the 2.1.3xx
 * releases set for their hooks and 2.1.197 does not; a project's settings cannot set it (a
 * `location` row of `core/env_vars.ts`). Without it the Librarian sends them on those touches.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { clientLoadsAfterWriteAndShellRead } from "./native_sources.ts";
 * assert.equal(clientLoadsAfterWriteAndShellRead(envFrom({ CLAUDE_PID: "4242" })), true);
 * assert.equal(clientLoadsAfterWriteAndShellRead(envFrom({})), false);
 * ```
 */
export function clientLoadsAfterWriteAndShellRead(env: EnvReader): boolean {
  return /^\d+$/.test(env("CLAUDE_PID")?.trim() ?? "");
}

/** A YAML scalar as a glob: its quotes removed. */
function unquote(value: string): string {
  const v = value.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/**
 * The `paths:` globs of a rule's front matter, or `null` when it has none (a rule for every
 * session). Read with a few lines of its own, not the front matter reader: every file tool's event
 * reads the rules, and the inject bundle stays small. A value can be one glob, globs separated by
 * commas, a flow list (`[a, b]`) or a block list (`- a`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathsOfRule } from "./native_sources.ts";
 * assert.deepEqual(pathsOfRule("---\npaths:\n  - 'db/**'\n  - api/**\n---\n- x"), ["db/**", "api/**"]);
 * assert.deepEqual(pathsOfRule("---\npaths: [a/**, \"b/*.ts\"]\n---\n"), ["a/**", "b/*.ts"]);
 * assert.deepEqual(pathsOfRule("---\ndescription: d\npaths: src/**, lib/**\n---\n"), ["src/**", "lib/**"]);
 * assert.equal(pathsOfRule("---\ndescription: d\n---\n- x"), null);
 * assert.equal(pathsOfRule("- no front matter"), null);
 * ```
 */
export function pathsOfRule(text: string): string[] | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ""));
  if (!match) return null;
  const lines = match[1]!.split(/\r?\n/);
  const at = lines.findIndex((line) => /^(?:paths|globs)\s*:/.test(line));
  if (at < 0) return null;
  const inline = lines[at]!.replace(/^[a-z]+\s*:/, "").replace(/\s+#.*$/, "").trim();
  let list: string[];
  if (inline === "") {
    list = [];
    for (const line of lines.slice(at + 1)) {
      const item = /^\s+-\s+(.*)$/.exec(line);
      if (item) list.push(item[1]!.replace(/\s+#.*$/, ""));
      else if (/^\S/.test(line)) break;
    }
  } else if (inline.startsWith("[")) {
    list = inline.replace(/^\[|\]$/g, "").split(",");
  } else list = unquote(inline).split(",");
  const globs = list.map(unquote).filter((g) => g !== "");
  return globs.length > 0 ? globs : null;
}

/**
 * The project's path-scoped rules (`.claude/rules/**\/*.md` with `paths:`), sorted by path. Rules
 * without `paths:` are loaded by the client at session start and are not listed.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { scopedRules } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/.claude/rules`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/.claude/rules/db.md`, "---\npaths:\n  - db/**\n---\n- migrate first\n");
 * Deno.writeTextFileSync(`${p}/.claude/rules/all.md`, "- always\n");
 * assert.deepEqual(scopedRules(p).map((r) => [r.relPath, r.globs]), [[".claude/rules/db.md", ["db/**"]]]);
 * ```
 */
export function scopedRules(projectRoot: string): ScopedRule[] {
  const rules: ScopedRule[] = [];
  const visit = (relDir: string, depth: number) => {
    const absDir = joinPath(projectRoot, relDir);
    if (depth > 3 || !isPlainFolder(absDir)) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(absDir)].sort((a, b) => a.name < b.name ? -1 : 1);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (rules.length >= MAX_RULES) return;
      const relPath = `${relDir}/${entry.name}`;
      if (entry.isDirectory) visit(relPath, depth + 1);
      if (!entry.isFile || !entry.name.endsWith(".md")) continue;
      const absPath = joinPath(projectRoot, relPath);
      let text: string;
      try {
        text = Deno.readTextFileSync(absPath).slice(0, 8192);
      } catch {
        continue;
      }
      const globs = pathsOfRule(text);
      if (globs) rules.push({ relPath, absPath, globs });
    }
  };
  visit(RULES_FOLDER, 0);
  return rules;
}

/** The label a native source is shown under (quoted as data by the renderer). */
function folderLabel(relPath: string): string {
  return `${relPath} (the project's own memory file, read in place)`;
}

function ruleLabel(rule: ScopedRule): string {
  const globs = rule.globs.slice(0, 4).join(", ") + (rule.globs.length > 4 ? ", …" : "");
  return `${rule.relPath} (the project's rule for ${globs}, read in place)`;
}

/** The nested memory files (below the root) on the way up from `relDir`, most specific first. */
function folderFiles(
  projectRoot: string,
  relDir: string,
  names: readonly string[],
): NativeSource[] {
  const out: NativeSource[] = [];
  for (const level of mirrorLevels(relDir)) {
    if (level === "") break; // the root's files are loaded at session start
    for (const name of names) {
      const relPath = `${level}/${name}`;
      const absPath = joinPath(projectRoot, relPath);
      if (isPlainFile(absPath)) {
        out.push({ relPath, label: folderLabel(relPath), absPath, native: "folder" });
      }
    }
  }
  return out;
}

/** The folder of a touched path (a folder ends in `/`). */
function folderOfTouch(touched: string): string {
  return touched.endsWith("/") ? touched.slice(0, -1) : dirnameOf(touched);
}

/**
 * The native sources the Librarian sends for touched project-relative paths (a folder ends in
 * `/`), most specific first, each once: on a command's touch the nested `CLAUDE.md` and
 * `AGENTS.md` files and the rules whose globs cover a touched path; on a file tool's touch only
 * the nested `AGENTS.md` files (the client loads the rest itself).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { nativeSources } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/src/api`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/CLAUDE.md`, "- root");
 * Deno.writeTextFileSync(`${p}/src/CLAUDE.md`, "- src");
 * Deno.writeTextFileSync(`${p}/src/api/AGENTS.md`, "- api");
 * assert.deepEqual(nativeSources(p, ["src/api/x.ts"], "command").map((f) => f.relPath), [
 *   "src/api/AGENTS.md",
 *   "src/CLAUDE.md",
 * ]);
 * assert.deepEqual(nativeSources(p, ["src/api/x.ts"], "file-tool").map((f) => f.relPath), [
 *   "src/api/AGENTS.md",
 * ]);
 * assert.deepEqual(nativeSources(p, ["src/CLAUDE.md"], "command"), [], "named by the command");
 * ```
 */
export function nativeSources(
  projectRoot: string,
  touched: readonly string[],
  kind: TouchKind,
): NativeSource[] {
  const names = kind === "command" ? NATIVE_FOLDER_FILES : ["AGENTS.md"];
  // a memory file the command itself names (`cat src/CLAUDE.md`) reaches the model through it
  const seen = new Set<string>(touched.map((t) => joinPath(projectRoot, t)));
  const byDepth: { file: NativeSource; depth: number; order: number }[] = [];
  const add = (file: NativeSource, depth: number) => {
    if (seen.has(file.absPath)) return;
    seen.add(file.absPath);
    byDepth.push({ file, depth, order: byDepth.length });
  };
  for (const touch of touched) {
    for (const file of folderFiles(projectRoot, folderOfTouch(touch), names)) {
      add(file, file.relPath.split("/").length);
    }
  }
  const sorted = byDepth.sort((a, b) => b.depth - a.depth || a.order - b.order).map((e) => e.file);
  if (kind !== "command") return sorted;
  const rules = scopedRules(projectRoot).filter((rule) =>
    !seen.has(rule.absPath) && touched.some((t) => globsCover(rule.globs, t))
  );
  return [
    ...sorted,
    ...rules.map((rule): NativeSource => ({
      relPath: rule.relPath,
      label: ruleLabel(rule),
      absPath: rule.absPath,
      native: "rule",
    })),
  ];
}

/**
 * The native sources a command's touch sends ({@link nativeSources}, `"command"`) without those
 * the client loads by itself for the files the command reads its way (`clientReads`,
 * project-relative: Claude Code 2.1.3xx after `cat F`, `grep x F`, see `client_bash_reads.ts`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandNativeSources } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/src`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/src/CLAUDE.md`, "- src");
 * Deno.writeTextFileSync(`${p}/src/AGENTS.md`, "- agents");
 * assert.deepEqual(commandNativeSources(p, ["src/a.ts"], []).map((f) => f.relPath), [
 *   "src/CLAUDE.md",
 *   "src/AGENTS.md",
 * ]);
 * assert.deepEqual(commandNativeSources(p, ["src/a.ts"], ["src/a.ts"]).map((f) => f.relPath), [
 *   "src/AGENTS.md",
 * ]);
 * ```
 */
export function commandNativeSources(
  projectRoot: string,
  touched: readonly string[],
  clientReads: readonly string[],
): NativeSource[] {
  const sources = nativeSources(projectRoot, touched, "command");
  if (clientReads.length === 0) return sources;
  const served = new Set(
    clientReads.flatMap((rel) => clientLoadedSources(projectRoot, rel).map((f) => f.absPath)),
  );
  return sources.filter((file) => !served.has(file.absPath));
}

/**
 * The native files the client loads by itself on a file tool's touch of `relPath` (the nested
 * `CLAUDE.md` files on its way up, below the root, and the rules whose globs cover it): the inject
 * hook records them as in the context window, so a later command's touch does not send them again.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { clientLoadedSources } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/src`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/src/CLAUDE.md`, "- src");
 * assert.deepEqual(clientLoadedSources(p, "src/a.ts").map((f) => f.relPath), ["src/CLAUDE.md"]);
 * ```
 */
export function clientLoadedSources(projectRoot: string, relPath: string): NativeSource[] {
  const folder = folderFiles(projectRoot, dirnameOf(relPath), ["CLAUDE.md"]);
  const rules = scopedRules(projectRoot).filter((rule) => globsCover(rule.globs, relPath));
  return [
    ...folder,
    ...rules.map((rule): NativeSource => ({
      relPath: rule.relPath,
      label: ruleLabel(rule),
      absPath: rule.absPath,
      native: "rule",
    })),
  ];
}

/**
 * The files whose presence makes Claude Code 2.1.3xx's built-in `AGENTS.md` loader stand aside
 * (observed: the project's own `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md`).
 */
const PROJECT_CLAUDE_FILES = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] as const;

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The nested `AGENTS.md` files Claude Code 2.1.3xx's built-in loader (`cc-plugin-agents-md`, on by
 * default) sends by itself after a Read of `relPath`: in a project without a `CLAUDE.md` of its own
 * (root, `.claude/CLAUDE.md`, `CLAUDE.local.md`), each `AGENTS.md` on the way up (below the root)
 * whose folder has no `CLAUDE.md` (observed with 2.1.332: after a Read only, not after a Write, an
 * Edit or a Bash command; no InstructionsLoaded event reports it). The caller knows the client is
 * one of those ({@link clientLoadsAfterWriteAndShellRead}).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { builtinLoadedAgents } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/sdk/ts`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- root");
 * Deno.writeTextFileSync(`${p}/sdk/AGENTS.md`, "- sdk");
 * Deno.writeTextFileSync(`${p}/sdk/ts/AGENTS.md`, "- ts");
 * Deno.writeTextFileSync(`${p}/sdk/ts/CLAUDE.md`, "- ts claude");
 * assert.deepEqual(builtinLoadedAgents(p, "sdk/ts/a.ts").map((f) => f.relPath), ["sdk/AGENTS.md"]);
 * Deno.writeTextFileSync(`${p}/CLAUDE.local.md`, "- mine");
 * assert.deepEqual(builtinLoadedAgents(p, "sdk/ts/a.ts"), []);
 * ```
 */
export function builtinLoadedAgents(projectRoot: string, relPath: string): NativeSource[] {
  if (PROJECT_CLAUDE_FILES.some((name) => exists(joinPath(projectRoot, name)))) return [];
  return folderFiles(projectRoot, dirnameOf(relPath), ["AGENTS.md"]).filter((file) =>
    !exists(joinPath(projectRoot, dirnameOf(file.relPath), "CLAUDE.md"))
  );
}

/**
 * The ledger fingerprints of `files` as they are on disk now (those that can be read), by absolute
 * path: what recording them as in the context window needs.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprintsOf } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${p}/CLAUDE.md`, "- x");
 * const file = { relPath: "CLAUDE.md", label: "CLAUDE.md", absPath: `${p}/CLAUDE.md` };
 * assert.match(fingerprintsOf([file])[`${p}/CLAUDE.md`]!, /^3:\d+:/);
 * assert.deepEqual(fingerprintsOf([{ ...file, absPath: `${p}/none.md` }]), {});
 * ```
 */
export function fingerprintsOf(files: readonly LibraryFile[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of files) {
    const stat = statStamp(file.absPath);
    if ("error" in stat) continue;
    const text = readLibraryText(file.absPath, stat.size, MAX_READ_BYTES);
    if (text.kind === "unreadable") continue;
    out[file.absPath] = makeFingerprint(stat.stamp, text.hash);
  }
  return out;
}
