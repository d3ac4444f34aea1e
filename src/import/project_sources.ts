/**
 * What `librarian import` finds in a project (effects): every kind of agent memory below a folder
 * (or one file), read through the project's {@link Boundary} (a link leading outside, a FIFO or an
 * oversized file is never read), each mapped to the library folder its text applies to, with
 * `CLAUDE.md`'s `@` imports followed inside the project. What the original becomes is decided
 * here too: `CLAUDE.md` is handed over (Claude Code loads it by itself), other agents' files are
 * kept.
 *
 * @module
 */

import {
  basenameOf,
  Boundary,
  BoundaryError,
  compareNames,
  dirnameOf,
  isAbsolutePath,
  isDirectory,
  joinPath,
  messageOf,
  normalizePath,
  relativeInside,
} from "../core/mod.ts";
import { MARKER_WORDS } from "../export/mod.ts";
import {
  type Classified,
  classify,
  HANDED_OVER,
  loadedByClaude,
  parseRule,
  type SourceKind,
} from "./source_formats.ts";
import { kebabCase, mapSource, type SourceFile } from "./import_plan.ts";
import { doubledText, type Doubling, type NativeFile } from "./native.ts";
import { ruleAgentOf } from "../inject/mod.ts";
import {
  atImports,
  type ExportFormat,
  exportFormatOf,
  exportSourceOf,
  isGeneratedText,
  MAX_IMPORT_DEPTH,
  type RuleAgent,
  type RuleScope,
  ruleScope,
  withoutExportSection,
  withoutHeldSections,
  withoutImports,
} from "../format/mod.ts";

/** Folders never searched. */
const SKIPPED_DIRS = new Set(["node_modules", "vendor", "dist", "build", "target", "out"]);
/** Dot-folders that hold agent memory; every other one is skipped. */
const MEMORY_DOT_DIRS = new Set([".cursor", ".github", ".windsurf", ".clinerules", ".claude"]);
/** How deep below the start folder memory files are looked for. */
const MAX_DEPTH = 16;
/** Folder entries looked at, at most (a huge tree is not walked to its end). */
const MAX_ENTRIES = 200_000;
/** The largest memory file read. */
export const MAX_SOURCE_BYTES = 1_048_576;

/** What happens to an original file once its text is in the library. */
export type OriginalAction = "hand-over" | "keep" | "left";

/** An original memory file and what becomes of it. */
export interface Original {
  /** Project-relative path. */
  rel: string;
  kind: SourceKind | "imported";
  /** `hand-over`: replaced by a stub; `keep`: other agents read it; `left`: no longer loaded. */
  action: OriginalAction;
  /** The library files its text goes to. */
  targets: string[];
  /** The library folder of its level (`""`: the root). */
  level: string;
  /** `@` imports it keeps (outside the project), written into its stub. */
  keptImports: string[];
  /** Its text as read (line numbers of held lines refer to it). */
  text: string;
}

/** Everything found: the texts to import, the originals, and what was left with why. */
export interface ProjectSources {
  files: SourceFile[];
  originals: Original[];
  left: { name: string; why: string }[];
  /**
   * Memory files read where they lie (not imported): a client loads them by path and the inject
   * hook sends them where it does not (`inject/native_sources.ts`), with why.
   */
  inPlace: { name: string; why: string }[];
  /** Rules kept on demand: their library file, level and description. */
  onDemand: { source: string; target: string; level: string; description: string | null }[];
}

/** The project-relative paths of memory files below `start` (a folder), sorted. */
function walk(start: string, projectRoot: string, skip: string): string[] {
  const found: string[] = [];
  let seen = 0;
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)].sort((a, b) => compareNames(a.name, b.name));
    } catch {
      return;
    }
    seen += entries.length;
    for (const entry of entries) {
      const path = joinPath(dir, entry.name);
      // a link is never followed: one to a memory file is listed, and left with the reason
      if (entry.isSymlink) {
        const rel = relativeInside(path, projectRoot);
        if (rel !== null && classify(rel) !== null) found.push(rel);
        continue;
      }
      const rel = relativeInside(path, projectRoot);
      if (rel === null) continue;
      if (entry.isDirectory) {
        if (path === skip || SKIPPED_DIRS.has(entry.name) || entry.name === ".git") continue;
        if (entry.name.startsWith(".") && !MEMORY_DOT_DIRS.has(entry.name)) continue;
        visit(path, depth + 1);
      } else if (classify(rel) !== null) {
        // a link, a FIFO or a device is listed too: the boundary refuses it with the reason
        found.push(rel);
      }
    }
  };
  visit(start, 0);
  return found;
}

