/**
 * Pure path handling shared by every command: one normal form for POSIX and Windows paths.
 *
 * Claude Code sends Windows paths with backslashes (`C:\\repo\\src\\a.ts`), Git Bash users write
 * `/c/repo`, and people mix separators. Everything is brought to forward slashes with an upper-case
 * drive letter and `.` and `..` resolved. On macOS, whose file systems hand back NFD, Unicode is
 * brought to NFC; elsewhere the two spellings name different files, so they are left as given.
 *
 * @module
 */

/** The operating systems whose path rules differ here. */
export type PathOs = "windows" | "darwin" | "linux" | string;

const DRIVE = /^([a-zA-Z]):(?:\/|$)/;
const MSYS_DRIVE = /^\/([a-zA-Z])(?:\/|$)/;

/**
 * Brings a path to the Librarian's normal form: `/` separators, upper-case drive letter, no `.`,
 * `..` or empty segments, no trailing slash, and NFC on macOS (where the file system treats both
 * Unicode spellings as one name; on Linux and Windows an NFD folder name must stay NFD to be found).
 *
 * On Windows a Git Bash form (`/c/repo`) becomes `C:/repo`. A relative path stays relative.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizePath } from "./paths.ts";
 * assert.equal(normalizePath("c:\\Repo\\src\\..\\lib\\a.ts", "windows"), "C:/Repo/lib/a.ts");
 * assert.equal(normalizePath("/repo/src/./a.ts/", "linux"), "/repo/src/a.ts");
 * ```
 */
export function normalizePath(path: string, os: PathOs = Deno.build.os): string {
  const trimmed = path.trim();
  let p = (os === "darwin" ? trimmed.normalize("NFC") : trimmed).replaceAll("\\", "/");
  if (os === "windows") {
    const msys = MSYS_DRIVE.exec(p);
    if (msys) p = `${msys[1]}:/${p.slice(3)}`;
  }
  let prefix = "";
  const drive = DRIVE.exec(p);
  if (drive) {
    prefix = `${drive[1]!.toUpperCase()}:/`;
    p = p.slice(2);
  } else if (p.startsWith("//")) {
    prefix = "//"; // UNC share
  } else if (p.startsWith("/")) {
    prefix = "/";
  }
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (prefix === "") out.push("..");
      continue;
    }
    out.push(segment);
  }
  const joined = out.join("/");
  if (prefix === "") return joined === "" ? "." : joined;
  return prefix + joined;
}

/**
 * True when the path is absolute in either POSIX or Windows form (after normalising).
 *
 * @example Usage
 * ```ts
 * import { isAbsolutePath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isAbsolutePath("/repo/src"));
 * assert.ok(isAbsolutePath("C:/repo"));
 * assert.ok(!isAbsolutePath("repo/src"));
 * ```
 */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || DRIVE.test(path);
}

/**
 * True when a normal-form path is absolute on `os`: a `/` path anywhere, a drive-letter path only
 * on Windows (elsewhere `C:/repo` names a folder `C:` inside the working folder).
 *
 * @example Usage
 * ```ts
 * import { isLocalAbsolutePath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isLocalAbsolutePath("/repo", "linux"));
 * assert.ok(isLocalAbsolutePath("C:/repo", "windows"));
 * assert.ok(!isLocalAbsolutePath("C:/repo", "linux"));
 * ```
 */
export function isLocalAbsolutePath(path: string, os: PathOs = Deno.build.os): boolean {
  return path.startsWith("/") || (os === "windows" && DRIVE.test(path));
}

/** No file system takes a longer path (Windows' long-path limit; Linux stops at 4,096 bytes). */
export const MAX_PATH_LENGTH = 32_767;

/**
 * `path` as an absolute normal-form path that names a file on this machine, resolved against
 * `base` when it is relative; `null` when it is longer than {@link MAX_PATH_LENGTH} (every look-up
 * would fail, slowly), holds a NUL character, is a Windows drive path on another OS, or is
 * relative with no usable absolute `base`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveLocalPath } from "./paths.ts";
 * assert.equal(resolveLocalPath("../lib/a.ts", "/repo/src", "linux"), "/repo/lib/a.ts");
 * assert.equal(resolveLocalPath("C:\\repo\\a.ts", "/home/me", "linux"), null);
 * ```
 */
export function resolveLocalPath(
  path: string,
  base?: string,
  os: PathOs = Deno.build.os,
): string | null {
  if (path.length > MAX_PATH_LENGTH || path.includes("\0")) return null;
  const normal = normalizePath(path, os);
  if (isLocalAbsolutePath(normal, os)) return normal;
  if (DRIVE.test(normal) || base === undefined) return null;
  const root = resolveLocalPath(base, undefined, os);
  return root === null ? null : normalizePath(joinPath(root, normal), os);
}

