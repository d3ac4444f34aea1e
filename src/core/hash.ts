/**
 * Hashes for change detection (not for security).
 *
 * - {@link xxh32}: XXH32 from the xxHash specification
 *   (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md), checked against the
 *   reference implementation's own sanity vectors. Input words are read little-endian, as the
 *   specification says, so a hash is the same on every machine.
 * - {@link hashBytes} and {@link hashUtf8}: 64 bits made of two XXH32 runs (seeds 0 and
 *   {@link XXH_PRIME32_1}), as 16 hex digits: every hash the product stores (the inject side's
 *   ledgers, the filing journal's block hashes and the lock/journal key, auto-memory sync records
 *   and their file names, export rule-file suffixes).
 * - {@link safeId}: an id from hook input (a session, an agent) as a file name, hashed when it is
 *   not safe as it is.
 *
 * @module
 */

/** XXH32's first prime, also the second seed of {@link hashBytes}. */
export const XXH_PRIME32_1 = 0x9e3779b1;
const PRIME32_2 = 0x85ebca77;
const PRIME32_3 = 0xc2b2ae3d;
const PRIME32_4 = 0x27d4eb2f;
const PRIME32_5 = 0x165667b1;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, PRIME32_2)) | 0, 13), XXH_PRIME32_1);
}

function read32(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
}

/**
 * XXH32 of `bytes` with `seed`, as an unsigned 32-bit number.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { xxh32 } from "./hash.ts";
 * assert.equal(xxh32(new Uint8Array()), 0x02cc5d05);
 * assert.equal(xxh32(new TextEncoder().encode("abc")), 0x32d153ff);
 * ```
 */
export function xxh32(bytes: Uint8Array, seed = 0): number {
  const len = bytes.length;
  let i = 0;
  let acc: number;
  if (len >= 16) {
    let v1 = (seed + XXH_PRIME32_1 + PRIME32_2) | 0;
    let v2 = (seed + PRIME32_2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - XXH_PRIME32_1) | 0;
    const limit = len - 16;
    while (i <= limit) {
      v1 = round(v1, read32(bytes, i));
      v2 = round(v2, read32(bytes, i + 4));
      v3 = round(v3, read32(bytes, i + 8));
      v4 = round(v4, read32(bytes, i + 12));
      i += 16;
    }
    acc = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    acc = (seed + PRIME32_5) | 0;
  }
  acc = (acc + len) | 0;
  for (; i + 4 <= len; i += 4) {
    acc = Math.imul(rotl((acc + Math.imul(read32(bytes, i), PRIME32_3)) | 0, 17), PRIME32_4);
  }
  for (; i < len; i++) {
    acc = Math.imul(rotl((acc + Math.imul(bytes[i]!, PRIME32_5)) | 0, 11), XXH_PRIME32_1);
  }
  acc ^= acc >>> 15;
  acc = Math.imul(acc, PRIME32_2);
  acc ^= acc >>> 13;
  acc = Math.imul(acc, PRIME32_3);
  acc ^= acc >>> 16;
  return acc >>> 0;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/**
 * A 64-bit fingerprint of `bytes`: XXH32 with seed 0, then with seed {@link XXH_PRIME32_1}, as 16
 * hex digits. The same on every machine.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashBytes } from "./hash.ts";
 * assert.equal(hashBytes(new Uint8Array()), "02cc5d0536b78ae7");
 * ```
 */
export function hashBytes(bytes: Uint8Array): string {
  return hex8(xxh32(bytes, 0)) + hex8(xxh32(bytes, XXH_PRIME32_1));
}

const UTF8_ENCODER = new TextEncoder();

/**
 * {@link hashBytes} of a string's UTF-8 bytes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashBytes, hashUtf8 } from "./hash.ts";
 * assert.equal(hashUtf8("é"), hashBytes(new Uint8Array([0xc3, 0xa9])));
 * ```
 */
export function hashUtf8(text: string): string {
  return hashBytes(UTF8_ENCODER.encode(text));
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,120}$/;

/**
 * Makes an id safe as a file name (session and agent ids come from the hook input). A safe id is
 * kept as it is; any other gets a hash of the original after `.`, so two ids never share a file
 * (`a/1` and `a_1` are two sessions, and so are two long ids with the same first 120 characters).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeId } from "./hash.ts";
 * assert.equal(safeId("abc-123"), "abc-123");
 * assert.match(safeId("../x"), /^___x\.[0-9a-f]{16}$/);
 * ```
 */
export function safeId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const cleaned = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `${cleaned === "" ? "_" : cleaned}.${hashUtf8(id)}`;
}
