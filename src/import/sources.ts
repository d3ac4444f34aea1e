/**
 * What `librarian import <folder>` reads: the folder's own `.md` files (a memory bank; a
 * `README.md` is not memory and is left out), every `CLAUDE.md` / `AGENTS.md` below it (each
 * mapped to its own folder's mirror), and Cursor rules in `.cursor/rules/*.mdc` (a rule whose
 * `globs` name one folder goes to that folder's mirror, the rest to the root).
 *
 * @module
 */

import {
  Boundary,
  compareNames,
  decodeLibraryBytes,
  isDirectory,
  joinPath,
  LibrarianError,
  relativeInside,
} from "../core/mod.ts";
import { frontMatterKeys, globsOf } from "../format/mod.ts";
import { kebabCase, KNOWN_FILES, type SourceFile } from "./import_plan.ts";

/** Folders never searched for `CLAUDE.md` / `AGENTS.md`. */
const SKIPPED_DIRS = new Set([
  "node_modules",
  "_memory_library",
  "vendor",
  "dist",
  "build",
  "target",
]);
/** How deep below the import folder instruction files are looked for. */
const MAX_DEPTH = 12;
/** Instruction files other tools keep per folder. */
const INSTRUCTION_FILE = /^(claude|agents)\.md$/i;

/** What was seen in the import folder. */
export interface SourceListing {
  files: SourceFile[];
  /** Entries that are not imported (sub-folders end in `/`); see {@link whyIgnored}. */
  ignored: string[];
}

/** The largest file imported; a larger one is not read (never copied whole into the library). */
export const MAX_SOURCE_BYTES = 1024 * 1024;

/**
 * A source file's content, read through the import folder's boundary: a link that leaves it, a
 * FIFO or device, a folder or a file past {@link MAX_SOURCE_BYTES} is refused with why.
 */
function readSource(boundary: Boundary, path: string): SourceFile["content"] {
  let bytes: Uint8Array | null;
  try {
    bytes = boundary.readBytes(path, MAX_SOURCE_BYTES);
  } catch (error) {
    if (error instanceof LibrarianError) return { kind: "refused", reason: error.message };
    throw error;
  }
  if (bytes === null) return { kind: "refused", reason: `${path} is gone` };
  const decoded = decodeLibraryBytes(bytes, false);
  return decoded.kind === "text" ? decoded : { kind: decoded.kind };
}

/**
 * The library folder that mirrors `dir`: its path inside the project, or, for a folder outside
 * the project, inside the import folder (`""` is the library root).
 */
function mirrorOf(dir: string, importDir: string, projectRoot: string): string {
  return relativeInside(dir, projectRoot) ?? relativeInside(dir, importDir) ?? "";
}

/** `CLAUDE.md` / `AGENTS.md` files below `dir` (not in `dir` itself), sorted. */
function nestedInstructionFiles(dir: string, depth = 0): string[] {
  if (depth >= MAX_DEPTH) return [];
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)].sort((a, b) => compareNames(a.name, b.name));
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = joinPath(dir, entry.name);
    if (entry.isDirectory && !entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) {
      let inner: Deno.DirEntry[];
      try {
        inner = [...Deno.readDirSync(path)];
      } catch {
        continue; // unreadable: nothing of it is imported, the rest is
      }
      // A folder named AGENTS.md is no instruction file (a link is, and the boundary judges it).
      for (
        const name of inner.filter((e) => !e.isDirectory).map((e) => e.name).sort(compareNames)
      ) {
        if (INSTRUCTION_FILE.test(name)) found.push(joinPath(path, name));
      }
      found.push(...nestedInstructionFiles(path, depth + 1));
    }
  }
  return found;
}

/** A Cursor rule's front matter and body (pure). */
export interface CursorRule {
  description?: string;
  globs: string[];
  alwaysApply: boolean;
  body: string;
}

/**
 * Splits a `.mdc` rule into its front matter (`description`, `globs`, `alwaysApply`) and body.
 *
 * @example Usage
 * ```ts
 * import { parseCursorRule } from "./sources.ts";
 * import assert from "node:assert/strict";
 *
 * const rule = parseCursorRule("---\nglobs: src/api/**\nalwaysApply: false\n---\nUse zod.\n");
 * assert.deepEqual(rule, { globs: ["src/api/**"], alwaysApply: false, body: "Use zod.\n" });
 * ```
 */
export function parseCursorRule(text: string): CursorRule {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { globs: [], alwaysApply: false, body: text };
  // read with the one reader every agent's rules are read with (format/rule_scope.ts)
  const meta = frontMatterKeys(match[1]!);
  const description = typeof meta.description === "string" ? meta.description : undefined;
  return {
    ...(description !== undefined && description !== "" ? { description } : {}),
    globs: globsOf(meta.globs),
    alwaysApply: meta.alwaysApply === "true",
    body: text.slice(match[0].length),
  };
}

/**
 * The one folder a rule's globs name (the part before the first wildcard, the same for every
 * glob), or null when they name none or several (pure).
 *
 * @example Usage
 * ```ts
 * import { globsFolder } from "./sources.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(globsFolder(["src/api/**\/*.ts", "src/api/*.tsx"]), "src/api");
 * assert.equal(globsFolder(["**\/*.ts"]), null);
 * assert.equal(globsFolder(["src/a/**", "src/b/**"]), null);
 * ```
 */
