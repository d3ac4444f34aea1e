/**
 * Where the files that coordinate filing runs live (paths only, no file is touched): the lock
 * every run of a library takes, and beside it the journal and the carry-over place. Never inside
 * the library. The folder is the first of these that can be used:
 * 1. `~/.claude/librarian/locks/` under the home folder: every process of the user sees it alike,
 *    so two Claude Code accounts (`CLAUDE_CONFIG_DIR`) on one project share one lock;
 * 2. `$CLAUDE_CONFIG_DIR/librarian/locks/` (a read-only or missing home folder);
 * 3. `<state folder>/locks/` (`LIBRARIAN_STATE_DIR`, else `CLAUDE_PLUGIN_DATA`).
 *
 * Light on purpose: the stop hook's idle check needs these paths and nothing of the lock
 * (`coordination.ts` takes the lock).
 *
 * @module
 */

import { type Library, realPathOfNearest } from "../core/discover.ts";
import { type EnvReader, homeDir } from "../core/env.ts";
import { hashUtf8 } from "../core/hash.ts";
import { isAbsolutePath, isCaseInsensitiveOs, joinPath, normalizePath } from "../core/paths.ts";

/** Where the lock file and the journal of a library live. */
export interface CoordinationPaths {
  lock: string;
  journal: string;
  /** Where replaced scratch files are kept for carry-over (carry_over.ts), beside the journal. */
  carry: string;
  /**
   * Present while a re-export after filing runs, and after one that did not finish or failed
   * (export/after_filing.ts): the next one exports every folder.
   */
  exportPending: string;
}

/** A folder that may hold the lock and journal, and whether it may be created. */
interface Candidate {
  dir: string;
  /** Where the folder comes from, for messages (`~/.claude`, `CLAUDE_CONFIG_DIR`, ...). */
  source: string;
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
 * digits.
 */
function keyOf(library: Library): string {
  const real = realPathOfNearest(library.root) ?? library.root;
  return hashUtf8(isCaseInsensitiveOs() ? real.toLowerCase() : real);
}

/** How an `exportPending` file's name ends (its start is the library's key). */
export const EXPORT_PENDING_SUFFIX = ".export-pending";

function pathsIn(dir: string, key: string): CoordinationPaths {
  return {
    lock: joinPath(dir, `${key}.lock`),
    journal: joinPath(dir, `${key}.filed.json`),
    carry: joinPath(dir, `${key}.scratch`),
    exportPending: joinPath(dir, `${key}${EXPORT_PENDING_SUFFIX}`),
  };
}

/** One folder that may hold a library's lock and journal, with those files' paths. */
export interface CoordinationChoice {
  paths: CoordinationPaths;
  /** Where the folder comes from, for messages (`~/.claude`, `CLAUDE_CONFIG_DIR`, ...). */
  source: string;
}

/**
 * Every place `library`'s lock and journal may live, in order of preference (the lock is taken in
 * the first one that can be used), keyed by the library's real path.
 *
 * @example Usage
 * ```ts
 * import { coordinationChoices } from "./coordination_paths.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/repo/_memory_library", projectRoot: "/repo", foundBy: "cwd" as const };
 * const choices = coordinationChoices(library, envFrom({ HOME: "/h", LIBRARIAN_STATE_DIR: "/s" }));
 * assert.deepEqual(choices.map((c) => c.source), ["~/.claude", "LIBRARIAN_STATE_DIR"]);
 * assert.match(choices[1]!.paths.journal, /^\/s\/locks\/[0-9a-f]+\.filed\.json$/);
 * ```
 */
export function coordinationChoices(library: Library, env: EnvReader): CoordinationChoice[] {
  const all = candidates(env);
  if (all.length === 0) return [];
  const key = keyOf(library);
  return all.map((c) => ({ paths: pathsIn(c.dir, key), source: c.source }));
}

/**
 * The preferred lock and journal files for `library` (keyed by its real path), whether or not
 * they can be used; `null` when no folder is known at all (no home folder, no
 * `CLAUDE_CONFIG_DIR`, no state folder). `acquireCoordination` (coordination.ts) takes the first
 * usable one.
 *
 * @example Usage
 * ```ts
 * import { coordinationPaths } from "./coordination_paths.ts";
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
  const dir = coordinationDir(env);
  return dir === null ? null : pathsIn(dir, keyOf(library));
}

/**
 * The folder {@link coordinationPaths} puts every library's files in, without working out which
 * library's (no real path, no hash); `null` when no folder is known at all.
 *
 * @example Usage
 * ```ts
 * import { coordinationDir } from "./coordination_paths.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(coordinationDir(envFrom({ HOME: "/home/ada" })), "/home/ada/.claude/librarian/locks");
 * assert.equal(coordinationDir(envFrom({ LIBRARIAN_STATE_DIR: "/s" })), "/s/locks");
 * assert.equal(coordinationDir(envFrom({})), null);
 * ```
 */
export function coordinationDir(env: EnvReader): string | null {
  return candidates(env)[0]?.dir ?? null;
}

/**
 * Where replaced scratch files are kept for carry-over, given the journal beside them.
 *
 * @example Usage
 * ```ts
 * import { carryPlaceOf } from "./coordination_paths.ts";
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
 * import { coordinationPaths, existingJournal } from "./coordination_paths.ts";
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
