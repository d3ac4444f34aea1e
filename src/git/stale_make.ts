/**
 * A library's stale record worked out afresh (`git/stale_record.ts`): every served library file
 * read, git asked once for the whole library (`git/stale_scan.ts`). Writes nothing: the Stop hook
 * and lint write it through `git/stale_refresh.ts`; the inject hook's session start writes it
 * itself (`inject/start.ts`, which loads this module from `src/`, so it must keep no state).
 *
 * @module
 */

import type { Library } from "../core/discover.ts";
import { scanLibrary, servedFiles } from "../core/library_scan.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import type { StaleRecord } from "./stale_record.ts";
import type { GitFacts } from "./history.ts";
import { type ScannedText, scanStaleness, staleRecordOf } from "./stale_scan.ts";
import { DEFAULT_CHANGE_RATIO } from "./staleness.ts";

/** A library file larger than this is not judged (inject reads no more of it either). */
const MAX_READ_BYTES = 256 * 1024;

/** A record made, with how many learnings it marks and what git could tell. */
export interface MadeRecord {
  record: StaleRecord;
  stale: number;
  git: GitFacts["status"] | "not-needed";
}

/**
 * The stale record of `library` for `HEAD` `head` (short, `""` outside git). Throws on an I/O
 * error reading the library. Git's questions are given up at `deadline` (`git` is then
 * `git-unavailable`: the record knows nothing and is not to be written).
 *
 * @example Usage
 * ```ts
 * import { makeStaleRecord } from "./stale_make.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${root}/_memory_library`);
 * Deno.writeTextFileSync(`${root}/_memory_library/patterns.md`, "# patterns\n- Use UTC.\n");
 * const library = { root: `${root}/_memory_library`, projectRoot: root, foundBy: "cwd" as const };
 * const made = await makeStaleRecord(library, "");
 * assert.deepEqual([made.stale, made.git, made.record.head], [0, "not-needed", ""]);
 * ```
 */
export async function makeStaleRecord(
  library: Library,
  head: string,
  deadline?: AbortSignal,
): Promise<MadeRecord> {
  const texts: ScannedText[] = [];
  for (const file of servedFiles(await scanLibrary(library.root))) {
    const stat = statStamp(file.absPath);
    if ("error" in stat) continue;
    const read = readLibraryText(file.absPath, stat.size, MAX_READ_BYTES);
    if (read.kind !== "text") continue;
    texts.push({ relPath: file.relPath, text: read.text, stamp: stat.stamp, hash: read.hash });
  }
  const scan = await scanStaleness(library.projectRoot, texts, DEFAULT_CHANGE_RATIO, deadline);
  const record = staleRecordOf(library.projectRoot, head, texts, scan);
  return { record, stale: scan.stale.length, git: scan.git };
}
