/**
 * Phase 1 of the stop hook: Claude Code's own auto memory → scratch blocks.
 *
 * Claude Code keeps memories in `<config>/projects/<encoded project root>/memory/*.md`, each with
 * YAML front matter (`name`, `description`, and `type` either at the top level or under
 * `metadata:`). Every entry of type `feedback`, `project` or `reference` becomes a scratch block
 * `## [TAG: global, type: patterns|product|tech]` with `- <name>: <description>`; `user` entries
 * (personal) and `MEMORY.md` (the index) are never synced.
 *
 * Sync records in the state folder (per memory folder: each file's size, mtime, content hash and
 * the entry it produced) make each entry sync once: unchanged files are not even read, an edited
 * entry syncs again, and a long session misses nothing.
 *
 * The scan ({@link scanAutoMemory}) is cheap and loads no YAML parser; only
 * {@link syncAutoMemory}, run when a file changed, imports `yaml`.
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { type Library, scratchPathOf } from "../core/discover.ts";
import { claudeDir, type EnvReader, homeDir, stateDir } from "../core/env.ts";
import { hashText } from "../core/hash.ts";
import { dirnameOf, isAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";
import { scratchFileProblem } from "../core/scratch_file.ts";
import { isDirectory } from "../core/fs_probe.ts";

/** Auto-memory type → library file type. `user` is deliberately absent: it is personal. */
export const MEMORY_TYPE_MAP: Readonly<Record<string, string>> = {
  feedback: "patterns",
  project: "product",
  reference: "tech",
};

/** Longest encoded project folder name before Claude Code shortens it and appends a hash. */
export const MAX_ENCODED_LENGTH = 200;
/** Memory files larger than this are skipped (they are meant to be a few lines). */
export const MAX_MEMORY_BYTES = 256 * 1024;

// ---------------------------------------------------------------------------------------------
// Locating the memory folder.

/** The 32-bit string hash Claude Code uses for long project folder names (`(h << 5) - h + c`). */
export function projectPathHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Claude Code's folder name for a project root: every character outside `[A-Za-z0-9]` becomes
 * `-` (per UTF-16 unit, no collapsing); names over 200 characters are cut to 200 and
 * `-<base-36 hash of the full path>` is appended.
 *
 * @example
 * ```ts
 * encodeProjectDir("/home/user/work/my-repo"); // "-home-user-work-my-repo"
 * encodeProjectDir("C:\\Users\\x"); // "C--Users-x"
 * ```
 */
export function encodeProjectDir(path: string): string {
  const encoded = path.replace(/[^a-zA-Z0-9]/g, "-");
  if (encoded.length <= MAX_ENCODED_LENGTH) return encoded;
  const hash = Math.abs(projectPathHash(path)).toString(36);
  return `${encoded.slice(0, MAX_ENCODED_LENGTH)}-${hash}`;
}

function readSmallText(path: string, maxBytes = MAX_MEMORY_BYTES): string | null {
  try {
    const bytes = Deno.readFileSync(path);
    if (bytes.length > maxBytes) return null;
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The main working tree of the git repository holding `start` (worktrees resolve to their main
 * checkout, as Claude Code does), or `null` outside a repository.
 */
export function canonicalGitRoot(start: string): string | null {
  let dir = normalizePath(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = joinPath(dir, ".git");
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.statSync(dotGit);
    } catch {
      info = null;
    }
    if (info?.isDirectory) return dir;
    if (info?.isFile) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallText(dotGit, 4096) ?? "");
      if (!pointer) return dir;
      const gitDir = normalizePath(
        isAbsolutePath(normalizePath(pointer[1]!))
          ? pointer[1]!
          : joinPath(dir, normalizePath(pointer[1]!)),
      );
      const common = readSmallText(joinPath(gitDir, "commondir"), 4096)?.trim();
      if (!common) return dir; // a submodule, or a plain gitdir pointer: this folder is the root
      const commonDir = isAbsolutePath(normalizePath(common))
        ? normalizePath(common)
        : normalizePath(joinPath(gitDir, common));
      return commonDir.endsWith("/.git") ? dirnameOf(commonDir) : dir;
    }
    const parent = dirnameOf(dir);
    if (parent === dir || parent === "") return null;
    dir = parent;
  }
  return null;
}

