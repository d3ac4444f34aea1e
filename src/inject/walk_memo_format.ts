/**
 * What the inject hook keeps between runs of one walk (a library, and the mirror folder a touch
 * walks up from) as data: the listing of each folder of many entries on the way and the content
 * hash of each big file it shows, each with the stamp the folder or file had; in a second file, the
 * text of each small file it reads, with its hash; and the rules for what may be kept (pure:
 * nothing is read or written here; `walk_memo.ts` does that). One memo per walk, so a run reads
 * what its own walk needs and no more, however big the library.
 *
 * Why: a first touch in a session lists every folder on the walk, reads every file it shows and
 * hashes it. A folder of some 200 entries takes about 0.25 ms to list, and a 20,000-character file
 * about 0.7 ms to hash; a stat takes some 10 µs, while opening a small file costs some 35 µs (Deno
 * resolves every folder of its path first) and hashing it 15 µs: a first touch reads about 25 of
 * them. The texts are a file of their own, read only by a run that would read a file: a repeat
 * touch reads none.
 *
 * Why it holds: a folder's modification time changes whenever an entry is added, removed or
 * renamed in it, and a file's whenever its content is written; a status-change time whenever
 * either is set back by hand. A thing is kept only once its last change of either kind is
 * {@link SETTLED_MS} old, longer than any file system's time step (FAT's is 2 s): a later change
 * then always gives it another time, so a stamp that still matches means nothing changed.
 *
 * @module
 */

/**
 * The format's version; a memo of another version is read as empty. Raise it whenever what is
 * kept changes meaning (the content hash of `core/hash.ts`, what a folder's listing holds).
 */
export const WALK_MEMO_VERSION = 1;

/** A folder with at least this many entries (of any kind) is kept; a smaller one costs little to list. */
export const MEMO_MIN_ENTRIES = 64;

/**
 * A file of at least this many bytes has its hash kept (a smaller one costs little to hash); a
 * smaller one has its whole text kept (a bigger one costs more to parse from a memo than to read).
 */
export const MEMO_MIN_BYTES = 2048;

/** A folder or file is kept only when its last change is at least this old (ms). */
export const SETTLED_MS = 3000;

/** At most this many folders are kept per walk (the latest win; never over one a run used). */
export const MAX_KEPT_FOLDERS = 32;

/** At most this many file hashes are kept per walk (the latest win; never over one a run used). */
export const MAX_KEPT_HASHES = 64;

/** At most this many small files' texts are kept per walk (the latest win; never over one a run used). */
export const MAX_KEPT_TEXTS = 64;

/** At most this many cut files' digests are kept per walk (the latest win; never over one a run used). */
export const MAX_KEPT_DIGESTS = 64;

/** A digest longer than this is not kept (the texts memo stays small enough to read quickly). */
export const MAX_DIGEST_CHARS = 16_384;

/** A texts memo bigger than this is not read (it cannot have been written by this format). */
export const MAX_TEXT_MEMO_CHARS = 4_000_000;

/** A memo not written for this long is removed at a session start (its library may be gone). */
export const WALK_MEMO_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** A memo bigger than this is not read (it cannot have been written by this format). */
export const MAX_MEMO_CHARS = 1_000_000;

/** A kept folder: its stamp when it was listed, its served file names and its subfolders. */
export interface KeptFolder {
  stamp: string;
  files: string[];
  subfolders: string[];
}

/** A kept hash: the file's stamp when it was read, and the hash of what was read. */
export interface KeptHash {
  stamp: string;
  hash: string;
}

/** A kept text: the file's stamp when it was read, its whole text, and the hash of its content. */
export interface KeptText {
  stamp: string;
  text: string;
  hash: string;
}

/**
 * One walk's texts memo: the small files' texts by absolute path, and the cut files' digests by
 * their key (the content's hash, how it was read, and the room it was cut to), oldest kept first.
 */
export interface TextMemoData {
  texts: Map<string, KeptText>;
  digests: Map<string, string>;
}

/**
 * One walk's memo: the library's root and the mirror folder walked up from (`""` for the root),
 * and the kept folders and hashes by absolute path, oldest kept first.
 */
export interface WalkMemoData {
  root: string;
  folder: string;
  folders: Map<string, KeptFolder>;
  hashes: Map<string, KeptHash>;
}

/**
 * An empty memo for the walk up from `folder` in the library at `root`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyWalkMemo } from "./walk_memo_format.ts";
 * assert.equal(emptyWalkMemo("/p/_memory_library", "src/api").folders.size, 0);
 * ```
 */
export function emptyWalkMemo(root: string, folder: string): WalkMemoData {
  return { root, folder, folders: new Map(), hashes: new Map() };
}

/** The parts of a `Deno.FileInfo` a memo stamp is made of. */
export interface StampedInfo {
  mtime: Date | null;
  ctime?: Date | null;
  ino: number | null;
  size: number;
}

