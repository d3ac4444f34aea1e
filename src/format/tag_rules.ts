/**
 * Which tags may be filed (pure): nothing a tag says can put a file outside the library.
 *
 * A tag path is library-relative: `global` is the library root, anything else is a folder path
 * with `/` separators. Rejected: absolute paths, drive letters, backslashes, `.` and `..`
 * segments, empty segments, segments starting with `.`, and names Windows cannot hold (`:` and
 * other reserved characters, control characters, device names such as `CON` or `CONIN$`, a
 * trailing dot or space) or would read as another name (8.3 short names such as `GIT~1`).
 * Invisible characters (zero-width, bidirectional controls), characters that compatibility
 * normalisation (NFKC) would change (full-width `ｓｒｃ`, ligatures, superscripts) and look-alikes
 * (`src/аpi` with a Cyrillic `а`, see `confusables.ts`) are rejected too, so a path cannot pass
 * for another one. A segment holds at most 255 bytes of UTF-8, a path at most 64 segments.
 * A type must be a plain file-name stem: letters, digits, `-` and `_`.
 *
 * Forgiven: one trailing slash (`src/api/` is `src/api`). Paths are compared and filed in NFC;
 * the filing side then uses the spelling a mirror folder already has on disk (`spelling.ts`).
 *
 * Every rejection comes with a one-line reason a person can act on.
 *
 * @module
 */

import { lookalikeProblem } from "./confusables.ts";

/** The tag path that means the library root. */
export const GLOBAL_PATH = "global";

/** The outcome of checking a tag path or type. */
export type TagCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Where a valid tag files its block. */
export interface TagTarget {
  /** Library-relative folder segments (empty for `global`). */
  folder: string[];
  /** The file-name stem (the tag's type). */
  name: string;
  /** Library-relative path of the target file, `/`-separated (e.g. `src/api/patterns.md`). */
  relPath: string;
}

