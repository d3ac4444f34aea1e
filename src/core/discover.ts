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
import type { FolderListings } from "./folder_listing.ts";

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
 * Whether files owned by `owner` may be served and acted on by a process running as `self`: the
 * process's own and root's are (git's `safe.directory` rule, CVE-2022-24765: a folder someone
 * else made in a shared place such as `/tmp` is not the user's). Where the system tells no owner
 * (`null`: Windows, where Deno gives no `uid`) there is nothing to compare, and the file counts as
 * the user's.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTrustedOwner } from "./discover.ts";
 * assert.ok(isTrustedOwner(1000, 1000));
 * assert.ok(isTrustedOwner(0, 1000), "root's files");
 * assert.ok(!isTrustedOwner(1001, 1000), "another user's");
 * assert.ok(!isTrustedOwner(65534, 0), "root trusts only root's own");
 * assert.ok(isTrustedOwner(null, 1000), "no owner told (Windows)");
 * ```
 */
export function isTrustedOwner(owner: number | null, self: number | null): boolean {
  return owner === null || self === null || owner === self || owner === 0;
}

/** Tells whether a file's owner (its `uid`, `null` when unknown) is trusted. */
export type OwnerCheck = (owner: number | null) => boolean;

/** This process's `uid`, asked once at load (the walk-up needs it on every hook run). */
const PROCESS_UID: number | null = (() => {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
})();

/**
 * Whether this process trusts files owned by `owner` ({@link isTrustedOwner} with its own `uid`,
 * asked once). Without the permission to ask (the launcher grants `--allow-sys=uid`) or on
 * Windows, its `uid` is unknown and every owner counts as trusted.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { trustedByThisProcess } from "./discover.ts";
 * assert.ok(trustedByThisProcess(Deno.statSync(Deno.makeTempDirSync()).uid));
 * ```
 */
export function trustedByThisProcess(owner: number | null): boolean {
  return isTrustedOwner(owner, PROCESS_UID);
}

/**
 * Whose files a library's own settings may belong to: the user's and root's, or anyone's for a
 * library the user named by `LIBRARIAN_PATH`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { trustsOwnersOf } from "./discover.ts";
 * const named = { root: "/shared/lib", projectRoot: "/shared", foundBy: "LIBRARIAN_PATH" as const };
 * assert.ok(trustsOwnersOf(named)(12345));
 * ```
 */
export function trustsOwnersOf(library: Library): OwnerCheck {
  return library.foundBy === "LIBRARIAN_PATH" ? () => true : trustedByThisProcess;
}

/** What {@link probeLibraryDir} found at a candidate library folder. */
export type LibraryProbe = "library" | "none" | "outside-project" | "not-owned";

/**
 * What is at `candidate`: a library folder, nothing usable, a link whose real location is
 * outside `projectDir` (refused: a cloned repository must not make the hooks read, say, `~/notes`
 * as its library), or a folder (or link) owned by someone other than the user or root (refused:
 * another user's `/tmp/_memory_library` must not become the memory of every file below `/tmp`).
 * Only a link costs more than one `lstat`, whose owner the check reads.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { probeLibraryDir } from "./discover.ts";
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * assert.equal(probeLibraryDir(`${project}/_memory_library`, project), "library");
 * assert.equal(probeLibraryDir(`${project}/nothing`, project), "none");
 * assert.equal(probeLibraryDir(`${project}/_memory_library`, project, () => false), "not-owned");
 * ```
 */
export function probeLibraryDir(
  candidate: string,
  projectDir: string,
  trusts: OwnerCheck = trustedByThisProcess,
): LibraryProbe {
  const info = lstatOrNull(candidate);
  if (info === null) return "none";
  if (info.isDirectory) return trusts(info.uid) ? "library" : "not-owned";
  if (!info.isSymlink) return "none";
  const target = statOrNull(candidate);
  if (target === null || !target.isDirectory) return "none";
  const real = realPathOfNearest(candidate);
  const realProject = realPathOfNearest(projectDir);
  if (real === null || realProject === null) return "none";
  if (relativeInside(real, realProject) === null) return "outside-project";
  return trusts(info.uid) && trusts(target.uid) ? "library" : "not-owned";
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/** A library folder that was found but refused: its path and why. */
export interface RefusedLibrary {
  /** The refused folder, normal form. */
  refused: string;
  /** Why: owned by someone else, or a link to somewhere outside its project. */
  reason: "not-owned" | "outside-project";
}

/**
 * A one-line warning naming a refused library folder, with what to do about it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusalWarning } from "./discover.ts";
 * assert.equal(
 *   refusalWarning({ refused: "/tmp/_memory_library", reason: "not-owned" }),
 *   "/tmp/_memory_library is not used: it is owned by another user (not you, not root); " +
 *     "set LIBRARIAN_PATH to it to use it anyway",
 * );
 * ```
 */
export function refusalWarning(refusal: RefusedLibrary): string {
  const why = refusal.reason === "not-owned"
    ? "it is owned by another user (not you, not root)"
    : "it is a link to a folder outside its project";
  return `${refusal.refused} is not used: ${why}; set LIBRARIAN_PATH to it to use it anyway`;
}

/**
 * Walks up from `startDir` (inclusive) to the file-system root and returns the first folder that
 * holds a `_memory_library/` folder, as a library. A start inside a library finds that library.
 * A start longer than any file system takes finds nothing (and costs no look-ups). A
 * `_memory_library` that is refused ({@link probeLibraryDir}: a link to somewhere outside its
 * project, or a folder owned by another user) ends the search, and is returned as a
 * {@link RefusedLibrary}; only `LIBRARIAN_PATH` may name such a library. With `listings` (one
 * touch's folder listings, `folder_listing.ts`), a folder whose listing shows no
 * `_memory_library` is passed without a probe (a failing probe costs more than a listing).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookUpLibraryAbove } from "./discover.ts";
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.mkdirSync(`${project}/src`);
 * assert.deepEqual(lookUpLibraryAbove(`${project}/src`, "cwd", () => false), {
 *   refused: `${project}/_memory_library`,
 *   reason: "not-owned",
 * });
 * assert.equal(lookUpLibraryAbove("relative", "cwd"), null);
 * ```
 */
export function lookUpLibraryAbove(
  startDir: string,
  foundBy: FoundBy,
  trusts: OwnerCheck = trustedByThisProcess,
  listings?: FolderListings,
): Library | RefusedLibrary | null {
  if (startDir.length > MAX_PATH_LENGTH) return null;
  let dir = normalizePath(startDir);
  if (!isLocalAbsolutePath(dir)) return null;
  for (let depth = 0; depth < 256; depth++) {
    const candidate = joinPath(dir, LIBRARY_DIR_NAME);
    const found = listings?.mayHold(dir, LIBRARY_DIR_NAME) === false
      ? "none"
      : probeLibraryDir(candidate, dir, trusts);
    if (found === "library") return { root: candidate, projectRoot: dir, foundBy };
    if (found !== "none") return { refused: candidate, reason: found };
    const parent = dirnameOf(dir);
    if (parent === dir || parent === "" || parent === "/" && dir === "/") return null;
    dir = parent;
  }
  return null;
}

/**
 * True for a library, false for a refusal or nothing (a type guard).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLibrary } from "./discover.ts";
 * assert.ok(isLibrary({ root: "/r/_memory_library", projectRoot: "/r", foundBy: "cwd" }));
 * assert.ok(!isLibrary({ refused: "/tmp/_memory_library", reason: "not-owned" }));
 * assert.ok(!isLibrary(null));
 * ```
 */
export function isLibrary(found: Library | RefusedLibrary | null): found is Library {
  return found !== null && "root" in found;
}

/**
 * {@link lookUpLibraryAbove}, with a refused library counted as none.
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
  const found = lookUpLibraryAbove(startDir, foundBy);
  return isLibrary(found) ? found : null;
}

/**
 * The library for a file a tool is about to touch: `LIBRARIAN_PATH` wins (the file must then be
 * inside its project, else `null`); otherwise the nearest `_memory_library/` above the file, or
 * the refusal of the nearest one (`listings`: {@link lookUpLibraryAbove}).
 *
 * @example Usage
 * ```ts
 * import { lookUpLibraryForFile } from "./discover.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const refused = lookUpLibraryForFile(`${project}/a.ts`, envFrom({}), () => false);
 * assert.deepEqual(refused, { refused: `${project}/_memory_library`, reason: "not-owned" });
 * const named = lookUpLibraryForFile(`${project}/a.ts`, envFrom({ LIBRARIAN_PATH: `${project}/_memory_library` }), () => false);
 * assert.equal(named && "root" in named ? named.foundBy : null, "LIBRARIAN_PATH");
 * ```
 */
export function lookUpLibraryForFile(
  filePath: string,
  env: EnvReader,
  trusts: OwnerCheck = trustedByThisProcess,
  listings?: FolderListings,
): Library | RefusedLibrary | null {
  return libraryFromEnv(env) ??
    lookUpLibraryAbove(dirnameOf(normalizePath(filePath)), "file", trusts, listings);
}

/**
 * {@link lookUpLibraryForFile}, with a refused library counted as none.
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
export function findLibraryForFile(
  filePath: string,
  env: EnvReader,
  listings?: FolderListings,
): Library | null {
  const found = lookUpLibraryForFile(filePath, env, trustedByThisProcess, listings);
  return isLibrary(found) ? found : null;
}

/**
 * The library for a session-level event (prompt, stop, a command run by a person):
 * `LIBRARIAN_PATH`, else above `CLAUDE_PROJECT_DIR`, else above `cwd`; or the refusal of the
 * first library found there.
 *
 * @example Usage
 * ```ts
 * import { lookUpLibraryForSession } from "./discover.ts";
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const env = envFrom({ CLAUDE_PROJECT_DIR: project });
 * assert.deepEqual(lookUpLibraryForSession(undefined, env, () => false), {
 *   refused: `${project}/_memory_library`,
 *   reason: "not-owned",
 * });
 * ```
 */
export function lookUpLibraryForSession(
  cwd: string | undefined,
  env: EnvReader,
  trusts: OwnerCheck = trustedByThisProcess,
): Library | RefusedLibrary | null {
  const fromEnv = libraryFromEnv(env);
  if (fromEnv) return fromEnv;
  const projectDir = env("CLAUDE_PROJECT_DIR")?.trim();
  let refusal: RefusedLibrary | null = null;
  if (projectDir) {
    const found = lookUpLibraryAbove(projectDir, "CLAUDE_PROJECT_DIR", trusts);
    if (isLibrary(found)) return found;
    refusal = found;
  }
  if (cwd) {
    const found = lookUpLibraryAbove(cwd, "cwd", trusts);
    if (isLibrary(found)) return found;
    refusal ??= found;
  }
  return refusal;
}

/**
 * {@link lookUpLibraryForSession}, with a refused library counted as none.
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
  const found = lookUpLibraryForSession(cwd, env);
  return isLibrary(found) ? found : null;
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
