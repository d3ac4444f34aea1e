/**
 * The file boundary's rules (pure): which folder a read or a write must stay inside, what is
 * refused there and how each refusal is told to the person. The effects (looking at the file
 * system, reading, writing) are in `boundary.ts`.
 *
 * The rule, the inject side's made general: a path's *real* location (symbolic links resolved,
 * only where an entry on the way is a link) must lie inside the folder it belongs to: the
 * repository for writes, the library for library content, the project for imports. Something
 * that is not a regular file (a FIFO, a device, a socket) is never opened, an oversized file is
 * never read, and a link that leads nowhere is never written through or replaced.
 *
 * @module
 */

/** The folder a boundary keeps reads and writes inside, named for messages. */
export type BoundaryScope = "repository" | "library" | "project" | "folder";

/** Why the boundary refused a path. */
export type RefusalKind =
  /** Its real location (through a symbolic link) is outside the boundary's folder. */
  | "outside"
  /** A symbolic link on the way leads to nothing. */
  | "broken-link"
  /** It is a FIFO, a device or a socket: never opened. */
  | "not-a-file"
  /** It is a folder where a file was expected (or a file where a folder was). */
  | "folder"
  /** It is larger than the caller reads. */
  | "too-large"
  /** Its bytes are not UTF-8 text. */
  | "not-text"
  /** It is a symbolic link where the operation acts only on real files and folders. */
  | "link";

/** A refusal: what was refused, why, and where it really leads. */
export interface Refusal {
  kind: RefusalKind;
  /** The path as the caller gave it. */
  path: string;
  /** Where it really leads (`outside`, `broken-link`: the link's target). */
  realPath?: string;
  /** Its size and the limit (`too-large`). */
  size?: number;
  limit?: number;
}

/** What the operation was, for the refusal's words: nothing was read, written or moved. */
export type BoundaryIntent = "read" | "write" | "remove" | "move";

/**
 * The words for a boundary's folder.
 *
 * @example Usage
 * ```ts
 * import { scopeWords } from "./boundary_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(scopeWords("repository", "/repo"), "the repository (/repo)");
 * assert.equal(scopeWords("folder", "/home/ada/.local/bin"), "/home/ada/.local/bin");
 * ```
 */
export function scopeWords(scope: BoundaryScope, root: string): string {
  return scope === "folder" ? root : `the ${scope} (${root})`;
}

const UNDONE: Readonly<Record<BoundaryIntent, string>> = {
  read: "nothing was read from it",
  write: "nothing was written",
  remove: "nothing was removed",
  move: "nothing was moved",
};

/**
 * One line a person can act on: what the path is, what was not done, what to do.
 *
 * @example Usage
 * ```ts
 * import { refusalMessage } from "./boundary_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   refusalMessage(
 *     { kind: "outside", path: "/repo/.claude/rules/a.md", realPath: "/home/ada/.claude/rules/a.md" },
 *     "repository",
 *     "/repo",
 *     "write",
 *   ),
 *   "/repo/.claude/rules/a.md leads outside the repository (/repo) through a symbolic link, to " +
 *     "/home/ada/.claude/rules/a.md; nothing was written. Replace the link with a real folder " +
 *     "if the files belong in the repository.",
 * );
 * assert.match(
 *   refusalMessage({ kind: "not-a-file", path: "/repo/CLAUDE.md" }, "project", "/repo", "read"),
 *   /is not a regular file \(a FIFO, a device or a socket\); nothing was read from it/,
 * );
 * ```
 */
export function refusalMessage(
  refusal: Refusal,
  scope: BoundaryScope,
  root: string,
  intent: BoundaryIntent,
): string {
  const { path } = refusal;
  const undone = UNDONE[intent];
  switch (refusal.kind) {
    case "outside":
      return `${path} leads outside ${scopeWords(scope, root)} through a symbolic link, to ` +
        `${refusal.realPath ?? "an unknown place"}; ${undone}. Replace the link with a real ` +
        `folder if the files belong in the ${scope === "folder" ? "folder" : scope}.`;
    case "broken-link":
      return `${path} goes through a symbolic link to ${refusal.realPath ?? "nothing"}, which ` +
        `does not exist; ${undone}. Remove the link or create what it points to.`;
    case "not-a-file":
      return `${path} is not a regular file (a FIFO, a device or a socket); ${undone}.`;
    case "folder":
      return `${path} is a folder where a file was expected (or a file where a folder was); ` +
        `${undone}.`;
    case "too-large":
      return `${path} is ${refusal.size ?? "?"} bytes, more than the ${refusal.limit ?? "?"} ` +
        `read here; ${undone}.`;
    case "not-text":
      return `${path} is not UTF-8 text; ${undone}.`;
    case "link":
      return `${path} is a symbolic link, which this does not follow; ${undone}. Move or ` +
        `change it by hand.`;
  }
}

/** What `lstat` or `stat` said of an entry, as the rules need it. */
export interface EntryFacts {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
}

/**
 * The refusal for reading or writing a file whose entry (links followed) is `facts`, or `null`
 * when it may be used: a regular file at most `maxBytes` long (any size when not given), or
 * nothing at all (`null` facts: a file to create).
 *
 * @example Usage
 * ```ts
 * import { fileRefusal } from "./boundary_rules.ts";
 * import assert from "node:assert/strict";
 *
 * const file = { isFile: true, isDirectory: false, isSymlink: false, size: 10 };
 * assert.equal(fileRefusal("/r/a.md", file), null);
 * assert.equal(fileRefusal("/r/a.md", null), null);
 * assert.equal(fileRefusal("/r/a.md", file, 4)?.kind, "too-large");
 * assert.equal(fileRefusal("/r/a.md", { ...file, isFile: false })?.kind, "not-a-file");
 * assert.equal(fileRefusal("/r/a", { ...file, isFile: false, isDirectory: true })?.kind, "folder");
 * ```
 */
export function fileRefusal(
  path: string,
  facts: EntryFacts | null,
  maxBytes?: number,
): Refusal | null {
  if (facts === null) return null;
  if (facts.isDirectory) return { kind: "folder", path };
  if (!facts.isFile) return { kind: "not-a-file", path };
  if (maxBytes !== undefined && facts.size > maxBytes) {
    return { kind: "too-large", path, size: facts.size, limit: maxBytes };
  }
  return null;
}

/**
 * True when `error` is the system saying the disk (or a quota) is full: `ENOSPC`/`EDQUOT`, or
 * Windows' `ERROR_DISK_FULL` (112) and `ERROR_HANDLE_DISK_FULL` (39).
 *
 * @example Usage
 * ```ts
 * import { isDiskFull } from "./boundary_rules.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isDiskFull(Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" })));
 * assert.ok(isDiskFull(new Error("There is not enough space on the disk. (os error 112)")));
 * assert.ok(!isDiskFull(new Error("Permission denied (os error 13)")));
 * ```
 */
export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  return /\(os error (28|122)\)/.test(error.message) && Deno.build.os !== "windows" ||
    /\(os error (39|112)\)/.test(error.message);
}

/**
 * What went wrong with a file call, in words: a full disk says so plainly, anything else is the
 * system's message.
 *
 * @example Usage
 * ```ts
 * import { ioProblem } from "./boundary_rules.ts";
 * import assert from "node:assert/strict";
 *
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * assert.equal(ioProblem(full), "the disk is full (No space left on device (os error 28))");
 * assert.equal(ioProblem(new Error("Permission denied")), "Permission denied");
 * ```
 */
export function ioProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return isDiskFull(error) ? `the disk is full (${message})` : message;
}
