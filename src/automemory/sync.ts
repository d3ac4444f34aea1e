/**
 * Phase 1 of the stop hook: Claude Code's own auto memory → scratch blocks.
 *
 * The memory folders ({@link memoryDirs}) are scanned cheaply at every turn end
 * ({@link scanAutoMemory}: `stat` calls only, no file read, no YAML parser); only when a file
 * changed does {@link syncAutoMemory} read it, parse it ({@link parseMemoryFile}) and append its
 * block to scratch. Sync records make each entry sync once: unchanged files are not even read, an
 * edited entry syncs again, and a long session misses nothing. `user` entries (personal) and
 * `MEMORY.md` (the index) are never synced.
 *
 * @module
 */

import { type Library, scratchPathOf } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import { readTextBounded } from "../core/fs_probe.ts";
import { hashText } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { scratchFileProblem } from "../core/scratch_file.ts";
import { listNames, memoryDirs } from "./locate.ts";
import { memoryBlock, type MemorySkip, parseMemoryFile, type YamlParse } from "./parse.ts";
import { loadRecord, recordPathOf, saveRecord } from "./records.ts";

/** Memory files larger than this are skipped (they are meant to be a few lines). */
export const MAX_MEMORY_BYTES = 256 * 1024;

// ---------------------------------------------------------------------------------------------
// The cheap scan.

/** A memory file whose size or mtime differs from its record. */
export interface ChangedFile {
  dir: string;
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
  /** Folders whose record lists files that no longer exist. */
  stale: string[];
  /** Why no scan was possible (no config folder, no state folder). */
  skipped?: string;
}

function isMemoryFileName(name: string): boolean {
  return name.toLowerCase().endsWith(".md") && name.toLowerCase() !== "memory.md" &&
    !name.startsWith(".");
}

/**
 * Lists the memory folders' entries and compares size and mtime with the sync records. Reads no
 * memory file and loads no YAML parser: this runs at the end of every turn.
 */
export function scanAutoMemory(library: Library, env: EnvReader): MemoryScan {
  const state = stateDir(env);
  if (!state) return { dirs: [], changed: [], stale: [], skipped: "no state folder" };
  const dirs = memoryDirs(library, env);
  const changed: ChangedFile[] = [];
  const stale: string[] = [];
  for (const dir of dirs) {
    const record = loadRecord(recordPathOf(state, dir), dir);
    const present = new Set<string>();
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile || !isMemoryFileName(entry.name)) continue;
      present.add(entry.name);
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(joinPath(dir, entry.name));
      } catch {
        continue;
      }
      const mtime = info.mtime?.getTime() ?? 0;
      const seen = record.files[entry.name];
      if (seen && seen.size === info.size && seen.mtime === mtime) continue;
      changed.push({ dir, name: entry.name, size: info.size, mtime });
    }
    if (Object.keys(record.files).some((name) => !present.has(name))) stale.push(dir);
  }
  return { dirs, changed, stale };
}

// ---------------------------------------------------------------------------------------------
// The sync.

/** What a sync did. */
export interface SyncReport {
  /** Entries appended to scratch. */
  synced: Array<{ file: string; name: string; type: string; mapped: string }>;
  /** Files not synced, and why (`user`, `malformed`, ...). */
  skipped: Array<{ file: string; why: MemorySkip; detail?: string }>;
  /** Files whose content changed but produced the same entry as before (e.g. a new `modified`). */
  unchanged: number;
}

/** Appends text to scratch (creating it), starting on a fresh line. */
function appendToScratch(path: string, text: string): void {
  let prefix = "";
  try {
    const current = Deno.readTextFileSync(path);
    if (current !== "" && !current.endsWith("\n")) {
      prefix = current.includes("\r\n") ? "\r\n" : "\n";
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  Deno.writeTextFileSync(path, prefix + text, { append: true, create: true });
}

/**
 * Syncs the changed memory files of a scan into scratch and updates the sync records.
 * Call it while holding the library's lock (the stop hook does); it re-checks each file, so a
 * scan made before the lock was taken is fine. When scratch is not a plain file (a symlink, a
 * folder, ...: see `scratchFileProblem`), nothing is synced and no record changes, so the entries
 * sync once scratch is fixed.
 */
export async function syncAutoMemory(
  library: Library,
  env: EnvReader,
  scan: MemoryScan,
): Promise<SyncReport> {
  const report: SyncReport = { synced: [], skipped: [], unchanged: 0 };
  const state = stateDir(env);
  if (!state || (scan.changed.length === 0 && scan.stale.length === 0)) return report;
  let parseYaml: YamlParse | undefined;
  const scratch = scratchPathOf(library);
  if (scratchFileProblem(scratch)) return report;
  let eol = "\n";
  try {
    if (Deno.readTextFileSync(scratch).includes("\r\n")) eol = "\r\n";
  } catch {
    // no scratch yet
  }
  const byDir = new Map<string, ChangedFile[]>();
  for (const dir of new Set([...scan.changed.map((c) => c.dir), ...scan.stale])) {
    byDir.set(dir, scan.changed.filter((c) => c.dir === dir));
  }
  for (const [dir, files] of byDir) {
    const recordPath = recordPathOf(state, dir);
    const record = loadRecord(recordPath, dir);
    const blocks: string[] = [];
    for (const file of [...files].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const path = joinPath(dir, file.name);
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(path);
      } catch {
        continue;
      }
      const mtime = info.mtime?.getTime() ?? 0;
      const seen = record.files[file.name];
      if (seen && seen.size === info.size && seen.mtime === mtime) continue; // synced meanwhile
      const text = readTextBounded(path, MAX_MEMORY_BYTES);
      if (text === null) {
        report.skipped.push({ file: file.name, why: "too-large" });
        record.files[file.name] = { size: info.size, mtime, hash: "", entry: "" };
        continue;
      }
      const hash = hashText(text);
      if (seen && seen.hash === hash) {
        record.files[file.name] = { ...seen, size: info.size, mtime };
        continue;
      }
      parseYaml ??= (await import("yaml")).parse as YamlParse;
      const stem = file.name.replace(/\.md$/i, "");
      const parsed = parseMemoryFile(text, stem, parseYaml);
      if (parsed.kind === "skip") {
        report.skipped.push({
          file: file.name,
          why: parsed.why,
          ...(parsed.detail ? { detail: parsed.detail } : {}),
        });
        record.files[file.name] = { size: info.size, mtime, hash, entry: "" };
        continue;
      }
      const block = memoryBlock(parsed.entry, eol);
      const entryHash = hashText(block.replaceAll("\r\n", "\n"));
      record.files[file.name] = { size: info.size, mtime, hash, entry: entryHash };
      if (seen && seen.entry === entryHash) {
        report.unchanged++;
        continue;
      }
      blocks.push(block);
      const { name, type, mapped } = parsed.entry;
      report.synced.push({ file: file.name, name, type, mapped });
    }
    const present = new Set(listNames(dir));
    for (const name of Object.keys(record.files)) {
      if (!present.has(name)) delete record.files[name];
    }
    // Scratch first, then the record: a crash in between re-syncs (and routing skips the
    // bullet already filed) rather than losing the entry.
    if (blocks.length > 0) appendToScratch(scratch, blocks.join(""));
    saveRecord(recordPath, record);
  }
  return report;
}
