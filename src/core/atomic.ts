/**
 * Crash-safe file replacement: write a sibling temp file, then rename it over the target.
 *
 * A reader (or a process killed half-way) sees either the old file or the new one, never a mix.
 *
 * @module
 */

import { dirnameOf } from "./paths.ts";
import { sleepSync } from "./sleep.ts";

let counter = 0;

/**
 * A temp-file name next to `path`, unique to this process and call.
 *
 * @example Usage
 * ```ts
 * import { isTempSiblingName, tempSiblingOf } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const temp = tempSiblingOf("/lib/notes.md");
 * assert.ok(temp.startsWith("/lib/notes.md.tmp-"));
 * assert.notEqual(tempSiblingOf("/lib/notes.md"), temp);
 * assert.ok(isTempSiblingName(temp.slice("/lib/".length), "notes.md"));
 * ```
 */
export function tempSiblingOf(path: string): string {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `${path}.tmp-${Deno.pid}-${counter}-${random}`;
}

/**
 * True when `name` is a temp-file name {@link tempSiblingOf} made for a file named `baseName`.
 *
 * @example Usage
 * ```ts
 * import { isTempSiblingName, tempSiblingOf } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const temp = tempSiblingOf("/lib/notes.md").slice("/lib/".length);
 * assert.ok(isTempSiblingName(temp, "notes.md"));
 * assert.ok(!isTempSiblingName(temp, "other.md"));
 * assert.ok(!isTempSiblingName("notes.md.tmp-backup", "notes.md"));
 * ```
 */
export function isTempSiblingName(name: string, baseName: string): boolean {
  if (!name.startsWith(`${baseName}.tmp-`)) return false;
  return /^\d+-\d+-[0-9a-z]*$/.test(name.slice(baseName.length + 5));
}

/**
 * The file calls an atomic write makes, replaceable so a test can make one fail as a full disk
 * would (`ENOSPC` half-way through a write).
 */
export interface AtomicIo {
  writeTextFileSync(path: string, text: string, options: Deno.WriteFileOptions): void;
  renameSync(from: string, to: string): void;
}

/** The real file system. */
export const SYSTEM_IO: AtomicIo = {
  writeTextFileSync: (path, text, options) => Deno.writeTextFileSync(path, text, options),
  renameSync: (from, to) => Deno.renameSync(from, to),
};

/** How an atomic write is made. */
export interface AtomicOptions {
  /** Permission bits the new file gets (a replaced file's own, kept); none on Windows. */
  mode?: number;
  /** The file calls (default: the real file system). */
  io?: AtomicIo;
  /**
   * Whether a rename refused as PermissionDenied is tried again for a moment (default: on
   * Windows, where another process reading the target at that instant, or a virus scanner,
   * makes the rename fail; elsewhere that error is final).
   */
  retryBusyRename?: boolean;
}

/** How long a refused rename is retried, in all (ms). */
const BUSY_RENAME_MS = 500;

/**
 * Renames `from` over `to`; on Windows a refusal (PermissionDenied: another process has `to`
 * open that instant) is tried again with growing waits, for about half a second in all.
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors when the rename still fails.
 *
 * @example Usage
 * ```ts
 * import { renameOverSync } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * let refusals = 2;
 * const io = {
 *   writeTextFileSync: Deno.writeTextFileSync,
 *   renameSync(from: string, to: string) {
 *     if (refusals-- > 0) throw new Deno.errors.PermissionDenied("Access is denied. (os error 5)");
 *     Deno.renameSync(from, to);
 *   },
 * };
 * Deno.writeTextFileSync(`${dir}/new`, "next");
 * renameOverSync(`${dir}/new`, `${dir}/notes.md`, { io, retryBusyRename: true });
 * assert.equal(Deno.readTextFileSync(`${dir}/notes.md`), "next");
 * refusals = 1;
 * Deno.writeTextFileSync(`${dir}/new`, "again");
 * assert.throws(
 *   () => renameOverSync(`${dir}/new`, `${dir}/notes.md`, { io, retryBusyRename: false }),
 *   Deno.errors.PermissionDenied,
 * );
 * ```
 */
export function renameOverSync(
  from: string,
  to: string,
  options: Pick<AtomicOptions, "io" | "retryBusyRename"> = {},
): void {
  const io = options.io ?? SYSTEM_IO;
  const retry = options.retryBusyRename ?? Deno.build.os === "windows";
  let waited = 0;
  for (let delay = 2;; delay = Math.min(delay * 2, 50)) {
    try {
      io.renameSync(from, to);
      return;
    } catch (error) {
      if (!retry || !(error instanceof Deno.errors.PermissionDenied)) throw error;
      if (waited >= BUSY_RENAME_MS) throw error;
      sleepSync(delay);
      waited += delay;
    }
  }
}

