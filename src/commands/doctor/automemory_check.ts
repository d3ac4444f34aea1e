/**
 * `librarian doctor`'s auto-memory check: the `LIBRARIAN_AUTOMEMORY` mode and the memory folders
 * the Stop hook reads.
 *
 * @module
 */

import type { EnvReader, Library } from "../../core/mod.ts";
import { autoMemoryMode, memoryDirs } from "../../automemory/mod.ts";
import type { Check } from "./check.ts";

/**
 * The auto-memory check: a warning for a `LIBRARIAN_AUTOMEMORY` value that is not `sync`, `review`
 * or `off`; otherwise the mode and the memory folders found (none is fine: Claude Code creates
 * its folder with the first memory).
 *
 * @example Usage
 * ```ts
 * import { autoMemoryCheck } from "./automemory_check.ts";
 * import assert from "node:assert/strict";
 *
 * const env = (name: string) => name === "LIBRARIAN_AUTOMEMORY" ? "sometimes" : undefined;
 * assert.equal(autoMemoryCheck(null, env).status, "warn");
 * ```
 */
export function autoMemoryCheck(library: Library | null, env: EnvReader): Check {
  const { mode, warning } = autoMemoryMode(env);
  if (warning) {
    return {
      id: "auto-memory",
      status: "warn",
      message: `${warning}; sync is used`,
      fix: "set LIBRARIAN_AUTOMEMORY to sync, review or off, or unset it",
    };
  }
  if (mode === "off") return { id: "auto-memory", status: "ok", message: "off: not read" };
  const dirs = library ? memoryDirs(library, env) : [];
  const where = dirs.length === 0
    ? "no memory folder yet (Claude Code creates it with the first memory)"
    : `reads ${dirs.join(", ")}`;
  const what = mode === "review" ? "review: entries wait in scratch" : "sync";
  return { id: "auto-memory", status: "ok", message: `${what}; ${where}` };
}
