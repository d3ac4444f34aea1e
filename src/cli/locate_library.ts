/**
 * Finding the library for a command a person runs, with a message that says what to do when
 * there is none. Discovery itself is {@link findLibraryForSession}, the hooks' own code path.
 *
 * @module
 */

import {
  type EnvReader,
  isLibrary,
  isLocalAbsolutePath,
  LibrarianError,
  type Library,
  LIBRARY_DIR_NAME,
  lookUpLibraryForSession,
  normalizePath,
  refusalWarning,
  type RefusedLibrary,
} from "../core/mod.ts";

/** The outcome of looking for the library from a folder. */
export interface LocatedLibrary {
  library: Library | null;
  /** Set when `LIBRARIAN_PATH` is set but unusable (it was ignored). */
  envProblem?: string;
  /** Set when the library found is not used (another user's): `library` is then `null`. */
  refused?: RefusedLibrary;
}

/** Why no library was found: what {@link locateLibrary} said besides the library. */
export type NoLibraryWhy = Omit<LocatedLibrary, "library">;

/**
 * Why `LIBRARIAN_PATH` was ignored, or undefined when it is unset or usable.
 *
 * @example Usage
 * ```ts
 * import { librarianPathProblem } from "./locate_library.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await librarianPathProblem(envFrom({})), undefined);
 * assert.equal(await librarianPathProblem(envFrom({ LIBRARIAN_PATH: Deno.makeTempDirSync() })), undefined);
 * assert.match((await librarianPathProblem(envFrom({ LIBRARIAN_PATH: "rel" })))!, /not an absolute path/);
 * assert.match((await librarianPathProblem(envFrom({ LIBRARIAN_PATH: "/no/such" })))!, /does not exist/);
 * ```
 */
export async function librarianPathProblem(env: EnvReader): Promise<string | undefined> {
  const configured = env("LIBRARIAN_PATH")?.trim();
  if (!configured) return undefined;
  const path = normalizePath(configured);
  if (!isLocalAbsolutePath(path)) {
    return `LIBRARIAN_PATH="${configured}" is not an absolute path, so it is ignored`;
  }
  try {
    if ((await Deno.stat(path)).isDirectory) return undefined;
    return `LIBRARIAN_PATH="${configured}" is not a folder, so it is ignored`;
  } catch {
    return `LIBRARIAN_PATH="${configured}" does not exist, so it is ignored`;
  }
}

/**
 * Looks for the library as the hooks would for a session started in `cwd`.
 *
 * @example Usage
 * ```ts
 * import { locateLibrary } from "./locate_library.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const found = await locateLibrary(envFrom({}), project);
 * assert.equal(found.library?.root, `${project}/_memory_library`);
 * const missing = await locateLibrary(envFrom({ LIBRARIAN_PATH: "rel" }), Deno.makeTempDirSync());
 * assert.equal(missing.library, null);
 * assert.match(missing.envProblem!, /not an absolute path/);
 * ```
 */
export async function locateLibrary(env: EnvReader, cwd: string): Promise<LocatedLibrary> {
  const found = lookUpLibraryForSession(cwd, env);
  const envProblem = await librarianPathProblem(env);
  const located: LocatedLibrary = { library: isLibrary(found) ? found : null };
  if (envProblem) located.envProblem = envProblem;
  if (found !== null && !isLibrary(found)) located.refused = found;
  return located;
}

/**
 * What to tell a person when no library was found from `cwd`: why `LIBRARIAN_PATH` was ignored,
 * if it was, and the library folder that was found but not used, if one was.
 *
 * @example Usage
 * ```ts
 * import { noLibraryMessage } from "./locate_library.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(noLibraryMessage("/repo"), /^no memory library found: LIBRARIAN_PATH is not set, and there is no _memory_library\/ folder in \/repo or above/);
 * const refused = { refused: "/tmp/_memory_library", reason: "not-owned" as const };
 * assert.match(noLibraryMessage("/tmp/a", { refused }), /^no memory library used: \/tmp\/_memory_library is not used: it is owned by another user/);
 * ```
 */