function configuredMemoryDir(settingsPath: string, env: EnvReader): string | null {
  const text = readSmallText(settingsPath, 1024 * 1024);
  if (!text) return null;
  try {
    const value = (JSON.parse(text) as { autoMemoryDirectory?: unknown }).autoMemoryDirectory;
    if (typeof value !== "string" || value.trim() === "") return null;
    const raw = value.trim();
    const home = homeDir(env);
    if (raw.startsWith("~/") && home) return normalizePath(joinPath(home, raw.slice(2)));
    return isAbsolutePath(normalizePath(raw)) ? normalizePath(raw) : null;
  } catch {
    return null;
  }
}

function realPathOr(path: string): string {
  try {
    return normalizePath(Deno.realPathSync(path));
  } catch {
    return path;
  }
}

/**
 * The auto-memory folders that exist for this library's project, most specific first:
 * `autoMemoryDirectory` from the user's or the project's local settings, the folder named by
 * `CLAUDE_CODE_PROJECT_DIR_NAME`, then the encoded git root / `CLAUDE_PROJECT_DIR` / project root.
 * (Project settings that are committed are not trusted to point Claude's memory elsewhere.)
 */
export function memoryDirs(library: Library, env: EnvReader): string[] {
  const claude = claudeDir(env);
  if (!claude) return [];
  const candidates: string[] = [];
  for (
    const settings of [
      joinPath(library.projectRoot, ".claude", "settings.local.json"),
      joinPath(claude, "settings.json"),
    ]
  ) {
    const configured = configuredMemoryDir(settings, env);
    if (configured) candidates.push(configured);
  }
  const projects = joinPath(claude, "projects");
  const pinned = env("CLAUDE_CODE_PROJECT_DIR_NAME")?.trim();
  if (pinned && !/[\\/]/.test(pinned)) candidates.push(joinPath(projects, pinned, "memory"));
  const roots: string[] = [];
  const projectDir = env("CLAUDE_PROJECT_DIR")?.trim();
  for (const start of [library.projectRoot, projectDir]) {
    if (!start) continue;
    const root = normalizePath(start);
    const git = canonicalGitRoot(root);
    if (git) roots.push(git, realPathOr(git));
    roots.push(root, realPathOr(root));
  }
  let listing: string[] | undefined;
  for (const root of new Set(roots)) {
    for (const form of new Set([root, root.normalize("NFD")])) {
      const name = encodeProjectDir(form);
      candidates.push(joinPath(projects, name, "memory"));
      if (name.length > MAX_ENCODED_LENGTH && !isDirectory(joinPath(projects, name))) {
        // Versions of Claude Code differ in the hash they append: accept one unique prefix match.
        listing ??= listNames(projects);
        const prefix = `${name.slice(0, MAX_ENCODED_LENGTH)}-`;
        const matches = listing.filter((n) => n.startsWith(prefix));
        if (matches.length === 1) candidates.push(joinPath(projects, matches[0]!, "memory"));
      }
    }
  }
  const seen = new Set<string>();
  const found: string[] = [];
  for (const dir of candidates) {
    if (seen.has(dir) || !isDirectory(dir)) continue;
    seen.add(dir);
    const real = realPathOr(dir);
    if (real !== dir && seen.has(real)) continue;
    seen.add(real);
    found.push(dir);
  }
  return found;
}

