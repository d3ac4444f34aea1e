/**
 * Where Claude Code keeps this project's auto memory: `<config>/projects/<encoded root>/memory/`,
 * or the folder `autoMemoryDirectory` names in settings; and which files in it are memories.
 *
 * Every file read here (settings, `.git` pointers) is read bounded: a FIFO or a huge file is
 * skipped, never waited on.
 *
 * @module
 */

import { type Library } from "../core/discover.ts";
import { claudeDir, type EnvReader, homeDir } from "../core/env.ts";
import { isDirectory, readJsonBounded } from "../core/fs_probe.ts";
import { isObject } from "../core/json.ts";
import { isAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";
import { canonicalGitRoot, realPathOr } from "../git/memory_root.ts";

/** Longest encoded project folder name before Claude Code shortens it and appends a hash. */
export const MAX_ENCODED_LENGTH = 200;
/** The largest settings file read (larger ones are ignored). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The 32-bit string hash Claude Code 2.1.197 appends to long project folder names, as in its
 * bundle: `t = (t << 5) - t + charCodeAt(n) | 0` over UTF-16 units.
 *
 * @example Usage
 * ```ts
 * import { projectPathHash } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(projectPathHash("abc"), 96354);
 * ```
 */
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
 * @example Usage
 * ```ts
 * import { encodeProjectDir } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeProjectDir("/home/user/work/my-repo"), "-home-user-work-my-repo");
 * assert.equal(encodeProjectDir("C:\\Users\\x"), "C--Users-x");
 * ```
 */
export function encodeProjectDir(path: string): string {
  const encoded = path.replace(/[^a-zA-Z0-9]/g, "-");
  if (encoded.length <= MAX_ENCODED_LENGTH) return encoded;
  const hash = Math.abs(projectPathHash(path)).toString(36);
  return `${encoded.slice(0, MAX_ENCODED_LENGTH)}-${hash}`;
}

/**
 * An `autoMemoryDirectory` setting as Claude Code takes it: `~/` (or `~\`) expanded to the home
 * folder (never above it), otherwise an absolute path of at least 3 characters that is not a
 * network share; trailing separators removed, NFC. `null` when Claude Code ignores the value.
 *
 * @example Usage
 * ```ts
 * import { memoryDirSetting } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(memoryDirSetting("~/notes/mem/", "/home/me"), "/home/me/notes/mem");
 * assert.equal(memoryDirSetting("relative/mem", "/home/me"), null);
 * assert.equal(memoryDirSetting("~/../etc", "/home/me"), null);
 * ```
 */
export function memoryDirSetting(value: unknown, home: string | undefined): string | null {
  if (typeof value !== "string" || value.trim() === "" || value.includes("\0")) return null;
  let raw = value.trim();
  if (raw.startsWith("~/") || raw.startsWith("~\\")) {
    const rest = normalizePath(raw.slice(2) || ".");
    if (!home || rest === "." || rest === ".." || rest.startsWith("../")) return null;
    raw = joinPath(normalizePath(home), rest);
  }
  if (/^[\\/]{2}/.test(raw)) return null; // a network share
  const path = normalizePath(raw);
  if (!isAbsolutePath(path) || path.length < 3) return null;
  return path.normalize("NFC");
}

function configuredMemoryDir(settingsPath: string, env: EnvReader): string | null {
  const settings = readJsonBounded(settingsPath, MAX_SETTINGS_BYTES);
  if (!isObject(settings)) return null;
  return memoryDirSetting(settings.autoMemoryDirectory, homeDir(env));
}

/** Where Claude Code's managed (policy) settings live on this OS. */
export function policySettingsFile(os: string = Deno.build.os): string {
  if (os === "windows") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  if (os === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

/** The largest global config (`.claude.json`) read for the trust check. */
const MAX_GLOBAL_CONFIG_BYTES = 16 * 1024 * 1024;

/**
 * Whether the person accepted Claude Code's trust dialog for one of `roots` or a folder above it
 * (`projects[<path>].hasTrustDialogAccepted` in `<config>/.claude.json`, else `~/.claude.json`), or
 * runs it sandboxed (`CLAUDE_CODE_SANDBOXED`), as Claude Code 2.1.197 decides. A `-p` run is
 * trusted by Claude Code too, which a hook cannot see: then the Librarian errs on the safe side.
 *
 * @example Usage
 * ```ts
 * import { trustedWorkspace } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.makeTempDirSync();
 * const projects = { "/work": { hasTrustDialogAccepted: true } };
 * Deno.writeTextFileSync(`${home}/.claude.json`, JSON.stringify({ projects }));
 * const env = (name: string) => name === "HOME" ? home : undefined;
 * assert.equal(trustedWorkspace(["/work/repo"], env), true);
 * assert.equal(trustedWorkspace(["/elsewhere"], env), false);
 * ```
 */
export function trustedWorkspace(roots: readonly string[], env: EnvReader): boolean {
  const sandboxed = env("CLAUDE_CODE_SANDBOXED")?.trim().toLowerCase();
  if (sandboxed === "1" || sandboxed === "true") return true;
  const configured = env("CLAUDE_CONFIG_DIR")?.trim();
  const home = homeDir(env);
  const file = configured && isAbsolutePath(configured)
    ? joinPath(normalizePath(configured), ".claude.json")
    : home
    ? joinPath(home, ".claude.json")
    : null;
  if (!file) return false;
  const config = readJsonBounded(file, MAX_GLOBAL_CONFIG_BYTES);
  const projects = isObject(config) ? config.projects : undefined;
  if (!isObject(projects)) return false;
  for (const root of roots) {
    let path = normalizePath(root);
    for (let depth = 0; depth < 256; depth++) {
      const entry = projects[path];
      if (isObject(entry) && entry.hasTrustDialogAccepted === true) return true;
      const parent = path.replace(/\/[^/]*$/, "") || "/";
      if (parent === path) break;
      path = parent;
    }
  }
  return false;
}

/** Which folder `autoMemoryDirectory` names for this project, and whose settings named it. */
export interface ConfiguredMemoryDir {
  dir: string;
  /** `policy`, `local` (.claude/settings.local.json), `project` (committed) or `user`. */
  source: "policy" | "local" | "project" | "user";
  /** The settings file. */
  file: string;
}

/**
 * The `autoMemoryDirectory` Claude Code 2.1.197 uses for this project, in its order: managed
 * (policy) settings, then (only in a trusted workspace, see {@link trustedWorkspace}) the
 * project's `.claude/settings.local.json` and its committed `.claude/settings.json`, then the
 * user's `settings.json`; the first usable value wins. (`--settings` values, between policy and
 * local, are not visible to a hook.)
 *
 * @example Usage
 * ```ts
 * import { configuredMemoryDirOf } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/.claude`);
 * Deno.writeTextFileSync(`${project}/.claude/settings.json`, '{"autoMemoryDirectory": "/srv/mem"}');
 * const options = { policyFile: `${project}/none.json`, trusted: true };
 * assert.equal(configuredMemoryDirOf([project], undefined, () => undefined, options)?.source, "project");
 * assert.equal(configuredMemoryDirOf([project], undefined, () => undefined, { ...options, trusted: false }), null);
 * ```
 */
export function configuredMemoryDirOf(
  projectRoots: readonly string[],
  claude: string | undefined,
  env: EnvReader,
  options: { policyFile?: string; trusted?: boolean } = {},
): ConfiguredMemoryDir | null {
  const trusted = options.trusted ?? trustedWorkspace(projectRoots, env);
  const files: [ConfiguredMemoryDir["source"], string][] = [
    ["policy", options.policyFile ?? policySettingsFile()],
    ...(trusted
      ? [
        ...projectRoots.map((root) => ["local", joinPath(root, ".claude", "settings.local.json")]),
        ...projectRoots.map((root) => ["project", joinPath(root, ".claude", "settings.json")]),
      ] as [ConfiguredMemoryDir["source"], string][]
      : []),
    ...(claude
      ? [["user", joinPath(claude, "settings.json")]] as [ConfiguredMemoryDir["source"], string][]
      : []),
  ];
  for (const [source, file] of files) {
    const dir = configuredMemoryDir(file, env);
    if (dir) return { dir, source, file };
  }
  return null;
}

/**
 * The `autoMemoryDirectory` the Librarian syncs for this project: the one Claude Code uses
 * ({@link configuredMemoryDirOf}), except one named only by the project's committed
 * `.claude/settings.json`: a cloned repository must not choose which folder is copied into the
 * library. The person's word is the same folder in their own settings (local or user).
 *
 * @example Usage
 * ```ts
 * import { configuredAutoMemoryDir } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/.claude`);
 * Deno.writeTextFileSync(`${project}/.claude/settings.local.json`, '{"autoMemoryDirectory": "/srv/mem"}');
 * const options = { policyFile: `${project}/none.json`, trusted: true };
 * assert.equal(configuredAutoMemoryDir([project], undefined, () => undefined, options), "/srv/mem");
 * ```
 */
export function configuredAutoMemoryDir(
  projectRoots: readonly string[],
  claude: string | undefined,
  env: EnvReader,
  options: { policyFile?: string; trusted?: boolean } = {},
): string | null {
  const found = configuredMemoryDirOf(projectRoots, claude, env, options);
  return found === null || found.source === "project" ? null : found.dir;
}

/** The names in a folder, or none when it cannot be listed. */
function listNames(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    return [];
  }
}

const MAX_FOLDER_DEPTH = 8;

function isMemoryFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".md") && lower !== "memory.md";
}

