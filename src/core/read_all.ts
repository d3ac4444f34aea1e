/**
 * Reading everything a synchronous reader has left (stdin, an open file), with blocking reads.
 *
 * @module
 */

/** Anything with a blocking `readSync`, such as `Deno.stdin` or a `Deno.FsFile`. */
export interface SyncReader {
  readSync(buffer: Uint8Array): number | null;
}

/**
 * Reads until end of input and returns all the bytes read.
 *
 * @example Usage
 * ```ts
 * import { readAllSync } from "./read_all.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new Uint8Array(100_000).fill(7);
 * let offset = 0;
 * const reader = {
 *   readSync(buffer: Uint8Array): number | null {
 *     const n = Math.min(buffer.length, bytes.length - offset);
 *     buffer.set(bytes.subarray(offset, offset + n));
 *     offset += n;
 *     return n === 0 ? null : n;
 *   },
 * };
 * assert.deepEqual(readAllSync(reader), bytes);
 * ```
 */
export function readAllSync(reader: SyncReader): Uint8Array {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  let total = 0;
  for (;;) {
    const n = reader.readSync(buffer);
    if (n === null || n === 0) break;
    chunks.push(buffer.slice(0, n));
    total += n;
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
