/**
 * File-system probes shared by every side: what is at a path, asked without throwing.
 *
 * Synchronous on purpose: a hook is a short-lived process, and a synchronous `stat` costs a
 * fraction of an async one (no hand-off to a worker thread).
 *
 * @module
 */

/**
 * True when `path` is a folder (following symlinks); false when it is anything else, is missing
 * or cannot be looked at.
 *
 * @example Usage
 * ```ts
 * import { isDirectory } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isDirectory(Deno.makeTempDirSync()));
 * ```
 */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * True when `path` is a regular file (following symlinks); false when it is anything else (a
 * folder, a FIFO, a device), is missing or cannot be looked at.
 *
 * @example Usage
 * ```ts
 * import { isFile } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * assert.ok(isFile(path));
 * assert.ok(!isFile(`${path}.missing`));
 * ```
 */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * What `lstat` says of `path` (a link itself, not what it points to), or `null` when it cannot
 * say (missing, no permission).
 *
 * @example Usage
 * ```ts
 * import { lstatOrNull } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * assert.equal(lstatOrNull(dir)?.isDirectory, true);
 * assert.equal(lstatOrNull(`${dir}/missing`), null);
 * ```
 */
export function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The text of the regular file at `path`, or `null` when nothing is there. Anything that is not
 * a regular file (a folder, a FIFO that would block the reader) throws, as do read errors: the
 * caller says what that means for the user.
 *
 * @example Usage
 * ```ts
 * import { readTextIfExists } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * assert.deepEqual(readTextIfExists(path), "hello");
 * assert.deepEqual(readTextIfExists(`${path}.missing`), null);
 * ```
 */
export function readTextIfExists(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (!info.isFile) {
    throw new Deno.errors.InvalidData(`${path} is not a regular file`);
  }
  return Deno.readTextFileSync(path);
}

/** What {@link readFileBounded} found at a path. */
export type BoundedRead =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "missing" }
  | { kind: "not-a-file" }
  | { kind: "too-large"; size: number }
  | { kind: "unreadable"; reason: string };

/**
 * The bytes of the regular file at `path` when it holds at most `maxBytes`, without ever
 * blocking or exhausting memory: a FIFO, a device or a folder is `not-a-file` (never opened), a
 * larger file is `too-large` (never read past `maxBytes`, even when it grows meanwhile). Never
 * throws.
 *
 * @example Usage
 * ```ts
 * import { readFileBounded } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * const read = readFileBounded(path, 100);
 * assert.equal(read.kind === "bytes" && new TextDecoder().decode(read.bytes), "hello");
 * assert.deepEqual(readFileBounded(path, 3), { kind: "too-large", size: 5 });
 * assert.deepEqual(readFileBounded(`${path}.missing`, 3), { kind: "missing" });
 * ```
 */