export function noLibraryMessage(cwd: string, why: NoLibraryWhy = {}): string {
  const fix = `Run 'librarian init' in your project's root folder, or set LIBRARIAN_PATH to the ` +
    `library folder's absolute path.`;
  if (why.refused) {
    const env = why.envProblem ? ` (${why.envProblem})` : "";
    return `no memory library used${env}: ${refusalWarning(why.refused)}. ${fix}`;
  }
  const env = why.envProblem
    ? `${why.envProblem}, and there`
    : "LIBRARIAN_PATH is not set, and there";
  return `no memory library found: ${env} is no ${LIBRARY_DIR_NAME}/ folder in ${cwd} or above. ${fix}`;
}

/**
 * No library was found from `cwd`: exit 1, with {@link noLibraryMessage}; as JSON,
 * `{ "library": null, ... }` plus `details`.
 *
 * @example Usage
 * ```ts
 * import { noLibraryError } from "./locate_library.ts";
 * import { LibrarianError } from "../core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = noLibraryError("/repo", {}, { findings: [] });
 * assert.ok(error instanceof LibrarianError);
 * assert.equal(error.exitCode, 1);
 * assert.deepEqual(error.details, { library: null, findings: [] });
 * ```
 */
export function noLibraryError(
  cwd: string,
  why: NoLibraryWhy = {},
  details: Record<string, unknown> = {},
): LibrarianError {
  const refused = why.refused ? { refused: why.refused.refused } : {};
  return new LibrarianError(noLibraryMessage(cwd, why), {
    details: { library: null, ...refused, ...details },
  });
}

/**
 * The library a command works on, found from the current folder: a {@link noLibraryError}
 * (carrying `details` for `--json`) when there is none.
 *
 * @example Usage
 * ```ts
 * import { requireLibrary } from "./locate_library.ts";
 * import { envFrom } from "../core/env.ts";
 * import { LibrarianError } from "../core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.mkdirSync(`${project}/_memory_library`);
 * const here = Deno.cwd();
 * Deno.chdir(project);
 * try {
 *   assert.equal((await requireLibrary(envFrom({}))).root, `${project}/_memory_library`);
 *   Deno.removeSync(`${project}/_memory_library`);
 *   await assert.rejects(requireLibrary(envFrom({}), { findings: [] }), LibrarianError);
 * } finally {
 *   Deno.chdir(here);
 * }
 * ```
 */
export async function requireLibrary(
  env: EnvReader,
  details: Record<string, unknown> = {},
): Promise<Library> {
  const cwd = normalizePath(Deno.cwd());
  const located = await locateLibrary(env, cwd);
  if (!located.library) throw noLibraryError(cwd, located, details);
  return located.library;
}

/**
 * How a library was found, in words.
 *
 * @example Usage
 * ```ts
 * import { describeFoundBy } from "./locate_library.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/r/_memory_library", projectRoot: "/r", foundBy: "cwd" as const };
 * assert.equal(describeFoundBy(library), "above the current folder");
 * assert.equal(describeFoundBy({ ...library, foundBy: "LIBRARIAN_PATH" }), "from LIBRARIAN_PATH");
 * ```
 */
export function describeFoundBy(library: Library): string {
  switch (library.foundBy) {
    case "LIBRARIAN_PATH":
      return "from LIBRARIAN_PATH";
    case "CLAUDE_PROJECT_DIR":
      return "above CLAUDE_PROJECT_DIR";
    case "file":
      return "above the file";
    case "cwd":
      return "above the current folder";
  }
}

/**
 * The library as plain data for `--json`.
 *
 * @example Usage
 * ```ts
 * import { libraryJson } from "./locate_library.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/r/_memory_library", projectRoot: "/r", foundBy: "file" as const };
 * assert.deepEqual(libraryJson(library), library);
 * assert.notEqual(libraryJson(library), library);
 * ```
 */
export function libraryJson(library: Library): Record<string, string> {
  return { root: library.root, projectRoot: library.projectRoot, foundBy: library.foundBy };
}
