/**
 * The merge of the Librarian's hook entries into a Claude Code settings object, and their
 * removal from one. The merge keeps every other key and every other hook, updates the Librarian's
 * entries in place, removes stale copies, and is idempotent: merging into its own output changes
 * nothing.
 *
 * Pure: no file is read or written here.
 *
 * @module
 */

import { isObject, type Json } from "./claude_json.ts";
import {
  type DesiredHook,
  type HookChange,
  isLibrarianHandler,
  SettingsShapeError,
} from "./hook_settings.ts";

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Merges the Librarian's hooks into a settings object; returns the new object and the changes.
 * `settings` is not modified. Hooks of other tools, their order and every other key are kept.
 *
 * @throws {SettingsShapeError} when `hooks`, or one event's list, is not the shape Claude Code
 *   reads (the user must fix the file by hand).
 *
 * @example Usage
 * ```ts
 * import { desiredHooks } from "./hook_settings.ts";
 * import { mergeHooks } from "./hook_merge.ts";
 * import assert from "node:assert/strict";
 *
 * const desired = desiredHooks({ kind: "launcher", path: "/opt/bin/librarian" }, "sh");
 * const first = mergeHooks({ model: "opus" }, desired);
 * assert.equal(first.settings.model, "opus");
 * assert.ok(first.changes.every((c) => c.action === "added"));
 * const again = mergeHooks(first.settings, desired);
 * assert.ok(again.changes.every((c) => c.action === "unchanged"));
 * assert.throws(() => mergeHooks({ hooks: [] }, desired));
 * ```
 */
export function mergeHooks(
  settings: Json,
  desired: readonly DesiredHook[],
): { settings: Json; changes: HookChange[] } {
  const result: Json = structuredClone(settings);
  if (result.hooks !== undefined && !isObject(result.hooks)) {
    throw new SettingsShapeError("'hooks' is not a JSON object");
  }
  const hooks: Json = (result.hooks as Json | undefined) ?? {};
  const changes: HookChange[] = [];
  const events = new Set([...Object.keys(hooks), ...desired.map((d) => d.event)]);
  for (const event of events) {
    const existing = hooks[event] ?? [];
    if (!Array.isArray(existing)) {
      throw new SettingsShapeError(`'hooks.${event}' is not a JSON array`);
    }
    const wanted = desired.filter((d) => d.event === event);
    if (existing.length === 0 && wanted.length === 0) continue;
    const rebuilt = mergeEvent(event, existing, wanted, changes);
    if (rebuilt.length > 0) hooks[event] = rebuilt;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length > 0 || result.hooks !== undefined) result.hooks = hooks;
  return { settings: result, changes };
}

/** One event's groups after the merge (appends to `changes`). */
function mergeEvent(
  event: string,
  groups: readonly unknown[],
  wanted: readonly DesiredHook[],
  changes: HookChange[],
): unknown[] {
  // Each wanted handler takes the place of the first handler of ours under the same matcher.
  // Places are positions ("group:handler"), not objects, so shared references cannot confuse it.
  const claimed = new Map<string, DesiredHook>();
  for (const want of wanted) {
    groups.some((group, g) => {
      if (!isObject(group) || group.matcher !== want.matcher || !Array.isArray(group.hooks)) {
        return false;
      }
      const h = group.hooks.findIndex((handler, i) =>
        isLibrarianHandler(handler) && !claimed.has(`${g}:${i}`)
      );
      if (h >= 0) claimed.set(`${g}:${h}`, want);
      return h >= 0;
    });
  }
  const rebuilt: unknown[] = [];
  groups.forEach((group, g) => {
    if (!isObject(group) || !Array.isArray(group.hooks)) {
      rebuilt.push(group);
      return;
    }
    const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
    const handlers: unknown[] = [];
    let removed = false;
    group.hooks.forEach((handler, h) => {
      const want = claimed.get(`${g}:${h}`);
      if (want) {
        const action = sameJson(handler, want.handler) ? "unchanged" : "updated";
        handlers.push(structuredClone(want.handler));
        changes.push({ event, matcher, command: commandOf(want.handler), action });
      } else if (isLibrarianHandler(handler)) {
        // A stale copy: another matcher, an older install, or a duplicate.
        removed = true;
        changes.push({ event, matcher, command: commandOf(handler as Json), action: "removed" });
      } else {
        handlers.push(handler);
      }
    });
    if (handlers.length > 0) rebuilt.push({ ...group, hooks: handlers });
    else if (!removed) rebuilt.push(group);
  });
  const placed = new Set(claimed.values());
  // handlers added under one matcher share a group, as in hooks.json
  const added = new Map<string | undefined, { hooks: Json[] }>();
  for (const want of wanted) {
    if (placed.has(want)) continue;
    const handler = structuredClone(want.handler);
    const group = added.get(want.matcher);
    if (group) group.hooks.push(handler);
    else {
      const made = want.matcher === undefined
        ? { hooks: [handler] }
        : { matcher: want.matcher, hooks: [handler] };
      added.set(want.matcher, made);
      rebuilt.push(made);
    }
    changes.push({ event, matcher: want.matcher, command: commandOf(handler), action: "added" });
  }
  return rebuilt;
}

/**
 * Removes every Librarian hook handler (what {@link mergeHooks} writes, for any install path)
 * from a settings object; a group or event left empty goes too, and so does `hooks` when nothing
 * is left in it. Everything else is kept as it was. Removing from its own output changes nothing.
 *
 * @example Usage
 * ```ts
 * import { removeLibrarianHooks } from "./hook_merge.ts";
 * import assert from "node:assert/strict";
 *
 * const ours = { type: "command", command: "sh '/opt/librarian/bin/librarian' stop" };
 * const theirs = { type: "command", command: "lint.sh" };
 * const settings = { model: "x", hooks: { Stop: [{ hooks: [ours, theirs] }] } };
 * const { settings: after, changes } = removeLibrarianHooks(settings);
 * assert.deepEqual(after, { model: "x", hooks: { Stop: [{ hooks: [theirs] }] } });
 * assert.equal(changes[0]?.action, "removed");
 * ```
 */
export function removeLibrarianHooks(settings: Json): { settings: Json; changes: HookChange[] } {
  if (!isObject(settings.hooks)) return { settings, changes: [] };
  const changes: HookChange[] = [];
  const hooks: Json = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      const handlers = group.hooks.filter((handler) => {
        if (!isLibrarianHandler(handler)) return true;
        changes.push({ event, matcher, command: commandOf(handler as Json), action: "removed" });
        return false;
      });
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
  }
  if (changes.length === 0) return { settings, changes };
  const result: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete result.hooks;
  return { settings: result, changes };
}

function commandOf(handler: Json): string {
  return typeof handler.command === "string" ? handler.command : "";
}
