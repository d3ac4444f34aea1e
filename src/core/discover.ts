/**
 * Finding the memory library: `LIBRARIAN_PATH` first, else the nearest `_memory_library/` above a
 * starting folder. The project root is always the library folder's parent.
 *
 * @module
 */

import type { EnvReader } from "./env.ts";
import {
  dirnameOf,
  isLocalAbsolutePath,
  joinPath,
  MAX_PATH_LENGTH,
  normalizePath,
  relativeInside,
} from "./paths.ts";
import { isDirectory, lstatOrNull } from "./fs_probe.ts";

/** The folder name the Librarian looks for. */
export const LIBRARY_DIR_NAME = "_memory_library";
/** The staging file for tagged learnings, at the library root. */
export const SCRATCH_FILE_NAME = ".scratch.md";

/** How a library was found. */
export type FoundBy = "LIBRARIAN_PATH" | "file" | "CLAUDE_PROJECT_DIR" | "cwd";

/** A located memory library. */
export interface Library {
  /** The library folder, normal form. */
  root: string;
  /** The project root: the library folder's parent. */
  projectRoot: string;
  /** What led to it. */
  foundBy: FoundBy;
}

/**
 * The library's scratch file.
 *
 * @example Usage
 * ```ts
 * import { scratchPathOf } from "./discover.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/repo/_memory_library", projectRoot: "/repo", foundBy: "cwd" as const };
 * assert.equal(scratchPathOf(library), "/repo/_memory_library/.scratch.md");
 * ```
 */
export function scratchPathOf(library: Library): string {
  return joinPath(library.root, SCRATCH_FILE_NAME);
}

/* The hot path uses synchronous file-system calls: for a short-lived hook they cost a fraction
 * of the async ones (no thread hand-off per call). */

/**
 * The library named by `LIBRARIAN_PATH`, if that variable is set to an existing folder.
 * A relative value is rejected (hooks run from changing folders), and so is a Windows drive path
 * on another OS.
 *
 * @example Usage
 * ```ts
 * import { libraryFromEnv } from "./discover.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/notes`);
 * const library = libraryFromEnv(envFrom({ LIBRARIAN_PATH: `${project}/notes` }));
 * assert.equal(library?.projectRoot, project);
 * assert.equal(libraryFromEnv(envFrom({ LIBRARIAN_PATH: "relative/notes" })), null);
 * assert.equal(libraryFromEnv(envFrom({})), null);
 * ```
 */
export function libraryFromEnv(env: EnvReader): Library | null {
  const configured = env("LIBRARIAN_PATH")?.trim();
  if (!configured) return null;
  const root = normalizePath(configured);
  if (!isLocalAbsolutePath(root) || !isDirectory(root)) return null;
  return { root, projectRoot: dirnameOf(root), foundBy: "LIBRARIAN_PATH" };
}

/**
 * What is at `candidate`: a library folder, nothing usable, or a link whose real location is
 * outside `projectDir` (refused: a cloned repository must not make the hooks read, say, `~/notes`
 * as its library). Only a link costs more than one `lstat`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { probeLibraryDir } from "./discover.ts";
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * assert.equal(probeLibraryDir(`${project}/_memory_library`, project), "library");
 * assert.equal(probeLibraryDir(`${project}/nothing`, project), "none");
 * ```
 */
export function probeLibraryDir(
  candidate: string,
  projectDir: string,
): "library" | "none" | "outside-project" {
  const info = lstatOrNull(candidate);
  if (info === null) return "none";
  if (info.isDirectory) return "library";
  if (!info.isSymlink || !isDirectory(candidate)) return "none";
  const real = realPathOfNearest(candidate);
  const realProject = realPathOfNearest(projectDir);
  if (real === null || realProject === null) return "none";
  return relativeInside(real, realProject) === null ? "outside-project" : "library";
}

/**
 * Walks up from `startDir` (inclusive) to the file-system root and returns the first folder that
 * holds a `_memory_library/` folder, as a library. A start inside a library finds that library.
 * A start longer than any file system takes finds nothing (and costs no look-ups). A
 * `_memory_library` that is a link to somewhere outside its project ends the search with nothing
 * ({@link probeLibraryDir}); only `LIBRARIAN_PATH` may name a library outside the project.
 *
 * @example Usage
 * ```ts
 * import { findLibraryAbove } from "./discover.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.mkdirSync(`${project}/src/api`, { recursive: true });
 * const library = findLibraryAbove(`${project}/src/api`, "cwd");
 * assert.equal(library?.root, `${project}/_memory_library`);
 * assert.equal(library?.projectRoot, project);
 * ```
 */
export function findLibraryAbove(startDir: string, foundBy: FoundBy): Library | null {
  if (startDir.length > MAX_PATH_LENGTH) return null;
  let dir = normalizePath(startDir);
  if (!isLocalAbsolutePath(dir)) return null;
  for (let depth = 0; depth < 256; depth++) {
    const candidate = joinPath(dir, LIBRARY_DIR_NAME);
    const found = probeLibraryDir(candidate, dir);
    if (found === "library") return { root: candidate, projectRoot: dir, foundBy };
    if (found === "outside-project") return null;
    const parent = dirnameOf(dir);
    if (parent === dir || parent === "" || parent === "/" && dir === "/") return null;
    dir = parent;
  }
  return null;
}