/**
 * The memory files under a memory folder, recursively (team memory lives in `memory/team/`), as
 * sorted `/`-separated paths relative to it: `.md` files other than `MEMORY.md` (the index);
 * hidden names and symlinks are skipped. At most 8 levels, every file (names only: the work per
 * turn is bounded where files are read, `MAX_CHANGED_PER_RUN` in `scan.ts`).
 *
 * @example Usage
 * ```ts
 * import { listMemoryFiles } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * const memory = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${memory}/team`);
 * for (const name of ["MEMORY.md", "feedback_a.md", "team/project_b.md"]) {
 *   Deno.writeTextFileSync(`${memory}/${name}`, "x");
 * }
 * assert.deepEqual(listMemoryFiles(memory), ["feedback_a.md", "team/project_b.md"]);
 * ```
 */
export function listMemoryFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(rel === "" ? dir : joinPath(dir, rel))];
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory && depth < MAX_FOLDER_DEPTH) walk(path, depth + 1);
      else if (entry.isFile && isMemoryFileName(entry.name)) found.push(path);
    }
  };
  walk("", 0);
  return found;
}

/**
 * The auto-memory folders that exist for this library's project, most specific first: the
 * `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` folder, the `autoMemoryDirectory` Claude Code uses (see
 * {@link configuredAutoMemoryDir}), the folder named by `CLAUDE_CODE_PROJECT_DIR_NAME`, then
 * `<config>/projects/<encoded root>/memory` for the canonical git root / `CLAUDE_PROJECT_DIR` /
 * project root (under `CLAUDE_CODE_REMOTE_MEMORY_DIR` too when it is set).
 *
 * @example Usage
 * ```ts
 * import { encodeProjectDir, memoryDirs } from "./memory_locate.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.realPathSync(Deno.makeTempDirSync());
 * const project = `${home}/proj`;
 * const memory = `${home}/.claude/projects/${encodeProjectDir(project)}/memory`;
 * Deno.mkdirSync(memory, { recursive: true });
 * const library = { root: `${project}/_memory_library`, projectRoot: project, foundBy: "cwd" as const };
 * const env = (name: string) => name === "HOME" ? home : undefined;
 * assert.deepEqual(memoryDirs(library, env), [memory]);
 * ```
 */
