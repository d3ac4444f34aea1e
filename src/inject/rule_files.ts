/**
 * The agents' rule files a project keeps, where they lie, each with its scope (front matter read
 * by `format/rule_scope.ts`): Claude Code's `.claude/rules/**\/*.md`, Cursor's
 * `.cursor/rules/**\/*.mdc`, Copilot's `.github/instructions/**\/*.instructions.md` and
 * `.github/copilot-instructions.md`, Windsurf's `.windsurf/rules/*.md`, all at the project root. A
 * file `librarian export` wrote is the library's own text and is never listed; a link is never
 * followed. Copilot's `copilot-instructions.md` is served without the section export keeps in it
 * (`inject/choose.ts`), and not at all when that section is all it holds.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import type { FolderListings } from "../core/folder_listing.ts";
import { type RuleAgent, type RuleScope, ruleScope } from "../format/rule_scope.ts";
import { isGeneratedText } from "../format/export_marks.ts";
import { withoutExportSection } from "../format/export_marks.ts";

/** Where each agent keeps its rules (project-relative) and how their files are named. */
export const RULE_FOLDERS: readonly { agent: RuleAgent; folder: string; name: RegExp }[] = Object
  .freeze([
    { agent: "claude", folder: ".claude/rules", name: /\.md$/i },
    { agent: "cursor", folder: ".cursor/rules", name: /\.mdc?$/i },
    { agent: "copilot", folder: ".github/instructions", name: /\.instructions\.md$/i },
    { agent: "windsurf", folder: ".windsurf/rules", name: /\.md$/i },
  ]);

/** Copilot's repository-wide instructions (project-relative). */
export const COPILOT_REPO_FILE = ".github/copilot-instructions.md";

/** At most this many rule files are read per agent's folder (a handful, usually). */
export const MAX_RULES = 64;

/** How much of a rule file is read for its front matter. */
const HEAD_CHARS = 8192;

/** A rule file where it lies, with its agent and scope. */
export interface RuleFile {
  relPath: string;
  absPath: string;
  agent: RuleAgent;
  scope: RuleScope;
}

function isPlainFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The head of a file, or null; `plain`: the caller knows it is a plain file, not a link. */
function headOf(absPath: string, plain = false): string | null {
  try {
    if (!plain && !Deno.lstatSync(absPath).isFile) return null;
    return Deno.readTextFileSync(absPath).slice(0, HEAD_CHARS);
  } catch {
    return null;
  }
}

/**
 * Which agent's rule folder a project-relative path is a rule file of (at the project root), or
 * null: what the inject hook reads where it lies.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleAgentOf } from "./rule_files.ts";
 * assert.equal(ruleAgentOf(".cursor/rules/db/x.mdc"), "cursor");
 * assert.equal(ruleAgentOf(".github/copilot-instructions.md"), "copilot");
 * assert.equal(ruleAgentOf("web/.cursor/rules/x.mdc"), null, "a nested rules folder is not read");
 * assert.equal(ruleAgentOf(".github/instructions/ui.md"), null);
 * ```
 */
export function ruleAgentOf(relPath: string): RuleAgent | null {
  if (relPath === COPILOT_REPO_FILE) return "copilot";
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  for (const { agent, folder, name: pattern } of RULE_FOLDERS) {
    if (relPath.startsWith(`${folder}/`) && pattern.test(name)) return agent;
  }
  return null;
}

/**
 * Every rule file of the project (see the module), by agent then path, with its scope; the
 * repository's `copilot-instructions.md` is `always`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectRules } from "./rule_files.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/.cursor/rules`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/.cursor/rules/t.mdc`, "---\nglobs: **\/trigger/**\n---\n- x\n");
 * Deno.mkdirSync(`${p}/.github`);
 * Deno.writeTextFileSync(`${p}/.github/copilot-instructions.md`, "- y\n");
 * assert.deepEqual(projectRules(p).map((r) => [r.relPath, r.scope.kind]), [
 *   [".cursor/rules/t.mdc", "globs"],
 *   [".github/copilot-instructions.md", "always"],
 * ]);
 * ```
 */
export function projectRules(projectRoot: string): RuleFile[] {
  return readRuleFiles(projectRoot).own;
}

/** The project's rule files in one pass: the people's own, and the `claude-rules` exports. */
export interface ProjectRuleFiles {
  /** Every rule file that is not an export ({@link projectRules}). */
  own: RuleFile[];
  /** The rules `export --format claude-rules` wrote ({@link exportedClaudeRules}). */
  exported: RuleFile[];
}

