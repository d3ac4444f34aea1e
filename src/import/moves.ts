/**
 * `librarian import --suggest` / `--apply` (effects): reads the imported root files, shows the
 * proposed moves, and applies them under the library lock in one step: each chosen text is
 * appended to its folder's library file first, then taken out of the root file, so a crash in
 * between leaves the text twice, never nowhere (nothing goes through scratch).
 *
 * @module
 */

import {
  basenameOf,
  Boundary,
  compareNames,
  type EnvReader,
  isServedName,
  joinPath,
  type Library,
  plural,
  relativeInside,
  safeText,
} from "../core/mod.ts";
import { lockLibrary } from "../filing/mod.ts";
import { VERSION } from "../version.ts";
import { EXIT_OK, makeStyle, printJson, UsageError } from "../cli/mod.ts";
import {
  movedTextOf,
  type PathKind,
  type Suggestion,
  suggestMoves,
  withoutUnit,
} from "./suggest.ts";

const IMPORTED = "imported by 'librarian import'";
const MAX_BYTES = 4 * 1_048_576;
/** Folders that are never a move's target (the library serves code folders only). */
const NOT_SERVED = new Set([
  "node_modules",
  "vendor",
  "dist",
  "build",
  "target",
  "out",
  "coverage",
]);
/** Folder names too common to say which folder a text is about. */
const GENERIC = new Set([
  "src",
  "lib",
  "app",
  "apps",
  "test",
  "tests",
  "docs",
  "doc",
  "utils",
  "util",
  "packages",
  "services",
  "components",
  "scripts",
  "public",
  "assets",
  "config",
  "types",
  "common",
  "core",
  "shared",
  "internal",
  "pkg",
  "cmd",
  "api",
  "web",
  "main",
  "bin",
  "examples",
  "example",
]);
/** How deep the code tree is searched for package and folder names. */
const NAME_DEPTH = 4;

/** The library's root files that an import wrote into. */
function importedRootFiles(library: Library, boundary: Boundary): { file: string; text: string }[] {
  const files: { file: string; text: string }[] = [];
  for (
    const entry of [...Deno.readDirSync(library.root)].sort((a, b) => compareNames(a.name, b.name))
  ) {
    if (!entry.isFile || !isServedName(entry.name)) continue;
    const text = boundary.readText(joinPath(library.root, entry.name), MAX_BYTES);
    if (text !== null && text.includes(IMPORTED)) files.push({ file: entry.name, text });
  }
  return files;
}

/** Whether a project-relative path lies in a folder the library can serve. */
const servable = (relPath: string) =>
  relPath.split("/").every((s) => s !== "" && !s.startsWith(".") && !NOT_SERVED.has(s));

function kindIn(projectRoot: string, libraryRoot: string): (relPath: string) => PathKind {
  return (relPath) => {
    if (!servable(relPath)) return null;
    const path = joinPath(projectRoot, relPath);
    if (relativeInside(path, libraryRoot) !== null) return null;
    try {
      const info = Deno.statSync(path);
      return info.isDirectory ? "dir" : info.isFile ? "file" : null;
    } catch {
      return null;
    }
  };
}

/** Files that make a folder a package, service or component of its own. */
const MANIFESTS = [
  "package.json",
  "go.mod",
  "Cargo.toml",
  "pyproject.toml",
  "pom.xml",
  "build.gradle",
];

/**
 * The names of the code tree's packages and services, lower-case, each naming one folder: a
 * folder holding a manifest (`package.json`, `go.mod`, `Cargo.toml`...) is known by its own name
 * (not a generic one like `src`), its `package.json` name without the scope, and both with spaces
 * for dashes (`auth-service`, `auth service`). A name two folders share says nothing and is left
 * out; a folder without a manifest (`docs/`, `database/`) is never named, only reached by path.
 */
