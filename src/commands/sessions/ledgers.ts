/**
 * The inject side's ledgers read back for people (`librarian sessions`, `librarian explain
 * --session`): which sessions of this project were sent library files, and which versions, per
 * context window.
 *
 * Ledgers are parsed by the inject side's own parser ({@link parseLedger}); only files inside
 * this project's library count, so other projects' sessions are never shown.
 *
 * @module
 */

import {
  type EnvReader,
  isDirectory,
  joinPath,
  LibrarianError,
  normalizePath,
} from "../../core/mod.ts";
import { parseLedger, windowStateDir } from "../../inject/mod.ts";

/** One context window's ledger: the main conversation or one subagent. */
export interface WindowLedger {
  /** `main`, or `agent-<id>` for a subagent. */
  window: string;
  /** Library file's absolute path → fingerprint (`<size>:<mtime-ms>:<hash>`), this library only. */
  files: Record<string, string>;
  reminded: boolean;
  /** Project-relative code folders (`.` for the root) whose first write this window held. */
  held: string[];
  modified: Date | null;
}

/** One session's ledgers. */
export interface SessionLedgers {
  /** The session id as its ledger folder is named. */
  session: string;
  stateDir: string;
  windows: WindowLedger[];
  /** The newest ledger write. */
  lastActive: Date | null;
}

/**
 * Where ledgers are: where the hooks keep them ({@link windowStateDir}: `LIBRARIAN_STATE_DIR`,
 * else `~/.claude/librarian`), when that folder exists.
 *
 * @example Usage
 * ```ts
 * import { candidateStateDirs } from "./ledgers.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const state = Deno.makeTempDirSync();
 * assert.deepEqual(candidateStateDirs(envFrom({ LIBRARIAN_STATE_DIR: state })), [state]);
 * const home = Deno.makeTempDirSync();
 * assert.deepEqual(candidateStateDirs(envFrom({ HOME: home })), []);
 * Deno.mkdirSync(`${home}/.claude/librarian`, { recursive: true });
 * assert.deepEqual(candidateStateDirs(envFrom({ HOME: home })), [`${home}/.claude/librarian`]);
 * ```
 */
export function candidateStateDirs(env: EnvReader): string[] {
  const dir = windowStateDir(env);
  return dir !== undefined && isDirectory(dir) ? [dir] : [];
}

/** The files, reminder flag and held folders of ledger text. */
function ledgerContent(
  text: string,
): { files: Record<string, string>; reminded: boolean; held: string[] } {
  const { ledger } = parseLedger(text);
  return { files: ledger.files, reminded: ledger.reminded, held: ledger.held ?? [] };
}

/** The held folders inside the project of `libraryRoot`, project-relative (`.` for the root). */
function heldInProject(held: readonly string[], libraryRoot: string): string[] {
  const project = libraryRoot.slice(0, libraryRoot.lastIndexOf("/")) || "/";
  return held.flatMap((folder) => {
    const path = normalizePath(folder);
    if (path === project) return ["."];
    return path.startsWith(`${project}/`) ? [path.slice(project.length + 1)] : [];
  });
}

function insideLibrary(path: string, libraryRoot: string): boolean {
  return normalizePath(path).startsWith(`${libraryRoot}/`);
}

/** Reads one session folder's ledgers, keeping only files inside `libraryRoot`. */
function readSession(dir: string, session: string, state: string, libraryRoot: string) {
  const windows: WindowLedger[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const path = joinPath(dir, entry.name);
    let text: string;
    let modified: Date | null = null;
    try {
      const info = Deno.statSync(path);
      if (!info.isFile || info.size > 4_000_000) continue;
      modified = info.mtime;
      text = Deno.readTextFileSync(path);
    } catch {
      continue;
    }
    const content = ledgerContent(text);
    const files: Record<string, string> = {};
    for (const [file, fingerprint] of Object.entries(content.files)) {
      if (insideLibrary(file, libraryRoot)) files[file] = fingerprint;
    }
    if (Object.keys(files).length === 0) continue;
    windows.push({
      window: entry.name.slice(0, -".json".length),
      files,
      reminded: content.reminded,
      held: heldInProject(content.held, libraryRoot),
      modified,
    });
  }
  if (windows.length === 0) return null;
  windows.sort((a, b) =>
    a.window === "main" ? -1 : b.window === "main" ? 1 : a.window.localeCompare(b.window)
  );
  const times = windows.map((w) => w.modified?.getTime() ?? 0);
  const newest = Math.max(...times);
  return {
    session,
    stateDir: state,
    windows,
    lastActive: newest > 0 ? new Date(newest) : null,
  } satisfies SessionLedgers;
}

