/**
 * A short digest of a code file's bytes as they are now: what a provenance comment records of
 * each cited file as the turn left it (`format/provenance.ts`), and what staleness compares with.
 *
 * @module
 */

import { xxh32 } from "./hash.ts";
import { readFileBounded } from "./fs_probe.ts";

/** A file larger than this gets no digest (unknown). */
export const MAX_DIGEST_BYTES = 4 * 1024 * 1024;

/**
 * 8 hex digits of XXH32 over the file's bytes, or `undefined` when it cannot be read (missing,
 * not a regular file, larger than {@link MAX_DIGEST_BYTES}).
 *
 * @example Usage
 * ```ts
 * import { fileDigest } from "./file_digest.ts";
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync();
 * assert.equal(fileDigest(path), "02cc5d05");
 * Deno.writeTextFileSync(path, "x");
 * assert.match(fileDigest(path)!, /^[0-9a-f]{8}$/);
 * assert.equal(fileDigest(`${path}.gone`), undefined);
 * ```
 */
export function fileDigest(path: string): string | undefined {
  const read = readFileBounded(path, MAX_DIGEST_BYTES);
  if (read.kind !== "bytes") return undefined;
  return xxh32(read.bytes, 0).toString(16).padStart(8, "0");
}
