/**
 * Reading a library file for injection, safely: huge files are read only in part, binary and
 * non-UTF-8 files are recognised and skipped, and nothing here throws.
 *
 * Synchronous on purpose: a hook is a short-lived process, and sync file calls cost a fraction of
 * async ones (no thread hand-off per call).
 *
 * @module
 */

import { hashBytes } from "./hash.ts";

/** What reading a library file gave. */
export type FileText =
  | {
    kind: "text";
    /** The text (BOM removed, CRLF as LF); only a prefix when `partial`. */
    text: string;
    /** True when the file was larger than the read limit and only its start was read. */
    partial: boolean;
    /** Hash of the content read. */
    hash: string;
  }
  | { kind: "binary" | "not-utf8"; hash: string }
  | { kind: "unreadable"; reason: string };

/** A file's size and modification time, the cheap "did it change?" check. */
export interface FileStamp {
  size: number;
  /** `size:mtime-ms`, compared before any content is read. */
  stamp: string;
  /** The file's owner, `null` where the system tells none (Windows). */
  uid: number | null;
  /** The stat the stamp was made of, when {@link statStamp} made it (a memo stamps with more of it). */
  info?: Deno.FileInfo;
}

/** A small file's whole text kept between runs, and the hash of its content. */
export interface KeptRead {
  text: string;
  hash: string;
}

/**
 * What a caller may keep of files' reads between runs (`inject/walk_memo.ts`): a big file's
 * content hash, so that it is not hashed again, and a small file's text with its hash, so that it
 * is not even opened again, while each file is unchanged; and what a cut file's content came to,
 * so that it is not parsed and cut again.
 */
export interface ReadMemo {
  /** The hash kept for `path` when it is still the file stat'ed as `stamp`; else `undefined`. */
  recallHash(path: string, stamp: FileStamp): string | undefined;
  /** Offers the hash just made of `path`'s content, read after it was stat'ed as `stamp`. */
  offerHash(path: string, stamp: FileStamp, hash: string): void;
  /** The text and hash kept for `path` when it is still the file stat'ed as `stamp`; else `undefined`. */
  recallText(path: string, stamp: FileStamp): KeptRead | undefined;
  /**
   * Offers the whole text just read of `path`, stat'ed as `stamp` before, with its hash (made only
   * when the text is kept).
   */
  offerText(path: string, stamp: FileStamp, text: string, hash: () => string): void;
  /**
   * The digest kept under `key` (what a cut file's text comes to in so many characters, named by
   * its content hash and how it was cut); else `undefined`.
   */
  recallDigest(key: string): string | undefined;
  /** Offers the digest just made under `key`. */
  offerDigest(key: string, digest: string): void;
}

/** How many leading bytes are checked for NUL to call a file binary. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * The stamp of a file from what a stat of it told ({@link statStamp} stats and calls this).
 *
 * @example Usage
 * ```ts
 * import { fileStampOf } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const stamp = fileStampOf({ size: 5, mtime: new Date(1700), uid: 501 });
 * assert.deepEqual(stamp, { size: 5, stamp: "5:1700", uid: 501 });
 * ```
 */
export function fileStampOf(info: Pick<Deno.FileInfo, "size" | "mtime" | "uid">): FileStamp {
  return { size: info.size, stamp: `${info.size}:${info.mtime?.getTime() ?? 0}`, uid: info.uid };
}

/**
 * The stamp of a file, or the error name when it cannot be stat'ed.
 *
 * @example Usage
 * ```ts
 * import { statStamp } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * const stamp = statStamp(path);
 * assert.ok("size" in stamp && stamp.size === 5 && stamp.stamp.startsWith("5:"));
 * assert.deepEqual(statStamp(`${path}.missing`), { error: "NotFound" });
 * ```
 */
export function statStamp(path: string): FileStamp | { error: string } {
  try {
    const info = Deno.statSync(path);
    const stamp: FileStamp = fileStampOf(info);
    stamp.info = info;
    return stamp;
  } catch (error) {
    return { error: error instanceof Error ? error.name : String(error) };
  }
}

/**
 * True when `path` (links followed) is a regular file. Check before reading a file that someone
 * else may have replaced: opening a FIFO for reading blocks until a writer comes, forever.
 *
 * @example Usage
 * ```ts
 * import { isRegularFile } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.md`, "x");
 * assert.ok(isRegularFile(`${dir}/a.md`));
 * assert.ok(!isRegularFile(dir));
 * assert.ok(!isRegularFile(`${dir}/missing.md`));
 * ```
 */
