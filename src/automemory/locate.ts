/**
 * Where Claude Code keeps this project's auto memory: `<config>/projects/<encoded root>/memory/`,
 * or the folder `autoMemoryDirectory` names in settings.
 *
 * @module
 */

import { type Library } from "../core/discover.ts";
import { claudeDir, type EnvReader, homeDir } from "../core/env.ts";
import { isDirectory, readTextBounded } from "../core/fs_probe.ts";
import { dirnameOf, isAbsolutePath, joinPath, normalizePath } from "../core/paths.ts";

/** Longest encoded project folder name before Claude Code shortens it and appends a hash. */
export const MAX_ENCODED_LENGTH = 200;
/** The largest settings file read (larger ones are ignored). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** The largest `.git` pointer or `commondir` file read. */
const MAX_POINTER_BYTES = 4096;

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
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(
        readTextBounded(dotGit, MAX_POINTER_BYTES) ?? "",
      );
      if (!pointer) return dir;
      const gitDir = normalizePath(
        isAbsolutePath(normalizePath(pointer[1]!))
          ? pointer[1]!
          : joinPath(dir, normalizePath(pointer[1]!)),
      );
      const common = readTextBounded(joinPath(gitDir, "commondir"), MAX_POINTER_BYTES)?.trim();
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
  const text = readTextBounded(settingsPath, MAX_SETTINGS_BYTES);
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

/** The real path of `path` (links resolved), or `path` itself when it cannot be resolved. */
export function realPathOr(path: string): string {
  try {
    return normalizePath(Deno.realPathSync(path));
  } catch {
    return path;
  }
}

/** The names in a folder, or none when it cannot be listed. */
export function listNames(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    return [];
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