export function globsFolder(globs: readonly string[]): string | null {
  const folders = new Set<string>();
  for (const glob of globs) {
    const segments: string[] = [];
    const parts = glob.replace(/^\.?\//, "").split("/");
    for (const [i, part] of parts.entries()) {
      if (/[*?[\]{}!]/.test(part) || i === parts.length - 1 && part.includes(".")) break;
      segments.push(part);
    }
    if (segments.length === 0) return null;
    folders.add(segments.join("/"));
  }
  return folders.size === 1 ? [...folders][0]! : null;
}

function cursorRules(importDir: string, projectRoot: string, boundary: Boundary): SourceFile[] {
  const dir = joinPath(importDir, ".cursor", "rules");
  if (!isDirectory(dir)) return [];
  const rules: SourceFile[] = [];
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && /\.mdc$/i.test(e.name))
    .map((e) => e.name).sort(compareNames);
  for (const name of names) {
    const content = readSource(boundary, joinPath(dir, name));
    const stem = kebabCase(name.replace(/\.mdc$/i, ""));
    if (content.kind !== "text") {
      rules.push({ name: `.cursor/rules/${name}`, content, target: `${stem}.md` });
      continue;
    }
    const rule = parseCursorRule(content.text);
    const folder = globsFolder(rule.globs);
    const mirror = folder && isDirectory(joinPath(importDir, folder))
      ? mirrorOf(joinPath(importDir, folder), importDir, projectRoot)
      : "";
    const notes = [
      "Cursor rule",
      ...(rule.description ? [`description: ${rule.description}`] : []),
      ...(rule.globs.length ? [`globs: ${rule.globs.join(", ")}`] : []),
      ...(rule.alwaysApply ? ["alwaysApply: true"] : []),
    ];
    rules.push({
      name: `.cursor/rules/${name}`,
      content: { kind: "text", text: rule.body },
      target: mirror === "" ? `${stem}.md` : `${mirror}/${stem}.md`,
      note: notes.join("; "),
    });
  }
  return rules;
}

/**
 * Why an entry of the import folder was not imported, in words.
 *
 * @example Usage
 * ```ts
 * import { whyIgnored } from "./sources.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(whyIgnored("README.md"), /^a README describes the project/);
 * assert.match(whyIgnored("docs/"), /^a sub-folder/);
 * assert.match(whyIgnored("notes.txt"), /^only \.md files/);
 * ```
 */
export function whyIgnored(name: string): string {
  return /^readme\.md$/i.test(name)
    ? "a README describes the project for people; it is not imported as memory"
    : /\.md$/i.test(name)
    ? "a project folder's own document; from a project only CLAUDE.md, AGENTS.md and " +
      "memory-bank files (projectbrief.md, ...) are imported"
    : name.endsWith("/")
    ? "a sub-folder (only its CLAUDE.md and AGENTS.md files are imported)"
    : "only .md files (and .cursor/rules/*.mdc) are imported";
}

/**
 * Lists what `import` reads from `importDir` for the project at `projectRoot`.
 *
 * @example Usage
 * ```ts
 * import { listSources } from "./sources.ts";
 * import assert from "node:assert/strict";
 *
 * const bank = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${bank}/projectbrief.md`, "# brief\n");
 * Deno.writeTextFileSync(`${bank}/README.md`, "# readme\n");
 * const listing = listSources(bank, "/elsewhere");
 * assert.deepEqual(listing.files.map((f) => f.name), ["projectbrief.md"]);
 * assert.deepEqual(listing.ignored, ["README.md"]);
 * ```
 */
export function listSources(importDir: string, projectRoot: string): SourceListing {
  const files: SourceFile[] = [];
  const ignored: string[] = [];
  // Reads stay inside the folder imported (the project, or a memory bank elsewhere).
  const inProject = relativeInside(importDir, projectRoot) !== null;
  const boundary = new Boundary(importDir, inProject ? "project" : "folder");
  // A project folder (not a memory bank): only its instruction files and rules are memory.
  const isProject = importDir === projectRoot || isDirectory(joinPath(importDir, ".git"));
  for (
    const entry of [...Deno.readDirSync(importDir)].sort((a, b) => compareNames(a.name, b.name))
  ) {
    if (entry.isFile && /\.md$/i.test(entry.name) && !entry.name.startsWith(".")) {
      if (/^readme\.md$/i.test(entry.name)) {
        ignored.push(entry.name);
        continue;
      }
      const instruction = INSTRUCTION_FILE.test(entry.name);
      const known = KNOWN_FILES.some((k) => k.stem === entry.name.slice(0, -3).toLowerCase());
      if (!instruction && isProject && !known) {
        ignored.push(entry.name); // CHANGELOG.md, CONTRIBUTING.md: the project's own documents
        continue;
      }
      const content = readSource(boundary, joinPath(importDir, entry.name));
      const mirror = mirrorOf(importDir, importDir, projectRoot);
      const stem = kebabCase(entry.name.replace(/\.md$/i, ""));
      files.push({
        name: entry.name,
        content,
        ...(instruction ? { target: mirror === "" ? `${stem}.md` : `${mirror}/${stem}.md` } : {}),
      });
    } else if (entry.name !== ".cursor") {
      ignored.push(entry.isDirectory ? `${entry.name}/` : entry.name);
    }
  }
  for (const path of nestedInstructionFiles(importDir)) {
    const folder = path.slice(0, path.lastIndexOf("/"));
    const name = path.slice(path.lastIndexOf("/") + 1);
    const mirror = mirrorOf(folder, importDir, projectRoot);
    const stem = kebabCase(name.replace(/\.md$/i, ""));
    files.push({
      name: relativeInside(path, importDir) ?? path,
      content: readSource(boundary, path),
      target: mirror === "" ? `${stem}.md` : `${mirror}/${stem}.md`,
    });
  }
  files.push(...cursorRules(importDir, projectRoot, boundary));
  return { files, ignored };
}
