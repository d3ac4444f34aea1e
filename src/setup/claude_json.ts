/**
 * Claude Code's JSON files as the Librarian reads them (settings files, the plugin's
 * `hooks/hooks.json`, `plugins/installed_plugins.json`), each checked by a complete validator of
 * the parts the Librarian reads or writes before anything trusts it. A validator returns the list
 * of problems, each naming where it is (`hooks.Stop[0].hooks`); no problems means the shape is
 * sound. Keys the Librarian does not use are not judged: they belong to Claude Code.
 *
 * Pure: no file is read here.
 *
 * @module
 */

import { isObject, type Json } from "../core/mod.ts";

export { isObject, type Json };

function kind(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** One hook handler (`{"type": "command", "command": ..., "timeout": 10}`). */
function handlerProblems(handler: unknown, at: string): string[] {
  if (!isObject(handler)) return [`${at} is ${kind(handler)}, not an object`];
  const problems: string[] = [];
  if (typeof handler.type !== "string") problems.push(`${at}.type is not a string`);
  if (handler.type === "command" && typeof handler.command !== "string") {
    problems.push(`${at}.command is not a string`);
  }
  if (handler.timeout !== undefined && typeof handler.timeout !== "number") {
    problems.push(`${at}.timeout is not a number`);
  }
  if (
    handler.args !== undefined &&
    !(Array.isArray(handler.args) && handler.args.every((a) => typeof a === "string"))
  ) {
    problems.push(`${at}.args is not a list of strings`);
  }
  return problems;
}

/**
 * Problems in a `hooks` object: `{ <event>: [ { matcher?, hooks: [handler, ...] }, ... ] }`.
 *
 * @example Usage
 * ```ts
 * import { hooksProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(hooksProblems({ Stop: [{ hooks: [{ type: "command", command: "x" }] }] }), []);
 * assert.deepEqual(hooksProblems({ Stop: {} }), ["hooks.Stop is an object, not a list"]);
 * ```
 */
export function hooksProblems(hooks: unknown, at = "hooks"): string[] {
  if (!isObject(hooks)) return [`${at} is ${kind(hooks)}, not an object`];
  const problems: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const where = `${at}.${event}`;
    if (!Array.isArray(groups)) {
      problems.push(`${where} is ${kind(groups)}, not a list`);
      continue;
    }
    groups.forEach((group, g) => {
      const gat = `${where}[${g}]`;
      if (!isObject(group)) {
        problems.push(`${gat} is ${kind(group)}, not an object`);
        return;
      }
      if (group.matcher !== undefined && typeof group.matcher !== "string") {
        problems.push(`${gat}.matcher is not a string`);
      }
      if (!Array.isArray(group.hooks)) {
        problems.push(`${gat}.hooks is ${kind(group.hooks)}, not a list`);
        return;
      }
      group.hooks.forEach((h, i) => problems.push(...handlerProblems(h, `${gat}.hooks[${i}]`)));
    });
  }
  return problems;
}

/**
 * Problems in a settings object (`~/.claude/settings.json`, `.claude/settings[.local].json`):
 * `hooks`, `env` (strings only) and `enabledPlugins` (true/false per plugin id).
 *
 * @example Usage
 * ```ts
 * import { settingsProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(settingsProblems({ env: { A: "1" }, model: "x" }), []);
 * assert.deepEqual(settingsProblems({ env: { A: 1 } }), ["env.A is a number, not a string"]);
 * ```
 */
export function settingsProblems(settings: unknown): string[] {
  if (!isObject(settings)) return [`the file holds ${kind(settings)}, not a JSON object`];
  const problems: string[] = [];
  if (settings.hooks !== undefined) problems.push(...hooksProblems(settings.hooks));
  if (settings.env !== undefined) {
    if (!isObject(settings.env)) problems.push(`env is ${kind(settings.env)}, not an object`);
    else {
      for (const [name, value] of Object.entries(settings.env)) {
        if (typeof value !== "string") {
          problems.push(`env.${name} is ${kind(value).replace(/^an? /, "a ")}, not a string`);
        }
      }
    }
  }
  if (settings.enabledPlugins !== undefined) {
    if (!isObject(settings.enabledPlugins)) {
      problems.push(`enabledPlugins is ${kind(settings.enabledPlugins)}, not an object`);
    } else {
      for (const [id, value] of Object.entries(settings.enabledPlugins)) {
        const list = Array.isArray(value) && value.every((v) => typeof v === "string");
        if (typeof value !== "boolean" && !list) {
          problems.push(`enabledPlugins.${id} is ${kind(value)}, not true or false`);
        }
      }
    }
  }
  return problems;
}

