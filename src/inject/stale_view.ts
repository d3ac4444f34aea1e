/**
 * The stale marks a touch puts on what it sends: read from the library's stale record (made by
 * the Stop hook and `librarian lint`, `git/stale_record.ts`), never from git. The record is
 * read only when a library file is about to be read (a repeat touch reads neither), and a mark is
 * used only while it still holds: the library file's content hash is the one the record was made
 * for, and every code file the learning cites has the stamp it had then. Otherwise the learning
 * goes as it is (unknown, no mark). `LIBRARIAN_STALE=hide` leaves stale learnings out instead,
 * naming how many; `off` sends them unmarked.
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { type EnvReader, stateDir } from "../core/env.ts";
import { readTextBounded } from "../core/fs_probe.ts";
import { hashUtf8 } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { statStamp } from "../core/read_text.ts";
import { applyStaleMarks, type StaleMode, staleModeFrom } from "../format/stale_marks.ts";
import {
  MISSING_STAMP,
  parseStaleRecord,
  type StaleRecord,
  staleRecordPath,
} from "../git/stale_record.ts";

/** A record is read up to this size (a larger one is read as none). */
const MAX_RECORD_BYTES = 2 * 1024 * 1024;

/**
 * The marks a text carries are named in full up to this many characters, and by their hash beyond:
 * hashing in the interpreter (`--jitless`) costs about 0.45 million instructions a kilobyte, more
 * than the memo key's length costs to keep.
 */
const MAX_MARKS_NAMED = 2048;

/** A library file's text as the model gets it, and which marks made it so. */
export interface MarkedText {
  /** The text, with the marks that hold applied (the file's own text when none does). */
  text: string;
  /**
   * What was applied, for a key of what the text comes to when cut (`choose.ts`): the mode and the
   * marks' lines and reasons (their hash when long); `""` when the text is the file's own.
   */
  marks: string;
}

/** Applies the stale marks that still hold to a library file's text. */
export interface StaleView {
  /**
   * `text` (the file at library-relative `relPath`, content hash `hash`) as the model gets it. The
   * hash may be given as a function: it is then made only for a file the record has marks for.
   */
  apply(relPath: string, text: string, hash: string | (() => string)): MarkedText;
}

/**
 * The view for `library`, or `undefined` when `LIBRARIAN_STALE=off` or there is no state folder.
 *
 * @example Usage
 * ```ts
 * import { staleView } from "./stale_view.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * const library = { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const };
 * assert.equal(staleView(library, envFrom({ LIBRARIAN_STALE: "off", HOME: "/h" })), undefined);
 * const view = staleView(library, envFrom({ LIBRARIAN_STATE_DIR: Deno.makeTempDirSync() }));
 * assert.deepEqual(view?.apply("tech.md", "- a", "h"), { text: "- a", marks: "" }); // no record
 * ```
 */
export function staleView(library: Library, env: EnvReader): StaleView | undefined {
  const mode: StaleMode = staleModeFrom(env("LIBRARIAN_STALE"));
  const state = stateDir(env);
  if (mode === "off" || state === undefined) return undefined;
  let record: StaleRecord | null | undefined;
  const stamps = new Map<string, string>();
  const stampNow = (path: string) => {
    let stamp = stamps.get(path);
    if (stamp === undefined) {
      const stat = statStamp(joinPath(library.projectRoot, path));
      stamps.set(path, stamp = "error" in stat ? MISSING_STAMP : stat.stamp);
    }
    return stamp;
  };
  return {
    apply(relPath, text, hash) {
      if (record === undefined) {
        const read = readTextBounded(staleRecordPath(state, library.root), MAX_RECORD_BYTES);
        record = read.kind === "text" ? parseStaleRecord(read.text) : null;
      }
      const entry = record?.files[relPath];
      const unmarked = { text, marks: "" };
      if (entry === undefined || entry.stale.length === 0) return unmarked;
      if (entry.hash !== (typeof hash === "string" ? hash : hash())) return unmarked;
      const holding = entry.stale.filter((mark) =>
        Object.entries(mark.cited).every(([path, stamp]) => stampNow(path) === stamp)
      );
      if (holding.length === 0) return unmarked;
      // what the marked text is made of, besides the file: the mode, each mark's lines and reason
      const applied = JSON.stringify(holding.map(({ lines, reason }) => [lines, reason]));
      const named = applied.length <= MAX_MARKS_NAMED ? applied : `#${hashUtf8(applied)}`;
      return { text: applyStaleMarks(text, holding, mode).text, marks: `${mode}:${named}` };
    },
  };
}