/**
 * Why a memory file that is a link is not imported, or null when it is no link. A link is never
 * read through: outside the project it may be private, inside it names a file imported on its
 * own (and a stub written through it would overwrite that file).
 */
function linkWhy(path: string, projectRoot: string): string | null {
  try {
    if (!Deno.lstatSync(path).isSymlink) return null;
  } catch {
    return null;
  }
  let target: string | null = null;
  try {
    target = relativeInside(Deno.realPathSync(path), Deno.realPathSync(projectRoot));
  } catch {
    return "a link to nothing: not read";
  }
  return target === null
    ? "a link leading outside the project: not read"
    : `a link to ${
      target === "" ? "the project folder" : target
    }: not read (its target is read on its own)`;
}

/** Reads a project file through the boundary: its text, or why not. */
function read(
  boundary: Boundary,
  path: string,
): { text: string } | { why: string; notText?: true } {
  try {
    const text = boundary.readText(path, MAX_SOURCE_BYTES);
    return text === null ? { why: "not found" } : { text };
  } catch (error) {
    if (error instanceof BoundaryError && error.refusal.kind === "not-text") {
      return { why: "not UTF-8 text", notText: true };
    }
    return { why: messageOf(error) };
  }
}

/** How a rule's kind is named in its provenance line. */
const RULE_LABEL: Partial<Record<SourceKind, string>> = {
  cursor: "Cursor rule",
  copilot: "Copilot instructions",
  windsurf: "Windsurf rule",
  cline: "Cline rule",
};

const levelLabel = (level: string) => level === "" ? "the root" : `${level}/`;

function targetStem(kind: SourceKind, rel: string): string {
  const name = basenameOf(rel);
  if (kind === "memory-bank") return mapSource(name).target.replace(/\.md$/, "");
  if (name === ".cursorrules") return "cursor-rules";
  if (name === ".clinerules") return "cline-rules";
  if (name === ".windsurfrules") return "windsurf-rules";
  return kebabCase(name.replace(/(\.instructions)?\.(md|mdc|txt)$/i, ""));
}

const inFolder = (level: string, file: string) => level === "" ? file : `${level}/${file}`;

/** The common leading folder of several levels. */
function commonLevel(levels: readonly string[]): string {
  const split = levels.map((l) => l === "" ? [] : l.split("/"));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join("/");
}

/** What `import` takes from the files clients read by path. */
export interface SourceChoices {
  /**
   * Hand over `CLAUDE.md` (imported, the original becomes a stub) and import `AGENTS.md`: the
   * explicit choice (`--hand-over`). Without it both are read where they lie.
   */
  handOver?: boolean;
  /** `AGENTS.md` becomes the agents-md export: it is imported (its text is the library's then). */
  agentsExport?: boolean;
  /**
   * The other agents whose rules become their export (`cursor`, `copilot`): their rules are
   * imported (their text is the library's then). Without it, a rule the inject hook serves where
   * it lies ({@link servedInPlace}) stays there, `--hand-over` or not: imported too, it would reach
   * the model twice.
   */
  rulesExport?: readonly string[];
  /**
   * The context budget of one touch: a `CLAUDE.md` longer than this is never handed over (the
   * client loads it whole; from the library it would arrive as an excerpt).
   */
  budget?: number;
}

/** How an agent's rule is named in words. */
const AGENT_RULE: Readonly<Record<RuleAgent, string>> = {
  claude: "Claude Code rule",
  cursor: "Cursor rule",
  copilot: "Copilot instructions file",
  windsurf: "Windsurf rule",
};

/**
 * The scope of another agent's rule the inject hook serves where it lies (`inject/rule_files.ts`:
 * at the project root; for globs or the whole repository), or null: an agent-requested or manual
 * rule, a nested rules folder, a `.cursorrules` file are no one's to send by path.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { servedInPlace } from "./project_sources.ts";
 * assert.deepEqual(servedInPlace(".cursor/rules/t.mdc", "---\nglobs: **\/trigger/**\n---\n"), {
 *   agent: "cursor",
 *   scope: { kind: "globs", globs: ["**\/trigger/**"] },
 * });
 * assert.equal(servedInPlace(".cursor/rules/r.mdc", "---\ndescription: releases\n---\n"), null);
 * assert.equal(servedInPlace(".cursorrules", "- x"), null);
 * ```
 */
