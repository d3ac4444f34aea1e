/**
 * Carry-over of appends to replaced scratch files (effectful): when a pass replaces scratch, the
 * old file keeps a second name, `<place>.tmp-carry-<id>-<offset>`, where `<offset>` is how much
 * of it scratch already has. The place is beside the journal (`<key>.scratch`, outside the
 * library) when that is on the same file system, else next to scratch (`.scratch.md`, gitignored
 * by `init`'s `*.tmp-*` line). Anything a writer appends to the old file later (through a
 * descriptor it opened before the rename) grows it past `<offset>`; every pass first carries that
 * over to the end of scratch and renames the kept file to the new offset. A kept file is removed
 * once fully carried over and unwritten for {@link CARRY_RETENTION_MS}.
 *
 * The kept files' names and the stop hook's cheap check are in `carry_kept.ts`.
 *
 * @module
 */

import { removeIfPresent } from "../core/atomic.ts";
import { readAllSync } from "../core/read_all.ts";
import { keptFiles, keptPath } from "./carry_kept.ts";
import { lstatOrNull } from "../core/fs_probe.ts";

/** A kept old scratch is removed once fully carried over and unwritten for this long. */
export const CARRY_RETENTION_MS = 60 * 60 * 1000;

/**
 * Whether two names are the same file: by inode number where the system gives one, else by
 * link count, size and time; `undefined` when the system says nothing that could tell.
 *
 * @example Usage
 * ```ts
 * import { sameFile } from "./carry_over.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.linkSync(path, `${path}.second`);
 * assert.equal(sameFile(Deno.statSync(path), Deno.statSync(`${path}.second`)), true);
 * assert.equal(sameFile(Deno.statSync(path), Deno.statSync(Deno.makeTempFileSync())), false);
 * ```
 */
export function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean | undefined {
  if (a.ino !== null && b.ino !== null) return a.dev === b.dev && a.ino === b.ino;
  if (a.nlink === null || b.nlink === null) return undefined;
  return a.nlink > 1 && b.nlink > 1 && a.size === b.size &&
    a.mtime?.getTime() === b.mtime?.getTime();
}

function readFrom(path: string, offset: number): Uint8Array {
  using file = Deno.openSync(path, { read: true });
  file.seekSync(offset, Deno.SeekMode.Start);
  return readAllSync(file);
}

/**
 * Carries over to the end of scratch whatever was appended to old scratch files since they were
 * replaced, oldest first, once each; clears what a killed run left and kept files gone stale.
 * Call under the library lock. Returns the number of bytes carried over.
 *
 * @example Usage
 * ```ts
 * import { carryOverScratch, keepOld } from "./carry_over.ts";
 * import assert from "node:assert/strict";
 *
 * const scratch = `${Deno.makeTempDirSync()}/.scratch.md`;
 * Deno.writeTextFileSync(scratch, "old\n");
 * const kept = keepOld(scratch, 4)!;
 * Deno.removeSync(scratch);
 * Deno.writeTextFileSync(scratch, "new\n");
 * Deno.writeTextFileSync(kept, "late\n", { append: true });
 * assert.equal(carryOverScratch(scratch), 5);
 * assert.equal(Deno.readTextFileSync(scratch), "new\nlate\n");
 * ```
 */
export function carryOverScratch(
  scratchPath: string,
  places: readonly string[] = [scratchPath],
  now: number = Date.now(),
): number {
  let carried = 0;
  for (const kept of keptFiles(places)) {
    const info = lstatOrNull(kept.path);
    if (!info || !info.isFile) continue;
    const scratch = lstatOrNull(scratchPath);
    if (scratch && sameFile(info, scratch) === true) {
      // Killed between keeping scratch and replacing it: this is scratch itself.
      removeIfPresent(kept.path);
      continue;
    }
    if (info.size > kept.offset) {
      const late = readFrom(kept.path, kept.offset);
      if (late.length > 0) {
        Deno.writeFileSync(scratchPath, late, { append: true });
        carried += late.length;
        // Killed before this rename, the bytes are carried again next time: a block twice in
        // scratch is filed once (see PlanOptions.filedBefore); a lost one could not be.
        Deno.renameSync(kept.path, keptPath(kept.place, kept.id, kept.offset + late.length));
      }
      continue;
    }
    const written = info.mtime?.getTime() ?? 0;
    if (now - written > CARRY_RETENTION_MS) removeIfPresent(kept.path);
  }
  return carried;
}

let keptCounter = 0;

/**
 * Gives the current scratch a second name for carry-over, in the first of `places` where a hard
 * link can be made (the same file system); null where none can.
 *
 * @example Usage
 * ```ts
 * import { keepOld } from "./carry_over.ts";
 * import assert from "node:assert/strict";
 *
 * const scratch = `${Deno.makeTempDirSync()}/.scratch.md`;
 * Deno.writeTextFileSync(scratch, "old\n");
 * const kept = keepOld(scratch, 4);
 * assert.match(kept ?? "", /\.scratch\.md\.tmp-carry-[0-9a-z]+-4$/);
 * assert.equal(Deno.readTextFileSync(kept!), "old\n");
 * ```
 */
export function keepOld(
  scratchPath: string,
  offset: number,
  places: readonly string[] = [scratchPath],
): string | null {
  keptCounter += 1;
  const id = `${Date.now().toString(36).padStart(9, "0")}${keptCounter.toString(36)}${
    Math.random().toString(36).slice(2, 6)
  }`;
  for (const place of places) {
    const path = keptPath(place, id, offset);
    try {
      Deno.linkSync(scratchPath, path);
      return path;
    } catch {
      // another file system, or no hard links there: try the next place
    }
  }
  return null;
}