export function isRegularFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function readPrefix(path: string, want: number): Uint8Array {
  const file = Deno.openSync(path, { read: true });
  try {
    const bytes = new Uint8Array(want);
    let filled = 0;
    while (filled < want) {
      const n = file.readSync(bytes.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    return bytes.subarray(0, filled);
  } finally {
    file.close();
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes library bytes: binary when a NUL appears early, `null` when not UTF-8.
 *
 * @example Usage
 * ```ts
 * import { decodeLibraryBytes } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("\uFEFFline\r\n");
 * assert.deepEqual(decodeLibraryBytes(bytes, false), { kind: "text", text: "line\n" });
 * assert.deepEqual(decodeLibraryBytes(new Uint8Array([65, 0, 66]), false), { kind: "binary" });
 * assert.deepEqual(decodeLibraryBytes(new Uint8Array([0xff, 0xfe, 65]), false), { kind: "not-utf8" });
 * ```
 */
export function decodeLibraryBytes(
  data: Uint8Array,
  partial: boolean,
): { kind: "binary" } | { kind: "not-utf8" } | { kind: "text"; text: string } {
  if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: "binary" };
  try {
    // A partial read may end inside a character: a fresh streaming decoder holds those bytes back
    // (the shared one must never be left holding state).
    const text = partial
      ? new TextDecoder("utf-8", { fatal: true }).decode(data, { stream: true })
      : UTF8.decode(data);
    return { kind: "text", text: text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n") };
  } catch {
    return { kind: "not-utf8" };
  }
}

/**
 * Reads `path` (whose size is `size` bytes) as UTF-8 text, at most `maxBytes` of it.
 * A NUL byte in the first 8,000 bytes means binary; bytes that are not UTF-8 mean `not-utf8`.
 *
 * @example Usage
 * ```ts
 * import { readLibraryText } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "0123456789");
 * const whole = readLibraryText(path, 10, 100);
 * assert.ok(whole.kind === "text" && whole.text === "0123456789" && !whole.partial);
 * const part = readLibraryText(path, 10, 4);
 * assert.ok(part.kind === "text" && part.text === "0123" && part.partial);
 * ```
 */
export function readLibraryText(path: string, size: number, maxBytes: number): FileText {
  const read = readLibraryTextLazily(path, size, maxBytes);
  return read.kind === "text"
    ? { kind: "text", text: read.text, partial: read.partial, hash: read.hash() }
    : read;
}

/**
 * {@link FileText} whose text's hash is made when first asked for (then kept): a caller that reads
 * files to fill a budget and records only those it shows hashes only those (hashing runs in V8's
 * interpreter for the most part, some 350 instructions a byte).
 */
export type LazyFileText =
  | Exclude<FileText, { kind: "text" }>
  | {
    kind: "text";
    text: string;
    partial: boolean;
    /** The hash {@link readLibraryText} gives, made on the first call. */
    hash: () => string;
  };

/**
 * {@link readLibraryText} with the text's hash made on first use.
 *
 * @example Usage
 * ```ts
 * import { readLibraryText, readLibraryTextLazily } from "./read_text.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "0123456789");
 * const lazy = readLibraryTextLazily(path, 10, 100);
 * const eager = readLibraryText(path, 10, 100);
 * assert.ok(lazy.kind === "text" && eager.kind === "text" && lazy.hash() === eager.hash);
 * ```
 */
export function readLibraryTextLazily(
  path: string,
  size: number,
  maxBytes: number,
): LazyFileText {
  try {
    const partial = size > maxBytes;
    const data = partial ? readPrefix(path, maxBytes) : Deno.readFileSync(path);
    const decoded = decodeLibraryBytes(data, partial);
    if (decoded.kind !== "text") {
      return { kind: decoded.kind, hash: `${decoded.kind}:${data.length}` };
    }
    let made: string | undefined;
    // a partial read hashes what it read plus the file's size (the rest is not in the context)
    const hash = () => made ??= partial ? `${hashBytes(data)}+${size}` : hashBytes(data);
    return { kind: "text", text: decoded.text, partial, hash };
  } catch (error) {
    return { kind: "unreadable", reason: error instanceof Error ? error.name : String(error) };
  }
}
