/**
 * Kept old scratch files (see `carry_over.ts`): their names, `<place>.tmp-carry-<id>-<offset>`,
 * and the stop hook's cheap check whether any waits to be carried over (directory listings and
 * `lstat` only; nothing is read or written here).
 *
 * @module
 */

import { lstatOrNull } from "../core/fs_probe.ts";
import { basenameOf, dirnameOf, joinPath } from "../core/paths.ts";

const CARRY_NAME = /^(.+)\.tmp-carry-([0-9a-z]+)-(\d+)$/;

/** A kept old scratch file. */
export interface Kept {
  /** The name it was kept under, without `.tmp-carry-<id>-<offset>`. */
  place: string;
  path: string;
  id: string;
  /** How many of its bytes scratch already has. */
  offset: number;
}

/**
 * The kept old scratch files of `places` (a place is a path; its kept files sit beside it, named
 * `<place>.tmp-carry-<id>-<offset>`), oldest first.
 *
 * @example Usage
 * ```ts
 * import { keptFiles, keptPath } from "./carry_kept.ts";
 * import assert from "node:assert/strict";
 *
 * const place = `${Deno.makeTempDirSync()}/.scratch.md`;
 * Deno.writeTextFileSync(keptPath(place, "b1", 7), "");
 * Deno.writeTextFileSync(keptPath(place, "a1", 3), "");
 * assert.deepEqual(keptFiles([place]).map((k) => [k.id, k.offset]), [["a1", 3], ["b1", 7]]);
 * ```
 */
export function keptFiles(places: readonly string[]): Kept[] {
  const out: Kept[] = [];
  for (const place of places) {
    const dir = dirnameOf(place);
    const name = basenameOf(place);
    try {
      for (const entry of Deno.readDirSync(dir)) {
        const match = CARRY_NAME.exec(entry.name);
        if (!match || match[1] !== name) continue;
        out.push({
          place,
          path: joinPath(dir, entry.name),
          id: match[2]!,
          offset: Number(match[3]),
        });
      }
    } catch {
      // no folder: nothing kept there
    }
  }
  return out.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The name a kept old scratch of `place` has once scratch holds its first `offset` bytes.
 *
 * @example Usage
 * ```ts
 * import { keptPath } from "./carry_kept.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(keptPath("/l/.scratch.md", "x1", 40), "/l/.scratch.md.tmp-carry-x1-40");
 * ```
 */
export function keptPath(place: string, id: string, offset: number): string {
  return `${place}.tmp-carry-${id}-${offset}`;
}

/**
 * True when folder `dir` holds any kept old scratch (whatever place it belongs to): one listing,
 * so the stop hook names a place by the library's key only when something is kept there.
 *
 * @example Usage
 * ```ts
 * import { holdsKeptScratch, keptPath } from "./carry_kept.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * assert.equal(holdsKeptScratch(dir), false);
 * assert.equal(holdsKeptScratch(`${dir}/missing`), false);
 * Deno.writeTextFileSync(keptPath(`${dir}/0a1b.scratch`, "x1", 0), "");
 * assert.equal(holdsKeptScratch(dir), true);
 * ```
 */
export function holdsKeptScratch(dir: string): boolean {
  try {
    for (const entry of Deno.readDirSync(dir)) if (isKeptScratchName(entry.name)) return true;
  } catch {
    // no folder: nothing kept there
  }
  return false;
}

/**
 * True when `name` is a kept old scratch's file name, as {@link keptPath} names it.
 *
 * @example Usage
 * ```ts
 * import { isKeptScratchName, keptPath } from "./carry_kept.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isKeptScratchName(keptPath("/s/0a1b.scratch", "x1", 0).slice("/s/".length)));
 * assert.ok(!isKeptScratchName("0a1b.lock"));
 * ```
 */
export function isKeptScratchName(name: string): boolean {
  return CARRY_NAME.test(name);
}

/**
 * True when a kept old scratch holds bytes scratch does not have yet (or a killed run left one
 * to clear): the stop hook's cheap check, a directory listing.
 *
 * @example Usage
 * ```ts
 * import { hasPendingCarryOver } from "./carry_kept.ts";
 * import { keepOld } from "./carry_over.ts";
 * import assert from "node:assert/strict";
 *
 * const scratch = `${Deno.makeTempDirSync()}/.scratch.md`;
 * Deno.writeTextFileSync(scratch, "old\n");
 * const kept = keepOld(scratch, 4)!;
 * assert.equal(hasPendingCarryOver([scratch]), false);
 * Deno.writeTextFileSync(kept, "late\n", { append: true });
 * assert.equal(hasPendingCarryOver([scratch]), true);
 * ```
 */
export function hasPendingCarryOver(places: readonly string[]): boolean {
  for (const kept of keptFiles(places)) {
    const info = lstatOrNull(kept.path);
    if (info && info.size > kept.offset) return true;
  }
  return false;
}
