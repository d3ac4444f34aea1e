/**
 * Hooks that ran from a plugin Claude Code does not list as installed: one loaded with
 * `--plugin-dir` (pure). Such a session runs the plugin's hooks without any file saying so, so
 * `doctor` and `status` read it from the log (each hook logs `plugin=<root>`): they must neither
 * call the hooks "not wired" nor recommend `setup-hooks`, which would run every hook twice there.
 *
 * @module
 */

import { type LogRecord, normalizePath } from "../../core/mod.ts";

/** Runs older than this are not taken as a sign of how the hooks are wired now. */
export const PLUGIN_DIR_RECENT_MS = 7 * 24 * 60 * 60 * 1000;

/** The newest hook run from a plugin that is not installed. */
export interface PluginDirRun {
  /** The plugin folder the hook ran from. */
  root: string;
  /** When it ran (the log's ISO time). */
  time: string;
}

/**
 * The newest recent run (within a week of `now`) from a plugin folder that is none of
 * `installPaths`, or `null`.
 *
 * @example Usage
 * ```ts
 * import { pluginDirRun } from "./plugin_dir.ts";
 * import assert from "node:assert/strict";
 *
 * const run = (plugin?: string) => ({
 *   time: "2026-12-01T10:00:00.000Z",
 *   command: "stop",
 *   fields: plugin ? { plugin } : {},
 * });
 * const now = new Date("2026-12-01T12:00:00Z");
 * assert.deepEqual(pluginDirRun([run("/src/librarian"), run()], [], now), {
 *   root: "/src/librarian",
 *   time: "2026-12-01T10:00:00.000Z",
 * });
 * assert.equal(pluginDirRun([run("/cache/librarian/1.0")], ["/cache/librarian/1.0"], now), null);
 * assert.equal(pluginDirRun([run()], [], now), null);
 * ```
 */
export function pluginDirRun(
  records: readonly LogRecord[],
  installPaths: readonly string[],
  now: Date = new Date(),
): PluginDirRun | null {
  const installed = new Set(installPaths.map((p) => normalizePath(p).replace(/\/+$/, "")));
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    const root = record.fields.plugin;
    if (!root) continue;
    const age = now.getTime() - Date.parse(record.time);
    if (!(age <= PLUGIN_DIR_RECENT_MS)) return null;
    if (installed.has(normalizePath(root).replace(/\/+$/, ""))) continue;
    return { root, time: record.time };
  }
  return null;
}
