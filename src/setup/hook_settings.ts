/**
 * The Librarian's hook entries for a Claude Code settings file, how to tell them from other
 * tools' hooks, and the other keys it sets (`env.LIBRARIAN_PATH`, the file's text). Their merge
 * into a settings object, and their removal, are in `hook_merge.ts`.
 *
 * The entries come from the plugin's own `hooks/hooks.json` (events, matchers, timeouts, status
 * messages), with the plugin-relative launcher call replaced by an absolute one.
 *
 * Pure: no file is read or written here.
 *
 * @module
 */

import pluginHooks from "../../hooks/hooks.json" with { type: "json" };
import { LibrarianError, type PathOs } from "../core/mod.ts";
import { isObject, type Json, restoreLongNumbers } from "./claude_json.ts";
import { hookCommand } from "./hook_command.ts";

import type { HookProgram, HookShell } from "./hook_command.ts";

/** One hook handler the Librarian wants in the settings. */
export interface DesiredHook {
  event: string;
  /** Undefined for events without a matcher (UserPromptSubmit, Stop). */
  matcher: string | undefined;
  handler: Json;
}

/** What a merge did to one entry. */
export interface HookChange {
  event: string;
  matcher: string | undefined;
  command: string;
  action: "added" | "updated" | "unchanged" | "removed";
}

/** A settings file whose shape the merge cannot work with; the message says what to fix. */
export class SettingsShapeError extends LibrarianError {
  constructor(message: string) {
    super(message);
    this.name = "SettingsShapeError";
  }
}

/** The launcher's own SessionStart hook, which downloads the plugin's binary. */
export const FETCH_BINARY = "fetch-binary";

/** `bin/librarian" <command> [--option]` at the end of a hooks.json command (`inject --shell`). */
const PLUGIN_COMMAND = /bin\/librarian"?\s+([a-z-]+(?:\s+--[a-z-]+)?)\s*$/;

/**
 * The hook entries of the plugin's `hooks/hooks.json`, rewritten to run `program`.
 *
 * @throws {SettingsShapeError} if hooks.json holds a command that does not call the launcher
 *   (a packaging mistake, caught by the tests).
 *
 * @example Usage
 * ```ts
 * import { desiredHooks } from "./hook_settings.ts";
 * import assert from "node:assert/strict";
 *
 * const hooks = desiredHooks({ kind: "launcher", path: "/opt/librarian/bin/librarian" }, "sh");
 * assert.ok(hooks.some((h) => h.event === "Stop"));
 * assert.ok(hooks.some((h) => h.event === "PreToolUse" && h.matcher !== undefined));
 * assert.ok(hooks.every((h) => String(h.handler.command).includes("/opt/librarian/bin/librarian")));
 * ```
 */
export function desiredHooks(
  program: HookProgram,
  shell: HookShell,
  os?: PathOs,
  source: Json = pluginHooks as Json,
): DesiredHook[] {
  const desired: DesiredHook[] = [];
  const events = isObject(source.hooks) ? source.hooks : {};
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      for (const handler of group.hooks) {
        if (!isObject(handler) || typeof handler.command !== "string") continue;
        const sub = PLUGIN_COMMAND.exec(handler.command)?.[1];
        if (!sub) throw new SettingsShapeError(`hooks.json runs '${handler.command}'`);
        // the launcher's download of the plugin's binary: an install wired by settings carries
        // its binary (a zip) or runs from source; a clone of the release branch runs
        // `librarian fetch-binary` once
        if (sub === FETCH_BINARY) continue;
        const rewritten: Json = { ...handler, command: hookCommand(program, sub, shell, os) };
        if (shell === "powershell") rewritten.shell = "powershell";
        desired.push({ event, matcher, handler: rewritten });
      }
    }
  }
  return desired;
}

const OURS = /(^|[\s'"/\\])librarian(-[a-z0-9_]+)*(\.exe)?['"]?\s+(inject(\s+--shell)?|stop)\s*$/i;

/**
 * True for a hook handler that runs the Librarian's `inject` or `stop` (any install, any form).
 *
 * @example Usage
 * ```ts
 * import { isLibrarianHandler } from "./hook_settings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isLibrarianHandler({ type: "command", command: "'/opt/bin/librarian' stop" }));
 * assert.ok(isLibrarianHandler({ command: "sh '/opt/bin/librarian' inject --shell" }));
 * assert.ok(isLibrarianHandler({ command: "/opt/librarian-x86_64", args: ["inject"] }));
 * assert.ok(!isLibrarianHandler({ command: "prettier --write" }));
 * assert.ok(!isLibrarianHandler("librarian stop"));
 * ```
 */
export function isLibrarianHandler(handler: unknown): boolean {
  if (!isObject(handler) || typeof handler.command !== "string") return false;
  if (OURS.test(handler.command)) return true;
  const args = Array.isArray(handler.args) ? handler.args : [];
  return /librarian[^/\\]*$/i.test(handler.command) &&
    args.some((a) => a === "inject" || a === "stop");
}

/**
 * Sets `env.LIBRARIAN_PATH` in a settings object; returns the new object and whether it changed.
 *
 * @throws {SettingsShapeError} when `env` is not a JSON object.
 *
 * @example Usage
 * ```ts
 * import { setLibraryPath } from "./hook_settings.ts";
 * import assert from "node:assert/strict";
 *
 * const { settings, action } = setLibraryPath({ env: { A: "1" } }, "/repo/_memory_library");
 * assert.equal(action, "added");
 * assert.deepEqual(settings.env, { A: "1", LIBRARIAN_PATH: "/repo/_memory_library" });
 * assert.equal(setLibraryPath(settings, "/repo/_memory_library").action, "unchanged");
 * assert.throws(() => setLibraryPath({ env: "x" }, "/repo"));
 * ```
 */
export function setLibraryPath(
  settings: Json,
  libraryPath: string,
): { settings: Json; action: "added" | "updated" | "unchanged" } {
  if (settings.env !== undefined && !isObject(settings.env)) {
    throw new SettingsShapeError("'env' is not a JSON object");
  }
  const env = (settings.env as Json | undefined) ?? {};
  const before = env.LIBRARIAN_PATH;
  if (before === libraryPath) return { settings, action: "unchanged" };
  return {
    settings: { ...settings, env: { ...env, LIBRARIAN_PATH: libraryPath } },
    action: before === undefined ? "added" : "updated",
  };
}

/**
 * Settings text as Claude Code's own files look: two-space JSON and a final newline.
 *
 * @example Usage
 * ```ts
 * import { formatSettings } from "./hook_settings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatSettings({ env: { A: "1" } }), '{\n  "env": {\n    "A": "1"\n  }\n}\n');
 * ```
 */
export function formatSettings(settings: Json): string {
  return `${restoreLongNumbers(JSON.stringify(settings, null, 2))}\n`;
}
