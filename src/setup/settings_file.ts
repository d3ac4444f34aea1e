/**
 * Reading and keeping a Claude Code settings file for `librarian setup-hooks`: the file checked by
 * the settings validator before anything is merged into it, and a new per-developer file kept out
 * of git.
 *
 * @module
 */

import { Boundary, isDirectory, joinPath, LibrarianError, readTextIfExists } from "../core/mod.ts";
import { type Json, parseChecked, settingsProblems } from "./claude_json.ts";

/**
 * A settings file's object (empty when the file is missing or blank) and whether it existed.
 *
 * @throws {LibrarianError} when the file is not valid JSON of the shape Claude Code reads (the
 *   message names the problem and says to fix it first).
 *
 * @example Usage
 * ```ts
 * import { readSettings } from "./settings_file.ts";
 * import { LibrarianError } from "../core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/settings.json`;
 * assert.deepEqual(readSettings(path), { settings: {}, existed: false });
 * Deno.writeTextFileSync(path, '{"env":{"A":"1"}}');
 * assert.deepEqual(readSettings(path), { settings: { env: { A: "1" } }, existed: true });
 * Deno.writeTextFileSync(path, "[1]");
 * assert.throws(() => readSettings(path), LibrarianError);
 * ```
 */
export function readSettings(path: string): { settings: Json; existed: boolean } {
  const text = readTextIfExists(path);
  if (text === null) return { settings: {}, existed: false };
  if (text.trim() === "") return { settings: {}, existed: true };
  const parsed = parseChecked(text, settingsProblems);
  if (!parsed.ok) {
    throw new LibrarianError(`${path} ${parsed.problem}; fix it, then run this again`);
  }
  return { settings: parsed.value, existed: true };
}

/** The line `setup-hooks` adds to `.git/info/exclude`. */
export const EXCLUDE_LINE = ".claude/settings.local.json";

function textOrEmpty(path: string): string {
  try {
    return readTextIfExists(path) ?? "";
  } catch {
    return "";
  }
}

/**
 * Keeps a new per-developer settings file out of git via `.git/info/exclude` (local only).
 *
 * @example Usage
 * ```ts
 * import { excludeFromGit } from "./settings_file.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * assert.equal(excludeFromGit(project, false), false);
 * Deno.mkdirSync(`${project}/.git/info`, { recursive: true });
 * assert.equal(excludeFromGit(project, false), true);
 * assert.match(Deno.readTextFileSync(`${project}/.git/info/exclude`), /settings\.local\.json/);
 * assert.equal(excludeFromGit(project, false), false);
 * ```
 */
export function excludeFromGit(
  project: string,
  dryRun: boolean,
  boundary: Boundary = new Boundary(project, "project"),
): boolean {
  if (!isDirectory(joinPath(project, ".git"))) return false;
  const exclude = joinPath(project, ".git", "info", "exclude");
  for (const file of [joinPath(project, ".gitignore"), exclude]) {
    if (textOrEmpty(file).includes("settings.local.json")) return false;
  }
  if (dryRun) return true;
  const text = textOrEmpty(exclude);
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  boundary.writeText(exclude, `${text}${sep}${EXCLUDE_LINE}\n`);
  return true;
}
