/**
 * What a library holds for a Stop to do, found with a few `stat` calls and one listing: scratch
 * with content, and what an earlier run left to finish. An idle turn stops here, having loaded
 * none of the filing code.
 *
 * @module
 */

import { type Library, scratchPathOf } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { isFile, readFileBounded } from "../core/fs_probe.ts";
import { hasPendingCarryOver, isKeptScratchName } from "../filing/carry_kept.ts";
import {
  carryPlaceOf,
  coordinationDir,
  coordinationPaths,
  EXPORT_PENDING_SUFFIX,
} from "../filing/coordination_paths.ts";

/**
 * True when scratch exists and holds more than whitespace (read only when it is small).
 *
 * @example Usage
 * ```ts
 * import { scratchHasContent } from "./work.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * const library = { root, projectRoot: "/", foundBy: "cwd" as const };
 * assert.equal(scratchHasContent(library), false);
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "  \n\n");
 * assert.equal(scratchHasContent(library), false);
 * Deno.writeTextFileSync(`${root}/.scratch.md`, "## [TAG: global, type: tech]\n- x\n");
 * assert.equal(scratchHasContent(library), true);
 * ```
 */
export function scratchHasContent(library: Library): boolean {
  const path = scratchPathOf(library);
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch {
    return false;
  }
  if (size === 0) return false;
  if (size > 4096) return true;
  const read = readFileBounded(path, 4096);
  if (read.kind !== "bytes") return read.kind !== "missing"; // the routing pass reports it
  return new TextDecoder().decode(read.bytes).replace(/^\uFEFF/, "").trim() !== "";
}

/** What an earlier run left for this one to finish. */
export interface LeftOver {
  /** Appends to a replaced scratch wait to be carried over (see carry_over.ts). */
  carry: boolean;
  /** A re-export after filing was killed or failed part way (export/after_filing.ts). */
  exportDue: boolean;
}

/**
 * What an earlier run left for this library: a stat of the scratch's kept place and one listing
 * of the coordination folder. The files there are named by the library's key (a real path and a
 * hash), worked out only when the folder holds a kept scratch or an export left due at all,
 * which it almost never does.
 *
 * @example Usage
 * ```ts
 * import { leftOverOf } from "./work.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * const library = { root, projectRoot: "/", foundBy: "cwd" as const };
 * assert.deepEqual(leftOverOf(library, () => undefined), { carry: false, exportDue: false });
 * ```
 */
export function leftOverOf(library: Library, env: EnvReader): LeftOver {
  const carryHere = hasPendingCarryOver([scratchPathOf(library)]);
  const dir = coordinationDir(env);
  let kept = false;
  let due = false;
  if (dir !== null) {
    try {
      for (const entry of Deno.readDirSync(dir)) {
        kept ||= isKeptScratchName(entry.name);
        due ||= entry.name.endsWith(EXPORT_PENDING_SUFFIX);
      }
    } catch {
      // no folder: nothing left there
    }
  }
  const paths = kept || due ? coordinationPaths(library, env) : null;
  return {
    carry: carryHere ||
      (kept && paths !== null && hasPendingCarryOver([carryPlaceOf(paths.journal)])),
    exportDue: due && paths !== null && isFile(paths.exportPending),
  };
}