/**
 * A folder's or file's stamp in the memo: its modification and status-change times, inode and
 * size (`-` for what the system does not tell). A file put back with an old modification time
 * (`touch -d`) has a new status-change time.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoStamp } from "./walk_memo_format.ts";
 * assert.equal(memoStamp({ mtime: new Date(1700), ctime: null, ino: 7, size: 4096 }), "1700:-:7:4096");
 * ```
 */
export function memoStamp(info: StampedInfo): string {
  return `${info.mtime?.getTime() ?? "-"}:${info.ctime?.getTime() ?? "-"}:${
    info.ino ?? "-"
  }:${info.size}`;
}

/**
 * When a folder or file last changed, as far as its stamp can tell: the later of its modification
 * time and its status-change time, the latter taken to the end of its second (Deno gives it in
 * whole seconds). A thing put back with an old modification time (`touch -d`, `rsync -t`) changed
 * when that was done.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastChangeMs } from "./walk_memo_format.ts";
 * assert.equal(lastChangeMs({ mtime: new Date(5_500), ctime: new Date(2_000), ino: 1, size: 0 }), 5_500);
 * assert.equal(lastChangeMs({ mtime: new Date(1_000), ctime: new Date(9_000), ino: 1, size: 0 }), 9_999);
 * assert.equal(lastChangeMs({ mtime: new Date(1_000), ctime: null, ino: 1, size: 0 }), 1_000);
 * ```
 */
export function lastChangeMs(info: StampedInfo): number {
  const mtime = info.mtime?.getTime() ?? 0;
  const ctime = info.ctime?.getTime();
  return ctime === undefined ? mtime : Math.max(mtime, Math.floor(ctime / 1000) * 1000 + 999);
}

/**
 * True when a thing last changed at `mtimeMs` ({@link lastChangeMs}) may be kept at `nowMs`: its change is
 * {@link SETTLED_MS} old (a time in the future, or none, never is).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSettled, SETTLED_MS } from "./walk_memo_format.ts";
 * assert.ok(isSettled(1_000, 1_000 + SETTLED_MS));
 * assert.ok(!isSettled(1_000, 1_000 + SETTLED_MS - 1));
 * assert.ok(!isSettled(0, 1_000_000));
 * ```
 */
export function isSettled(mtimeMs: number, nowMs: number): boolean {
  return Number.isFinite(mtimeMs) && mtimeMs > 0 && nowMs - mtimeMs >= SETTLED_MS;
}

/**
 * `value` when it is a list of names a kept folder may list, each one path segment (never `.` or
 * `..`, no slash, backslash or NUL), else `undefined`. Plain comparisons in an indexed loop, then
 * one search of the names joined: the inject hook runs `--jitless`, where a regular expression
 * tested per name (and a callback per name) cost a wide walk's memo, 11 folders of 200 subfolders,
 * 3.7 million instructions (the wide first touch 84.0 → 82.2 million with this).
 */
function namesOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (let i = 0; i < value.length; i++) {
    const name: unknown = value[i];
    if (typeof name !== "string" || name === "" || name === "." || name === "..") return undefined;
  }
  const joined = value.join("");
  return joined.includes("/") || joined.includes("\\") || joined.includes("\0") ? undefined : value;
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/**
 * Reads a memo's text for the walk up from `folder` in the library at `root`: anything that is not
 * this format's memo of this walk reads as empty, and an entry of the wrong shape is left out
 * (never throws).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyWalkMemo, formatWalkMemo, parseWalkMemo } from "./walk_memo_format.ts";
 * const memo = emptyWalkMemo("/p/lib", "src");
 * memo.hashes.set("/p/lib/a.md", { stamp: "1:2:3:4", hash: "ab" });
 * const text = formatWalkMemo(memo);
 * assert.equal(parseWalkMemo(text, "/p/lib", "src").hashes.get("/p/lib/a.md")?.hash, "ab");
 * assert.equal(parseWalkMemo(text, "/q/lib", "src").hashes.size, 0);
 * assert.equal(parseWalkMemo(text, "/p/lib", "docs").hashes.size, 0);
 * assert.equal(parseWalkMemo("{not json", "/p/lib", "src").folders.size, 0);
 * ```
 */
export function parseWalkMemo(text: string, root: string, folder: string): WalkMemoData {
  const memo = emptyWalkMemo(root, folder);
  const top = memoOf(text, root, folder, MAX_MEMO_CHARS);
  if (top === undefined) return memo;
  for (const [path, value] of Object.entries(recordOf(top.folders) ?? {})) {
    const entry = recordOf(value);
    const files = namesOf(entry?.files);
    const subfolders = namesOf(entry?.subfolders);
    if (typeof entry?.stamp === "string" && files && subfolders) {
      memo.folders.set(path, { stamp: entry.stamp, files, subfolders });
    }
  }
  for (const [path, value] of Object.entries(recordOf(top.hashes) ?? {})) {
    const entry = recordOf(value);
    if (typeof entry?.stamp === "string" && typeof entry.hash === "string") {
      memo.hashes.set(path, { stamp: entry.stamp, hash: entry.hash });
    }
  }
  return memo;
}

