/**
 * Phase 1 of the stop hook: Claude Code's own auto memory → scratch blocks.
 *
 * The memory folders (`memoryDirs` in `memory_locate.ts`) are scanned cheaply at every turn end
 * (`scanAutoMemory` in `scan.ts`: `stat` calls only, no memory file read); only
 * when a file changed does {@link syncAutoMemory} read it, parse it ({@link parseMemoryFile}: its
 * front matter is read without a YAML package, so no sync needs the network) and
 * append its block to scratch. Sync records make each entry sync once: unchanged files are not
 * even read, an edited entry syncs again, and a long session misses nothing. `user` entries (personal)
 * and `MEMORY.md` (the index) are never synced. Folders are read recursively (team memory lives
 * in `memory/team/`).
 *
 * `LIBRARIAN_AUTOMEMORY` chooses what happens: `sync` (the default) appends entries to scratch to
 * be filed at once, `review` appends them as blocks kept in scratch until a person accepts them
 * (`librarian route --accept`), `off` does not look at auto memory at all.
 *
 * @module
 */

import { type Library, scratchPathOf, trustsOwnersOf } from "../core/discover.ts";
import { type EnvReader, nowFrom, stateDir } from "../core/env.ts";
import { readFileBounded } from "../core/fs_probe.ts";
import { hashUtf8 } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { formatProvenance, localDay } from "../format/provenance.ts";
import { listMemoryFiles } from "./memory_locate.ts";
import { memoryBlock, type MemorySkip, parseMemoryFile } from "./parse.ts";
import { recordPathOf, type SyncRecord } from "./records.ts";
import { type DamagedRecord, loadRecord, saveRecord } from "./record_store.ts";
import { appendToScratch, scratchTarget } from "./scratch_append.ts";
import { type AutoMemoryMode, autoMemoryMode } from "./mode.ts";
import { reviewBlock } from "./review_mode.ts";
import {
  type ChangedFile,
  changedFilesOf,
  MAX_CHANGED_PER_RUN,
  type MemoryScan,
  statFile,
} from "./scan.ts";

/** Memory files larger than this are skipped (they are meant to be a few lines). */
export const MAX_MEMORY_BYTES = 256 * 1024;

// ---------------------------------------------------------------------------------------------
// The sync.

/** What a sync did. */
export interface SyncReport {
  /** Entries appended to scratch (in `review` mode: kept there for review). */
  synced: Array<{ file: string; name: string; type: string; mapped: string }>;
  /** Files not synced, and why (`user`, `malformed`, ...). */
  skipped: Array<{ file: string; why: MemorySkip; detail?: string }>;
  /** Files whose content changed but produced the same entry as before (e.g. a new `modified`). */
  unchanged: number;
  /** `review` when the entries wait in scratch for a person to accept them. */
  mode?: AutoMemoryMode;
  /** Sync records found damaged, set aside and started afresh. */
  damaged?: DamagedRecord[];
  /** Why `LIBRARIAN_AUTOMEMORY` was not used as given. */
  warning?: string;
  /** Changed memory files left for the next turns (the per-turn bound, `scan.ts`). */
  waiting?: number;
  /** Why nothing was synced (entries wait for a later turn); the fix is in the text. */
  error?: string;
}

interface DirOutcome {
  blocks: string[];
  record: SyncRecord;
}

function syncDir(
  dir: string,
  files: readonly ChangedFile[],
  record: SyncRecord,
  eol: string,
  review: boolean,
  report: SyncReport,
  day: string,
): DirOutcome {
  const blocks: string[] = [];
  for (const file of [...files].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = joinPath(dir, file.name);
    const info = statFile(path);
    if (!info) continue;
    const seen = record.files[file.name];
    if (seen && seen.size === info.size && seen.mtime === info.mtime) continue; // synced meanwhile
    const read = readFileBounded(path, MAX_MEMORY_BYTES);
    if (read.kind !== "bytes") {
      if (read.kind === "too-large") {
        report.skipped.push({ file: file.name, why: "too-large" });
        record.files[file.name] = { ...info, hash: "", entry: "" };
      }
      continue; // gone or replaced meanwhile: looked at again next turn
    }
    const text = new TextDecoder().decode(read.bytes);
    const hash = hashUtf8(text);
    if (seen && seen.hash === hash) {
      record.files[file.name] = { ...seen, ...info };
      continue;
    }
    const stem = (file.name.split("/").pop() ?? file.name).replace(/\.md$/i, "");
    const parsed = parseMemoryFile(text, stem);
    if (parsed.kind === "skip") {
      const detail = parsed.detail ? { detail: parsed.detail } : {};
      report.skipped.push({ file: file.name, why: parsed.why, ...detail });
      record.files[file.name] = { ...info, hash, entry: "" };
      continue;
    }
    const plain = memoryBlock(parsed.entry);
    const entryHash = hashUtf8(plain);
    record.files[file.name] = { ...info, hash, entry: entryHash };
    if (seen && seen.entry === entryHash) {
      report.unchanged++;
      continue;
    }
    // Under its tag line, where the entry came from (the hash above stays that of the block
    // without it, so entries synced before provenance existed are not synced again).
    const origin = formatProvenance({
      day,
      origin: `auto-memory/${file.name}`,
      files: [],
    });
    const marked = plain.replace("\n", `\n${origin}\n`);
    const chosen = review ? reviewBlock(marked) : marked;
    blocks.push(eol === "\n" ? chosen : chosen.replaceAll("\n", eol));
    const { name, type, mapped } = parsed.entry;
    report.synced.push({ file: file.name, name, type, mapped });
  }
  const present = new Set(listMemoryFiles(dir));
  for (const name of Object.keys(record.files)) {
    if (!present.has(name)) delete record.files[name];
  }
  return { blocks, record };
}

