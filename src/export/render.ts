/**
 * One library folder's knowledge as the text of an exported file (pure): the folder's library
 * files in the order the inject hook sends them (by name), each under the same `--- [path] ---`
 * head, with metadata lines (provenance, import and review comments, front matter) left out as the
 * inject hook leaves them out, cut to the format's
 * limit with a closing line that names what to read instead.
 *
 * @module
 */

import { stripMetadata } from "../format/library_doc.ts";
import { encodeName } from "./export_formats.ts";

/** A library file of one folder, read. */
export interface FolderFile {
  /** Path inside the library (`src/api/edge.md`; `tech.md` at the root). */
  relPath: string;
  /** The file's text, or `null` when it is not text (binary, not UTF-8, unreadable). */
  text: string | null;
}

/** A rendered folder: the body and the files it could not hold whole. */
export interface RenderedFolder {
  body: string;
  /** Library paths cut or left out for the size limit. */
  cut: string[];
  /** Library paths left out because they are not text. */
  skipped: string[];
}

function sectionOf(relPath: string, text: string): string {
  const body = stripMetadata(text).trim();
  return `--- [${encodeName(relPath)}] ---\n${body}\n`;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The closing line for what did not fit: each file named with the path to read it at.
 *
 * @example Usage
 * ```ts
 * import { cutLine } from "./render.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   cutLine("_memory_library", ["src/a.md", "src/b.md"]),
 *   "[More of this folder's knowledge did not fit here: read _memory_library/src/a.md and " +
 *     "_memory_library/src/b.md.]\n",
 * );
 * ```
 */
export function cutLine(libraryLabel: string, relPaths: readonly string[]): string {
  if (relPaths.length > 3) {
    const folder = relPaths[0]!.includes("/") ? relPaths[0]!.replace(/\/[^/]*$/, "") : "";
    const where = encodeName(folder === "" ? `${libraryLabel}/` : `${libraryLabel}/${folder}/`);
    return `[More of this folder's knowledge did not fit here: read the files in ${where}.]\n`;
  }
  const paths = relPaths.map((p) => encodeName(`${libraryLabel}/${p}`));
  const list = paths.length === 1
    ? paths[0]
    : `${paths.slice(0, -1).join(", ")} and ${paths[paths.length - 1]}`;
  return `[More of this folder's knowledge did not fit here: read ${list}.]\n`;
}

/** Keeps whole lines of `text` while both limits allow. */
function headLines(text: string, chars: number, lines: number): string {
  let end = 0;
  let count = 0;
  while (count < lines) {
    const next = text.indexOf("\n", end);
    if (next < 0 || next + 1 > chars) break;
    end = next + 1;
    count++;
  }
  return text.slice(0, end);
}

/**
 * The body of an exported file for one folder, within `limit` characters and lines (counting the
 * closing line). Files are taken in order; the first that does not fit whole is cut at a line
 * end when at least a few lines fit, and it and every later file are named in the closing line.
 *
 * @example Usage
 * ```ts
 * import { renderFolder } from "./render.ts";
 * import assert from "node:assert/strict";
 *
 * const files = [
 *   { relPath: "src/a.md", text: "- one\n" },
 *   { relPath: "src/b.md", text: "x".repeat(500) },
 * ];
 * const out = renderFolder(files, "_memory_library", { chars: 200, lines: 50 });
 * assert.ok(out.body.startsWith("--- [src/a.md] ---\n- one\n"));
 * assert.deepEqual(out.cut, ["src/b.md"]);
 * assert.ok(out.body.length <= 200);
 * ```
 */
export function renderFolder(
  files: readonly FolderFile[],
  libraryLabel: string,
  limit: { chars: number; lines: number },
): RenderedFolder {
  const skipped = files.filter((f) => f.text === null).map((f) => f.relPath);
  const readable = files.filter((f): f is FolderFile & { text: string } => f.text !== null);
  const sections = readable.map((f) => sectionOf(f.relPath, f.text));
  let body = "";
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i]!;
    const joined = body === "" ? section : `${body}\n${section}`;
    if (joined.length <= limit.chars && lineCount(joined) <= limit.lines) {
      body = joined;
      continue;
    }
    const cut = readable.slice(i).map((f) => f.relPath);
    const closing = cutLine(libraryLabel, cut);
    const prefix = body === "" ? "" : `${body}\n`;
    const room = limit.chars - prefix.length - closing.length - 1;
    const roomLines = limit.lines - lineCount(prefix) - lineCount(closing) - 1;
    const part = room > 0 && roomLines > 2 ? headLines(section, room, roomLines) : "";
    const kept = lineCount(part) > 2 ? `${prefix}${part}` : prefix;
    return { body: `${kept}${kept === "" ? "" : "\n"}${closing}`, cut, skipped };
  }
  return { body, cut: [], skipped };
}
