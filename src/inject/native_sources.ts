/**
 * The project's own memory files, read where they lie: a nested `CLAUDE.md` or `AGENTS.md` on a
 * touched path's way up to the project root, and a rule whose globs match a touched path: Claude
 * Code's `.claude/rules/*.md` (`paths:`) and the other agents' (Cursor's `globs:`, Copilot's
 * `applyTo:`, Windsurf's `trigger: glob`; `rule_files.ts`, one front-matter reader for all:
 * `format/rule_scope.ts`). They are library sources with their own scope (their folder, or their
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
 * - another agent's rule is never loaded by Claude Code: every touch in its scope may send it;
 *   another agent's rule for the whole repository goes with the library's root files at session
 *   start ({@link repoWideRules}); an agent-requested or manual rule is never sent
 *   (`librarian import` keeps it on demand).
 *
 * A link among them is never followed: a memory file is the project's own text.
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";
import { basenameOf, dirnameOf, joinPath, normalizePath, relativeInside } from "../core/paths.ts";
import { readFileHead, readTextBounded } from "../core/fs_probe.ts";
import type { FolderListings } from "../core/folder_listing.ts";
import { atImports } from "../format/at_imports.ts";
import type { LibraryFile } from "../core/walk.ts";
import { mirrorLevels } from "../core/walk.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import { makeFingerprint } from "./ledger_format.ts";
import { MAX_READ_BYTES } from "./choose.ts";
import { globsCover, type RuleAgent } from "../format/rule_scope.ts";
import { projectRules, readRuleFiles, type RuleFile } from "./rule_files.ts";
import { isGeneratedText } from "../format/export_marks.ts";

/** The memory file names Claude Code or other agents load for a folder. */
export const NATIVE_FOLDER_FILES = ["CLAUDE.md", "AGENTS.md"] as const;

/** How a touch reaches the files: a file tool (the client loads some itself) or a command. */
export type TouchKind = "file-tool" | "command";

/** A path-scoped rule: its project-relative path, its agent and its globs. */
export interface ScopedRule {
  relPath: string;
  absPath: string;
  agent: RuleAgent;
  globs: string[];
}

/**
 * A native source, as the inject side serves it (a {@link LibraryFile} marked `native`; a rule
 * also names its agent).
 */
export type NativeSource = LibraryFile & { native: "folder" | "rule"; agent?: RuleAgent };

/**
 * `files` without the rules the agent running the hook loads by itself: Copilot CLI reads its own
 * `copilot-instructions.md` and `*.instructions.md` (Claude Code's own rules are told apart per
 * touch: {@link clientLoadedSources}).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutClientsOwnRules } from "./native_sources.ts";
 * const rule = { relPath: ".github/copilot-instructions.md", label: "c", absPath: "/p/c", native: "rule" as const, agent: "copilot" as const };
 * const lib = { relPath: "tech.md", label: "tech.md", absPath: "/p/_memory_library/tech.md" };
 * assert.deepEqual(withoutClientsOwnRules([lib, rule], "copilot"), [lib]);
 * assert.deepEqual(withoutClientsOwnRules([lib, rule], "claude"), [lib, rule]);
 * ```
 */
export function withoutClientsOwnRules<T extends LibraryFile>(
  files: readonly T[],
  client: string | undefined,
): T[] {
  if (client !== "copilot") return [...files];
  return files.filter((file) => !("agent" in file && file.agent === "copilot"));
}

/** How much of a file is read to tell whether `librarian export` wrote it (its first lines). */
const MARKER_SCAN_BYTES = 4096;

/**
 * True when the file at `absPath` is one `librarian export` wrote (its marker line:
 * `format/export_marks.ts`): the library's own text, never a native source.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGeneratedFile } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * const marker = "Generated by the Librarian from _memory_library/db. Do not edit: change the " +
 *   "library files there, then run 'librarian export --format agents-md'.";
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, `<!-- ${marker} -->\n\n- x\n`);
 * assert.ok(isGeneratedFile(`${p}/AGENTS.md`));
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "# Ours\n");
 * assert.ok(!isGeneratedFile(`${p}/AGENTS.md`));
 * assert.ok(!isGeneratedFile(`${p}/none.md`));
 * ```
 */
