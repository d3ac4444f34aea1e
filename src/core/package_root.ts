/**
 * The level where a code folder's knowledge belongs, which the edit hint and the stop nudge
 * suggest as the tag: the nearest folder on its path that already has library files, else the
 * package it belongs to (the nearest folder on its path, below the project root, that holds a
 * package manifest: `package.json`, `deno.json`, `go.mod`, `Cargo.toml`, `pyproject.toml`, ...),
 * else the folder itself. In a monorepo that is one package's folder, rather than the deepest
 * folder a file happens to sit in.
 *
 * Reads only: one `stat` per manifest name per level, from the folder up, where the level's listing
 * (when the caller has the touch's listings: `folder_listing.ts`) does not already show that the
 * name is not there; never the project root itself (a single-package repository's root manifest
 * makes every tag `global` otherwise).
 *
 * @module
 */

import type { FolderListings } from "./folder_listing.ts";
import { dirnameOf, joinPath } from "./paths.ts";
import type { LibraryFile } from "./walk.ts";

/** The files that make a folder a package's root. */
export const PACKAGE_MANIFESTS: readonly string[] = [
  "package.json",
  "deno.json",
  "deno.jsonc",
  "go.mod",
  "Cargo.toml",
  "pyproject.toml",
  "setup.py",
  "composer.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "Gemfile",
  "mix.exs",
  "pubspec.yaml",
  "Package.swift",
];

/** Whether a regular file is at `path` (a link to one counts). */
function isFileAt(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The project-relative package folder of project-relative folder `relDir` under `projectRoot`:
 * `relDir` or the nearest folder above it, below the project root, holding one of
 * {@link PACKAGE_MANIFESTS}; `null` when there is none. With `listings`, a name a folder's listing
 * shows is not there is not probed (on a touch whose file has no library files of its own, 15
 * names at each level were as many failing `stat`s).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { packageFolderOf } from "./package_root.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/services/core/src/controllers`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/package.json`, "{}");
 * Deno.writeTextFileSync(`${p}/services/core/package.json`, "{}");
 * assert.equal(packageFolderOf(p, "services/core/src/controllers"), "services/core");
 * assert.equal(packageFolderOf(p, "services"), null, "the project root is not a package folder");
 * const listings = { mayHold: (dir: string) => !dir.endsWith("/src") };
 * assert.equal(packageFolderOf(p, "services/core/src/controllers", listings), "services/core");
 * ```
 */
export function packageFolderOf(
  projectRoot: string,
  relDir: string,
  listings?: FolderListings,
  isFile: (path: string) => boolean = isFileAt,
): string | null {
  const segments = relDir.split("/").filter((s) => s !== "" && s !== ".");
  for (let n = segments.length; n > 0; n--) {
    const folder = segments.slice(0, n).join("/");
    const abs = joinPath(projectRoot, folder);
    const holds = (name: string) =>
      listings?.mayHold(abs, name) !== false && isFile(joinPath(abs, name));
    if (PACKAGE_MANIFESTS.some(holds)) return folder;
  }
  return null;
}

/**
 * The level of project-relative folder `relDir` (see the module documentation): the mirror folder
 * of the most specific library file on its path beyond the root's (`files` as `core/walk.ts` walks
 * them, most specific first), else `packageFolder(relDir)`, else `relDir` itself.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { knowledgeLevelOf } from "./package_root.ts";
 * const file = (relPath: string) => ({ relPath, label: relPath, absPath: `/l/${relPath}` });
 * const dir = "services/core/src/controllers";
 * assert.equal(knowledgeLevelOf(dir, [file("services/core/patterns.md"), file("tech.md")], () => null), "services/core");
 * assert.equal(knowledgeLevelOf(dir, [file("tech.md")], () => "services/core"), "services/core");
 * assert.equal(knowledgeLevelOf(dir, [], () => null), dir);
 * ```
 */
export function knowledgeLevelOf(
  relDir: string,
  files: readonly LibraryFile[],
  packageFolder: (relDir: string) => string | null,
): string {
  const own = files.find((f) => !f.outside && dirnameOf(f.relPath) !== "");
  if (own) return dirnameOf(own.relPath);
  return packageFolder(relDir) ?? relDir;
}
