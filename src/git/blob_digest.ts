/**
 * The digests (`core/file_digest.ts`'s) of files as they were at given commits, asked of git in
 * one `git cat-file --batch` run: what staleness compares a learning's recorded digest with, to
 * find the commit that holds the version the learning saw (`git/staleness.ts`).
 *
 * @module
 */

import { xxh32 } from "../core/hash.ts";
import { MAX_DIGEST_BYTES } from "../core/file_digest.ts";
import { runGitBytes } from "./git_run.ts";

/**
 * The key of one file at one commit in {@link blobDigests}' answer.
 *
 * @example Usage
 * ```ts
 * import { blobKey } from "./blob_digest.ts";
 * import assert from "node:assert/strict";
 * assert.equal(blobKey("a1b2", "src/a.ts"), "a1b2\nsrc/a.ts");
 * ```
 */
export function blobKey(commit: string, path: string): string {
  return `${commit}\n${path}`;
}

/**
 * Parses `git cat-file --batch` output for `asked` (the `<commit>:<path>` names in order) into
 * digests by {@link blobKey} (pure); a missing object or one over the digest limit is left out.
 *
 * @example Usage
 * ```ts
 * import { blobKey, parseBatch } from "./blob_digest.ts";
 * import assert from "node:assert/strict";
 * const out = new TextEncoder().encode("0123 blob 1\nx\nHEAD:b.ts missing\n");
 * const digests = parseBatch(out, [["HEAD", "a.ts"], ["HEAD", "b.ts"]]);
 * assert.match(digests.get(blobKey("HEAD", "a.ts"))!, /^[0-9a-f]{8}$/);
 * assert.equal(digests.size, 1);
 * ```
 */
export function parseBatch(
  out: Uint8Array,
  asked: readonly (readonly [string, string])[],
): Map<string, string> {
  const digests = new Map<string, string>();
  let at = 0;
  for (const [commit, path] of asked) {
    const end = out.indexOf(10, at);
    if (end < 0) break;
    const header = new TextDecoder().decode(out.subarray(at, end)).split(" ");
    at = end + 1;
    if (header[1] !== "blob") continue; // missing, or not a file
    const size = Number(header[2]);
    if (!Number.isSafeInteger(size) || at + size > out.length) break;
    if (size <= MAX_DIGEST_BYTES) {
      const digest = xxh32(out.subarray(at, at + size), 0).toString(16).padStart(8, "0");
      digests.set(blobKey(commit, path), digest);
    }
    at += size + 1;
  }
  return digests;
}

/**
 * The digest of each `[commit, path]` as git holds it (keys by {@link blobKey}); empty when
 * there is nothing to ask or git fails (or `deadline` aborts it). Paths with a line break are not asked.
 *
 * @example Usage
 * ```ts
 * import { blobDigests } from "./blob_digest.ts";
 * import assert from "node:assert/strict";
 * assert.equal((await blobDigests(Deno.makeTempDirSync(), [])).size, 0);
 * ```
 */
export async function blobDigests(
  projectRoot: string,
  pairs: readonly (readonly [string, string])[],
  deadline?: AbortSignal,
): Promise<Map<string, string>> {
  const asked = pairs.filter(([commit, path]) => !/[\n\r]/.test(commit + path));
  if (asked.length === 0) return new Map();
  try {
    const stdin = asked.map(([commit, path]) => `${commit}:./${path}\n`).join("");
    const out = await runGitBytes(projectRoot, ["cat-file", "--batch"], stdin, deadline);
    return out.code === 0 ? parseBatch(out.stdout, asked) : new Map();
  } catch {
    return new Map();
  }
}
