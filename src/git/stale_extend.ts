/**
 * The stale record kept up to date without git after a Stop appended learnings: the common case
 * of a filing turn, where nothing the record was made from moved but the files filed into, and
 * the new learnings are about code exactly as the turn left it (so none can be stale).
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { writeTextAtomicSync } from "../core/atomic.ts";
import { fileDigest } from "../core/file_digest.ts";
import { hashBytes } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import { provenanceLines } from "../format/provenance.ts";
import { citedStamp, readStaleRecord, type RemakeNeed } from "./stale_check.ts";
import { formatStaleRecord, type StaleRecord } from "./stale_record.ts";

/** A library file larger than this is not judged (inject reads no more of it either). */
const MAX_LIBRARY_BYTES = 256 * 1024;

/**
 * The record brought up to date without git after a Stop appended learnings to `written`
 * (library-relative): possible when `HEAD` and every cited code file are as recorded, every other
 * file it knows is unchanged, each written file only grew (its old bytes are its start, so the old
 * marks' lines still hold), and every learning in what was appended cites files that exist and
 * are still as the turn left them (their digests match), so none of them can be stale. `null`
 * when any of that is not so: then git must be asked (`git/stale_refresh.ts`).
 *
 * @example Usage
 * ```ts
 * import { extendRecord } from "./stale_extend.ts";
 * import { hashBytes } from "../core/hash.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const file = `${library.root}/tech.md`;
 * Deno.writeTextFileSync(file, "# tech\n");
 * const size = Deno.statSync(file).size;
 * const entry = { stamp: `${size}:0`, hash: hashBytes(Deno.readFileSync(file)), stale: [] };
 * const record = { version: 1 as const, head: "", cited: {}, files: { "tech.md": entry } };
 * Deno.writeTextFileSync(`${root}/a.ts`, "x");
 * Deno.writeTextFileSync(file, "# tech\n<!-- librarian: 2026-11-30 a.ts seen:1a2b3c4d -->\n- a\n");
 * assert.equal(extendRecord(record, library, "", ["tech.md"]), null, "a digest that does not match");
 * ```
 */
export function extendRecord(
  record: StaleRecord,
  library: Library,
  head: string,
  written: readonly string[],
): StaleRecord | null {
  if (record.head !== head) return null;
  for (const [path, stamp] of Object.entries(record.cited)) {
    if (citedStamp(library.projectRoot, path) !== stamp) return null;
  }
  const changed = new Set(written);
  for (const [relPath, entry] of Object.entries(record.files)) {
    if (changed.has(relPath)) continue;
    const stat = statStamp(joinPath(library.root, relPath));
    if ("error" in stat || stat.stamp !== entry.stamp) return null;
  }
  const next: StaleRecord = { ...record, cited: { ...record.cited }, files: { ...record.files } };
  for (const relPath of changed) {
    const path = joinPath(library.root, relPath);
    const stat = statStamp(path);
    if ("error" in stat || stat.size > MAX_LIBRARY_BYTES) return null;
    const read = readLibraryText(path, stat.size, MAX_LIBRARY_BYTES);
    if (read.kind !== "text") return null;
    const old = record.files[relPath];
    let from = 0; // the first line that is new
    if (old !== undefined) {
      const oldSize = Number.parseInt(old.stamp, 10);
      const bytes = Deno.readFileSync(path);
      if (!(oldSize <= bytes.length) || hashBytes(bytes.subarray(0, oldSize)) !== old.hash) {
        return null;
      }
      from = new TextDecoder().decode(bytes.subarray(0, oldSize)).split("\n").length - 1;
    }
    for (const { line, provenance } of provenanceLines(read.text)) {
      if (line <= from || provenance.files.length === 0) continue;
      for (const [i, file] of provenance.files.entries()) {
        const seen = provenance.digests?.[i];
        const now = fileDigest(joinPath(library.projectRoot, file));
        if (!seen || now !== seen) return null;
        next.cited[file] ??= citedStamp(library.projectRoot, file);
      }
    }
    next.files[relPath] = { stamp: stat.stamp, hash: read.hash, stale: old?.stale ?? [] };
  }
  return next;
}

/**
 * Extends the record at `need.path` for the files a Stop wrote; false when git must be asked.
 *
 * @example Usage
 * ```ts
 * import { extendStaleRecord } from "./stale_extend.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * assert.equal(extendStaleRecord(library, { path: `${root}/none.json`, head: "" }, ["tech.md"]), false);
 * ```
 */
export function extendStaleRecord(
  library: Library,
  need: RemakeNeed,
  written: readonly string[],
): boolean {
  const old = readStaleRecord(need.path);
  if (old === null) return false;
  const next = extendRecord(old, library, need.head, written);
  if (next === null) return false;
  writeTextAtomicSync(need.path, formatStaleRecord(next));
  return true;
}