// Windows ignores spaces before the extension: `con .txt` is the console too.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)[ ]*(\..*)?$/i;
// An 8.3 short name (`PROGRA~1`, `GIT~1.TXT`) that Windows may resolve to another, longer name.
const SHORT_NAME = /^[^.~]{1,6}~[0-9]{1,6}(\.[^.]{0,3})?$/;
const RESERVED_CHARS = /[<>:"|?*]/;
// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const TYPE_STEM = /^[A-Za-z0-9_-]+$/;
const MAX_SEGMENT = 255;
/** The deepest folder path a tag may name (deeper ones cannot be checked against symlinks). */
export const MAX_DEPTH = 64;
const utf8 = new TextEncoder();

/**
 * Shortens user text for a reason line.
 *
 * @example Usage
 * ```ts
 * import { quoteForReason } from "./tag_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(quoteForReason("src/api"), "'src/api'");
 * assert.equal(quoteForReason("abcdef", 4), "'abc…'");
 * assert.equal(quoteForReason("a\u200bb"), "'a?b'");
 * ```
 */
export function quoteForReason(text: string, max = 40): string {
  const shown = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `'${shown.replace(/[\p{Cc}\p{Cf}]/gu, "?")}'`;
}

function checkSegment(segment: string, path: string): string | null {
  if (segment === "") return `path ${quoteForReason(path)} has an empty segment`;
  if (segment === "..") return `path ${quoteForReason(path)} has a '..' segment`;
  if (segment === ".") return `path ${quoteForReason(path)} has a '.' segment`;
  if (segment.startsWith(".")) {
    return `path segment ${quoteForReason(segment)} starts with '.'`;
  }
  if (CONTROL_CHARS.test(segment)) return `path ${quoteForReason(path)} has a control character`;
  // Control and invisible format characters (zero-width, bidirectional overrides, BOM...). Written
  // here, not as a module constant: a Unicode property class costs up to 0.4 ms to create, and
  // the inject hook loads this module on every run but checks a tag only for an edit's hint.
  if (/[\p{Cc}\p{Cf}]/u.test(segment)) {
    return `path ${quoteForReason(path)} has an invisible or control character`;
  }
  const reserved = RESERVED_CHARS.exec(segment);
  if (reserved) {
    return `path segment ${quoteForReason(segment)} has '${
      reserved[0]
    }', which file names cannot hold`;
  }
  if (/[.\s]$/.test(segment)) {
    return `path segment ${quoteForReason(segment)} ends with a dot or space`;
  }
  if (/^\s/.test(segment)) {
    return `path segment ${quoteForReason(segment)} starts with a space`;
  }
  if (WINDOWS_DEVICE.test(segment)) {
    return `path segment ${quoteForReason(segment)} is a reserved device name on Windows`;
  }
  if (SHORT_NAME.test(segment)) {
    return `path segment ${quoteForReason(segment)} reads as a Windows short name (like GIT~1)`;
  }
  if (utf8.encode(segment).length > MAX_SEGMENT) {
    return `path segment is longer than ${MAX_SEGMENT} bytes`;
  }
  return null;
}

/**
 * Checks a tag path and returns its library-relative folder segments.
 *
 * @example Usage
 * ```ts
 * import { checkTagPath } from "./tag_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(checkTagPath("src/api"), { ok: true, value: ["src", "api"] });
 * assert.deepEqual(checkTagPath("src/api/"), { ok: true, value: ["src", "api"] });
 * assert.deepEqual(checkTagPath("global"), { ok: true, value: [] });
 * assert.deepEqual(checkTagPath("./global"), { ok: true, value: ["global"] });
 * assert.deepEqual(checkTagPath("../x"), { ok: false, reason: "path '../x' has a '..' segment" });
 * ```
 */
export function checkTagPath(tagPath: string): TagCheck<string[]> {
  return plainTagPath(tagPath) ?? checkTagPathFully(tagPath);
}

/**
 * A folder path of plain ASCII segments: letters, digits, `_` and `-`, with dots only inside a
 * segment. Such a path needs none of the Unicode checks (normalisation, look-alikes, invisible
 * characters), which cost far more than the test: every inject hint checks one.
 */
const PLAIN_PATH =
  /^[A-Za-z0-9_-](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?(?:\/[A-Za-z0-9_-](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)*$/;

/** {@link checkTagPath}'s answer for a plain path that passes every rule; `null` otherwise. */
function plainTagPath(tagPath: string): TagCheck<string[]> | null {
  if (tagPath === GLOBAL_PATH || !PLAIN_PATH.test(tagPath)) return null;
  const segments = tagPath.split("/");
  if (segments.length > MAX_DEPTH) return null;
  for (const segment of segments) {
    if (segment.length > MAX_SEGMENT || isPlainDeviceName(segment)) return null;
  }
  return { ok: true, value: segments };
}

/**
 * {@link WINDOWS_DEVICE} for a segment of a plain path (ASCII letters, digits, `_`, `-` and inner
 * dots: no space, `$` or superscript), without the expression: its first use in a process costs
 * about 0.1 ms, and every edit's hint checks a plain path.
 */
function isPlainDeviceName(segment: string): boolean {
  const dot = segment.indexOf(".");
  const stem = (dot === -1 ? segment : segment.slice(0, dot)).toLowerCase();
  if (stem.length === 3) {
    return stem === "con" || stem === "prn" || stem === "aux" || stem === "nul";
  }
  if (stem.length !== 4 || !(stem.startsWith("com") || stem.startsWith("lpt"))) return false;
  const digit = stem.charCodeAt(3);
  return digit >= 48 && digit <= 57;
}

/**
 * {@link checkTagPath} without its shortcut for plain ASCII paths: every rule, every time (the
 * tests hold the shortcut to this).
 *
 * @example Usage
 * ```ts
 * import { checkTagPath, checkTagPathFully } from "./tag_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(checkTagPathFully("src/api"), checkTagPath("src/api"));
 * assert.equal(checkTagPathFully("src/con").ok, false);
 * ```
 */
export function checkTagPathFully(tagPath: string): TagCheck<string[]> {
  if (tagPath === "") {
    return { ok: false, reason: "path is empty (use 'global' for the library root)" };
  }
  const trimmed = tagPath.length > 1 && tagPath.endsWith("/") && !tagPath.endsWith("//")
    ? tagPath.slice(0, -1)
    : tagPath;
  // `./global` is a code folder named `global` (`global` alone is the library root)
  if (trimmed === `./${GLOBAL_PATH}`) return { ok: true, value: [GLOBAL_PATH] };
  const path = trimmed;
  if (path === GLOBAL_PATH) return { ok: true, value: [] };
  if (path.includes("\\")) {
    return { ok: false, reason: `path ${quoteForReason(path)} has a backslash (use '/')` };
  }
  if (/^[A-Za-z]:/.test(path)) {
    return { ok: false, reason: `path ${quoteForReason(path)} has a drive letter` };
  }
  if (path.startsWith("/")) {
    return {
      ok: false,
      reason: `path ${quoteForReason(path)} is absolute (write it relative to the library)`,
    };
  }
  const nfc = path.normalize("NFC");
  const segments = nfc.split("/");
  if (segments.length > MAX_DEPTH) {
    return { ok: false, reason: `path is more than ${MAX_DEPTH} folders deep` };
  }
  for (const segment of segments) {
    const problem = checkSegment(segment, path);
    if (problem) return { ok: false, reason: problem };
  }
  const folded = path.normalize("NFKC");
  if (folded !== nfc) {
    const plain = checkTagPath(folded);
    if (!plain.ok) {
      return {
        ok: false,
        reason: `path ${
          quoteForReason(path)
        } has characters that look like '.', '/', '\\' or ':' (write them plainly)`,
      };
    }
    return {
      ok: false,
      reason: `path ${quoteForReason(path)} has full-width or compatibility characters; write ${
        quoteForReason(folded, 80)
      }`,
    };
  }
  for (const segment of segments) {
    const problem = lookalikeProblem(segment);
    if (problem) return { ok: false, reason: `path ${problem}` };
  }
  return { ok: true, value: segments };
}

/**
 * Checks a tag type: a plain file-name stem (letters, digits, `-`, `_`).
 *
 * @example Usage
 * ```ts
 * import { checkTagType } from "./tag_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(checkTagType("patterns"), { ok: true, value: "patterns" });
 * assert.deepEqual(checkTagType("tech.md"), {
 *   ok: false,
 *   reason: "type 'tech.md' has an extension (write 'tech')",
 * });
 * assert.equal(checkTagType("").ok, false);
 * ```
 */
export function checkTagType(type: string): TagCheck<string> {
  if (type === "") return { ok: false, reason: "type is empty" };
  if (/^[A-Za-z0-9_-]+\.md$/i.test(type)) {
    return {
      ok: false,
      reason: `type ${quoteForReason(type)} has an extension (write ${
        quoteForReason(type.slice(0, -3))
      })`,
    };
  }
  if (!TYPE_STEM.test(type)) {
    return {
      ok: false,
      reason: `type ${quoteForReason(type)} is not a plain file name (letters, digits, '-', '_')`,
    };
  }
  if (WINDOWS_DEVICE.test(type)) {
    return {
      ok: false,
      reason: `type ${quoteForReason(type)} is a reserved device name on Windows`,
    };
  }
  if (type.length > MAX_SEGMENT - 3) return { ok: false, reason: "type is too long" };
  return { ok: true, value: type };
}

/**
 * Checks a tag's path and type together and returns the file it files into.
 *
 * @example Usage
 * ```ts
 * import { tagTarget } from "./tag_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(tagTarget("src/api", "patterns"), {
 *   ok: true,
 *   value: { folder: ["src", "api"], name: "patterns", relPath: "src/api/patterns.md" },
 * });
 * assert.deepEqual(tagTarget("global", "tech"), {
 *   ok: true,
 *   value: { folder: [], name: "tech", relPath: "tech.md" },
 * });
 * assert.equal(tagTarget("../up", "x").ok, false);
 * ```
 */
export function tagTarget(path: string, type: string): TagCheck<TagTarget> {
  const folder = checkTagPath(path);
  if (!folder.ok) return folder;
  const name = checkTagType(type);
  if (!name.ok) return name;
  const relPath = [...folder.value, `${name.value}.md`].join("/");
  return { ok: true, value: { folder: folder.value, name: name.value, relPath } };
}
