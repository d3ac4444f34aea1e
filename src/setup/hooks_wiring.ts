/**
 * Are the Librarian's hooks wired into Claude Code? Either the plugin is installed and not
 * disabled (`<claude dir>/plugins/installed_plugins.json`, `enabledPlugins` in settings), or hook
 * commands that run `librarian` sit in a settings file (user, project or project-local).
 *
 * Only files are read; nothing is run.
 *
 * @module
 */

import { claudeDir, type EnvReader, isRegularFile, joinPath } from "../core/mod.ts";
import {
  installedPluginsProblems,
  isObject,
  type Json,
  parseChecked,
  settingsProblems,
} from "./claude_json.ts";

/** The plugin's name in Claude Code (`librarian@<marketplace>`). */
export const PLUGIN_NAME = "librarian";

/** One settings file that runs `librarian` from hooks. */
export interface SettingsHooks {
  file: string;
  /** The hook events (PreToolUse, Stop, ...) whose commands run `librarian`. */
  events: string[];
}

/** What was found about the plugin and the settings. */
export interface HookWiring {
  /** True when Claude Code will run the hooks (plugin installed and not disabled, or settings). */
  wired: boolean;
  plugin: {
    /** Installed plugin ids, such as `librarian@team-tools`. */
    ids: string[];
    /** Where each installed version lives (its plugin root). */
    installPaths: string[];
    /** `true`/`false` from the settings that decide, `null` when no settings name it. */
    enabled: boolean | null;
    /** The settings file that decided `enabled`. */
    enabledBy?: string;
  };
  settings: SettingsHooks[];
  /** Files that exist but are not valid JSON of the shape Claude Code reads. */
  unreadable: UnreadableFile[];
}

/** A settings or plugin file Claude Code would reject, and why. */
export interface UnreadableFile {
  file: string;
  problem: string;
}

function isPluginId(id: string): boolean {
  return id === PLUGIN_NAME || id.startsWith(`${PLUGIN_NAME}@`);
}

/** A JSON file checked by its validator; a missing file is null, a bad one is noted. */
async function readJson(
  path: string,
  problemsOf: (value: unknown) => string[],
  unreadable: UnreadableFile[],
): Promise<Json | null> {
  if (!isRegularFile(path)) return null; // missing, or a FIFO that would block the read
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const parsed = parseChecked(text, problemsOf);
  if (parsed.ok) return parsed.value;
  unreadable.push({ file: path, problem: parsed.problem });
  return null;
}

/**
 * Installed plugin ids and install paths in `installed_plugins.json` (version 1 or 2) (pure).
 *
 * @example Usage
 * ```ts
 * import { installedPlugin } from "./hooks_wiring.ts";
 * import assert from "node:assert/strict";
 *
 * const data = {
 *   version: 2,
 *   plugins: { "librarian@tools": [{ installPath: "/cache/librarian/0.1.0" }], "other@x": [] },
 * };
 * assert.deepEqual(installedPlugin(data), {
 *   ids: ["librarian@tools"],
 *   installPaths: ["/cache/librarian/0.1.0"],
 * });
 * assert.deepEqual(installedPlugin(null), { ids: [], installPaths: [] });
 * ```
 */
export function installedPlugin(data: Json | null): { ids: string[]; installPaths: string[] } {
  const ids: string[] = [];
  const installPaths: string[] = [];
  const plugins = data?.plugins;
  if (!isObject(plugins)) return { ids, installPaths };
  for (const [id, entry] of Object.entries(plugins)) {
    if (!isPluginId(id)) continue;
    ids.push(id);
    for (const record of Array.isArray(entry) ? entry : [entry]) {
      if (isObject(record) && typeof record.installPath === "string") {
        installPaths.push(record.installPath);
      }
    }
  }
  return { ids, installPaths };
}

/**
 * The hook events in a settings object whose commands run `librarian` (pure).
 *
 * @example Usage
 * ```ts
 * import { librarianHookEvents } from "./hooks_wiring.ts";
 * import assert from "node:assert/strict";
 *
 * const settings = {
 *   hooks: {
 *     Stop: [{ hooks: [{ type: "command", command: "/opt/bin/librarian stop" }] }],
 *     PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "prettier" }] }],
 *   },
 * };
 * assert.deepEqual(librarianHookEvents(settings), ["Stop"]);
 * assert.deepEqual(librarianHookEvents(null), []);
 * ```
 */
export function librarianHookEvents(settings: Json | null): string[] {
  const hooks = settings?.hooks;
  if (!isObject(hooks)) return [];
  const events: string[] = [];
  for (const [event, matchers] of Object.entries(hooks)) {
    if (!Array.isArray(matchers)) continue;
    const runs = matchers.some((m) =>
      isObject(m) && Array.isArray(m.hooks) && m.hooks.some((h) => {
        if (!isObject(h)) return false;
        const words = [h.command, ...(Array.isArray(h.args) ? h.args : [])];
        return words.some((w) => typeof w === "string" && /librarian/.test(w));
      })
    );
    if (runs) events.push(event);
  }
  return events;
}

