/**
 * The cheap scan the stop hook makes at every turn end: which auto-memory files are new or changed
 * since their sync record, by `stat` only (no memory file read, no YAML parser). The sync that
 * follows, when something changed, is in `sync.ts`.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import { joinPath } from "../core/paths.ts";
import { listMemoryFiles, memoryDirs } from "./memory_locate.ts";
import { type AutoMemoryMode, autoMemoryMode } from "./mode.ts";
import { readRecord, recordPathOf } from "./records.ts";

/** A memory file whose size or mtime differs from its record. */
export interface ChangedFile {
  /** The memory folder. */
  dir: string;
  /** The file's path relative to `dir` (`/`-separated). */
  name: string;
  size: number;
  mtime: number;
}

/** The result of the cheap scan. */
export interface MemoryScan {
  /** The memory folders found. */
  dirs: string[];
  /** Files new or changed since they were last seen. */
  changed: ChangedFile[];
  /** Folders whose record lists files that no longer exist, or whose record is damaged. */
  stale: string[];
  /** Why no scan was made (no state folder, `LIBRARIAN_AUTOMEMORY=off`). */
  skipped?: string;
  /** The mode the scan was made for. */
  mode?: AutoMemoryMode;
  /** Why `LIBRARIAN_AUTOMEMORY` was not used as given. */
  warning?: string;
  /** Changed files beyond this turn's bound, left for the next turns. */
  waiting?: number;
}

/**
 * The most changed memory files one turn reads and syncs; the rest wait for the next turns
 * (they are still changed then, so nothing is lost) and the turn says how many wait.
 */
export const MAX_CHANGED_PER_RUN = 500;

/**
 * A regular file's size and mtime (ms), or null when it is missing or not a file.
 *
 * @example Usage
 * ```ts
 * import { statFile } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.md`, "abc");
 * assert.equal(statFile(`${dir}/a.md`)?.size, 3);
 * assert.equal(statFile(dir), null);
 * assert.equal(statFile(`${dir}/missing.md`), null);
 * ```
 */
export function statFile(path: string): { size: number; mtime: number } | null {
  try {
    const info = Deno.statSync(path);
    return info.isFile ? { size: info.size, mtime: info.mtime?.getTime() ?? 0 } : null;
  } catch {
    return null;
  }
}

/**
 * Lists the memory folders' files and compares size and mtime with the sync records. Reads no
 * memory file and loads no YAML parser: this runs at the end of every turn.
 *
 * @example Usage
 * ```ts
 * import { scanAutoMemory } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * const library = { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const };
 * const off = scanAutoMemory(library, (name) => name === "LIBRARIAN_AUTOMEMORY" ? "off" : undefined);
 * assert.equal(off.skipped, "LIBRARIAN_AUTOMEMORY=off");
 * ```
 */
export function scanAutoMemory(
  library: Library,
  env: EnvReader,
  maxChanged: number = MAX_CHANGED_PER_RUN,
): MemoryScan {
  const { mode, warning } = autoMemoryMode(env);
  const extra = warning ? { mode, warning } : { mode };
  if (mode === "off") {
    return { dirs: [], changed: [], stale: [], skipped: "LIBRARIAN_AUTOMEMORY=off", ...extra };
  }
  const state = stateDir(env);
  if (!state) return { dirs: [], changed: [], stale: [], skipped: "no state folder", ...extra };
  const dirs = memoryDirs(library, env);
  const changed: ChangedFile[] = [];
  const stale: string[] = [];
  for (const dir of dirs) {
    const loaded = readRecord(recordPathOf(state, dir), dir);
    const files = loaded.record.files;
    const present = new Set<string>();
    for (const name of listMemoryFiles(dir)) {
      present.add(name);
      const info = statFile(joinPath(dir, name));
      if (!info) continue;
      const seen = files[name];
      if (seen && seen.size === info.size && seen.mtime === info.mtime) continue;
      changed.push({ dir, name, ...info });
    }
    const gone = Object.keys(files).some((name) => !present.has(name));
    if (gone || loaded.kind === "damaged") stale.push(dir);
  }
  if (changed.length > maxChanged) {
    return {
      dirs,
      changed: changed.slice(0, maxChanged),
      stale,
      waiting: changed.length - maxChanged,
      ...extra,
    };
  }
  return { dirs, changed, stale, ...extra };
}

/**
 * The log fields of a scan (absent when there is nothing to say): how many memory folders were
 * found, the mode when it is not the default, and why `LIBRARIAN_AUTOMEMORY` was not used as
 * given. The stop hook logs these on an idle turn, without loading the sync's report code.
 *
 * @example Usage
 * ```ts
 * import { scanLogFields } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * const fields = scanLogFields({ dirs: ["/m"], changed: [], stale: [], mode: "review" });
 * assert.deepEqual(fields, { memory_dirs: 1, memory_mode: "review", memory_warning: undefined });
 * assert.deepEqual(scanLogFields({ dirs: [], changed: [], stale: [], mode: "sync" }), {
 *   memory_dirs: undefined,
 *   memory_mode: undefined,
 *   memory_warning: undefined,
 * });
 * ```
 */
export function scanLogFields(scan: MemoryScan): Record<string, string | number | undefined> {
  return {
    memory_dirs: scan.dirs.length || undefined,
    memory_mode: scan.mode === "sync" ? undefined : scan.mode,
    memory_warning: scan.warning,
  };
}

/**
 * Every memory file of a folder with its size and mtime (for a folder whose record is damaged:
 * all of its files are looked at again).
 *
 * @example Usage
 * ```ts
 * import { changedFilesOf } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * const memory = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${memory}/feedback_a.md`, "abc");
 * const files = changedFilesOf(memory);
 * assert.deepEqual(files.map((f) => [f.name, f.size]), [["feedback_a.md", 3]]);
 * ```
 */
export function changedFilesOf(dir: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const name of listMemoryFiles(dir)) {
    const info = statFile(joinPath(dir, name));
    if (info) files.push({ dir, name, ...info });
  }
  return files;
}
