/**
 * Where the files that coordinate filing runs live, and taking their lock: the lock every run of
 * a library takes (the stop hook, `librarian route`, `librarian import`), and beside it the
 * journal (the crash record of what was filed). Never inside the library.
 *
 * The folder is the first of these that can be used:
 * 1. `~/.claude/librarian/locks/` under the home folder: every process of the user sees it alike,
 *    so two Claude Code accounts (`CLAUDE_CONFIG_DIR`) on one project share one lock;
 * 2. `$CLAUDE_CONFIG_DIR/librarian/locks/` (a read-only or missing home folder);
 * 3. `<state folder>/locks/` (`LIBRARIAN_STATE_DIR`, else `CLAUDE_PLUGIN_DATA`).
 *
 * When none can be used, nothing is filed and the error says what to fix.
 *
 * @module
 */

import { type Library, realPathOfNearest } from "../core/discover.ts";
import { type EnvReader, homeDir } from "../core/env.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";
import { hashUtf8 } from "../core/hash.ts";
import { isAbsolutePath, isCaseInsensitiveOs, joinPath, normalizePath } from "../core/paths.ts";
import type { HeldLock } from "./lock.ts";

/** Where the lock file and the journal of a library live. */
export interface CoordinationPaths {
  lock: string;
  journal: string;
  /** Where replaced scratch files are kept for carry-over (carry_over.ts), beside the journal. */
  carry: string;
}

/** A folder that may hold the lock and journal, and whether it may be created. */
interface Candidate {
  dir: string;
  /** Where the folder comes from, for messages (`~/.claude`, `CLAUDE_CONFIG_DIR`, ...). */
  source: string;
}

/** No folder could hold the lock and journal: nothing can be filed. */
export class CoordinationError extends LibrarianError {
  constructor(message: string) {
    super(message);
    this.name = "CoordinationError";
  }
}

function absoluteFrom(env: EnvReader, name: string): string | undefined {
  const raw = env(name)?.trim();
  // Normalised first: on Windows the value comes with backslashes (`C:\Users\me\.claude`).
  const path = raw ? normalizePath(raw) : undefined;
  return path && isAbsolutePath(path) ? path : undefined;
}

/** The folders that may hold the lock and journal, in order of preference. */
function candidates(env: EnvReader): Candidate[] {
  const out: Candidate[] = [];
  const home = homeDir(env);
  if (home) {
    out.push({ dir: joinPath(home, ".claude", "librarian", "locks"), source: "~/.claude" });
  }
  const config = absoluteFrom(env, "CLAUDE_CONFIG_DIR");
  if (config) {
    out.push({ dir: joinPath(config, "librarian", "locks"), source: "CLAUDE_CONFIG_DIR" });
  }
  for (const name of ["LIBRARIAN_STATE_DIR", "CLAUDE_PLUGIN_DATA"]) {
    const state = absoluteFrom(env, name);
    if (state) out.push({ dir: joinPath(state, "locks"), source: name });
  }
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.dir) && seen.add(c.dir));
}

/**
 * The name of a library's lock and journal: {@link hashUtf8} (XXH32) of its real path, 16 hex
 * digits. Files named by the old key (cyrb53, 14 hex digits) are never taken for these: an old
 * lock cannot block a run, an old journal is only read for its window (journal.ts).
 */
function keyOf(library: Library): string {
  const real = realPathOfNearest(library.root) ?? library.root;
  return hashUtf8(isCaseInsensitiveOs() ? real.toLowerCase() : real);
}

function pathsIn(dir: string, key: string): CoordinationPaths {
  return {
    lock: joinPath(dir, `${key}.lock`),
    journal: joinPath(dir, `${key}.filed.json`),
    carry: joinPath(dir, `${key}.scratch`),
  };
}

/**
 * The preferred lock and journal files for `library` (keyed by its real path), whether or not
 * they can be used; `null` when no folder is known at all (no home folder, no
 * `CLAUDE_CONFIG_DIR`, no state folder). {@link acquireCoordination} takes the first usable one.
 *
 * @example Usage
 * ```ts
 * import { coordinationPaths } from "./coordination.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/repo/_memory_library", projectRoot: "/repo", foundBy: "cwd" as const };
 * const paths = coordinationPaths(library, envFrom({ HOME: "/home/ada" }));
 * assert.match(paths?.lock ?? "", /^\/home\/ada\/\.claude\/librarian\/locks\/[0-9a-f]+\.lock$/);
 * assert.equal(paths?.journal, paths?.lock.replace(/\.lock$/, ".filed.json"));
 * assert.equal(coordinationPaths(library, envFrom({})), null);
 * ```
 */