/**
 * Problems in `plugins/installed_plugins.json` (version 1: one record per id; version 2: a list
 * of records per id), each record with a string `installPath`.
 *
 * @example Usage
 * ```ts
 * import { installedPluginsProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * const v2 = { version: 2, plugins: { "librarian@x": [{ installPath: "/p" }] } };
 * assert.deepEqual(installedPluginsProblems(v2), []);
 * assert.equal(installedPluginsProblems({ plugins: [] }).length, 1);
 * ```
 */
export function installedPluginsProblems(data: unknown): string[] {
  if (!isObject(data)) return [`the file holds ${kind(data)}, not a JSON object`];
  if (data.version !== undefined && typeof data.version !== "number") {
    return ["version is not a number"];
  }
  if (!isObject(data.plugins)) return [`plugins is ${kind(data.plugins)}, not an object`];
  const problems: string[] = [];
  for (const [id, entry] of Object.entries(data.plugins)) {
    const records = Array.isArray(entry) ? entry : [entry];
    records.forEach((record, i) => {
      const at = Array.isArray(entry) ? `plugins.${id}[${i}]` : `plugins.${id}`;
      if (!isObject(record)) problems.push(`${at} is ${kind(record)}, not an object`);
      else if (typeof record.installPath !== "string") {
        problems.push(`${at}.installPath is not a string`);
      }
    });
  }
  return problems;
}

/**
 * Problems in a plugin's `hooks/hooks.json` (`{"hooks": {...}}`, an optional `description`).
 *
 * @example Usage
 * ```ts
 * import { hooksFileProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(hooksFileProblems({ hooks: {} }), []);
 * assert.deepEqual(hooksFileProblems({}), ["hooks is missing, not an object"]);
 * ```
 */
export function hooksFileProblems(data: unknown): string[] {
  if (!isObject(data)) return [`the file holds ${kind(data)}, not a JSON object`];
  const problems = hooksProblems(data.hooks);
  if (data.description !== undefined && typeof data.description !== "string") {
    problems.push("description is not a string");
  }
  return problems;
}

/** A parse of JSON text: the value, or why it is not usable (`is not valid JSON (...)`). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What a number too long for JavaScript is held as between parsing and writing back. */
const LONG_NUMBER = "\u0000librarian-number:";

/**
 * A `JSON.parse` reviver that keeps a number whose digits a JavaScript number cannot hold (an
 * integer past 2^53, a decimal of more than 15 significant digits) as its source text, held in a
 * marked string until {@link restoreLongNumbers} writes it back digit for digit.
 */
function keepLongNumbers(
  _key: string,
  value: unknown,
  context?: { source?: string },
): unknown {
  const source = context?.source;
  if (typeof value !== "number" || source === undefined || String(value) === source) return value;
  const digits = source.replace(/[eE].*$/, "").replace(/[^0-9]/g, "").replace(/^0+/, "");
  return digits.length > 15 ? `${LONG_NUMBER}${source}` : value;
}

/**
 * JSON text (from `JSON.stringify`) with the long numbers {@link parseChecked} kept put back as
 * the numbers they were.
 *
 * @example Usage
 * ```ts
 * import { parseChecked, restoreLongNumbers, settingsProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = parseChecked('{"n": 12345678901234567890, "f": 0.5}', settingsProblems);
 * assert.ok(parsed.ok);
 * assert.equal(restoreLongNumbers(JSON.stringify(parsed.value)), '{"n":12345678901234567890,"f":0.5}');
 * ```
 */
export function restoreLongNumbers(json: string): string {
  return json.replace(/"\\u0000librarian-number:(-?[0-9][0-9.eE+-]*)"/g, "$1");
}

/**
 * Parses JSON text (a leading BOM allowed) and validates it with `problemsOf`.
 *
 * @example Usage
 * ```ts
 * import { parseChecked, settingsProblems } from "./claude_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseChecked('{"env":{}}', settingsProblems), { ok: true, value: { env: {} } });
 * assert.equal(parseChecked("{", settingsProblems).ok, false);
 * ```
 */
export function parseChecked(
  text: string,
  problemsOf: (value: unknown) => string[],
): Parsed<Json> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""), keepLongNumbers);
  } catch (error) {
    return { ok: false, problem: `is not valid JSON (${(error as Error).message})` };
  }
  const problems = problemsOf(value);
  if (problems.length > 0) {
    const listed = problems.slice(0, 3).join("; ") + (problems.length > 3 ? "; ..." : "");
    return { ok: false, problem: `is not in the shape Claude Code reads (${listed})` };
  }
  return { ok: true, value: value as Json };
}
