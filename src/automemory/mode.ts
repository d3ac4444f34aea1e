/**
 * `LIBRARIAN_AUTOMEMORY`: what happens to Claude Code's auto memories (`sync`, `review`, `off`).
 *
 * @module
 */

import type { EnvReader } from "../core/env.ts";

/** What `LIBRARIAN_AUTOMEMORY` asks for. */
export type AutoMemoryMode = "sync" | "review" | "off";

/**
 * The auto-memory mode from `LIBRARIAN_AUTOMEMORY` (`sync`, `review` or `off`, any case; unset
 * means `sync`), with a warning when the value is not one of them (then `sync` is used).
 *
 * @example Usage
 * ```ts
 * import { autoMemoryMode } from "./mode.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(autoMemoryMode(() => undefined), { mode: "sync" });
 * assert.deepEqual(autoMemoryMode(() => " Review "), { mode: "review" });
 * assert.equal(autoMemoryMode(() => "maybe").mode, "sync");
 * ```
 */
export function autoMemoryMode(env: EnvReader): { mode: AutoMemoryMode; warning?: string } {
  const raw = env("LIBRARIAN_AUTOMEMORY")?.trim();
  if (!raw) return { mode: "sync" };
  const value = raw.toLowerCase();
  if (value === "sync" || value === "review" || value === "off") return { mode: value };
  const shown = JSON.stringify(raw.slice(0, 40));
  return { mode: "sync", warning: `LIBRARIAN_AUTOMEMORY=${shown} is not sync, review or off` };
}