export function isGeneratedFile(absPath: string): boolean {
  const head = readFileHead(absPath, MARKER_SCAN_BYTES);
  return head !== null && isGeneratedText(new TextDecoder().decode(head));
}

/**
 * True when `path` is a regular file and not a link (a memory file is never followed out).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPlainFile } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- a");
 * Deno.symlinkSync(`${p}/AGENTS.md`, `${p}/link.md`);
 * assert.ok(isPlainFile(`${p}/AGENTS.md`));
 * assert.ok(!isPlainFile(`${p}/link.md`));
 * assert.ok(!isPlainFile(p));
 * ```
 */
export function isPlainFile(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
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

/**
 * The project's path-scoped rules, every agent's (`rule_files.ts`): Claude Code's with `paths:`,
 * Cursor's with `globs:`, Copilot's with `applyTo:`, Windsurf's `trigger: glob`. A rule for the
 * whole repository, on demand or manual is not listed ({@link repoWideRules}).
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
export function scopedRules(
  projectRoot: string,
  ruleFiles: readonly RuleFile[] = projectRules(projectRoot),
): ScopedRule[] {
  return ruleFiles.flatMap((rule) =>
    rule.scope.kind === "globs"
      ? [{
        relPath: rule.relPath,
        absPath: rule.absPath,
        agent: rule.agent,
        globs: rule.scope.globs,
      }]
      : []
  );
}

/** How an agent's rule is named in its label. */
const AGENT_RULE: Readonly<Record<RuleAgent, string>> = Object.freeze({
  claude: "rule",
  cursor: "Cursor rule",
  copilot: "Copilot instructions",
  windsurf: "Windsurf rule",
});

/**
 * The other agents' rules for the whole repository (Cursor's `alwaysApply: true`, Copilot's
 * `copilot-instructions.md` and `applyTo: "**"`, Windsurf's `always_on`), which Claude Code never
 * loads: the inject hook sends them with the library's root files at session start, after them,
 * under the same budget (`start.ts`). Claude Code's own rules without `paths:` are the client's.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoWideRules } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/.windsurf/rules`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/.windsurf/rules/a.md`, "---\ntrigger: always_on\n---\n- x\n");
 * Deno.writeTextFileSync(`${p}/.windsurf/rules/m.md`, "---\ntrigger: manual\n---\n- y\n");
 * assert.deepEqual(repoWideRules(p).map((r) => r.label), [
 *   ".windsurf/rules/a.md (the project's Windsurf rule for the whole repository, read in place)",
 * ]);
 * ```
 */
export function repoWideRules(projectRoot: string): NativeSource[] {
  return projectRules(projectRoot).flatMap((rule: RuleFile): NativeSource[] =>
    rule.agent !== "claude" && rule.scope.kind === "always"
      ? [{
        relPath: rule.relPath,
        label: `${rule.relPath} (the project's ${
          AGENT_RULE[rule.agent]
        } for the whole repository, read in place)`,
        absPath: rule.absPath,
        native: "rule",
        agent: rule.agent,
      }]
      : []
  );
}

/** The label a native source is shown under (quoted as data by the renderer). */
function folderLabel(relPath: string): string {
  return `${relPath} (the project's own memory file, read in place)`;
}

function ruleLabel(rule: ScopedRule): string {
  const globs = rule.globs.slice(0, 4).join(", ") + (rule.globs.length > 4 ? ", …" : "");
  return `${rule.relPath} (the project's ${AGENT_RULE[rule.agent]} for ${globs}, read in place)`;
}

function ruleSource(rule: ScopedRule): NativeSource {
  return {
    relPath: rule.relPath,
    label: ruleLabel(rule),
    absPath: rule.absPath,
    native: "rule",
    agent: rule.agent,
  };
}

/**
 * The nested memory files (below the root) on the way up from `relDir`, most specific first; a
 * file `librarian export` wrote is the library's own text, left out unless `generated` is "keep"
 * (what a client loads by itself: `loaded_exports.ts`).
 */
function folderFiles(
  projectRoot: string,
  relDir: string,
  names: readonly string[],
  generated: "skip" | "keep" = "skip",
  listings?: FolderListings,
): NativeSource[] {
  const out: NativeSource[] = [];
  for (const level of mirrorLevels(relDir)) {
    if (level === "") break; // the root's files are loaded at session start
    const absDir = joinPath(projectRoot, level);
    for (const name of names) {
      if (listings?.mayHold(absDir, name) === false) continue;
      const relPath = `${level}/${name}`;
      const absPath = joinPath(absDir, name);
      if (isPlainFile(absPath) && (generated === "keep" || !isGeneratedFile(absPath))) {
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
 * `AGENTS.md` files and every agent's rules whose globs cover a touched path; on a file tool's
 * touch only the nested `AGENTS.md` files and the other agents' rules (the client loads the rest
 * itself). `listings`: one touch's folder listings (`core/folder_listing.ts`), which spare the
 * probes of files a folder's listing shows are not there.
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
 * Deno.mkdirSync(`${p}/.cursor/rules`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/.cursor/rules/api.mdc`, "---\nglobs: src/api/**\n---\n- c");
 * assert.deepEqual(nativeSources(p, ["src/api/x.ts"], "command").map((f) => f.relPath), [
 *   "src/api/AGENTS.md",
 *   "src/CLAUDE.md",
 *   ".cursor/rules/api.mdc",
 * ]);
 * assert.deepEqual(nativeSources(p, ["src/api/x.ts"], "file-tool").map((f) => f.relPath), [
 *   "src/api/AGENTS.md",
 *   ".cursor/rules/api.mdc",
 * ]);
 * assert.deepEqual(nativeSources(p, ["src/CLAUDE.md"], "command"), [], "named by the command");
 * ```
 */
export function nativeSources(
  projectRoot: string,
  touched: readonly string[],
  kind: TouchKind,
  rules: readonly ScopedRule[] = scopedRules(projectRoot),
  listings?: FolderListings,
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
    for (const file of folderFiles(projectRoot, folderOfTouch(touch), names, "skip", listings)) {
      add(file, file.relPath.split("/").length);
    }
  }
  const sorted = byDepth.sort((a, b) => b.depth - a.depth || a.order - b.order).map((e) => e.file);
  // Claude Code loads its own rules on a file tool's touch; no client loads another agent's
  const covering = rules.filter((rule) =>
    (kind === "command" || rule.agent !== "claude") && !seen.has(rule.absPath) &&
    touched.some((t) => globsCover(rule.globs, t))
  );
  return [...sorted, ...covering.map(ruleSource)];
}

/**
 * The native sources a command's touch sends ({@link nativeSources}, `"command"`) without those
 * the client loads by itself for the files the command reads its way (`clientReads`,
 * project-relative: Claude Code 2.1.3xx after `cat F`, `grep x F`, see `client_bash_reads.ts`).
 * `listings`: as for {@link nativeSources}.
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
  listings?: FolderListings,
): NativeSource[] {
  const rules = scopedRules(projectRoot, readRuleFiles(projectRoot, listings).own);
  const sources = nativeSources(projectRoot, touched, "command", rules, listings);
  if (clientReads.length === 0) return sources;
  const served = new Set(
    clientReads.flatMap((rel) =>
      clientLoadedSources(projectRoot, rel, rules, listings).map((f) => f.absPath)
    ),
  );
  return sources.filter((file) => !served.has(file.absPath));
}

/**
 * The native files the client loads by itself on a file tool's touch of `relPath` (the nested
 * `CLAUDE.md` files on its way up, below the root, the `AGENTS.md` files they import, and the
 * rules whose globs cover it): the inject
 * hook records them as in the context window, so a later command's touch does not send them again.
 * `listings`: as for {@link nativeSources}.
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
export function clientLoadedSources(
  projectRoot: string,
  relPath: string,
  rules: readonly ScopedRule[] = scopedRules(projectRoot),
  listings?: FolderListings,
): NativeSource[] {
  const folder = folderFiles(projectRoot, dirnameOf(relPath), ["CLAUDE.md"], "skip", listings);
  const covering = rules.filter((rule) =>
    rule.agent === "claude" && globsCover(rule.globs, relPath)
  );
  return [...folder, ...importedAgents(projectRoot, folder), ...covering.map(ruleSource)];
}

/** At most this much of a `CLAUDE.md` is read for its `@` imports. */
const IMPORT_SCAN_BYTES = 256 * 1024;

/**
 * The `AGENTS.md` files that the `CLAUDE.md` files in `loaded` import (`@AGENTS.md`,
 * `@../AGENTS.md`: a common one-line `CLAUDE.md`), inside the project, each once: Claude Code
 * loads an import with the file that names it, so where it loads that `CLAUDE.md` it has loaded
 * the `AGENTS.md` too. One hop; an import inside code is text (`format/at_imports.ts`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { importedAgents } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/pkg`);
 * Deno.writeTextFileSync(`${p}/pkg/CLAUDE.md`, "@AGENTS.md\nSee @../AGENTS.md too.");
 * Deno.writeTextFileSync(`${p}/pkg/AGENTS.md`, "- pkg");
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- root");
 * const claude = { relPath: "pkg/CLAUDE.md", label: "pkg/CLAUDE.md", absPath: `${p}/pkg/CLAUDE.md` };
 * assert.deepEqual(importedAgents(p, [claude]).map((f) => f.relPath), ["pkg/AGENTS.md", "AGENTS.md"]);
 * Deno.writeTextFileSync(`${p}/pkg/CLAUDE.md`, "`@AGENTS.md` is not an import here");
 * assert.deepEqual(importedAgents(p, [claude]), []);
 * ```
 */
export function importedAgents(
  projectRoot: string,
  loaded: readonly LibraryFile[],
): NativeSource[] {
  const out: NativeSource[] = [];
  const seen = new Set<string>();
  for (const file of loaded) {
    if (!/^CLAUDE(\.local)?\.md$/.test(basenameOf(file.absPath))) continue;
    const read = readTextBounded(file.absPath, IMPORT_SCAN_BYTES);
    if (read.kind !== "text") continue;
    for (const { path } of atImports(read.text)) {
      if (basenameOf(path) !== "AGENTS.md" || /^(~|\/)/.test(path)) continue;
      const absPath = normalizePath(joinPath(dirnameOf(file.absPath), path));
      const relPath = relativeInside(absPath, projectRoot);
      if (relPath === null || relPath === "" || seen.has(absPath) || !isPlainFile(absPath)) {
        continue;
      }
      seen.add(absPath);
      out.push({ relPath, label: folderLabel(relPath), absPath, native: "folder" });
    }
  }
  return out;
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
 * The `AGENTS.md` files the project's own root `CLAUDE.md` files import (the root `CLAUDE.md`,
 * `.claude/CLAUDE.md`, `CLAUDE.local.md`): every client version loads those at the session's start,
 * with their imports.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { importedAtRoot } from "./native_sources.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- root");
 * assert.deepEqual(importedAtRoot(p), []);
 * Deno.writeTextFileSync(`${p}/CLAUDE.md`, "@AGENTS.md");
 * assert.deepEqual(importedAtRoot(p).map((f) => f.relPath), ["AGENTS.md"]);
 * ```
 */
export function importedAtRoot(projectRoot: string): NativeSource[] {
  const rootFiles = PROJECT_CLAUDE_FILES.map((relPath) => ({
    relPath,
    label: relPath,
    absPath: joinPath(projectRoot, relPath),
  }));
  return importedAgents(projectRoot, rootFiles);
}

/**
 * The nested `AGENTS.md` files Claude Code 2.1.3xx's built-in loader (`cc-plugin-agents-md`, on by
 * default) sends by itself after a Read of `relPath`: in a project without a `CLAUDE.md` of its own
 * (root, `.claude/CLAUDE.md`, `CLAUDE.local.md`), each `AGENTS.md` on the way up (below the root)
 * whose folder has no `CLAUDE.md` (observed with 2.1.332: after a Read only, not after a Write, an
 * Edit or a Bash command; no InstructionsLoaded event reports it). The caller knows the client is
 * one of those ({@link clientLoadsAfterWriteAndShellRead}). `listings`: as for {@link nativeSources}.
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
export function builtinLoadedAgents(
  projectRoot: string,
  relPath: string,
  listings?: FolderListings,
): NativeSource[] {
  const there = (dir: string, name: string) =>
    listings?.mayHold(dir, name) !== false && exists(joinPath(dir, name));
  if (PROJECT_CLAUDE_FILES.some((name) => there(projectRoot, name))) return [];
  return folderFiles(projectRoot, dirnameOf(relPath), ["AGENTS.md"], "keep", listings).filter(
    (file) => !there(joinPath(projectRoot, dirnameOf(file.relPath)), "CLAUDE.md"),
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