function listNames(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing one memory file (pure; the YAML parser is passed in).

/** A parsed memory entry that is synced. */
export interface MemoryEntry {
  /** The entry's `name` (or the file stem). */
  name: string;
  /** The auto-memory type (`feedback`, `project`, `reference`). */
  type: string;
  /** The library type it maps to. */
  mapped: string;
  /** The one-line summary: `description`, else the first body line. */
  summary: string;
}

/** Why a memory file is not synced. */
export type MemorySkip =
  | "user"
  | "no-front-matter"
  | "malformed"
  | "no-type"
  | "unknown-type"
  | "empty"
  | "too-large";

/** The outcome of parsing one memory file. */
export type ParsedMemory = { kind: "entry"; entry: MemoryEntry } | {
  kind: "skip";
  why: MemorySkip;
  detail?: string;
};

/** A YAML parser: text → value; throws on malformed input. */
export type YamlParse = (text: string) => unknown;

/** Splits `---` front matter from the body; `null` when the text has none. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const normal = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  if (!normal.startsWith("---\n")) return null;
  const end = /^(?:---|\.\.\.)[ \t]*$/m;
  const rest = normal.slice(4);
  const match = end.exec(rest);
  if (!match) return null;
  return {
    yaml: rest.slice(0, match.index),
    body: rest.slice(match.index + match[0].length).replace(/^\n/, ""),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The first meaningful body line: not blank, not a heading, markers stripped. */
export function firstBodyLine(body: string): string {
  for (const line of body.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || /^#{1,6}(\s|$)/.test(trimmed) || /^(?:---|```|~~~)/.test(trimmed)) {
      continue;
    }
    return oneLine(trimmed.replace(/^(?:[-*+>]|\d+[.)])\s+/, ""));
  }
  return "";
}

/** Parses one memory file's text. */
export function parseMemoryFile(text: string, stem: string, parseYaml: YamlParse): ParsedMemory {
  const parts = splitFrontMatter(text);
  if (!parts) return { kind: "skip", why: "no-front-matter" };
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { kind: "skip", why: "malformed", ...(detail ? { detail } : {}) };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { kind: "skip", why: "malformed", detail: "front matter is not a mapping" };
  }
  const fields = data as Record<string, unknown>;
  const metadata = fields.metadata;
  const rawType = typeof fields.type === "string"
    ? fields.type
    : metadata && typeof metadata === "object" &&
        typeof (metadata as Record<string, unknown>).type === "string"
    ? (metadata as Record<string, string>).type
    : undefined;
  if (rawType === undefined) return { kind: "skip", why: "no-type" };
  const type = rawType.trim().toLowerCase();
  if (type === "user") return { kind: "skip", why: "user" };
  const mapped = MEMORY_TYPE_MAP[type];
  if (!mapped) return { kind: "skip", why: "unknown-type", detail: type };
  const rawName = fields.name;
  const name = oneLine(
    typeof rawName === "string" || typeof rawName === "number" ? String(rawName) : "",
  ) || stem;
  const description = typeof fields.description === "string" ? oneLine(fields.description) : "";
  const summary = description || firstBodyLine(parts.body);
  if (summary === "") return { kind: "skip", why: "empty" };
  return { kind: "entry", entry: { name, type, mapped, summary } };
}

/** The scratch block for one entry. */
export function memoryBlock(entry: MemoryEntry, eol = "\n"): string {
  return `## [TAG: global, type: ${entry.mapped}]${eol}- ${entry.name}: ${entry.summary}${eol}`;
}

// ---------------------------------------------------------------------------------------------
// Sync records and the cheap scan.

/** What was last seen of one memory file. */
export interface FileRecord {
  size: number;
  mtime: number;
  /** Hash of the file's content. */
  hash: string;
  /** Hash of the block it produced (`""` when it produced none). */
  entry: string;
}

/** The sync record of one memory folder. */
export interface SyncRecord {
  version: 1;
  dir: string;
  files: Record<string, FileRecord>;
}

/** The record file for a memory folder, in the state folder. */
export function recordPathOf(state: string, memoryDir: string): string {
  return joinPath(state, "automemory", `${hashText(memoryDir)}.json`);
}

function loadRecord(path: string, dir: string): SyncRecord {
  const text = readSmallText(path, 16 * 1024 * 1024);
  if (text) {
    try {
      const value = JSON.parse(text) as SyncRecord;
      if (value?.version === 1 && value.files && typeof value.files === "object") return value;
    } catch {
      // damaged: start over (entries re-sync; routing skips bullets already filed)
    }
  }
  return { version: 1, dir, files: {} };
}

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
      const text = readSmallText(path);
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
    writeTextAtomicSync(recordPath, JSON.stringify(record));
  }
  return report;
}
