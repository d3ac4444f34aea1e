/**
 * Rewriting scratch (effectful): the pass's scratch edits applied to whatever scratch holds at
 * that moment, by temp-file-and-rename, without losing what writers append meanwhile.
 *
 * @module
 */

import { tempSiblingOf } from "../core/atomic.ts";
import { readAllSync } from "../core/read_all.ts";
import { removeFile } from "./journal.ts";
import { sleep } from "./lock.ts";
import { applyScratchEdits, type ScratchEdits } from "./scratch_edits.ts";
import { utf8 } from "./targets.ts";

function readAllFrom(file: Deno.FsFile, offset: number): Uint8Array {
  file.seekSync(offset, Deno.SeekMode.Start);
  return readAllSync(file);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function renameOver(from: string, to: string, beforeRetry: () => void): void {
  try {
    Deno.renameSync(from, to);
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied) || Deno.build.os !== "windows") {
      throw error;
    }
    beforeRetry();
    Deno.renameSync(from, to);
  }
}

/**
 * Applies edits to scratch as it is now, by temp-file-and-rename.
 *
 * Scratch is read through an open handle; after the new text is in the temp file, scratch is
 * read again, and only if it is unchanged is the temp file renamed over it (otherwise the edits
 * are applied again). A writer that had scratch open before the rename may still append to the
 * old file a moment later: whatever it appended is carried over to the new file, checked right
 * after the rename and once more a few milliseconds later.
 */
export async function rewriteScratch(path: string, edits: ScratchEdits): Promise<void> {
  for (let attempt = 0; attempt < 8; attempt++) {
    let file: Deno.FsFile | undefined;
    try {
      file = Deno.openSync(path, { read: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    try {
      const bytes = file ? readAllFrom(file, 0) : new Uint8Array();
      let current: string;
      try {
        current = utf8.decode(bytes);
      } catch {
        throw new Error("scratch is not UTF-8 text");
      }
      const next = applyScratchEdits(current, edits);
      if (next === current) return;
      const temp = tempSiblingOf(path);
      Deno.writeTextFileSync(temp, next);
      let again: Uint8Array;
      try {
        again = Deno.readFileSync(path);
      } catch {
        again = new Uint8Array();
      }
      if (!sameBytes(again, bytes)) {
        removeFile(temp);
        continue;
      }
      try {
        renameOver(temp, path, () => {
          // Windows may refuse to replace a file we hold open: let go of it (and of the
          // carry-over check, a Unix concern) and try once more.
          file?.close();
          file = undefined;
        });
      } catch (error) {
        removeFile(temp);
        throw error;
      }
      if (file) {
        let carried = bytes.length;
        for (const wait of [0, 5]) {
          if (wait) await sleep(wait);
          const late = readAllFrom(file, carried);
          if (late.length === 0) continue;
          Deno.writeFileSync(path, late, { append: true });
          carried += late.length;
        }
      }
      return;
    } finally {
      file?.close();
    }
  }
  throw new Error("scratch kept changing while it was being rewritten");
}