export function memoryDirs(library: Library, env: EnvReader): string[] {
  const claude = claudeDir(env);
  const candidates: string[] = [];
  const override = memoryDirSetting(env("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"), undefined);
  if (override) candidates.push(override);
  const projectDir = env("CLAUDE_PROJECT_DIR")?.trim();
  const starts = [
    ...new Set([library.projectRoot, ...(projectDir ? [normalizePath(projectDir)] : [])]),
  ];
  const configured = configuredAutoMemoryDir(starts, claude, env);
  if (configured) candidates.push(configured);
  const remote = memoryDirSetting(env("CLAUDE_CODE_REMOTE_MEMORY_DIR"), undefined);
  for (const base of [claude, remote]) {
    if (!base) continue;
    const projects = joinPath(base, "projects");
    const pinned = env("CLAUDE_CODE_PROJECT_DIR_NAME")?.trim();
    if (pinned && !/[\\/]/.test(pinned)) candidates.push(joinPath(projects, pinned, "memory"));
    candidates.push(...encodedMemoryDirs(projects, starts));
  }
  return existingDistinct(candidates);
}

function encodedMemoryDirs(projects: string, starts: readonly string[]): string[] {
  const roots: string[] = [];
  for (const start of starts) {
    const root = normalizePath(start);
    const git = canonicalGitRoot(root);
    if (git) roots.push(git, realPathOr(git));
    roots.push(root, realPathOr(root));
  }
  const candidates: string[] = [];
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
  return candidates;
}

function existingDistinct(candidates: readonly string[]): string[] {
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