export function servedInPlace(
  rel: string,
  text: string,
): { agent: RuleAgent; scope: RuleScope } | null {
  const agent = ruleAgentOf(rel);
  if (agent === null || agent === "claude") return null;
  const scope = rel.endsWith("/copilot-instructions.md")
    ? { kind: "always" as const }
    : ruleScope(agent, text);
  return scope.kind === "globs" || scope.kind === "always" ? { agent, scope } : null;
}

/** Why a file clients read by path is read where it lies, not imported. */
export function whyInPlace(kind: SourceKind, base: string, text: string, rel = ""): string {
  const at = base === "" ? "the root" : `${base}/`;
  if (kind === "claude") {
    return base === ""
      ? "read in place: Claude Code loads it whole at every session start; " +
        "--hand-over imports it and leaves a stub"
      : `read in place: Claude Code loads it on a Read or Write in ${at}, the Librarian sends it ` +
        "on shell commands there; --hand-over imports it and leaves a stub";
  }
  if (kind === "agents") {
    return base === ""
      ? "read in place: Codex and Claude Code (2.1.277+, without a CLAUDE.md) load it at start; " +
        "--hand-over imports it"
      : `read in place: the Librarian sends it on every touch of ${at}; --hand-over imports it`;
  }
  const served = servedInPlace(rel, text);
  if (served !== null) {
    const what = AGENT_RULE[served.agent];
    const becomes = served.agent === "windsurf"
      ? ""
      : `; --export ${served.agent} imports it and makes it the export`;
    return served.scope.kind === "globs"
      ? `read in place: a ${what} for ${served.scope.globs.join(", ")}; the Librarian sends it ` +
        `on every touch it covers (Claude Code never loads it)${becomes}`
      : `read in place: a ${what} for the whole repository; the Librarian sends it with the ` +
        `library's root files at session start (Claude Code never loads it)${becomes}`;
  }
  const scope = ruleScope("claude", text);
  return scope.kind !== "globs"
    ? "read in place: a Claude Code rule without paths:, loaded at every session start"
    : `read in place: a Claude Code rule for ${scope.globs.join(", ")}, loaded on a Read or ` +
      "Write of a matching file; the Librarian sends it on shell commands that touch one";
}

/**
 * Finds and reads the agent memory at or below `start` (a folder or one file) of the project at
 * `projectRoot`; `libraryRoot` is never searched. `CLAUDE.md`, `AGENTS.md` and Claude Code's
 * rules are read where they lie unless `choices` says otherwise.
 */
