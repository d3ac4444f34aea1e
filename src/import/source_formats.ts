/**
 * What each agent's memory file is and where its text applies (pure): `CLAUDE.md` at any level,
 * `AGENTS.md`, `GEMINI.md`, Cursor rules (`.cursor/rules/**`, `.cursorrules`), Cline
 * (`.clinerules` file or folder, `memory-bank/`), Copilot (`.github/copilot-instructions.md`,
 * `.github/instructions/**`) and Windsurf (`.windsurf/rules/**`). A rule's front matter is read,
 * not copied: globs under one folder place it there, a rule for every file goes to its base folder,
 * and a manual or agent-requested rule is kept on demand, never sent on every touch.
 *
 * @module
 */

import { frontMatterKeys, globsOf } from "../format/mod.ts";
import { globsFolder } from "./sources.ts";

/** Which agent's file it is. */
export type SourceKind =
  | "claude"
  | "claude-local"
  | "claude-rule"
  | "agents"
  | "gemini"
  | "cursor"
  | "cline"
  | "memory-bank"
  | "copilot"
  | "windsurf";

/** A file recognised as agent memory: its kind and the project folder it belongs to. */
export interface Classified {
  kind: SourceKind;
  /** The project folder its text applies to before front matter is read (`""`: the root). */
  base: string;
  /** A rule file with front matter (globs, alwaysApply, applyTo, trigger). */
  rule: boolean;
}

const dirOf = (rel: string) => rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";

/** The folder before a marker segment sequence (`a/.cursor/rules/x/y.mdc` → `a`), or null. */
function baseBefore(rel: string, marker: string): string | null {
  const at = `/${rel}`.indexOf(`/${marker}/`);
  return at < 0 ? null : rel.slice(0, Math.max(0, at - 1));
}

/**
 * What a project file is, from its project-relative path, or null when it is not agent memory
 * (pure).
 *
 * @example Usage
 * ```ts
 * import { classify } from "./source_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(classify("packages/a/CLAUDE.md"), { kind: "claude", base: "packages/a", rule: false });
 * assert.deepEqual(classify(".claude/CLAUDE.md"), { kind: "claude", base: "", rule: false });
 * assert.deepEqual(classify("web/.cursor/rules/ui/forms.mdc"), { kind: "cursor", base: "web", rule: true });
 * assert.deepEqual(classify("memory-bank/techContext.md"), { kind: "memory-bank", base: "", rule: false });
 * assert.deepEqual(classify(".claude/rules/db.md"), { kind: "claude-rule", base: "", rule: true });
 * assert.equal(classify("skills/review/agents.md"), null, "a skill's document, not agent memory");
 * assert.equal(classify("docs/guide.md"), null);
 * ```
 */
