/**
 * Appending synced entries to scratch, only when scratch is text the router can read: a plain
 * UTF-8 file (or none yet). A scratch saved as UTF-16, or holding NUL bytes, is never written to;
 * the caller tells the user and keeps the entries for a later turn.
 *
 * @module
 */

import { decodeUtf8Strict, readFileBounded } from "../core/fs_probe.ts";
import { scratchFileProblem } from "../core/scratch_file.ts";
import { type OwnerCheck, trustedByThisProcess } from "../core/discover.ts";

/** The largest scratch the sync appends to (routing files at most a few MB per turn). */
export const MAX_APPEND_SCRATCH_BYTES = 64 * 1024 * 1024;

/** How to append to scratch, or why it must not be appended to. */
export type ScratchTarget =
  | { ok: true; eol: "\n" | "\r\n"; prefix: string }
  | { ok: false; problem: string };

/**
 * Why scratch bytes are not text the sync may append to, or `null` when they are.
 *
 * @example Usage
 * ```ts
 * import { scratchBytesProblem } from "./scratch_append.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(scratchBytesProblem(new TextEncoder().encode("## notes\n")), null);
 * assert.match(scratchBytesProblem(new Uint8Array([0xff, 0xfe, 0x23, 0x00]))!, /UTF-16/);
 * ```
 */
export function scratchBytesProblem(bytes: Uint8Array): string | null {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16 || bytes.includes(0)) {
    return "scratch is saved as UTF-16 (or holds NUL bytes): save it as UTF-8";
  }
  return decodeUtf8Strict(bytes) === null ? "scratch is not UTF-8 text: save it as UTF-8" : null;
}

/**
 * How to append to scratch text: its line-ending style and the line break needed first when it
 * does not end with one.
 *
 * @example Usage
 * ```ts
 * import { appendStyle } from "./scratch_append.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(appendStyle("a\r\nb"), { eol: "\r\n", prefix: "\r\n" });
 * assert.deepEqual(appendStyle(""), { eol: "\n", prefix: "" });
 * ```
 */
export function appendStyle(text: string): { eol: "\n" | "\r\n"; prefix: string } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return { eol, prefix: text !== "" && !text.endsWith("\n") ? eol : "" };
}

/**
 * Checks scratch at `path` before an append (never blocks, never reads past a limit): a plain
 * file, of a user `trusts` (the user's own or root's by default).
 *
 * @example Usage
 * ```ts
 * import { scratchTarget } from "./scratch_append.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "notes");
 * assert.deepEqual(scratchTarget(path), { ok: true, eol: "\n", prefix: "\n" });
 * ```
 */
export function scratchTarget(
  path: string,
  trusts: OwnerCheck = trustedByThisProcess,
): ScratchTarget {
  const problem = scratchFileProblem(path, trusts);
  if (problem) return { ok: false, problem };
  const read = readFileBounded(path, MAX_APPEND_SCRATCH_BYTES);
  switch (read.kind) {
    case "missing":
      return { ok: true, eol: "\n", prefix: "" };
    case "bytes": {
      const bytesProblem = scratchBytesProblem(read.bytes);
      if (bytesProblem) return { ok: false, problem: bytesProblem };
      return { ok: true, ...appendStyle(new TextDecoder().decode(read.bytes)) };
    }
    case "too-large":
      return { ok: false, problem: "scratch is too large to append to: run `librarian route`" };
    case "not-a-file":
      return { ok: false, problem: "scratch is not a regular file" };
    case "unreadable":
      return { ok: false, problem: `scratch cannot be read (${read.reason})` };
  }
}

/**
 * Appends `text` to scratch (creating it) after `target.prefix`.
 *
 * @example Usage
 * ```ts
 * import { appendToScratch } from "./scratch_append.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "notes");
 * appendToScratch(path, { prefix: "\n" }, "## [TAG: global, type: tech]\n- a\n");
 * assert.equal(Deno.readTextFileSync(path), "notes\n## [TAG: global, type: tech]\n- a\n");
 * ```
 */
export function appendToScratch(path: string, target: { prefix: string }, text: string): void {
  Deno.writeTextFileSync(path, target.prefix + text, { append: true, create: true });
}
