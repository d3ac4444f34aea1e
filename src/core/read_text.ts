/**
 * Reading a library file for injection, safely: huge files are read only in part, binary and
 * non-UTF-8 files are recognised and skipped, and nothing here throws.
 *
 * @module
 */

import { hashText } from "./hash.ts";

/** What reading a library file gave. */
export type FileText =
  | {
    kind: "text";
    /** The text (BOM removed, CRLF as LF); only a prefix when `partial`. */
    text: string;
    /** True when the file was larger than the read limit and only its start was read. */
    partial: boolean;
    /** Size of the whole file in bytes. */
    size: number;
    /** Changes whenever the file's content changes. */
    fingerprint: string;
  }
  | { kind: "binary" | "not-utf8"; size: number; fingerprint: string }
  | { kind: "unreadable"; reason: string };

/** How many leading bytes are checked for NUL to call a file binary. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * Reads `path` as UTF-8 text, at most `maxBytes` of it.
 *
 * A NUL byte in the first 8,000 bytes means binary; bytes that are not UTF-8 mean `not-utf8`.
 */
export async function readLibraryText(path: string, maxBytes: number): Promise<FileText> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const info = await file.stat();
    const want = Math.min(info.size, maxBytes);
    const bytes = new Uint8Array(want);
    let filled = 0;
    while (filled < want) {
      const n = await file.read(bytes.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    const data = bytes.subarray(0, filled);
    const partial = info.size > filled;
    const stamp = partial ? `:${info.size}:${info.mtime?.getTime() ?? 0}` : "";
    const sniff = data.subarray(0, BINARY_SNIFF_BYTES);
    if (sniff.includes(0)) {
      return { kind: "binary", size: info.size, fingerprint: `bin:${info.size}:${stamp}` };
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(data, { stream: partial });
    } catch {
      return {
        kind: "not-utf8",
        size: info.size,
        fingerprint: `raw:${info.size}:${info.mtime?.getTime() ?? 0}`,
      };
    }
    text = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
    return {
      kind: "text",
      text,
      partial,
      size: info.size,
      fingerprint: hashText(text) + stamp,
    };
  } catch (error) {
    return { kind: "unreadable", reason: error instanceof Error ? error.name : String(error) };
  } finally {
    file?.close();
  }
}