export function classify(rel: string): Classified | null {
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  const dir = dirOf(rel);
  const lower = name.toLowerCase();
  const plain = (kind: SourceKind, base = dir): Classified => ({ kind, base, rule: false });
  let base: string | null;
  if ((base = baseBefore(rel, ".claude/rules")) !== null) {
    // read where it lies, never imported: named in the plan with why
    return /\.md$/i.test(name) ? { kind: "claude-rule", base, rule: true } : null;
  }
  if ((base = baseBefore(rel, ".cursor/rules")) !== null) {
    return /\.(mdc|md)$/i.test(name) ? { kind: "cursor", base, rule: true } : null;
  }
  if ((base = baseBefore(rel, ".windsurf/rules")) !== null) {
    return /\.md$/i.test(name) ? { kind: "windsurf", base, rule: true } : null;
  }
  if ((base = baseBefore(rel, ".github/instructions")) !== null) {
    return /\.instructions\.md$/i.test(name) ? { kind: "copilot", base, rule: true } : null;
  }
  if ((base = baseBefore(rel, ".clinerules")) !== null) {
    return /\.(md|txt)$/i.test(name) ? { kind: "cline", base, rule: true } : null;
  }
  if ((base = baseBefore(rel, "memory-bank")) !== null) {
    // the bank's own files; a sub-folder (an archive) is not memory
    const own = rel === (base === "" ? `memory-bank/${name}` : `${base}/memory-bank/${name}`);
    return own && /\.md$/i.test(name) && !/^readme\.md$/i.test(name)
      ? plain("memory-bank", base)
      : null;
  }
  if (lower === "claude.md") {
    return dir === ".claude" || dir.endsWith("/.claude")
      ? plain("claude", dirOf(dir))
      : dir.split("/").some((s) => s.startsWith("."))
      ? null
      : plain("claude");
  }
  if (dir.split("/").some((s) => s.startsWith(".") && s !== ".github")) return null;
  if (lower === "claude.local.md") return plain("claude-local");
  // AGENTS.md exactly, as the agents that read it name it: a skill's `agents.md` is a document
  if (name === "AGENTS.md") return plain("agents");
  if (lower === "gemini.md") return plain("gemini");
  if (name === ".cursorrules") return plain("cursor");
  if (name === ".clinerules" || name === ".windsurfrules") {
    return plain(name === ".clinerules" ? "cline" : "windsurf");
  }
  if (lower === "copilot-instructions.md" && (dir === ".github" || dir.endsWith("/.github"))) {
    return plain("copilot", dirOf(dir));
  }
  return null;
}

/** Whether Claude Code loads the file by itself (it is handed over, not kept). */
export const loadedByClaude = (kind: SourceKind): boolean => kind === "claude";

/** Where a rule's text goes. */
export type Placement =
  | { kind: "folder"; folder: string }
  | { kind: "on-demand"; folder: string; description: string | null };

