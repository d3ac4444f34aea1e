/**
 * Target resolution (effectful, read-only): a library-relative target path checked against the
 * library through symlinks, and the target file's current text.
 *
 * Every target path is resolved through symlinks (nearest existing ancestor) and must stay inside
 * the library; a target that escapes, is a folder, a special file, another user's file or not
 * UTF-8 is `blocked`, and its blocks stay in scratch.
 *
 * @module
 */

import { type Library, realPathOfNearest, trustsOwnersOf } from "../core/discover.ts";
import { lstatOrNull, readTextBounded } from "../core/fs_probe.ts";
import { joinPath, relativeInside } from "../core/paths.ts";
import type { TargetState } from "./route_plan.ts";

/** A text file read whole: missing, its text, or why it cannot be read. */
export type ReadResult = { kind: "missing" } | { kind: "text"; text: string } | {
  kind: "error";
  reason: string;
};

/** The largest library file (or scratch, for `librarian route`) read whole. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a regular file as UTF-8 text, keeping a BOM and line endings as they are, never blocking
 * on a FIFO and never reading past `maxBytes`.
 *
 * @example Usage
 * ```ts
 * import { readTextFile } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.md`, "\uFEFF# a\r\n");
 * assert.deepEqual(readTextFile(`${dir}/a.md`), { kind: "text", text: "\uFEFF# a\r\n" });
 * assert.deepEqual(readTextFile(`${dir}/b.md`), { kind: "missing" });
 * assert.deepEqual(readTextFile(dir), { kind: "error", reason: "is not a regular file" });
 * ```
 */
export function readTextFile(path: string, maxBytes: number = MAX_TEXT_BYTES): ReadResult {
  const read = readTextBounded(path, maxBytes);
  switch (read.kind) {
    case "missing":
      return { kind: "missing" };
    case "text":
      return { kind: "text", text: read.text };
    case "not-a-file":
      return { kind: "error", reason: "is not a regular file" };
    case "too-large":
      return { kind: "error", reason: `is larger than ${Math.round(maxBytes / 1_000_000)} MB` };
    case "unreadable":
      return { kind: "error", reason: `cannot be read (${read.reason})` };
    case "not-utf8":
      return { kind: "error", reason: "is not UTF-8 text" };
  }
}

/** The first part of `relPath` under `root` that is a symlink which does not resolve, or null. */
function brokenLinkOn(root: string, relPath: string): string | null {
  const segments = relPath.split("/");
  let path = root;
  for (let i = 0; i < segments.length; i++) {
    path = joinPath(path, segments[i]!);
    const info = lstatOrNull(path);
    if (info === null) return null; // missing from here on
    if (!info.isSymlink) continue;
    try {
      Deno.realPathSync(path);
    } catch {
      return segments.slice(0, i + 1).join("/");
    }
  }
  return null;
}

/** A target path checked against the library through symlinks, and its current state. */
export interface ResolvedTarget {
  state: TargetState;
  /** The real path to write (a symlink inside the library is written through, not replaced). */
  realPath?: string;
}

/**
 * Resolves `relPath` against the library (whose real path is `realRoot`) and reads it.
 *
 * @example Usage
 * ```ts
 * import { resolveTarget } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/tech.md`, "# tech\n");
 * const library = { root, projectRoot: "/", foundBy: "cwd" as const };
 * const real = Deno.realPathSync(root);
 * assert.deepEqual(resolveTarget(library, real, "tech.md").state, { kind: "text", text: "# tech\n" });
 * Deno.symlinkSync(Deno.makeTempDirSync(), `${root}/out`);
 * assert.equal(resolveTarget(library, real, "out/x.md").state.kind, "blocked");
 * ```
 */
export function resolveTarget(library: Library, realRoot: string, relPath: string): ResolvedTarget {
  const real = realPathOfNearest(joinPath(library.root, relPath));
  const inside = real === null ? null : relativeInside(real, realRoot);
  if (real === null || inside === null || inside === "") {
    return {
      state: { kind: "blocked", reason: `${relPath} resolves outside the library (symlink)` },
    };
  }
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(real);
  } catch {
    info = undefined;
  }
  if (info && info.isDirectory) {
    return { state: { kind: "blocked", reason: `${relPath} is a folder` } };
  }
  if (info && !info.isFile) {
    return { state: { kind: "blocked", reason: `${relPath} is not a regular file` } };
  }
  if (info && !trustsOwnersOf(library)(info.uid)) {
    // another user's file in the user's library: not the user's to write into
    return {
      state: {
        kind: "blocked",
        reason: `${relPath} is owned by another user (uid ${info.uid}), not you or root: ` +
          "'librarian lint' tells the fix",
      },
    };
  }
  if (!info) {
    // A broken symlink on the way counts as missing above; writing there would follow it.
    const broken = brokenLinkOn(library.root, relPath);
    if (broken !== null) {
      return { state: { kind: "blocked", reason: `${relPath}: ${broken} is a broken symlink` } };
    }
    return { state: { kind: "missing" }, realPath: real };
  }
  const read = readTextFile(real);
  if (read.kind === "text") return { state: { kind: "text", text: read.text }, realPath: real };
  if (read.kind === "missing") return { state: { kind: "missing" }, realPath: real };
  return { state: { kind: "blocked", reason: `${relPath} ${read.reason}` } };
}
