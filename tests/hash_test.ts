/**
 * core/hash: XXH32 as published, checked against the reference implementation's vectors, and the
 * one hash every value the product persists is made with.
 */
import assert from "node:assert/strict";
import * as hash from "../src/core/hash.ts";
import { hashBytes, hashUtf8, xxh32, XXH_PRIME32_1 } from "../src/core/hash.ts";
import type { Library } from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import { isCaseInsensitiveOs, normalizePath } from "../src/core/paths.ts";
import { recordPathOf } from "../src/automemory/records.ts";
import { folderSlug } from "../src/export/export_formats.ts";
import { coordinationPaths } from "../src/filing/coordination_paths.ts";
import { rawHash } from "../src/filing/route_plan.ts";
import { tempDir } from "./helpers.ts";
import { makeProject } from "./stop_fixtures.ts";

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

/** XXH32 as the specification writes it, one byte-wise round at a time: the oracle below. */
function specXxh32(b: Uint8Array, seed: number): number {
  const [p1, p2, p3, p4, p5] = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1];
  const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
  const read32 = (i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
  const round = (acc: number, lane: number) =>
    Math.imul(rotl((acc + Math.imul(lane, p2)) | 0, 13), p1);
  let i = 0;
  let acc = (seed + p5) | 0;
  if (b.length >= 16) {
    const v = [(seed + p1 + p2) | 0, (seed + p2) | 0, seed | 0, (seed - p1) | 0];
    for (; i + 16 <= b.length; i += 16) {
      for (let lane = 0; lane < 4; lane++) v[lane] = round(v[lane]!, read32(i + 4 * lane));
    }
    acc = (rotl(v[0]!, 1) + rotl(v[1]!, 7) + rotl(v[2]!, 12) + rotl(v[3]!, 18)) | 0;
  }
  acc = (acc + b.length) | 0;
  for (; i + 4 <= b.length; i += 4) {
    acc = Math.imul(rotl((acc + Math.imul(read32(i), p3)) | 0, 17), p4);
  }
  for (; i < b.length; i++) acc = Math.imul(rotl((acc + Math.imul(b[i]!, p5)) | 0, 11), p1);
  acc = Math.imul(acc ^ (acc >>> 15), p2);
  acc = Math.imul(acc ^ (acc >>> 13), p3);
  return (acc ^ (acc >>> 16)) >>> 0;
}

Deno.test("xxh32() and hashBytes() read whole words only where that gives the specification's result", () => {
  // every length through four 16-byte stripes and a tail, at each of the four alignments (the
  // word view is used at offset 0 only), for both seeds the product uses
  const backing = sanityBuffer(100 + 3);
  for (let length = 0; length <= 100; length++) {
    for (let offset = 0; offset < 4; offset++) {
      const bytes = backing.subarray(offset, offset + length);
      const low = specXxh32(bytes, 0);
      const high = specXxh32(bytes, XXH_PRIME32_1);
      assert.equal(xxh32(bytes), low, `length ${length}, offset ${offset}`);
      assert.equal(xxh32(bytes, XXH_PRIME32_1), high, `length ${length}, offset ${offset}`);
      assert.equal(
        hashBytes(bytes),
        low.toString(16).padStart(8, "0") + high.toString(16).padStart(8, "0"),
      );
    }
  }
});

Deno.test("hashBytes() is 16 hex digits: both XXH32 seeds", () => {
  const data = sanityBuffer(14);
  assert.equal(hashBytes(data), "1208e7e26af1d1fe");
  assert.match(hashUtf8("any text"), /^[0-9a-f]{16}$/);
  assert.notEqual(hashUtf8("a"), hashUtf8("b"));
});

Deno.test("every hash the product persists is hashUtf8's: block hashes, record names, the lock and journal key", async () => {
  assert.equal("hashText" in hash, false);
  assert.equal(
    rawHash("## [TAG: global, type: tech]\n- a\r\n"),
    hashUtf8("## [TAG: global, type: tech]\n- a"),
  );
  assert.equal(recordPathOf("/state", "/m"), `/state/automemory/${hashUtf8("/m")}.json`);
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const library: Library = { root: p.lib, projectRoot: p.root, foundBy: "cwd" };
  const paths = coordinationPaths(library, envFrom({ HOME: p.home }))!;
  // The key is taken from the library's real path in the program's normal form (lower case where
  // the file system ignores case).
  const real = normalizePath(Deno.realPathSync(p.lib));
  const key = hashUtf8(isCaseInsensitiveOs() ? real.toLowerCase() : real);
  assert.equal(paths.journal.endsWith(`/${key}.filed.json`), true, paths.journal);
  assert.equal(paths.lock.endsWith(`/${key}.lock`), true);
});

Deno.test("export: an ambiguous folder's rule-file suffix is hashUtf8's", () => {
  assert.equal(folderSlug("src/a--b"), `src--a--b-${hashUtf8("src/a--b").slice(0, 8)}`);
});