export function findProjectSources(
  start: string,
  projectRoot: string,
  libraryRoot: string,
  choices: SourceChoices = {},
): ProjectSources {
  const boundary = new Boundary(projectRoot, "project");
  const result: ProjectSources = { files: [], originals: [], left: [], inPlace: [], onDemand: [] };
  const startRel = relativeInside(start, projectRoot) ?? "";
  const rels = isDirectory(start) ? walk(start, projectRoot, libraryRoot) : [startRel];
  const texts = new Map<string, string>();
  const classes = new Map<string, Classified>();
  for (const rel of rels) {
    const classified = classify(rel) ?? { kind: "memory-bank", base: "", rule: false };
    const linked = linkWhy(joinPath(projectRoot, rel), projectRoot);
    if (linked !== null) {
      result.left.push({ name: rel, why: linked });
      continue;
    }
    const got = read(boundary, joinPath(projectRoot, rel));
    if ("why" in got) {
      if (got.notText) {
        result.files.push({
          name: rel,
          content: { kind: "not-utf8" },
          target: inFolder(classified.base, `${targetStem(classified.kind, rel)}.md`),
        });
      } else result.left.push({ name: rel, why: got.why });
      continue;
    }
    const firstLine = got.text.split("\n", 1)[0] ?? "";
    if (firstLine.includes(MARKER_WORDS)) {
      result.left.push({ name: rel, why: "written by 'librarian export' from the library" });
      continue;
    }
    if (got.text.includes(HANDED_OVER)) {
      result.left.push({ name: rel, why: "handed over already: a stub naming the library" });
      continue;
    }
    const inPlace = classified.kind === "claude-rule" ||
      classified.kind === "claude" && !choices.handOver ||
      classified.kind === "agents" && !choices.handOver && !choices.agentsExport ||
      !(choices.rulesExport ?? []).includes(classified.kind) &&
        servedInPlace(rel, got.text) !== null;
    if (inPlace) {
      result.inPlace.push({
        name: rel,
        why: whyInPlace(classified.kind, classified.base, got.text, rel),
      });
      continue;
    }
    const budget = choices.budget ?? Infinity;
    if (classified.kind === "claude" && got.text.length > budget) {
      const chars = got.text.length.toLocaleString("en-US");
      result.inPlace.push({
        name: rel,
        why: `read in place, not handed over: Claude Code loads its ${chars} characters whole, ` +
          `and from the library a touch would bring an excerpt (budget ${
            budget.toLocaleString("en-US")
          }); move its sections into folder files by hand to shrink it first`,
      });
      continue;
    }
    if (classified.kind === "claude-local") {
      result.left.push({
        name: rel,
        why: "personal (CLAUDE.local.md is not committed); its text stays yours, not the team's",
      });
      continue;
    }
    texts.set(rel, got.text);
    classes.set(rel, classified);
  }
  // CLAUDE.md's @ imports, followed breadth-first inside the project: who imports what.
  const importers = new Map<string, Set<string>>(); // imported rel -> levels of its importers
  const followedBy = new Map<string, Set<string>>(); // importing rel -> import paths followed
  const outsideBy = new Map<string, string[]>();
  const queue: { rel: string; level: string; depth: number }[] = [];
  for (const [rel, c] of classes) {
    if (loadedByClaude(c.kind)) queue.push({ rel, level: c.base, depth: 0 });
  }
  const visited = new Set(queue.map((q) => q.rel));
  while (queue.length > 0) {
    const { rel, level, depth } = queue.shift()!;
    const text = texts.get(rel);
    if (text === undefined || depth >= MAX_IMPORT_DEPTH) continue;
    for (const { path } of atImports(text)) {
      if (path.startsWith("~/")) {
        outsideBy.set(rel, [...(outsideBy.get(rel) ?? []), `@${path}`]);
        continue;
      }
      const abs = normalizePath(
        isAbsolutePath(path) ? path : joinPath(dirnameOf(joinPath(projectRoot, rel)), path),
      );
      const target = relativeInside(abs, projectRoot);
      if (target === null || target === "") {
        outsideBy.set(rel, [...(outsideBy.get(rel) ?? []), `@${path}`]);
        continue;
      }
      if (!texts.has(target)) {
        if (
          !/\.[A-Za-z0-9]+$/.test(target) || target.startsWith(".git/") ||
          relativeInside(abs, libraryRoot) !== null
        ) continue;
        const got = read(boundary, abs);
        if ("why" in got) continue; // not a file there: the text stays as it is
        texts.set(target, got.text);
      }
      followedBy.set(rel, new Set([...(followedBy.get(rel) ?? []), path]));
      if (!classes.has(target)) {
        importers.set(target, new Set([...(importers.get(target) ?? []), level]));
      }
      if (!visited.has(target)) {
        visited.add(target);
        queue.push({ rel: target, level, depth: depth + 1 });
      }
    }
  }
  const folderExists = (folder: string) => isDirectory(joinPath(projectRoot, folder));
  const add = (rel: string, kind: SourceKind | "imported", level: string, body: string, extra: {
    note?: string;
    firstLine?: number;
    target?: string;
    transient?: boolean;
  }) => {
    const target = extra.target ??
      inFolder(
        level,
        `${
          kind === "imported"
            ? kebabCase(basenameOf(rel).replace(/\.[^.]*$/, ""))
            : targetStem(kind, rel)
        }.md`,
      );
    result.files.push({
      name: rel,
      content: { kind: "text", text: body },
      target,
      ...(extra.note ? { note: extra.note } : {}),
      ...(extra.firstLine && extra.firstLine > 1 ? { firstLine: extra.firstLine } : {}),
      ...(extra.transient ? { transient: true } : {}),
    });
    return target;
  };
  for (const [rel, c] of classes) {
    const text = texts.get(rel)!;
    const followed = followedBy.get(rel) ?? new Set<string>();
    const body = followed.size ? withoutImports(text, followed) : text;
    const original: Original = {
      rel,
      kind: c.kind,
      action: loadedByClaude(c.kind) ? "hand-over" : "keep",
      targets: [],
      level: c.base,
      keptImports: outsideBy.get(rel) ?? [],
      text,
    };
    result.originals.push(original);
    if (!c.rule) {
      // a CLAUDE.md that only imports leaves no file of its own; an empty file is reported
      if (body.trim() !== "" || text.trim() === "") {
        original.targets.push(add(rel, c.kind, c.base, body, {
          ...(c.kind === "memory-bank" && mapSource(basenameOf(rel)).transient
            ? { transient: true }
            : {}),
        }));
      }
      continue;
    }
    const parsed = parseRule(c.kind, c.base, body, folderExists);
    const label = RULE_LABEL[c.kind] ?? c.kind;
    const rule = { ...parsed, note: parsed.note ? `${label}; ${parsed.note}` : label };
    const firstLine = rule.skippedLines + 1;
    if (rule.widened !== undefined) {
      // placed at its base it would apply to more than its globs: never widened, left
      result.originals.pop();
      result.left.push({
        name: rel,
        why: `its globs (${rule.widened}) name no one folder of the project: imported it would ` +
          `apply to all of ${levelLabel(c.base)}; left where it lies (its agent still reads it)`,
      });
      continue;
    }
    original.level = rule.placement.folder;
    if (rule.placement.kind === "folder") {
      original.targets.push(
        add(rel, c.kind, rule.placement.folder, rule.body, {
          ...(rule.note ? { note: rule.note } : {}),
          firstLine,
        }),
      );
      continue;
    }
    const target = inFolder(rule.placement.folder, `.on-demand/${targetStem(c.kind, rel)}.md`);
    original.targets.push(add(rel, c.kind, rule.placement.folder, rule.body, {
      note: `${rule.note}; kept on demand, not sent on every touch`,
      firstLine,
      target,
    }));
    result.onDemand.push({
      source: rel,
      target,
      level: rule.placement.folder,
      description: rule.placement.description,
    });
  }
  for (const [rel, levels] of importers) {
    const level = commonLevel([...levels]);
    const text = texts.get(rel)!;
    const followed = followedBy.get(rel) ?? new Set<string>();
    const body = followed.size ? withoutImports(text, followed) : text;
    const target = add(rel, "imported", level, body, {
      note: `imported with @ by a CLAUDE.md; applies to ${levelLabel(level)}`,
    });
    result.originals.push({
      rel,
      kind: "imported",
      action: "left",
      targets: [target],
      level,
      keptImports: [],
      text,
    });
  }
  return result;
}

