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

/** Whether 32-bit words in memory are little-endian, as XXH32 reads its input. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The two results of {@link xxh32Pair}: the first seed's, then the second's. */
const PAIR = new Uint32Array(2);

/**
 * XXH32 of `bytes` with two seeds in one pass, into {@link PAIR}. The rounds are written out and
 * whole words are read through a `Uint32Array` view where the bytes allow it (little-endian
 * memory, a 4-aligned start): a hook runs this in V8's interpreter, where a function call or a
 * byte-by-byte read costs more than the arithmetic (60 KB: 7 ms before, 2.3 ms now).
 */
function xxh32Pair(b: Uint8Array, seedA: number, seedB: number): void {
  const imul = Math.imul; // a local: the interpreter looks `Math` up on every use otherwise
  const len = b.length;
  const words = LITTLE_ENDIAN && (b.byteOffset & 3) === 0
    ? new Uint32Array(b.buffer, b.byteOffset, len >>> 2)
    : undefined;
  let i = 0;
  let a: number;
  let c: number;
  if (len >= 16) {
    let a1 = (seedA + XXH_PRIME32_1 + PRIME32_2) | 0;
    let a2 = (seedA + PRIME32_2) | 0;
    let a3 = seedA | 0;
    let a4 = (seedA - XXH_PRIME32_1) | 0;
    let c1 = (seedB + XXH_PRIME32_1 + PRIME32_2) | 0;
    let c2 = (seedB + PRIME32_2) | 0;
    let c3 = seedB | 0;
    let c4 = (seedB - XXH_PRIME32_1) | 0;
    for (const limit = len - 16; i <= limit; i += 16) {
      let w1: number, w2: number, w3: number, w4: number;
      if (words) {
        const w = i >>> 2;
        w1 = words[w]!;
        w2 = words[w + 1]!;
        w3 = words[w + 2]!;
        w4 = words[w + 3]!;
      } else {
        w1 = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
        w2 = b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24);
        w3 = b[i + 8]! | (b[i + 9]! << 8) | (b[i + 10]! << 16) | (b[i + 11]! << 24);
        w4 = b[i + 12]! | (b[i + 13]! << 8) | (b[i + 14]! << 16) | (b[i + 15]! << 24);
      }
      // round(acc, lane) = rotl(acc + lane * PRIME32_2, 13) * PRIME32_1, for both seeds
      w1 = imul(w1, PRIME32_2);
      w2 = imul(w2, PRIME32_2);
      w3 = imul(w3, PRIME32_2);
      w4 = imul(w4, PRIME32_2);
      a1 = (a1 + w1) | 0;
      a1 = imul((a1 << 13) | (a1 >>> 19), XXH_PRIME32_1);
      a2 = (a2 + w2) | 0;
      a2 = imul((a2 << 13) | (a2 >>> 19), XXH_PRIME32_1);
      a3 = (a3 + w3) | 0;
      a3 = imul((a3 << 13) | (a3 >>> 19), XXH_PRIME32_1);
      a4 = (a4 + w4) | 0;
      a4 = imul((a4 << 13) | (a4 >>> 19), XXH_PRIME32_1);
      c1 = (c1 + w1) | 0;
      c1 = imul((c1 << 13) | (c1 >>> 19), XXH_PRIME32_1);
      c2 = (c2 + w2) | 0;
      c2 = imul((c2 << 13) | (c2 >>> 19), XXH_PRIME32_1);
      c3 = (c3 + w3) | 0;
      c3 = imul((c3 << 13) | (c3 >>> 19), XXH_PRIME32_1);
      c4 = (c4 + w4) | 0;
      c4 = imul((c4 << 13) | (c4 >>> 19), XXH_PRIME32_1);
    }
    a = (((a1 << 1) | (a1 >>> 31)) + ((a2 << 7) | (a2 >>> 25)) + ((a3 << 12) | (a3 >>> 20)) +
      ((a4 << 18) | (a4 >>> 14))) | 0;
    c = (((c1 << 1) | (c1 >>> 31)) + ((c2 << 7) | (c2 >>> 25)) + ((c3 << 12) | (c3 >>> 20)) +
      ((c4 << 18) | (c4 >>> 14))) | 0;
  } else {
    a = (seedA + PRIME32_5) | 0;
    c = (seedB + PRIME32_5) | 0;
  }
  a = (a + len) | 0;
  c = (c + len) | 0;
  for (; i + 4 <= len; i += 4) {
    const w = imul(
      words ? words[i >>> 2]! : b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24),
      PRIME32_3,
    );
    a = (a + w) | 0;
    a = imul((a << 17) | (a >>> 15), PRIME32_4);
    c = (c + w) | 0;
    c = imul((c << 17) | (c >>> 15), PRIME32_4);
  }
  for (; i < len; i++) {
    const w = imul(b[i]!, PRIME32_5);
    a = (a + w) | 0;
    a = imul((a << 11) | (a >>> 21), XXH_PRIME32_1);
    c = (c + w) | 0;
    c = imul((c << 11) | (c >>> 21), XXH_PRIME32_1);
  }
  PAIR[0] = avalanche(a);
  PAIR[1] = avalanche(c);
}

/** XXH32's final mix. */
function avalanche(acc: number): number {
  acc ^= acc >>> 15;
  acc = Math.imul(acc, PRIME32_2);
  acc ^= acc >>> 13;
  acc = Math.imul(acc, PRIME32_3);
  acc ^= acc >>> 16;
  return acc;
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
  xxh32Pair(bytes, seed, seed);
  return PAIR[0]!;
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
  xxh32Pair(bytes, 0, XXH_PRIME32_1);
  return hex8(PAIR[0]!) + hex8(PAIR[1]!);
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