/**
 * The library for a file a tool is about to touch: `LIBRARIAN_PATH` wins (the file must then be
 * inside its project, else `null`); otherwise the nearest `_memory_library/` above the file.
 *
 * @example Usage
 * ```ts
 * import { findLibraryForFile } from "./discover.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const library = findLibraryForFile(`${project}/src/main.ts`, envFrom({}));
 * assert.equal(library?.root, `${project}/_memory_library`);
 * assert.equal(library?.foundBy, "file");
 * ```
 */
export function findLibraryForFile(filePath: string, env: EnvReader): Library | null {
  const fromEnv = libraryFromEnv(env);
  if (fromEnv) return fromEnv;
  return findLibraryAbove(dirnameOf(normalizePath(filePath)), "file");
}

/**
 * The library for a session-level event (prompt, stop, a command run by a person):
 * `LIBRARIAN_PATH`, else above `CLAUDE_PROJECT_DIR`, else above `cwd`.
 *
 * @example Usage
 * ```ts
 * import { findLibraryForSession } from "./discover.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const env = envFrom({ CLAUDE_PROJECT_DIR: project });
 * assert.equal(findLibraryForSession(undefined, env)?.foundBy, "CLAUDE_PROJECT_DIR");
 * assert.equal(findLibraryForSession(`${project}/src`, envFrom({}))?.foundBy, "cwd");
 * ```
 */
export function findLibraryForSession(
  cwd: string | undefined,
  env: EnvReader,
): Library | null {
  const fromEnv = libraryFromEnv(env);
  if (fromEnv) return fromEnv;
  const projectDir = env("CLAUDE_PROJECT_DIR")?.trim();
  if (projectDir) {
    const found = findLibraryAbove(projectDir, "CLAUDE_PROJECT_DIR");
    if (found) return found;
  }
  if (cwd) return findLibraryAbove(cwd, "cwd");
  return null;
}

/**
 * Where a file sits relative to a library's project: its project-relative path, or why it is
 * not served (outside the project, or inside the library itself).
 */
export type FilePlacement =
  | { kind: "project"; relPath: string }
  | { kind: "outside" }
  | { kind: "in-library" };

/**
 * Places a normal-form absolute file path relative to `library` (pure).
 *
 * @example Usage
 * ```ts
 * import { placeFile } from "./discover.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/repo/_memory_library", projectRoot: "/repo", foundBy: "cwd" as const };
 * assert.deepEqual(placeFile("/repo/src/a.ts", library), { kind: "project", relPath: "src/a.ts" });
 * assert.deepEqual(placeFile("/repo/_memory_library/tech.md", library), { kind: "in-library" });
 * assert.deepEqual(placeFile("/elsewhere/a.ts", library), { kind: "outside" });
 * ```
 */
export function placeFile(filePath: string, library: Library, os?: string): FilePlacement {
  if (relativeInside(filePath, library.root, os) !== null) return { kind: "in-library" };
  const rel = relativeInside(filePath, library.projectRoot, os);
  if (rel === null || rel === "") return { kind: "outside" };
  return { kind: "project", relPath: rel };
}

/**
 * Like {@link placeFile}, but when the plain comparison says "outside" it compares real paths
 * too (symlinked checkouts, macOS `/tmp` → `/private/tmp`). For a file that does not exist yet
 * (a Write of a new file), the nearest existing ancestor is resolved.
 *
 * @example Usage
 * ```ts
 * import { placeFileResolved } from "./discover.ts";
 * import assert from "node:assert/strict";
 *
 * const real = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${real}/_memory_library`);
 * const link = `${Deno.makeTempDirSync()}/checkout`;
 * Deno.symlinkSync(real, link);
 * const library = { root: `${real}/_memory_library`, projectRoot: real, foundBy: "cwd" as const };
 * assert.deepEqual(placeFileResolved(`${link}/src/new.ts`, library), {
 *   kind: "project",
 *   relPath: "src/new.ts",
 * });
 * ```
 */
export function placeFileResolved(filePath: string, library: Library): FilePlacement {
  const plain = placeFile(filePath, library);
  if (plain.kind !== "outside") return plain;
  const realFile = realPathOfNearest(filePath);
  const realRoot = realPathOfNearest(library.root);
  if (!realFile || !realRoot) return plain;
  return placeFile(realFile, { ...library, root: realRoot, projectRoot: dirnameOf(realRoot) });
}

/**
 * The real path of `path`, resolving the nearest existing ancestor when it does not exist.
 *
 * @example Usage
 * ```ts
 * import { realPathOfNearest } from "./discover.ts";
 * import assert from "node:assert/strict";
 *
 * const real = Deno.makeTempDirSync();
 * const link = `${Deno.makeTempDirSync()}/link`;
 * Deno.symlinkSync(real, link);
 * assert.equal(realPathOfNearest(`${link}/not/yet.ts`), `${Deno.realPathSync(real)}/not/yet.ts`);
 * ```
 */
export function realPathOfNearest(path: string): string | null {
  const missing: string[] = [];
  let current = normalizePath(path);
  for (let depth = 0; depth < 256; depth++) {
    try {
      const real = normalizePath(Deno.realPathSync(current));
      return missing.length ? joinPath(real, ...missing.reverse()) : real;
    } catch {
      const parent = dirnameOf(current);
      if (parent === current || parent === "") return null;
      missing.push(current.slice(parent.length).replace(/^\//, ""));
      current = parent;
    }
  }
  return null;
}
