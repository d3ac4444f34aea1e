/**
 * The file boundary: every read and write the Librarian makes outside its own state folder goes
 * through a {@link Boundary}, so export, import, `lint --fix`, `setup-hooks`, `install-cli`,
 * `init` and the Stop hook's re-export keep the promises the hooks keep (rules and messages:
 * `boundary_rules.ts`).
 *
 * - A path's real location must lie inside the boundary's folder: entries on the way are looked
 *   at with `lstat`, and only an entry that is a symbolic link is resolved. A link that leads
 *   outside, or to nothing, is refused ({@link BoundaryError}), never followed or replaced.
 * - A FIFO, a device or a socket is never opened; a file larger than the caller reads is never
 *   read.
 * - A write goes to a temp file in the target's own (real) folder, then is renamed over it: a
 *   reader sees the old text or the new. The temp file is removed whatever fails (a full disk
 *   included). A file the person reaches through a link inside the folder is written through:
 *   the real file is replaced, the link stays.
 *
 * Checks and the change that follows are separate system calls: the boundary keeps a cloned
 * repository's links, a person's FIFOs and an unlucky disk from doing harm, not a process racing
 * the Librarian on the person's own machine.
 *
 * @module
 */

import {
  type AtomicIo,
  removeIfPresent,
  SYSTEM_IO,
  tempSiblingOf,
  writeTextAtomicSync,
} from "./atomic.ts";
import { LibrarianError } from "./errors.ts";
import { faultFires } from "./fault.ts";
import { decodeUtf8Strict, readFileBounded } from "./fs_probe.ts";
import { basenameOf, dirnameOf, joinPath, normalizePath, relativeInside } from "./paths.ts";
import {
  type BoundaryIntent,
  type BoundaryScope,
  fileRefusal,
  ioProblem,
  type Refusal,
  refusalMessage,
} from "./boundary_rules.ts";

/** A path the boundary refused, with the reason as data and as words a person can act on. */
export class BoundaryError extends LibrarianError {
  /** What was refused and why. */
  readonly refusal: Refusal;

  constructor(refusal: Refusal, message: string) {
    super(message);
    this.name = "BoundaryError";
    this.refusal = refusal;
  }
}

/** Where a path really is, checked against the boundary. */
export interface Placed {
  /** The path as given, normal form. */
  path: string;
  /** Its real location: links on the way resolved, a missing tail kept as given. */
  realPath: string;
  /** What is there, links followed (`null`: nothing; the file would be created). */
  info: Deno.FileInfo | null;
  /** True when an entry on the way (or the path itself) is a symbolic link. */
  viaLink: boolean;
}

/** How {@link Boundary.place} treats the last entry of the path. */
interface PlaceOptions {
  /** Follow the last entry when it is a link (default true); false: the link itself is meant. */
  followLast?: boolean;
  intent: BoundaryIntent;
}

function lstatOrMissing(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

function readLinkOrEmpty(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "";
  }
}

/**
 * The file calls of a disk that fills up half-way through a write: what the tests' fault point
 * `LIBRARIAN_FAULT=write-disk-full` (core/fault.ts) makes of the next write.
 */
const FULL_DISK_IO: AtomicIo = {
  writeTextFileSync(path, text, options) {
    SYSTEM_IO.writeTextFileSync(path, text.slice(0, text.length >> 1), options);
    throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
  },
  renameSync: SYSTEM_IO.renameSync,
};

/** Wraps a failed file call in a message that names the path and says what is left. */
function ioFailure(what: string, path: string, error: unknown): LibrarianError {
  return new LibrarianError(`could not ${what} ${path}: ${ioProblem(error)}`, { cause: error });
}