/** A memory file split into what its front matter says and its body. */
export interface ParsedRule {
  placement: Placement;
  body: string;
  /** Lines taken off the top (front matter), to number the body's lines as in the file. */
  skippedLines: number;
  /** How it applied, in words, for the provenance line (`globs: src/api/**`). */
  note: string | null;
  /**
   * Set when its globs name no one existing folder (`**\/trigger/**`): placed at its base, it
   * would apply to more than its globs do. The globs, in words.
   */
  widened?: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** Keys a rule's front matter has; a second block of them right after the first is one too. */
const RULE_KEYS = /^(description|globs|alwaysApply|applyTo|trigger|paths|name)\s*:/m;

const lineCount = (text: string) => text.split("\n").length - 1;

/** Every front-matter block at the top (a doubled one too), merged, and the body after them. */
function splitFrontMatter(
  text: string,
): { meta: Record<string, string | string[]>; body: string; skipped: number } {
  let meta: Record<string, string | string[]> = {};
  let body = text.replace(/^\uFEFF/, "");
  let skipped = 0;
  for (let block = 0; block < 3; block++) {
    const match = FRONT_MATTER.exec(body);
    if (!match || block > 0 && !RULE_KEYS.test(match[1]!)) break;
    // read with the one reader every agent's rules are read with (format/rule_scope.ts): no npm
    // package (source mode runs offline), and Cursor's unquoted `globs: *.ts` (an alias to YAML)
    meta = { ...meta, ...frontMatterKeys(match[1]!) };
    skipped += lineCount(match[0]) + (match[0].endsWith("\n") ? 0 : 1);
    body = body.slice(match[0].length);
    while (body.startsWith("\n") || body.startsWith("\r\n")) {
      skipped++;
      body = body.slice(body.startsWith("\n") ? 1 : 2);
    }
  }
  return { meta, body, skipped };
}

const joinFolder = (base: string, folder: string) =>
  base === "" ? folder : folder === "" ? base : `${base}/${folder}`;

/**
 * Reads a memory file's front matter and says where its body goes: `folderExists` tells which
 * project folders exist (a glob folder that does not is not served: the rule goes to its base)
 * (pure apart from `folderExists`).
 *
 * @example Usage
 * ```ts
 * import { parseRule } from "./source_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const exists = (f: string) => f === "src/api";
 * const scoped = parseRule("cursor", "", "---\nglobs: src/api/**\n---\nUse zod.\n", exists);
 * assert.deepEqual(scoped.placement, { kind: "folder", folder: "src/api" });
 * assert.equal(scoped.body, "Use zod.\n");
 * const manual = parseRule("cursor", "", "---\ndescription: Release steps\nalwaysApply: false\n---\nTag it.\n", exists);
 * assert.deepEqual(manual.placement, { kind: "on-demand", folder: "", description: "Release steps" });
 * const always = parseRule("windsurf", "", "---\ntrigger: always_on\n---\nBe brief.\n", exists);
 * assert.deepEqual(always.placement, { kind: "folder", folder: "" });
 * ```
 */
export function parseRule(
  kind: SourceKind,
  base: string,
  text: string,
  folderExists: (folder: string) => boolean,
): ParsedRule {
  const { meta, body, skipped } = splitFrontMatter(text);
  const description = typeof meta.description === "string" && meta.description.trim() !== ""
    ? meta.description.trim()
    : null;
  const globs = globsOf(meta.globs ?? meta.applyTo ?? meta.paths);
  const trigger = typeof meta.trigger === "string" ? meta.trigger : null;
  const always = meta.alwaysApply === "true" || trigger === "always_on";
  const words: string[] = [];
  if (description) words.push(`description: ${description}`);
  if (globs.length) words.push(`globs: ${globs.join(", ")}`);
  if (always) words.push("always applied");
  const note = words.length ? words.join("; ") : null;
  const everywhere = globs.some((g) => /^(\*\*(\/\*(\.\*)?)?|\*)$/.test(g.replace(/^\.?\//, "")));
  // Cline's folder rules and files without front matter apply always; Cursor, Copilot and
  // Windsurf rules without globs and not always applied are manual or agent-requested.
  const manualKinds = kind === "cursor" || kind === "copilot" || kind === "windsurf";
  const hasMeta = Object.keys(meta).length > 0;
  if (
    always || everywhere || (!manualKinds && globs.length === 0) || (!hasMeta && kind !== "copilot")
  ) {
    return { placement: { kind: "folder", folder: base }, body, skippedLines: skipped, note };
  }
  if (globs.length === 0 || trigger === "manual" || trigger === "model_decision") {
    return {
      placement: { kind: "on-demand", folder: base, description },
      body,
      skippedLines: skipped,
      note,
    };
  }
  const folder = globsFolder(globs);
  const scoped = folder !== null && folderExists(joinFolder(base, folder));
  const target = scoped ? joinFolder(base, folder) : base;
  return {
    placement: { kind: "folder", folder: target },
    body,
    skippedLines: skipped,
    note,
    ...(scoped ? {} : { widened: globs.join(", ") }),
  };
}

/** The line a stub opens with; a file that holds it was handed over already. */
export const HANDED_OVER = "<!-- librarian: handed over to the memory library -->";

/**
 * The short text a handed-over `CLAUDE.md` becomes: where its knowledge lives now (pure).
 *
 * @example Usage
 * ```ts
 * import { HANDED_OVER, stubText } from "./source_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const stub = stubText("_memory_library/packages/a/", ["claude.md", "agents.md"]);
 * assert.ok(stub.startsWith(HANDED_OVER));
 * assert.match(stub, /`_memory_library\/packages\/a\/` \(claude\.md, agents\.md\)/);
 * ```
 */
export function stubText(libraryFolder: string, files: readonly string[]): string {
  const which = files.length ? ` (${files.join(", ")})` : "";
  return `${HANDED_OVER}\n` +
    `The guidance that was here lives in the memory library: \`${libraryFolder}\`${which}. ` +
    "The Librarian sends it before Claude reads or edits files here; edit it there.\n";
}
