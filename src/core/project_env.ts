/**
 * Which variables the project's own Claude Code settings set: the names in the `"env"` object of
 * `.claude/settings.json` and `.claude/settings.local.json` in the project. Claude Code passes
 * those to every hook, so a repository someone clones chooses them; a `location` setting
 * (`core/env_vars.ts`) named there is not used (`core/env.ts`).
 *
 * The project is looked for where Claude Code and the hooks find it: `CLAUDE_PROJECT_DIR`, and the
 * repository root above the working folder (the first folder up with a `.git`, else the working
 * folder itself). Both are read, so a project cannot hide its settings by naming another
 * `CLAUDE_PROJECT_DIR`.
 *
 * @module
 */

import { dirnameOf, isLocalAbsolutePath, joinPath, normalizePath } from "./paths.ts";

/** The project's settings files, relative to the project folder. */
export const PROJECT_SETTINGS_FILES: readonly string[] = Object.freeze([
  ".claude/settings.json",
  ".claude/settings.local.json",
]);

/** A settings file larger than this is not parsed: every name counts as set by it. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** What a project's settings set, by variable name: the file that names it. */
export type ProjectEnvNames = ReadonlyMap<string, string>;

/**
 * The names a settings file's text sets in its `"env"` object. Text that is not JSON (Claude Code
 * may still read it) counts as setting every quoted key in it (`"NAME":`), so that a setting that
 * could be in it is not trusted.
 *
 * @example Usage
 * ```ts
 * import { envNamesOfSettings } from "./project_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(envNamesOfSettings('{"env": {"LIBRARIAN_LOG": "/x", "A": "1"}}'), ["LIBRARIAN_LOG", "A"]);
 * assert.deepEqual(envNamesOfSettings('\uFEFF{"hooks": {}}'), []);
 * assert.deepEqual(envNamesOfSettings('{"env": { "LIBRARIAN_LOG" : "/x", '), ["env", "LIBRARIAN_LOG"]);
 * ```
 */
export function envNamesOfSettings(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return [...text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map((m) => m[1]!);
  }
  if (typeof parsed !== "object" || parsed === null) return [];
  const env = (parsed as Record<string, unknown>).env;
  if (typeof env !== "object" || env === null || Array.isArray(env)) return [];
  return Object.keys(env);
}

/**
 * The folders whose `.claude/` settings count as the project's: `projectDir` when it is an
 * absolute path, and the repository root above `cwd` (the first folder up with a `.git`, else
 * `cwd`).
 *
 * @example Usage
 * ```ts
 * import { projectFolders } from "./project_env.ts";
 * import assert from "node:assert/strict";
 *
 * const repo = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${repo}/.git`);
 * Deno.mkdirSync(`${repo}/src/deep`, { recursive: true });
 * assert.deepEqual(projectFolders(undefined, `${repo}/src/deep`), [repo]);
 * assert.deepEqual(projectFolders("/other", repo), ["/other", repo]);
 * assert.deepEqual(projectFolders("relative", repo), [repo]);
 * ```
 */
export function projectFolders(projectDir: string | undefined, cwd: string): string[] {
  const folders: string[] = [];
  const named = projectDir?.trim() ? normalizePath(projectDir.trim()) : undefined;
  if (named && isLocalAbsolutePath(named)) folders.push(named);
  const root = repositoryRootAbove(normalizePath(cwd));
  if (!folders.includes(root)) folders.push(root);
  return folders;
}

function repositoryRootAbove(cwd: string): string {
  let folder = cwd;
  for (;;) {
    try {
      Deno.statSync(joinPath(folder, ".git"));
      return folder;
    } catch {
      // not here
    }
    const parent = dirnameOf(folder);
    if (parent === folder || parent === "") return cwd;
    folder = parent;
  }
}

/**
 * What the settings files of `folders` set in `"env"`: each name with the first file naming it.
 * A file larger than 1 MiB is not read and counts as naming everything (the name `*`); what is not
 * a regular file (a FIFO, a folder) is not read.
 *
 * @example Usage
 * ```ts
 * import { projectEnvNames } from "./project_env.ts";
 * import assert from "node:assert/strict";
 *
 * const repo = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${repo}/.claude`);
 * Deno.writeTextFileSync(`${repo}/.claude/settings.json`, '{"env": {"LIBRARIAN_LOG": "x"}}');
 * const names = projectEnvNames([repo]);
 * assert.equal(names.get("LIBRARIAN_LOG"), `${repo}/.claude/settings.json`);
 * assert.equal(names.get("LIBRARIAN_PATH"), undefined);
 * ```
 */
export function projectEnvNames(folders: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const folder of folders) {
    for (const relative of PROJECT_SETTINGS_FILES) {
      const file = joinPath(folder, relative);
      let found: string[];
      try {
        const info = Deno.statSync(file);
        // only a regular file is read: opening a FIFO with no writer would hang the hook
        if (!info.isFile) continue;
        found = info.size > MAX_SETTINGS_BYTES
          ? ["*"]
          : envNamesOfSettings(Deno.readTextFileSync(file));
      } catch {
        continue; // no such file, or unreadable: Claude Code cannot read it either
      }
      for (const name of found) if (!names.has(name)) names.set(name, file);
    }
  }
  return names;
}

/**
 * The file of the project's settings that sets `name` (or sets everything), or undefined.
 *
 * @example Usage
 * ```ts
 * import { settingFileOf } from "./project_env.ts";
 * import assert from "node:assert/strict";
 *
 * const names = new Map([["LIBRARIAN_LOG", "/r/.claude/settings.json"]]);
 * assert.equal(settingFileOf(names, "LIBRARIAN_LOG"), "/r/.claude/settings.json");
 * assert.equal(settingFileOf(names, "HOME"), undefined);
 * assert.equal(settingFileOf(new Map([["*", "/r/big.json"]]), "HOME"), "/r/big.json");
 * ```
 */
export function settingFileOf(names: ProjectEnvNames, name: string): string | undefined {
  return names.get(name) ?? names.get("*");
}