/** A memo's text as its top record, when it is this format's memo of this walk. */
function memoOf(
  text: string,
  root: string,
  folder: string,
  maxChars: number,
): Record<string, unknown> | undefined {
  if (text.length > maxChars) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const top = recordOf(parsed);
  return top?.version === WALK_MEMO_VERSION && top.root === root && top.folder === folder
    ? top
    : undefined;
}

/**
 * Reads the texts memo of the walk up from `folder` in the library at `root`, as
 * {@link parseWalkMemo} reads a memo: anything else reads as none, and an entry of the wrong shape,
 * or a text too long to have been kept, is left out; the digests only when they were cut the way
 * `cut` names (`DIGEST_FORMAT`, `digest.ts`) (never throws).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTextMemo, parseTextMemo } from "./walk_memo_format.ts";
 * const texts = new Map([["/p/lib/a.md", { stamp: "1:2:3:4", text: "- a", hash: "ab" }]]);
 * const text = formatTextMemo("/p/lib", "src", 1, { texts, digests: new Map([["ab:w:900", "- a"]]) });
 * assert.equal(parseTextMemo(text, "/p/lib", "src", 1).texts.get("/p/lib/a.md")?.text, "- a");
 * assert.equal(parseTextMemo(text, "/p/lib", "src", 1).digests.get("ab:w:900"), "- a");
 * assert.equal(parseTextMemo(text, "/p/lib", "src", 2).digests.size, 0);
 * assert.equal(parseTextMemo(text, "/p/lib", "docs", 1).texts.size, 0);
 * assert.equal(parseTextMemo("[]", "/p/lib", "src", 1).texts.size, 0);
 * ```
 */
export function parseTextMemo(
  text: string,
  root: string,
  folder: string,
  cut: number,
): TextMemoData {
  const memo: TextMemoData = { texts: new Map(), digests: new Map() };
  const top = memoOf(text, root, folder, MAX_TEXT_MEMO_CHARS);
  for (const [path, value] of Object.entries(recordOf(top?.texts) ?? {})) {
    const entry = recordOf(value);
    if (
      typeof entry?.stamp === "string" && typeof entry.hash === "string" &&
      typeof entry.text === "string" && entry.text.length < MEMO_MIN_BYTES
    ) {
      memo.texts.set(path, { stamp: entry.stamp, text: entry.text, hash: entry.hash });
    }
  }
  if (top?.cut !== cut) return memo; // cut another way
  for (const [key, value] of Object.entries(recordOf(top.digests) ?? {})) {
    if (typeof value === "string" && value.length <= MAX_DIGEST_CHARS) memo.digests.set(key, value);
  }
  return memo;
}

/** The last `max` entries of a map, in order. */
function latest<T>(entries: Map<string, T>, max: number): Record<string, T> {
  return Object.fromEntries([...entries].slice(-max));
}

/**
 * A memo as text: JSON, with at most {@link MAX_KEPT_FOLDERS} folders and
 * {@link MAX_KEPT_HASHES} hashes (the latest kept).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyWalkMemo, formatWalkMemo, MAX_KEPT_HASHES } from "./walk_memo_format.ts";
 * const memo = emptyWalkMemo("/p/lib", "");
 * for (let i = 0; i <= MAX_KEPT_HASHES; i++) memo.hashes.set(`/p/lib/${i}.md`, { stamp: "s", hash: "h" });
 * const kept = JSON.parse(formatWalkMemo(memo)).hashes;
 * assert.equal(Object.keys(kept).length, MAX_KEPT_HASHES);
 * assert.ok(!("/p/lib/0.md" in kept));
 * ```
 */
export function formatWalkMemo(memo: WalkMemoData): string {
  return JSON.stringify({
    version: WALK_MEMO_VERSION,
    root: memo.root,
    folder: memo.folder,
    folders: latest(memo.folders, MAX_KEPT_FOLDERS),
    hashes: latest(memo.hashes, MAX_KEPT_HASHES),
  });
}

/**
 * A walk's texts memo as text: JSON, with at most {@link MAX_KEPT_TEXTS} texts and
 * {@link MAX_KEPT_DIGESTS} digests (the latest kept), and how they were `cut` (`DIGEST_FORMAT`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTextMemo, MAX_KEPT_TEXTS } from "./walk_memo_format.ts";
 * const texts = new Map();
 * for (let i = 0; i <= MAX_KEPT_TEXTS; i++) texts.set(`/p/lib/${i}.md`, { stamp: "s", text: "t", hash: "h" });
 * const kept = JSON.parse(formatTextMemo("/p/lib", "", 1, { texts, digests: new Map() }));
 * assert.equal(Object.keys(kept.texts).length, MAX_KEPT_TEXTS);
 * assert.ok(!("/p/lib/0.md" in kept.texts));
 * assert.equal(kept.cut, 1);
 * ```
 */
export function formatTextMemo(
  root: string,
  folder: string,
  cut: number,
  memo: TextMemoData,
): string {
  return JSON.stringify({
    version: WALK_MEMO_VERSION,
    root,
    folder,
    cut,
    texts: latest(memo.texts, MAX_KEPT_TEXTS),
    digests: latest(memo.digests, MAX_KEPT_DIGESTS),
  });
}