/**
 * A folder that reads and writes must stay inside (see the module notes).
 *
 * @example Usage
 * ```ts
 * import { Boundary, BoundaryError } from "./boundary.ts";
 * import assert from "node:assert/strict";
 *
 * const repo = Deno.makeTempDirSync();
 * const outside = Deno.makeTempDirSync();
 * const boundary = new Boundary(repo, "repository");
 * assert.equal(boundary.writeText(`${repo}/docs/a.md`, "one\n"), "created");
 * assert.equal(boundary.readText(`${repo}/docs/a.md`, 1024), "one\n");
 * Deno.symlinkSync(outside, `${repo}/.claude`);
 * assert.throws(() => boundary.writeText(`${repo}/.claude/rules/x.md`, "no"), BoundaryError);
 * assert.deepEqual([...Deno.readDirSync(outside)], []);
 * ```
 */
export class Boundary {
  /** The folder, normal form. */
  readonly root: string;
  #realRoot: string | null | undefined;
  readonly #io: AtomicIo | undefined;

  /**
   * `root` is the folder (it should exist); `scope` names it in messages; `io` replaces the
   * file calls of writes (tests simulate a full disk with it).
   */
  constructor(root: string, readonly scope: BoundaryScope, io?: AtomicIo) {
    this.root = normalizePath(root);
    this.#io = io;
  }