/**
 * True where the usual file system compares names without regard to case.
 *
 * @example Usage
 * ```ts
 * import { isCaseInsensitiveOs } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isCaseInsensitiveOs("darwin"));
 * assert.ok(isCaseInsensitiveOs("windows"));
 * assert.ok(!isCaseInsensitiveOs("linux"));
 * ```
 */
export function isCaseInsensitiveOs(os: PathOs = Deno.build.os): boolean {
  return os === "windows" || os === "darwin";
}

/**
 * The segments of a normal-form path (`/a/b` → `["", "a", "b"]`, `C:/a` → `["C:", "a"]`), without
 * the empty last one a root (`/`, `C:/`) has.
 */
function segmentsOf(path: string): string[] {
  const segments = path.split("/");
  if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop();
  return segments;
}

/**
 * Folds a path segment for comparison where names ignore case (Windows, macOS): a full Unicode
 * fold (`Σ`, `σ` and `ς` are one letter; `İ` stays distinct from `I`). Whole segments are compared,
 * so a fold that changes a name's length (`İ` → `i̇`) never shifts what is cut off after it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldSegment } from "./paths.ts";
 * assert.equal(foldSegment("Src"), foldSegment("sRC"));
 * assert.equal(foldSegment("ΣΑΣ"), foldSegment("σας"));
 * ```
 */
export function foldSegment(segment: string): string {
  return segment.toUpperCase().toLowerCase();
}

/**
 * The path of `child` relative to `parent`, both in normal form, or `null` when `child` is not
 * inside `parent`. Equal paths give `""`. Paths are compared segment by segment; on Windows and
 * macOS each segment ignores case ({@link foldSegment}), and the result keeps `child`'s spelling.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { relativeInside } from "./paths.ts";
 * assert.equal(relativeInside("C:/repo/src/a.ts", "c:/Repo", "windows"), "src/a.ts");
 * assert.equal(relativeInside("/repo-2/a.ts", "/repo", "linux"), null);
 * assert.equal(relativeInside("/Users/İlker/repo/src/a.ts", "/users/i̇lker/repo", "darwin"), "src/a.ts");
 * ```
 */
export function relativeInside(
  child: string,
  parent: string,
  os: PathOs = Deno.build.os,
): string | null {
  const c = segmentsOf(child);
  const p = segmentsOf(parent);
  if (c.length < p.length) return null;
  const fold = isCaseInsensitiveOs(os);
  for (let i = 0; i < p.length; i++) {
    const a = c[i]!;
    const b = p[i]!;
    if (a !== b && (!fold || foldSegment(a) !== foldSegment(b))) return null;
  }
  return c.slice(p.length).join("/");
}

/**
 * The folder part of a normal-form path (`""` for a bare name, the root for a root entry).
 *
 * @example Usage
 * ```ts
 * import { dirnameOf } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(dirnameOf("/repo/src/a.ts"), "/repo/src");
 * assert.equal(dirnameOf("/a.ts"), "/");
 * assert.equal(dirnameOf("C:/a.ts"), "C:/");
 * assert.equal(dirnameOf("a.ts"), "");
 * ```
 */
export function dirnameOf(path: string): string {
  const i = path.lastIndexOf("/");
  if (i < 0) return "";
  if (i === 0) return "/";
  if (/^[A-Z]:\/$/.test(path.slice(0, i + 1)) && i === 2) return path.slice(0, 3);
  return path.slice(0, i);
}

/**
 * The last segment of a normal-form path.
 *
 * @example Usage
 * ```ts
 * import { basenameOf } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(basenameOf("/repo/src/a.ts"), "a.ts");
 * assert.equal(basenameOf("a.ts"), "a.ts");
 * ```
 */
export function basenameOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Joins normal-form segments with `/`, skipping empty ones.
 *
 * @example Usage
 * ```ts
 * import { joinPath } from "./paths.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinPath("/repo", "", "src", "a.ts"), "/repo/src/a.ts");
 * assert.equal(joinPath("/", "a"), "/a");
 * assert.equal(joinPath("", "."), ".");
 * ```
 */
export function joinPath(...parts: string[]): string {
  let out = "";
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (out === "") out = part;
    else out = out.endsWith("/") ? out + part : `${out}/${part}`;
  }
  return out === "" ? "." : out;
}
