/**
 * The files an `apply_patch` patch names (pure): Codex CLI and GitHub Copilot CLI edit through
 * patches whose paths appear only in their `*** Add File:`, `*** Update File:`,
 * `*** Delete File:` and `*** Move to:` lines.
 *
 * @module
 */

/** What a patch does to one file. */
export interface PatchFile {
  /** The path as the patch names it (relative to the agent's working folder, or absolute). */
  path: string;
  /** `add`, `update`, `delete`, or `move` (the destination of an update's `*** Move to:`). */
  action: "add" | "update" | "delete" | "move";
}

/** At most this many files are read from one patch (the first ones named). */
export const MAX_PATCH_FILES = 64;

const FILE_LINE = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const MOVE_LINE = /^\*\*\* Move to: (.+)$/;

/**
 * The files a patch names, in order, each once; nothing for a text that is not a patch.
 *
 * @example Usage
 * ```ts
 * import { patchFiles } from "./patch_files.ts";
 * import assert from "node:assert/strict";
 *
 * const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n" +
 *   "*** Add File: src/b.ts\n+new\n*** Update File: src/a.ts\n*** End Patch\n";
 * assert.deepEqual(patchFiles(patch), [
 *   { path: "src/a.ts", action: "update" },
 *   { path: "src/b.ts", action: "add" },
 * ]);
 * assert.deepEqual(patchFiles("cat README.md"), []);
 * ```
 */
export function patchFiles(text: string): PatchFile[] {
  const out: PatchFile[] = [];
  const seen = new Set<string>();
  for (const rawLine of text.split("\n")) {
    if (out.length >= MAX_PATCH_FILES) break;
    const line = rawLine.replace(/\r$/, "");
    const file = FILE_LINE.exec(line);
    const move = file ? null : MOVE_LINE.exec(line);
    const path = (file?.[2] ?? move?.[1])?.trim();
    if (!path || seen.has(path)) continue;
    seen.add(path);
    const action = move ? "move" : file![1]!.toLowerCase() as PatchFile["action"];
    out.push({ path, action });
  }
  return out;
}

/**
 * True when the text is an `apply_patch` patch (its first line is `*** Begin Patch`).
 *
 * @example Usage
 * ```ts
 * import { isPatch } from "./patch_files.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isPatch("*** Begin Patch\n*** End Patch"), true);
 * assert.equal(isPatch("echo hi"), false);
 * ```
 */
export function isPatch(text: string): boolean {
  return /^\s*\*\*\* Begin Patch\s*(\n|$)/.test(text);
}