export function readFileBounded(path: string, maxBytes: number): BoundedRead {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return { kind: "unreadable", reason: error instanceof Error ? error.name : String(error) };
  }
  if (!info.isFile) return { kind: "not-a-file" };
  if (info.size > maxBytes) return { kind: "too-large", size: info.size };
  try {
    using file = Deno.openSync(path, { read: true });
    // Sized for the file as it was (plus one byte to see it grew), grown up to the limit.
    let buffer = new Uint8Array(Math.min(maxBytes, info.size) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (buffer.length > maxBytes) break;
        const grown = new Uint8Array(Math.min(maxBytes + 1, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      const n = file.readSync(buffer.subarray(filled));
      if (n === null || n === 0) break;
      filled += n;
    }
    if (filled > maxBytes) return { kind: "too-large", size: filled };
    return { kind: "bytes", bytes: buffer.slice(0, filled) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return { kind: "unreadable", reason: error instanceof Error ? error.name : String(error) };
  }
}

/**
 * The first `maxBytes` bytes (or fewer, when the file is shorter) of the regular file at `path`,
 * or `null` when it is missing, unreadable or not a regular file (a FIFO or a device is never
 * opened, so this never blocks). Never throws.
 *
 * @example Usage
 * ```ts
 * import { readFileHead } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * assert.equal(new TextDecoder().decode(readFileHead(path, 3)!), "hel");
 * assert.equal(new TextDecoder().decode(readFileHead(path, 100)!), "hello");
 * assert.equal(readFileHead(`${path}.missing`, 3), null);
 * assert.equal(readFileHead(Deno.makeTempDirSync(), 3), null);
 * ```
 */
export function readFileHead(path: string, maxBytes: number): Uint8Array | null {
  try {
    if (!Deno.statSync(path).isFile) return null;
    using file = Deno.openSync(path, { read: true });
    const buffer = new Uint8Array(maxBytes);
    let filled = 0;
    while (filled < buffer.length) {
      const n = file.readSync(buffer.subarray(filled));
      if (n === null || n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled);
  } catch {
    return null;
  }
}

/** A strict UTF-8 decoder that keeps a byte-order mark (one decode at a time holds no state). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * `bytes` as UTF-8 text, a byte-order mark kept, or `null` when they are not UTF-8.
 *
 * @example Usage
 * ```ts
 * import { decodeUtf8Strict } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodeUtf8Strict(new TextEncoder().encode("\uFEFFhé")), "\uFEFFhé");
 * assert.equal(decodeUtf8Strict(new Uint8Array([0xff, 0xfe, 0x41])), null);
 * ```
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** What {@link readTextBounded} found: {@link BoundedRead}, with the bytes read as UTF-8. */
export type BoundedText =
  | Exclude<BoundedRead, { kind: "bytes" }>
  | { kind: "text"; text: string; bytes: Uint8Array }
  | { kind: "not-utf8"; bytes: Uint8Array };

/**
 * The UTF-8 text of the regular file at `path`, read as {@link readFileBounded} reads it (never
 * blocking, never past `maxBytes`) and decoded strictly, a byte-order mark kept: bytes that are
 * not UTF-8 are `not-utf8`, never replaced. Never throws.
 *
 * @example Usage
 * ```ts
 * import { readTextBounded } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "héllo");
 * const read = readTextBounded(path, 100);
 * assert.equal(read.kind === "text" && read.text, "héllo");
 * Deno.writeFileSync(path, new Uint8Array([0xff, 0xfe, 0x41, 0x00]));
 * assert.equal(readTextBounded(path, 100).kind, "not-utf8");
 * assert.deepEqual(readTextBounded(path, 2), { kind: "too-large", size: 4 });
 * ```
 */
export function readTextBounded(path: string, maxBytes: number): BoundedText {
  const read = readFileBounded(path, maxBytes);
  if (read.kind !== "bytes") return read;
  const text = decodeUtf8Strict(read.bytes);
  return text === null
    ? { kind: "not-utf8", bytes: read.bytes }
    : { kind: "text", text, bytes: read.bytes };
}

/**
 * The JSON value of the regular file at `path`, read as {@link readTextBounded} reads it (a leading
 * byte-order mark allowed), or `undefined` when it is missing, not a regular file, larger than
 * `maxBytes`, not UTF-8 or not JSON: for settings files a hook consults but must never fail on.
 *
 * @example Usage
 * ```ts
 * import { readJsonBounded } from "./fs_probe.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, '\uFEFF{"a": [1]}');
 * assert.deepEqual(readJsonBounded(path, 100), { a: [1] });
 * assert.equal(readJsonBounded(path, 4), undefined);
 * Deno.writeTextFileSync(path, "{ not json");
 * assert.equal(readJsonBounded(path, 100), undefined);
 * assert.equal(readJsonBounded(`${path}.gone`, 100), undefined);
 * ```
 */
export function readJsonBounded(path: string, maxBytes: number): unknown {
  const read = readTextBounded(path, maxBytes);
  if (read.kind !== "text") return undefined;
  try {
    return JSON.parse(read.text.replace(/^\uFEFF/, "")) as unknown;
  } catch {
    return undefined;
  }
}