function codeNames(projectRoot: string, libraryRoot: string): Map<string, string> {
  const seen = new Map<string, Set<string>>();
  const note = (name: string, folder: string) => {
    const key = name.toLowerCase();
    for (const variant of new Set([key, key.replace(/[-_]+/g, " ")])) {
      if (variant.length < 3 || GENERIC.has(variant)) continue;
      seen.set(variant, (seen.get(variant) ?? new Set()).add(folder));
    }
  };
  const project = new Boundary(projectRoot, "project");
  const visit = (dir: string, depth: number) => {
    if (depth > NAME_DEPTH) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    const rel = relativeInside(dir, projectRoot);
    if (rel && entries.some((e) => e.isFile && MANIFESTS.includes(e.name))) {
      note(basenameOf(dir), rel);
      try {
        const pkg = JSON.parse(project.readText(joinPath(dir, "package.json"), 1 << 20) ?? "{}");
        if (typeof pkg.name === "string") note(pkg.name.replace(/^@[^/]+\//, ""), rel);
      } catch {
        // no package.json, or not one that can be read: the folder's name is enough
      }
    }
    for (const entry of entries) {
      if (!entry.isDirectory || entry.isSymlink) continue;
      const path = joinPath(dir, entry.name);
      const child = relativeInside(path, projectRoot);
      if (!child || !servable(child) || relativeInside(path, libraryRoot) !== null) continue;
      visit(path, depth + 1);
    }
  };
  visit(projectRoot, 0);
  const names = new Map<string, string>();
  for (const [name, folders] of seen) if (folders.size === 1) names.set(name, [...folders][0]!);
  return names;
}

/**
 * `--only 1,3,5` as numbers.
 *
 * @example Usage
 * ```ts
 * import { parseOnly } from "./moves.ts";
 * import { UsageError } from "../cli/args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseOnly("1, 3,5"), new Set([1, 3, 5]));
 * assert.equal(parseOnly(undefined), null);
 * assert.throws(() => parseOnly("1,x"), UsageError);
 * assert.throws(() => parseOnly("0"), UsageError);
 * ```
 */
export function parseOnly(raw: string | undefined): Set<number> | null {
  if (raw === undefined) return null;
  const numbers = raw.split(",").map((s) => s.trim());
  if (numbers.some((n) => !/^[1-9][0-9]{0,5}$/.test(n))) {
    throw new UsageError(`--only takes suggestion numbers like 1,3,5, got '${raw}'`);
  }
  return new Set(numbers.map(Number));
}

function excerpt(raw: string): string {
  const flat = raw.replace(/\s+/g, " ").trim();
  return safeText(flat.length > 70 ? `${flat.slice(0, 69)}…` : flat);
}

function printSuggestions(suggestions: Suggestion[], env: EnvReader): void {
  const style = makeStyle(env);
  if (suggestions.length === 0) {
    console.log(
      "No section, bullet or paragraph of the imported root files names one code folder " +
        "(by path, package or folder name).",
    );
    return;
  }
  for (const s of suggestions) {
    console.log(
      `${String(s.n).padStart(3)}. ${s.file}:${s.line}  ${style.green(`→ ${s.folder}/`)}  ` +
        style.dim(excerpt(s.raw)),
    );
  }
  console.log(
    `\n${plural(suggestions.length, "suggestion")}. 'librarian import --apply' moves them all ` +
      "into their folders' library files in one step (--only 1,3 picks some).",
  );
}

/** Runs `import --suggest` or `import --apply [--only <n,...>]`. */
export async function runMoves(
  library: Library,
  env: EnvReader,
  options: { apply: boolean; only: Set<number> | null; json: boolean },
): Promise<number> {
  const boundary = new Boundary(library.root, "library");
  const kindOf = kindIn(library.projectRoot, library.root);
  const names = codeNames(library.projectRoot, library.root);
  if (!options.apply) {
    const suggestions = suggestMoves(importedRootFiles(library, boundary), kindOf, names);
    if (options.json) {
      printJson({
        version: VERSION,
        library: library.root,
        suggestions: suggestions.map(({ raw, ...s }) => ({ ...s, text: raw })),
      });
    } else printSuggestions(suggestions, env);
    return EXIT_OK;
  }
  await using _lock = await lockLibrary(library, env);
  const files = importedRootFiles(library, boundary);
  const chosen = suggestMoves(files, kindOf, names)
    .filter((s) => !options.only || options.only.has(s.n));
  const texts = new Map(files.map((f) => [f.file, f.text]));
  const added = new Map<string, string[]>(); // target file -> texts to append
  const moved: Suggestion[] = [];
  // Later units first, so earlier line numbers stay right.
  for (const s of [...chosen].sort((a, b) => b.line - a.line)) {
    const next = withoutUnit(texts.get(s.file)!, s);
    if (next === null) continue;
    texts.set(s.file, next);
    const target = `${s.folder}/${s.file}`;
    added.set(target, [movedTextOf(s), ...(added.get(target) ?? [])]);
    moved.unshift(s);
  }
  // Where it goes first, then out of the root file: a crash in between leaves it twice.
  const date = new Date().toISOString().slice(0, 10);
  for (const [target, blocks] of added) {
    const path = joinPath(library.root, target);
    const current = boundary.readText(path, MAX_BYTES) ?? "";
    const from = target.slice(target.lastIndexOf("/") + 1);
    const block = `<!-- imported by 'librarian import' (moved from ${from} on ${date}) -->\n` +
      blocks.join("\n");
    boundary.writeText(path, current.trim() === "" ? block : `${current.trimEnd()}\n\n${block}`);
  }
  for (const [file, text] of texts) {
    if (text !== files.find((f) => f.file === file)!.text) {
      boundary.writeText(joinPath(library.root, file), text);
    }
  }
  if (options.json) {
    printJson({
      version: VERSION,
      moved: moved.map((s) => ({ n: s.n, file: s.file, line: s.line, folder: s.folder })),
    });
  } else {
    console.log(
      moved.length === 0
        ? "Nothing moved."
        : `Moved ${plural(moved.length, "block")} into ${plural(added.size, "library file")}: ` +
          [...added.keys()].join(", "),
    );
  }
  return EXIT_OK;
}