export function coordinationPaths(library: Library, env: EnvReader): CoordinationPaths | null {
  const first = candidates(env)[0];
  return first ? pathsIn(first.dir, keyOf(library)) : null;
}

/**
 * Where replaced scratch files are kept for carry-over, given the journal beside them.
 *
 * @example Usage
 * ```ts
 * import { carryPlaceOf } from "./coordination.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(carryPlaceOf("/state/locks/0a1b.filed.json"), "/state/locks/0a1b.scratch");
 * ```
 */
export function carryPlaceOf(journal: string): string {
  return journal.replace(/\.filed\.json$/, ".scratch");
}

/**
 * The journal a run without the lock (a dry run) reads: the first candidate's that exists, or
 * `null`.
 *
 * @example Usage
 * ```ts
 * import { coordinationPaths, existingJournal } from "./coordination.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const env = envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() });
 * const library = { root: Deno.makeTempDirSync(), projectRoot: "/", foundBy: "cwd" as const };
 * assert.equal(existingJournal(library, env), null);
 * const { journal } = coordinationPaths(library, env)!;
 * Deno.mkdirSync(journal.slice(0, journal.lastIndexOf("/")), { recursive: true });
 * Deno.writeTextFileSync(journal, '{"version":2,"filed":[]}');
 * assert.equal(existingJournal(library, env), journal);
 * ```
 */
export function existingJournal(library: Library, env: EnvReader): string | null {
  const key = keyOf(library);
  for (const candidate of candidates(env)) {
    const { journal } = pathsIn(candidate.dir, key);
    try {
      Deno.lstatSync(journal);
      return journal;
    } catch {
      // not here
    }
  }
  return null;
}

/** A held library lock and the journal that goes with it. */
export interface Coordination extends AsyncDisposable {
  lock: HeldLock;
  paths: CoordinationPaths;
}

/**
 * Takes the library's lock in the first folder that can hold it (creating the folder) and
 * returns it with the journal path beside it.
 *
 * @throws {LockTimeoutError} when another run holds the lock past `timeoutMs`
 * @throws {CoordinationError} when no folder can hold the lock; its message says what to fix
 *
 * @example Usage
 * ```ts
 * import { acquireCoordination } from "./coordination.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const env = envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() });
 * const library = { root: Deno.makeTempDirSync(), projectRoot: "/", foundBy: "cwd" as const };
 * {
 *   await using held = await acquireCoordination(library, env, { timeoutMs: 1000 });
 *   assert.ok(held.paths.journal.endsWith(".filed.json"));
 *   await assert.rejects(acquireCoordination(library, env, { timeoutMs: 20 }));
 * }
 * ```
 */
export async function acquireCoordination(
  library: Library,
  env: EnvReader,
  options: { timeoutMs: number },
): Promise<Coordination> {
  // Loaded here, not above: the stop hook's idle check needs only the paths.
  const { acquireLock, LockTimeoutError } = await import("./lock.ts");
  const key = keyOf(library);
  const tried: string[] = [];
  const all = candidates(env);
  for (const candidate of all) {
    const paths = pathsIn(candidate.dir, key);
    try {
      const lock = await acquireLock(paths.lock, options);
      return { lock, paths, [Symbol.asyncDispose]: () => lock[Symbol.asyncDispose]() };
    } catch (error) {
      if (error instanceof LockTimeoutError) throw error;
      tried.push(`${paths.lock}: ${messageOf(error)}`);
    }
  }
  if (all.length === 0) {
    throw new CoordinationError(
      "no folder for the lock and journal (HOME is not set); " +
        "set HOME or CLAUDE_CONFIG_DIR to a writable folder",
    );
  }
  throw new CoordinationError(
    `cannot create the lock (${tried.join("; ")}); make that folder writable, ` +
      "or set CLAUDE_CONFIG_DIR to a writable folder",
  );
}

/**
 * Takes the library's lock for a command (the lock timeout from `LIBRARIAN_LOCK_TIMEOUT_MS`).
 *
 * @throws {LockTimeoutError} when another run holds it past the timeout
 * @throws {CoordinationError} when no folder can hold it
 *
 * @example Usage
 * ```ts
 * import { lockLibrary } from "./coordination.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const env = envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() });
 * const library = { root: Deno.makeTempDirSync(), projectRoot: "/", foundBy: "cwd" as const };
 * const held = await lockLibrary(library, env);
 * assert.ok(held.lock.path.endsWith(".lock"));
 * await held[Symbol.asyncDispose]();
 * await (await lockLibrary(library, env))[Symbol.asyncDispose]();
 * ```
 */
export async function lockLibrary(library: Library, env: EnvReader): Promise<Coordination> {
  const { lockTimeoutFrom } = await import("./lock.ts");
  const timeoutMs = lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  return await acquireCoordination(library, env, { timeoutMs });
}
