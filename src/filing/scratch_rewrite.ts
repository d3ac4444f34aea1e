/**
 * Rewriting scratch (effectful): the pass's scratch edits applied to whatever scratch holds at
 * that moment, by temp-file-and-rename, without ever losing what a writer appends.
 *
 * A writer may hold scratch open and append after the rename, to the file that was replaced.
 * So before the rename, the old file gets a second name next to it, and what is appended to it
 * later is carried over by the next pass (carry_over.ts).
 *
 * There is no window: an append before the rename lands in the old file (carried over), one
 * after it lands in the new file or, through an old descriptor, in the old one (carried over).
 * No descriptor of ours is open during the rename, so Windows never refuses it for our sake.
 *
 * @module
 */

import { removeIfPresent, renameOverSync, writeTempSibling } from "../core/atomic.ts";
import { lstatOrNull, readTextBounded } from "../core/fs_probe.ts";
import { carryOverScratch, keepOld, sameFile } from "./carry_over.ts";
import { crashPoint } from "../core/fault.ts";
import { applyScratchEdits, type ScratchEdits } from "./scratch_edits.ts";
import { MAX_TEXT_BYTES } from "./targets.ts";

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/**
 * Scratch's bytes (none when it is missing) and their text (`null` when not UTF-8), never
 * blocking on a FIFO swapped in meanwhile.
 */
function readScratch(path: string): { bytes: Uint8Array; text: string | null } {
  const read = readTextBounded(path, MAX_TEXT_BYTES);
  if (read.kind === "text") return read;
  if (read.kind === "not-utf8") return { bytes: read.bytes, text: null };
  if (read.kind === "missing") return { bytes: new Uint8Array(), text: "" };
  if (read.kind === "unreadable") throw new Error(`scratch cannot be read (${read.reason})`);
  throw new Error(`scratch ${read.kind === "too-large" ? "grew too large" : "is not a file"}`);
}

/** Options of {@link rewriteScratch}, and hooks for tests. */
export interface RewriteOptions {
  /** Where old scratch files are kept for carry-over (see carry_over.ts); default: beside it. */
  places?: readonly string[];
  /** Called after the old scratch was kept, before it is checked. */
  beforeCheck?: () => void;
  /** Called after scratch was checked, right before the rename. */
  beforeRename?: () => void;
  /**
   * The edits' result already worked out for one text (the scratch text the plan was made from,
   * `route_plan.ts` `scratchText`): used when scratch still reads exactly so, instead of parsing
   * it again.
   */
  known?: { text: string; next: string };
}

/**
 * Applies edits to scratch as it is now, by temp-file-and-rename, keeping the old file for
 * carry-over (see the module notes). Scratch is read, the edited text written to a temp file,
 * the old file kept under its second name, and only if it still begins with what was read (it
 * was only appended to) is the temp file renamed over it; otherwise the edits are applied again.
 *
 * @example Usage
 * ```ts
 * import { rewriteScratch } from "./scratch_rewrite.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/.scratch.md`;
 * Deno.writeTextFileSync(path, "keep me\n## [TAG: global, type: tech]\n- a\n");
 * await rewriteScratch(path, { remove: ["## [TAG: global, type: tech]\n- a\n"], replace: [] });
 * assert.equal(Deno.readTextFileSync(path), "keep me\n");
 * ```
 */
export function rewriteScratch(
  path: string,
  edits: ScratchEdits,
  hooks: RewriteOptions = {},
): void {
  const places = hooks.places ?? [path];
  for (let attempt = 0; attempt < 8; attempt++) {
    const { bytes, text: current } = readScratch(path);
    if (current === null) throw new Error("scratch is not UTF-8 text");
    const next = hooks.known?.text === current
      ? hooks.known.next
      : applyScratchEdits(current, edits);
    if (next === current) return;
    const temp = writeTempSibling(path, next);
    const kept = bytes.length > 0 ? keepOld(path, bytes.length, places) : null;
    hooks.beforeCheck?.();
    // Only appended to since it was read (what was read is still its beginning), and the kept
    // name is the file being replaced: then nothing can be lost from here on.
    const keptInfo = kept ? lstatOrNull(kept) : null;
    const nowInfo = lstatOrNull(path);
    const unchanged = startsWith(readScratch(kept ?? path).bytes, bytes) &&
      (!keptInfo || (nowInfo !== null && sameFile(keptInfo, nowInfo) !== false));
    if (!unchanged) {
      removeIfPresent(temp);
      if (kept) removeIfPresent(kept);
      continue;
    }
    hooks.beforeRename?.();
    crashPoint("before-scratch-rename");
    try {
      renameOverSync(temp, path);
    } catch (error) {
      removeIfPresent(temp);
      if (kept) removeIfPresent(kept);
      throw error;
    }
    if (kept) carryOverScratch(path, places);
    return;
  }
  throw new Error("scratch kept changing while it was being rewritten");
}