/** Writes the temp file (never through a link or over a file that is there: `createNew`). */
function writeTemp(temp: string, text: string, options: AtomicOptions): void {
  const io = options.io ?? SYSTEM_IO;
  try {
    io.writeTextFileSync(temp, text, { createNew: true });
    if (options.mode !== undefined && Deno.build.os !== "windows") {
      Deno.chmodSync(temp, options.mode);
    }
  } catch (error) {
    // A write cut short (a full disk) leaves a partial temp file: it never outlives the call.
    removeIfPresent(temp);
    throw error;
  }
}

/**
 * Writes `text` to a new temp file beside `path` ({@link tempSiblingOf}) and returns its name,
 * for a caller that renames it over `path` itself; when the write fails (a full disk), the temp
 * file is removed before the error is thrown.
 *
 * @example Usage
 * ```ts
 * import { writeTempSibling } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/.scratch.md`;
 * const temp = writeTempSibling(path, "next");
 * assert.ok(temp.startsWith(`${path}.tmp-`));
 * assert.equal(Deno.readTextFileSync(temp), "next");
 * ```
 */
export function writeTempSibling(path: string, text: string, options: AtomicOptions = {}): string {
  const temp = tempSiblingOf(path);
  writeTemp(temp, text, options);
  return temp;
}

/**
 * Synchronous {@link writeTextAtomic}, for short-lived hooks where sync calls are cheaper. The
 * temp file is removed whatever fails (a full disk included); the target is then as it was.
 *
 * @example Usage
 * ```ts
 * import { writeTextAtomicSync } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/new/folder/notes.md`;
 * writeTextAtomicSync(path, "first");
 * writeTextAtomicSync(path, "second");
 * assert.equal(Deno.readTextFileSync(path), "second");
 * const full = {
 *   writeTextFileSync(p: string) {
 *     Deno.writeTextFileSync(p, "sec");
 *     throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 *   },
 *   renameSync: Deno.renameSync,
 * };
 * assert.throws(() => writeTextAtomicSync(path, "third", { io: full }), /No space/);
 * assert.equal(Deno.readTextFileSync(path), "second");
 * assert.equal([...Deno.readDirSync(path.slice(0, -9))].length, 1);
 * ```
 */
export function writeTextAtomicSync(
  path: string,
  text: string,
  options: AtomicOptions = {},
): void {
  let temp: string;
  try {
    temp = writeTempSibling(path, text, options);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(dirnameOf(path), { recursive: true });
    temp = writeTempSibling(path, text, options);
  }
  try {
    renameOverSync(temp, path, options);
  } catch (error) {
    removeIfPresent(temp);
    throw error;
  }
}

/**
 * Removes the file at `path`; nothing happens when it is already gone (or cannot be removed).
 *
 * @example Usage
 * ```ts
 * import { removeIfPresent } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * removeIfPresent(path);
 * removeIfPresent(path);
 * assert.throws(() => Deno.statSync(path));
 * ```
 */
export function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // already gone
  }
}

/**
 * Replaces `path` with `text` atomically, creating missing parent folders. The promise form of
 * {@link writeTextAtomicSync} (one implementation; the work itself is a few blocking calls).
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors, after removing the temp file.
 *
 * @example Usage
 * ```ts
 * import { writeTextAtomic } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const path = `${Deno.makeTempDirSync()}/a/notes.md`;
 * await writeTextAtomic(path, "kept");
 * assert.equal(Deno.readTextFileSync(path), "kept");
 * ```
 */
export function writeTextAtomic(
  path: string,
  text: string,
  options: AtomicOptions = {},
): Promise<void> {
  try {
    writeTextAtomicSync(path, text, options);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Moves a damaged file out of the way, keeping it for inspection: renames `path` to
 * `<path>.damaged-<UTC time>` (a unique name) and returns that name, or `null` when nothing was
 * there. Persisted state that fails validation is set aside this way, never trusted, never
 * silently overwritten.
 *
 * @throws {Deno.errors.PermissionDenied} and other I/O errors when the rename fails.
 *
 * @example Usage
 * ```ts
 * import { setAsideSync } from "./atomic.ts";
 * import assert from "node:assert/strict";
 *
 * const path = Deno.makeTempFileSync();
 * const aside = setAsideSync(path, new Date("2026-01-02T03:04:05Z"));
 * assert.ok(aside?.startsWith(`${path}.damaged-20260102T030405Z`));
 * assert.equal(setAsideSync(path), null);
 * ```
 */
export function setAsideSync(path: string, now: Date = new Date()): string | null {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  for (let attempt = 0; attempt < 100; attempt++) {
    const aside = `${path}.damaged-${stamp}${attempt === 0 ? "" : `-${attempt}`}`;
    try {
      Deno.lstatSync(aside);
      continue; // taken: try the next name
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    try {
      Deno.renameSync(path, aside);
      return aside;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  }
  throw new Deno.errors.AlreadyExists(`no free name to set ${path} aside`);
}