/**
 * Syncs the changed memory files of a scan into scratch and updates the sync records.
 * Call it while holding the library's lock (the stop hook does); it re-checks each file, so a
 * scan made before the lock was taken is fine. When scratch cannot take an append (a symlink, a
 * folder, UTF-16 text, ...), nothing is synced, no record changes, and `error` says why: the
 * entries sync once scratch is fixed. A damaged sync record is set aside and reported.
 *
 * @example Usage
 * ```ts
 * import { encodeProjectDir } from "./memory_locate.ts";
 * import { syncAutoMemory } from "./sync.ts";
 * import { scanAutoMemory } from "./scan.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.realPathSync(Deno.makeTempDirSync());
 * const library = { root: `${home}/p/_memory_library`, projectRoot: `${home}/p`, foundBy: "cwd" as const };
 * Deno.mkdirSync(library.root, { recursive: true });
 * const memory = `${home}/.claude/projects/${encodeProjectDir(library.projectRoot)}/memory`;
 * Deno.mkdirSync(memory, { recursive: true });
 * Deno.writeTextFileSync(`${memory}/feedback_a.md`, "---\nname: a\ndescription: b\ntype: feedback\n---\n");
 * const env = (name: string) =>
 *   name === "HOME" ? home : name === "LIBRARIAN_NOW" ? "2026-11-30T12:00:00" : undefined;
 * const report = syncAutoMemory(library, env, scanAutoMemory(library, env));
 * assert.deepEqual(report.synced.map((s) => s.name), ["a"]);
 * assert.equal(
 *   Deno.readTextFileSync(`${library.root}/.scratch.md`),
 *   "## [TAG: global, type: patterns]\n<!-- librarian: 2026-11-30 from:auto-memory/feedback_a.md -->\n- a: b\n",
 * );
 * ```
 */
export function syncAutoMemory(
  library: Library,
  env: EnvReader,
  scan: MemoryScan,
): SyncReport {
  const { mode, warning } = autoMemoryMode(env);
  const report: SyncReport = { synced: [], skipped: [], unchanged: 0 };
  if (mode === "review") report.mode = "review";
  if (warning) report.warning = warning;
  if (scan.waiting) report.waiting = scan.waiting;
  const state = stateDir(env);
  if (mode === "off" || !state || (scan.changed.length === 0 && scan.stale.length === 0)) {
    return report;
  }
  const scratch = scratchPathOf(library);
  const target = scratchTarget(scratch, trustsOwnersOf(library));
  if (!target.ok) return { ...report, error: `${target.problem}; auto memories wait` };
  let prefix = target.prefix;
  for (const dir of new Set([...scan.changed.map((c) => c.dir), ...scan.stale])) {
    const recordPath = recordPathOf(state, dir);
    const loaded = loadRecord(recordPath, dir);
    if (loaded.damaged) (report.damaged ??= []).push(loaded.damaged);
    // A damaged record was set aside: every file of the folder is looked at again.
    let files = loaded.damaged ? changedFilesOf(dir) : scan.changed.filter((c) => c.dir === dir);
    if (loaded.damaged && files.length > MAX_CHANGED_PER_RUN) {
      // every file is looked at again: the same bound per turn as the scan's
      report.waiting = (report.waiting ?? 0) + files.length - MAX_CHANGED_PER_RUN;
      files = files.slice(0, MAX_CHANGED_PER_RUN);
    }
    const outcome = syncDir(
      dir,
      files,
      loaded.record,
      target.eol,
      mode === "review",
      report,
      localDay(nowFrom(env)),
    );
    // Scratch first, then the record: a crash in between re-syncs (and routing skips the
    // bullet already filed) rather than losing the entry.
    if (outcome.blocks.length > 0) {
      appendToScratch(scratch, { prefix }, outcome.blocks.join(""));
      prefix = "";
    }
    saveRecord(recordPath, outcome.record);
  }
  return report;
}
