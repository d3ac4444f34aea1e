/**
 * Taking a library's lock: the lock every filing run of a library takes (the stop hook,
 * `librarian route`, `librarian import`), in the first folder of `coordination_paths.ts` that can
 * hold it, with the journal (the crash record of what was filed) beside it. Never inside the
 * library. When no folder can be used, nothing is filed and the error says what to fix.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";
import type { HeldLock } from "../core/lock.ts";
import { coordinationChoices, type CoordinationPaths } from "./coordination_paths.ts";

/** No folder could hold the lock and journal: nothing can be filed. */
export class CoordinationError extends LibrarianError {
  constructor(message: string) {
    super(message);
    this.name = "CoordinationError";
  }
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
  const { acquireLock, LockTimeoutError } = await import("./library_lock.ts");
  const tried: string[] = [];
  const all = coordinationChoices(library, env);
  for (const { paths } of all) {
    try {
      const lock = acquireLock(paths.lock, options);
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
  const { lockTimeoutFrom } = await import("./library_lock.ts");
  const timeoutMs = lockTimeoutFrom(env("LIBRARIAN_LOCK_TIMEOUT_MS"));
  return await acquireCoordination(library, env, { timeoutMs });
}