  /** The folder's real path, worked out on first need only (a path without links needs none). */
  #realRootOrNull(): string | null {
    if (this.#realRoot === undefined) {
      try {
        this.#realRoot = normalizePath(Deno.realPathSync(this.root));
      } catch {
        this.#realRoot = null;
      }
    }
    return this.#realRoot;
  }

  #refuse(refusal: Refusal, intent: BoundaryIntent): BoundaryError {
    return new BoundaryError(refusal, refusalMessage(refusal, this.scope, this.root, intent));
  }

  #outside(path: string, realPath: string, intent: BoundaryIntent): BoundaryError {
    return this.#refuse({ kind: "outside", path, realPath }, intent);
  }

  /**
   * Where `path` really is. Each entry from the folder down is looked at with `lstat`; a link is
   * resolved (and must resolve) and the walk goes on from its real location; a missing entry
   * ends it (the rest would be created). The result must lie inside the folder.
   *
   * @throws {BoundaryError} `outside` or `broken-link`.
   */
  place(path: string, options: PlaceOptions = { intent: "read" }): Placed {
    const normal = normalizePath(path);
    const followLast = options.followLast ?? true;
    const rel = relativeInside(normal, this.root);
    if (rel === null) {
      // Spelled from another name of the folder (a linked checkout): compared by real paths.
      return this.#placeByRealPath(normal, options.intent);
    }
    const segments = rel === "" ? [] : rel.split("/");
    let current = this.root;
    let viaLink = false;
    let missingFrom = segments.length;
    for (let i = 0; i < segments.length; i++) {
      const next = joinPath(current, segments[i]!);
      const info = lstatOrMissing(next);
      if (info === null) {
        missingFrom = i;
        current = next;
        break;
      }
      const last = i === segments.length - 1;
      if (info.isSymlink && (!last || followLast)) {
        viaLink = true;
        let real: string;
        try {
          real = normalizePath(Deno.realPathSync(next));
        } catch {
          throw this.#refuse(
            { kind: "broken-link", path: normal, realPath: readLinkOrEmpty(next) },
            options.intent,
          );
        }
        current = real;
      } else current = next;
    }
    const tail = segments.slice(missingFrom + 1);
    const realPath = tail.length > 0 ? joinPath(current, ...tail) : current;
    if (viaLink) {
      const realRoot = this.#realRootOrNull();
      if (realRoot === null || relativeInside(realPath, realRoot) === null) {
        throw this.#outside(normal, realPath, options.intent);
      }
    }
    let info: Deno.FileInfo | null = null;
    if (missingFrom === segments.length) {
      try {
        info = followLast ? Deno.statSync(realPath) : Deno.lstatSync(realPath);
      } catch (error) {
        // The folder itself may not exist yet (a bin folder install-cli creates).
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    return { path: normal, realPath, info, viaLink };
  }

  #placeByRealPath(normal: string, intent: BoundaryIntent): Placed {
    const missing: string[] = [];
    let current = normal;
    for (let depth = 0; depth < 256; depth++) {
      try {
        const real = normalizePath(Deno.realPathSync(current));
        const realPath = missing.length > 0 ? joinPath(real, ...missing.reverse()) : real;
        const realRoot = this.#realRootOrNull();
        if (realRoot === null || relativeInside(realPath, realRoot) === null) {
          throw this.#outside(normal, realPath, intent);
        }
        const info = missing.length === 0 ? Deno.statSync(realPath) : null;
        return { path: normal, realPath, info, viaLink: true };
      } catch (error) {
        if (error instanceof BoundaryError) throw error;
        const parent = dirnameOf(current);
        if (parent === current || parent === "") break;
        missing.push(basenameOf(current));
        current = parent;
      }
    }
    throw this.#outside(normal, normal, intent);
  }

  /**
   * The bytes of the regular file at `path`, or `null` when nothing is there. Never opens a FIFO
   * or a device, never reads past `maxBytes`.
   *
   * @throws {BoundaryError} outside, a broken link, not a file, a folder, too large.
   */
  readBytes(path: string, maxBytes: number): Uint8Array | null {
    const placed = this.place(path, { intent: "read" });
    const refusal = fileRefusal(placed.path, placed.info, maxBytes);
    if (refusal) throw this.#refuse(refusal, "read");
    if (placed.info === null) return null;
    const read = readFileBounded(placed.realPath, maxBytes);
    switch (read.kind) {
      case "missing":
        return null;
      case "not-a-file":
        throw this.#refuse({ kind: "not-a-file", path: placed.path }, "read");
      case "too-large":
        throw this.#refuse(
          { kind: "too-large", path: placed.path, size: read.size, limit: maxBytes },
          "read",
        );
      case "unreadable":
        throw new LibrarianError(`could not read ${placed.path}: ${read.reason}`);
    }
    return read.bytes;
  }

  /**
   * The text of the regular file at `path`, or `null` when nothing is there. Never opens a FIFO
   * or a device, never reads past `maxBytes`, keeps a BOM and line endings.
   *
   * @throws {BoundaryError} outside, a broken link, not a file, a folder, too large, not UTF-8.
   */
  readText(path: string, maxBytes: number): string | null {
    const bytes = this.readBytes(path, maxBytes);
    if (bytes === null) return null;
    const text = decodeUtf8Strict(bytes);
    if (text === null) throw this.#refuse({ kind: "not-text", path: normalizePath(path) }, "read");
    return text;
  }

  /**
   * Replaces (or creates) the file at `path` with `text`, atomically, creating missing folders.
   * A link inside the folder is written through (the file it leads to is replaced, with its
   * permission bits); the temp file sits beside the real file and never outlives the call.
   *
   * @throws {BoundaryError} when the place is refused; {@link LibrarianError} when the write
   *   fails (a full disk says so), the target then unchanged.
   */
  writeText(path: string, text: string): "created" | "updated" {
    const placed = this.place(path, { intent: "write" });
    const refusal = fileRefusal(placed.path, placed.info);
    if (refusal) throw this.#refuse(refusal, "write");
    const io = faultFires("write-disk-full") ? FULL_DISK_IO : this.#io;
    try {
      const mode = placed.info?.mode ?? undefined;
      writeTextAtomicSync(placed.realPath, text, {
        ...(mode !== undefined ? { mode: mode & 0o7777 } : {}),
        ...(io ? { io } : {}),
      });
    } catch (error) {
      throw ioFailure("write", placed.path, error);
    }
    return placed.info === null ? "created" : "updated";
  }

  /**
   * Creates the file at `path` holding `text` only when nothing is there; returns whether it
   * did. Missing folders are created.
   *
   * @throws {BoundaryError} when the place is refused or something other than a file is there.
   */
  createFile(path: string, text = ""): boolean {
    const placed = this.place(path, { intent: "write" });
    const refusal = fileRefusal(placed.path, placed.info);
    if (refusal) throw this.#refuse(refusal, "write");
    if (placed.info !== null) return false;
    let created = false;
    try {
      Deno.mkdirSync(dirnameOf(placed.realPath), { recursive: true });
      Deno.writeTextFileSync(placed.realPath, "", { createNew: true });
      created = true;
      if (text !== "") Deno.writeTextFileSync(placed.realPath, text, { append: true });
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists && !created) return false;
      if (created) removeIfPresent(placed.realPath);
      throw ioFailure("create", placed.path, error);
    }
  }

  /**
   * Makes sure a folder is at `path` (creating it and its parents); returns whether it created
   * the folder itself.
   *
   * @throws {BoundaryError} when the place is refused or a file is there.
   */
  ensureFolder(path: string): boolean {
    const placed = this.place(path, { intent: "write" });
    if (placed.info !== null) {
      if (placed.info.isDirectory) return false;
      throw this.#refuse({ kind: "folder", path: placed.path }, "write");
    }
    try {
      Deno.mkdirSync(placed.realPath, { recursive: true });
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) return false;
      throw ioFailure("create the folder", placed.path, error);
    }
  }

  /**
   * Removes the file (or link: the link itself, never what it leads to) at `path`; returns
   * false when nothing was there. The folder holding it must lie inside.
   *
   * @throws {BoundaryError} when the place is refused or a folder is there.
   */
  remove(path: string): boolean {
    const placed = this.place(path, { intent: "remove", followLast: false });
    if (placed.info === null) return false;
    if (placed.info.isDirectory) {
      throw this.#refuse({ kind: "folder", path: placed.path }, "remove");
    }
    try {
      Deno.removeSync(placed.realPath);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw ioFailure("remove", placed.path, error);
    }
  }

  /**
   * Checks a move of `from` (a file or folder that is no link) to `to` (where nothing is yet),
   * both inside; returns their real locations, for a caller that moves with another tool
   * (`git mv`) and then {@link Boundary.move}s what that tool did not.
   *
   * @throws {BoundaryError} when either place is refused, `from` is a link or missing, or
   *   something is at `to`.
   */
  checkMove(from: string, to: string): { from: Placed; to: Placed } {
    const source = this.place(from, { intent: "move", followLast: false });
    if (source.info === null) {
      throw new LibrarianError(`could not move ${source.path}: it does not exist`);
    }
    if (source.info.isSymlink) throw this.#refuse({ kind: "link", path: source.path }, "move");
    const target = this.place(to, { intent: "move" });
    if (target.info !== null) {
      throw new LibrarianError(`could not move ${source.path} to ${target.path}: it exists`);
    }
    return { from: source, to: target };
  }

  /**
   * Moves `from` to `to` by a rename, after {@link Boundary.checkMove}; missing parents of `to`
   * are created.
   *
   * @throws {BoundaryError} or {@link LibrarianError} as {@link Boundary.checkMove}, or when the
   *   rename fails.
   */
  move(from: string, to: string): void {
    const { from: source, to: target } = this.checkMove(from, to);
    try {
      Deno.mkdirSync(dirnameOf(target.realPath), { recursive: true });
      Deno.renameSync(source.realPath, target.realPath);
    } catch (error) {
      throw ioFailure("move", `${source.path} to ${target.path}`, error);
    }
  }

  /**
   * Makes `path` a symbolic link to `target`, atomically replacing the link that is there (a
   * new link under a temp name, renamed over it). What is at `path` must be a link or nothing:
   * which link is the caller's own to replace is the caller's judgement.
   *
   * @throws {BoundaryError} when the place is refused or a file or folder is there.
   */
  writeLink(path: string, target: string): "created" | "updated" {
    const placed = this.place(path, { intent: "write", followLast: false });
    if (placed.info !== null && !placed.info.isSymlink) {
      const kind = placed.info.isDirectory ? "folder" : "not-a-file";
      throw this.#refuse({ kind, path: placed.path }, "write");
    }
    const temp = tempSiblingOf(placed.realPath);
    try {
      Deno.mkdirSync(dirnameOf(placed.realPath), { recursive: true });
      Deno.symlinkSync(target, temp);
      Deno.renameSync(temp, placed.realPath);
    } catch (error) {
      removeIfPresent(temp);
      throw ioFailure("link", placed.path, error);
    }
    return placed.info === null ? "created" : "updated";
  }
}