/**
 * Every session that was sent files of the library at `libraryRoot`, most recent first.
 *
 * @example Usage
 * ```ts
 * import { projectSessions } from "./ledgers.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const env = envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() });
 * assert.deepEqual(projectSessions(env, "/repo/_memory_library"), []);
 * ```
 */
export function projectSessions(env: EnvReader, libraryRoot: string): SessionLedgers[] {
  const root = normalizePath(libraryRoot).replace(/\/+$/, "");
  const sessions: SessionLedgers[] = [];
  for (const state of candidateStateDirs(env)) {
    const ledgers = joinPath(state, "ledgers");
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(ledgers)];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory) continue;
      const session = readSession(joinPath(ledgers, entry.name), entry.name, state, root);
      if (session) sessions.push(session);
    }
  }
  return sessions.sort((a, b) => (b.lastActive?.getTime() ?? 0) - (a.lastActive?.getTime() ?? 0));
}

/**
 * The session `wanted` names among `sessions` (most recent first): `latest` (the first), its id,
 * or the start of exactly one id.
 *
 * @throws {LibrarianError} when there is no session, none matches, or the start fits several.
 *
 * @example Usage
 * ```ts
 * import { findSession } from "./ledgers.ts";
 * import assert from "node:assert/strict";
 *
 * const session = (id: string) => ({ session: id, stateDir: "/s", windows: [], lastActive: null });
 * const sessions = [session("b-22"), session("a-11"), session("a-12")];
 * assert.equal(findSession(sessions, "latest").session, "b-22");
 * assert.equal(findSession(sessions, "b").session, "b-22");
 * assert.throws(() => findSession(sessions, "a-1"), /starts 2 sessions/);
 * assert.throws(() => findSession(sessions, "c"), /no session 'c'/);
 * assert.throws(() => findSession([], "latest"), /no session of this project/);
 * ```
 */
export function findSession(sessions: readonly SessionLedgers[], wanted: string): SessionLedgers {
  if (wanted === "latest") {
    const latest = sessions[0];
    if (!latest) throw new LibrarianError("no session of this project was sent library files yet");
    return latest;
  }
  const exact = sessions.find((s) => s.session === wanted);
  if (exact) return exact;
  const matches = sessions.filter((s) => s.session.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new LibrarianError(
      `'${wanted}' starts ${matches.length} sessions (${
        matches.slice(0, 3).map((s) => s.session).join(", ")
      }); give more of the id`,
    );
  }
  throw new LibrarianError(
    `no session '${wanted}' in this project's ledgers; 'librarian sessions' lists them`,
  );
}

/** How a sent version compares with the file on disk now. */
export type VersionState = "current" | "changed" | "deleted";

/**
 * Compares a ledger fingerprint's `<size>:<mtime-ms>` with the file now (pure apart from the
 * stat): the same stamp is `current`.
 *
 * @example Usage
 * ```ts
 * import { versionState } from "./ledgers.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * const info = Deno.statSync(path);
 * assert.equal(versionState(path, `5:${info.mtime?.getTime()}:hash`), "current");
 * assert.equal(versionState(path, "4:0:hash"), "changed");
 * assert.equal(versionState(`${path}.gone`, "5:0:hash"), "deleted");
 * ```
 */
export function versionState(path: string, fingerprint: string): VersionState {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return "deleted";
  }
  const [size, mtime] = fingerprint.split(":");
  return String(info.size) === size && String(info.mtime?.getTime() ?? 0) === mtime
    ? "current"
    : "changed";
}
