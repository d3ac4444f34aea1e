/** core/hash: XXH32 as published, checked against the reference implementation's vectors. */
import assert from "node:assert/strict";
import { hashBytes, hashUtf8, xxh32, XXH_PRIME32_1 } from "../src/core/hash.ts";

/** The reference `xxhsum` sanity buffer: byte i is the top byte of PRIME32 * PRIME64^i (mod 2^64). */
function sanityBuffer(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let gen = 2654435761n;
  for (let i = 0; i < length; i++) {
    out[i] = Number((gen >> 56n) & 0xffn);
    gen = (gen * 11400714785074694797n) & 0xffffffffffffffffn;
  }
  return out;
}

Deno.test("xxh32() gives the reference implementation's sanity-check values", () => {
  const vectors: [number, number, number][] = [
    [0, 0, 0x02cc5d05],
    [0, XXH_PRIME32_1, 0x36b78ae7],
    [1, 0, 0xcf65b03e],
    [1, XXH_PRIME32_1, 0xb4545aa4],
    [14, 0, 0x1208e7e2],
    [14, XXH_PRIME32_1, 0x6af1d1fe],
    [222, 0, 0x5bd11dbd],
    [222, XXH_PRIME32_1, 0x58803c5f],
  ];
  for (const [length, seed, want] of vectors) {
    assert.equal(xxh32(sanityBuffer(length), seed), want, `length ${length}, seed ${seed}`);
  }
  assert.equal(xxh32(new TextEncoder().encode("abc")), 0x32d153ff);
});

Deno.test("xxh32() does not depend on where the bytes sit in their buffer", () => {
  const data = sanityBuffer(222);
  const shifted = new Uint8Array(225);
  shifted.set(data, 3);
  assert.equal(xxh32(shifted.subarray(3)), xxh32(data));
});

Deno.test("hashBytes() is 16 hex digits: both XXH32 seeds", () => {
  const data = sanityBuffer(14);
  assert.equal(hashBytes(data), "1208e7e26af1d1fe");
  assert.match(hashUtf8("any text"), /^[0-9a-f]{16}$/);
  assert.notEqual(hashUtf8("a"), hashUtf8("b"));
});