/**
 * The index of a folder's on-demand rules: the text its folder's context carries so the model
 * knows each rule and can read it when it fits (pure).
 *
 * @example Usage
 * ```ts
 * import { onDemandIndex } from "./project_sources.ts";
 * import assert from "node:assert/strict";
 *
 * const text = onDemandIndex("_memory_library", [
 *   { target: ".on-demand/release.md", description: "How to cut a release" },
 * ]);
 * assert.match(text, /^- `_memory_library\/\.on-demand\/release\.md`: How to cut a release$/m);
 * ```
 */
export function onDemandIndex(
  libraryLabel: string,
  rules: readonly { target: string; description: string | null }[],
): string {
  const lines = rules.map((r) =>
    `- \`${libraryLabel}/${r.target}\`: ${r.description ?? "a manual rule (no description)"}`
  );
  return "Rules kept on demand (not sent on every touch): read one with the Read tool when its " +
    `description fits the task.\n${lines.join("\n")}\n`;
}

/** The library's served files (`.md`, not dot-named, not below a dot-folder) and their texts. */
function libraryTexts(libraryRoot: string): { relPath: string; text: string }[] {
  const boundary = new Boundary(libraryRoot, "library");
  const texts: { relPath: string; text: string }[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)].sort((a, b) => compareNames(a.name, b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.isSymlink) continue;
      const path = joinPath(dir, entry.name);
      if (entry.isDirectory) visit(path, depth + 1);
      else if (entry.isFile && entry.name.toLowerCase().endsWith(".md")) {
        const got = read(boundary, path);
        if ("text" in got) {
          texts.push({ relPath: relativeInside(path, libraryRoot)!, text: got.text });
        }
      }
    }
  };
  visit(libraryRoot, 0);
  return texts;
}