/**
 * Every rule folder of the project read once, its files split into the people's own rules and
 * the `claude-rules` exports (a touch needs both: one read of `.claude/rules`, not two).
 * `listings`: one touch's folder listings (`core/folder_listing.ts`), which spare the probes of
 * folders the root's listing shows are not there (`.cursor`, `.github`, ...).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRuleFiles } from "./rule_files.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/.claude/rules`, { recursive: true });
 * const marker = "Generated by the Librarian from _memory_library/db. Do not edit: change the " +
 *   "library files there, then run 'librarian export --format claude-rules'.";
 * Deno.writeTextFileSync(`${p}/.claude/rules/librarian-db.md`, `---\n# ${marker}\npaths: db/**\n---\n- x\n`);
 * Deno.writeTextFileSync(`${p}/.claude/rules/mine.md`, "---\npaths: db/**\n---\n- y\n");
 * const files = readRuleFiles(p);
 * assert.deepEqual(files.own.map((r) => r.relPath), [".claude/rules/mine.md"]);
 * assert.deepEqual(files.exported.map((r) => r.relPath), [".claude/rules/librarian-db.md"]);
 * ```
 */
export function readRuleFiles(
  projectRoot: string,
  listings?: FolderListings,
): ProjectRuleFiles {
  const own: RuleFile[] = [];
  let exported: RuleFile[] = [];
  const mayHold = (relPath: string) => listings?.mayHold(projectRoot, relPath) !== false;
  for (const place of RULE_FOLDERS) {
    const found = mayHold(place.folder) ? rulesIn(projectRoot, place) : { own: [], exported: [] };
    own.push(...found.own);
    const { agent } = place;
    if (agent === "claude") exported = found.exported;
    if (agent === "copilot" && mayHold(COPILOT_REPO_FILE)) {
      const absPath = joinPath(projectRoot, COPILOT_REPO_FILE);
      const head = headOf(absPath);
      // a file that holds only export's section is the library's own text
      if (head !== null && withoutExportSection(head).trim() !== "") {
        own.push({ relPath: COPILOT_REPO_FILE, absPath, agent, scope: { kind: "always" } });
      }
    }
  }
  return { own, exported };
}

/**
 * The rule files of one agent's folder by path, the people's own apart from export's (at most
 * {@link MAX_RULES} of each).
 */
function rulesIn(
  projectRoot: string,
  { agent, folder, name }: typeof RULE_FOLDERS[number],
): ProjectRuleFiles {
  const own: RuleFile[] = [];
  const exported: RuleFile[] = [];
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
      if (own.length >= MAX_RULES && exported.length >= MAX_RULES) return;
      const relPath = `${relDir}/${entry.name}`;
      if (entry.isDirectory) visit(relPath, depth + 1);
      if (!entry.isFile || !name.test(entry.name)) continue;
      const absPath = joinPath(projectRoot, relPath);
      // a folder entry that is a file is no link (a link's entry is neither file nor folder)
      const head = headOf(absPath, true);
      if (head === null) continue;
      const rules = isGeneratedText(head) ? exported : own;
      if (rules.length < MAX_RULES) {
        rules.push({ relPath, absPath, agent, scope: ruleScope(agent, head) });
      }
    }
  };
  visit(folder, 0);
  return { own, exported };
}

/**
 * The rules `librarian export --format claude-rules` wrote into `.claude/rules` (never listed by
 * {@link projectRules}): Claude Code loads them like any rule (`paths:` on a touch in scope, one
 * without at session start), and each stands for the library folder it was generated from.
 * `listings`: one touch's folder listings, which spare the probe when the root has no `.claude`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportedClaudeRules, projectRules } from "./rule_files.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/.claude/rules`, { recursive: true });
 * const marker = "Generated by the Librarian from _memory_library/db. Do not edit: change the " +
 *   "library files there, then run 'librarian export --format claude-rules'.";
 * Deno.writeTextFileSync(`${p}/.claude/rules/librarian-db.md`, `---\n# ${marker}\npaths:\n  - db/**\n---\n- x\n`);
 * Deno.writeTextFileSync(`${p}/.claude/rules/mine.md`, "---\npaths: db/**\n---\n- y\n");
 * assert.deepEqual(exportedClaudeRules(p).map((r) => [r.relPath, r.scope]), [
 *   [".claude/rules/librarian-db.md", { kind: "globs", globs: ["db/**"] }],
 * ]);
 * assert.deepEqual(projectRules(p).map((r) => r.relPath), [".claude/rules/mine.md"]);
 * ```
 */
export function exportedClaudeRules(projectRoot: string, listings?: FolderListings): RuleFile[] {
  const claude = RULE_FOLDERS[0]!;
  if (listings?.mayHold(projectRoot, claude.folder) === false) return [];
  return rulesIn(projectRoot, claude).exported;
}