/** `enabledPlugins[id]` for the plugin in one settings object, or undefined (pure). */
function enabledIn(settings: Json | null): boolean | undefined {
  const enabled = settings?.enabledPlugins;
  if (!isObject(enabled)) return undefined;
  for (const [id, value] of Object.entries(enabled)) {
    if (isPluginId(id) && typeof value === "boolean") return value;
  }
  return undefined;
}

/**
 * The settings files Claude Code reads for a project, most decisive first.
 *
 * @example Usage
 * ```ts
 * import { settingsFiles } from "./hooks_wiring.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(settingsFiles(envFrom({ HOME: "/home/ada" }), "/repo"), [
 *   "/repo/.claude/settings.local.json",
 *   "/repo/.claude/settings.json",
 *   "/home/ada/.claude/settings.json",
 * ]);
 * ```
 */
export function settingsFiles(env: EnvReader, projectRoot: string | undefined): string[] {
  const files: string[] = [];
  if (projectRoot) {
    files.push(joinPath(projectRoot, ".claude", "settings.local.json"));
    files.push(joinPath(projectRoot, ".claude", "settings.json"));
  }
  const claude = claudeDir(env);
  if (claude) files.push(joinPath(claude, "settings.json"));
  return files;
}

/**
 * Finds out whether the hooks are wired for the project at `projectRoot`.
 *
 * @example Usage
 * ```ts
 * import { detectHookWiring } from "./hooks_wiring.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.makeTempDirSync();
 * const project = Deno.makeTempDirSync();
 * const env = envFrom({ HOME: home });
 * assert.equal((await detectHookWiring(env, project)).wired, false);
 * Deno.mkdirSync(`${project}/.claude`);
 * const hooks = { Stop: [{ hooks: [{ type: "command", command: "/opt/bin/librarian stop" }] }] };
 * Deno.writeTextFileSync(`${project}/.claude/settings.json`, JSON.stringify({ hooks }));
 * assert.equal((await detectHookWiring(env, project)).wired, true);
 * ```
 */
export async function detectHookWiring(
  env: EnvReader,
  projectRoot: string | undefined,
): Promise<HookWiring> {
  const unreadable: UnreadableFile[] = [];
  const claude = claudeDir(env);
  const installed = installedPlugin(
    claude
      ? await readJson(
        joinPath(claude, "plugins", "installed_plugins.json"),
        installedPluginsProblems,
        unreadable,
      )
      : null,
  );
  const settings: SettingsHooks[] = [];
  let enabled: boolean | null = null;
  let enabledBy: string | undefined;
  for (const file of settingsFiles(env, projectRoot)) {
    const data = await readJson(file, settingsProblems, unreadable);
    const events = librarianHookEvents(data);
    if (events.length > 0) settings.push({ file, events });
    const value = enabledIn(data);
    if (enabled === null && value !== undefined) {
      enabled = value;
      enabledBy = file;
    }
  }
  const pluginWired = installed.ids.length > 0 && enabled !== false;
  return {
    wired: pluginWired || settings.length > 0,
    plugin: { ...installed, enabled, ...(enabledBy ? { enabledBy } : {}) },
    settings,
    unreadable,
  };
}

/**
 * One line saying how (or whether) the hooks are wired.
 *
 * @example Usage
 * ```ts
 * import { describeWiring } from "./hooks_wiring.ts";
 * import assert from "node:assert/strict";
 *
 * const wiring = {
 *   wired: true,
 *   plugin: { ids: ["librarian@tools"], installPaths: [], enabled: false, enabledBy: "settings.json" },
 *   settings: [],
 *   unreadable: [],
 * };
 * assert.match(describeWiring(wiring), /plugin librarian@tools is installed but disabled in settings\.json/);
 * ```
 */
export function describeWiring(wiring: HookWiring): string {
  const parts: string[] = [];
  const { ids, enabled, enabledBy } = wiring.plugin;
  if (ids.length > 0) {
    parts.push(
      enabled === false
        ? `plugin ${ids.join(", ")} is installed but disabled in ${enabledBy}`
        : `plugin ${ids.join(", ")} is installed${enabled ? " and enabled" : ""}`,
    );
  } else if (enabled === true) {
    parts.push(`plugin is enabled in ${enabledBy} but not installed`);
  }
  for (const s of wiring.settings) parts.push(`${s.file} runs it on ${s.events.join(", ")}`);
  return parts.length ? parts.join("; ") : "no plugin installed and no hook in any settings file";
}