/** The kinds of memory file that reach the model where they lie (the client's or the Librarian's). */
const NATIVE_KINDS = new Set<SourceKind>(["claude", "agents", "claude-rule"]);

/**
 * The memory files that reach the model where they lie (every `CLAUDE.md` not yet handed over and
 * the project files they `@`-import, `AGENTS.md`, Claude Code's `.claude/rules/*.md`) whose lines
 * are also in the library.
 */
export function nativeDoublings(projectRoot: string, libraryRoot: string): Doubling[] {
  const boundary = new Boundary(projectRoot, "project");
  const library = libraryTexts(libraryRoot);
  const natives: NativeFile[] = [];
  const exported: { rel: string; text: string; format: ExportFormat }[] = [];
  const seen = new Set<string>();
  const queue = walk(projectRoot, projectRoot, libraryRoot)
    .filter((rel) => NATIVE_KINDS.has(classify(rel)?.kind as SourceKind) || ruleAgentOf(rel))
    .map((rel) => ({ rel, depth: 0 }));
  while (queue.length > 0) {
    const { rel, depth } = queue.shift()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const got = read(boundary, joinPath(projectRoot, rel));
    if (!("text" in got) || got.text.includes(HANDED_OVER)) continue;
    // another agent's rule counts where the inject hook serves it; an export is the library's own
    const other = ruleAgentOf(rel) !== null && classify(rel)?.kind !== "claude-rule";
    if (other && (servedInPlace(rel, got.text) === null || isGeneratedText(got.text))) continue;
    // the Librarian's own export: only what it holds from older library files can double
    // (the inject hook leaves what it holds as it is to the client: inject/loaded_exports.ts)
    const format = exportFormatOf(got.text);
    if (format !== null) {
      natives.push({ rel, text: withoutHeldSections(got.text, library), exported: format });
      exported.push({ rel, text: got.text, format });
      continue;
    }
    natives.push({ rel, text: withoutExportSection(got.text) });
    if (depth >= MAX_IMPORT_DEPTH) continue;
    for (const { path } of atImports(got.text)) {
      if (path.startsWith("~/")) continue;
      const abs = normalizePath(
        isAbsolutePath(path) ? path : joinPath(dirnameOf(joinPath(projectRoot, rel)), path),
      );
      const target = relativeInside(abs, projectRoot);
      if (target && relativeInside(abs, libraryRoot) === null) {
        queue.push({ rel: target, depth: depth + 1 });
      }
    }
  }
  const doublings = natives.length ? doubledText(natives, library) : [];
  return [...doublings, ...twinExports(projectRoot, exported, library)];
}

/** The files whose presence makes Claude Code 2.1.3xx's built-in `AGENTS.md` loader stand aside. */
const PROJECT_CLAUDE_FILES = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] as const;

/**
 * A library folder exported both as a nested `AGENTS.md` and as a `claude-rules` rule, in a
 * project where Claude Code 2.1.3xx's built-in loader sends that `AGENTS.md` after a Read (no
 * `CLAUDE.md` of the project's, none in that folder): the client itself then loads the folder's
 * text twice, from both exports (observed with 2.1.332), whatever the hooks do.
 */
function twinExports(
  projectRoot: string,
  exported: readonly { rel: string; text: string; format: ExportFormat }[],
  library: readonly { relPath: string; text: string }[],
): Doubling[] {
  const present = (rel: string) => {
    try {
      Deno.statSync(joinPath(projectRoot, rel));
      return true;
    } catch {
      return false;
    }
  };
  if (PROJECT_CLAUDE_FILES.some(present)) return [];
  const rules = new Map(
    exported.filter((e) => e.format === "claude-rules").map((e) => [exportSourceOf(e.text), e.rel]),
  );
  return exported.flatMap((agents) => {
    if (agents.format !== "agents-md" || !agents.rel.includes("/")) return [];
    const twin = rules.get(exportSourceOf(agents.text));
    if (twin === undefined || present(joinPath(dirnameOf(agents.rel), "CLAUDE.md"))) return [];
    const [found] = doubledText([{ rel: agents.rel, text: agents.text }], library);
    return found ? [{ ...found, exported: agents.format, twin }] : [];
  });
}
