/**
 * The provenance the stop hook writes above each block it files: today, the short commit of
 * `HEAD` (read from `.git`, no process; omitted outside git), and the code files the turn changed
 * that lie under the block's tag folder (all of them for `global`). A block that says where it
 * came from itself (auto memory, imports) keeps its origin instead of the turn's files.
 *
 * @module
 */

import { formatProvenance, type Provenance } from "../format/provenance.ts";
import type { TagTarget } from "../format/tag_rules.ts";

/** At most this many code files are named in one provenance comment. */
export const MAX_PROVENANCE_FILES = 12;

/**
 * The files of `changed` that lie under `target`'s folder (all for the library root), at most
 * {@link MAX_PROVENANCE_FILES} (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const target = { folder: ["src", "api"], name: "edge", relPath: "src/api/edge.md" };
 * assert.deepEqual(filesUnder(target, ["src/api/a.ts", "src/apix/b.ts", "README.md"]), ["src/api/a.ts"]);
 * ```
 */
export function filesUnder(target: TagTarget, changed: readonly string[]): string[] {
  const prefix = target.folder.length === 0 ? "" : `${target.folder.join("/")}/`;
  return changed.filter((file) => file.startsWith(prefix)).slice(0, MAX_PROVENANCE_FILES);
}

/**
 * The `provenanceFor` function of a routing pass (pure): `day`, `commit` and the turn's changed
 * files (`undefined` when the transcript told nothing).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const stamp = provenanceStamper("2026-11-30", "a1b2c3d", ["src/api/a.ts"]);
 * const target = { folder: ["src"], name: "edge", relPath: "src/edge.md" };
 * assert.equal(stamp(target, undefined), "<!-- librarian: 2026-11-30 a1b2c3d src/api/a.ts -->");
 * const own = { day: "2026-11-29", origin: "auto-memory/x.md", files: [] };
 * assert.equal(stamp(target, own), "<!-- librarian: 2026-11-30 a1b2c3d from:auto-memory/x.md -->");
 * const seen = provenanceStamper("2026-11-30", undefined, ["src/a.ts"], new Map([["src/a.ts", "0a1b2c3d"]]));
 * assert.equal(seen(target, undefined), "<!-- librarian: 2026-11-30 src/a.ts seen:0a1b2c3d -->");
 * ```
 */
export function provenanceStamper(
  day: string,
  commit: string | undefined,
  changed: readonly string[] | undefined,
  digests?: ReadonlyMap<string, string>,
): (target: TagTarget, own: Provenance | undefined) => string {
  return (target, own) => {
    const provenance: Provenance = own?.origin
      ? { day, origin: own.origin, files: own.files.slice(0, MAX_PROVENANCE_FILES) }
      : { day, files: filesUnder(target, changed ?? []) };
    if (!own?.origin && digests !== undefined) {
      provenance.digests = provenance.files.map((file) => digests.get(file) ?? "");
    }
    if (commit) provenance.commit = commit;
    return formatProvenance(provenance);
  };
}
