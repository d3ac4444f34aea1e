/**
 * A fast, synchronous 53-bit string hash (cyrb53) for change detection.
 *
 * Used to tell whether a library file changed since it was last sent or synced; not for security.
 *
 * @module
 */

/** Hashes `text` to a 14-character hex string; equal text always gives the same string. */
export function hashText(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(16).padStart(14, "0");
}

/**
 * Hashes raw bytes to a 16-character hex string, four bytes per step: the hook hashes every
 * library file it sends, and a per-character loop over decoded text costs milliseconds in a cold
 * process. Two 32-bit lanes (FNV-style multiply, different primes and mixing). Word order follows
 * the machine's endianness, so a hash is comparable only on the machine that made it (ledgers
 * never leave it).
 */
export function hashBytes(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5 ^ bytes.length;
  let h2 = 0x9747b28c ^ bytes.length;
  const words = bytes.length >>> 2;
  const view = bytes.byteOffset % 4 === 0
    ? new Int32Array(bytes.buffer, bytes.byteOffset, words)
    : new Int32Array(bytes.slice(0, words * 4).buffer);
  for (let i = 0; i < words; i++) {
    const w = view[i]!;
    h1 = Math.imul(h1 ^ w, 0x01000193);
    h2 = Math.imul(h2 ^ w, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  for (let i = words * 4; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i]!, 0x01000193);
    h2 = Math.imul(h2 ^ bytes[i]!, 0x5bd1e995);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ h2;
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}
