/**
 * The inject hook's memo of a walk's big folders, big files and small files between runs
 * (`walk_memo_format.ts` says what is kept and why that holds): for each walk (a library and the
 * mirror folder a touch walks up from), one file of listings and hashes and one of small files'
 * texts in the state folder, each read once when the run first asks it, written at most once per
 * run, and only when it learned something. A memo that cannot be read is empty, and one that
 * cannot be written is not kept: either way the hook lists, reads and hashes as it would without
 * one. The texts file is the user's alone to read (a copy of library text: mode 600).
 *
 * @module
 */

import { writeTextAtomicSync } from "../core/atomic.ts";
import { hashUtf8 } from "../core/hash.ts";
import { joinPath } from "../core/paths.ts";
import { removeOlderThan } from "../core/prune.ts";
import { DIGEST_FORMAT } from "./digest.ts";
import { type FileStamp, fileStampOf, type ReadMemo } from "../core/read_text.ts";
import type { LevelMemo, PlainLevel } from "../core/walk.ts";
import {
  emptyWalkMemo,
  formatTextMemo,
  formatWalkMemo,
  isSettled,
  lastChangeMs,
  MAX_DIGEST_CHARS,
  MAX_KEPT_DIGESTS,
  MAX_KEPT_FOLDERS,
  MAX_KEPT_HASHES,
  MAX_KEPT_TEXTS,
  MEMO_MIN_BYTES,
  MEMO_MIN_ENTRIES,
  memoStamp,
  parseTextMemo,
  parseWalkMemo,
  type TextMemoData,
  WALK_MEMO_MAX_AGE_MS,
  type WalkMemoData,
} from "./walk_memo_format.ts";

/** A walk's memo for one run: the walk's {@link LevelMemo} and the reads' {@link ReadMemo}. */
export interface WalkMemo extends LevelMemo, ReadMemo {
  /** Writes what this run learned, when it learned anything (never throws). */
  flush(): void;
  /** How many folders, hashes and texts this run took from the memo, and how many it newly kept. */
  readonly counts: { recalled: number; kept: number };
}

/** A walk: the library's root, and the mirror folder walked up from (`""` for the root). */
export interface Walk {
  root: string;
  folder: string;
}

/**
 * Where the memo of `walk` is kept: `<state>/walk/<hash of the root and folder>.json`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { walkMemoPath } from "./walk_memo.ts";
 * const api = walkMemoPath("/s", { root: "/p/_memory_library", folder: "src/api" });
 * assert.match(api, /^\/s\/walk\/[0-9a-f]{16}\.json$/);
 * assert.notEqual(api, walkMemoPath("/s", { root: "/p/_memory_library", folder: "src" }));
 * ```
 */
export function walkMemoPath(stateDir: string, walk: Walk): string {
  return joinPath(stateDir, "walk", `${hashUtf8(`${walk.root}\n${walk.folder}`)}.json`);
}

/** Where the small files' texts of `walk` are kept: beside its memo, `<hash>.texts.json`. */
function textMemoPath(stateDir: string, walk: Walk): string {
  return walkMemoPath(stateDir, walk).replace(/\.json$/, ".texts.json");
}

/** A memo stamp, and when the thing stamped last changed ({@link lastChangeMs}). */
interface Stated {
  stamp: string;
  changedMs: number;
}

/** A folder's memo stamp now, or `null` when it cannot be stat'ed. */
function statFolder(folder: string): Stated | null {
  try {
    return statedOf(Deno.statSync(folder));
  } catch {
    return null;
  }
}

/** The memo stamp of what a stat of a folder or file told. */
function statedOf(info: Deno.FileInfo): Stated {
  return { stamp: memoStamp(info), changedMs: lastChangeMs(info) };
}

/**
 * The memo stamp of the file the caller stat'ed as `stamp` just now (the stat it was made of, or
 * another when it carries none), to recall what was kept of the file as it is.
 */
function statedNow(path: string, stamp: FileStamp): Stated | null {
  return stamp.info === undefined ? statFile(path, stamp) : statedOf(stamp.info);
}

/**
 * A file's memo stamp now, when it is still the file the caller stat'ed as `stamp` (the content
 * it read is this file's); else `null`.
 */
function statFile(path: string, stamp: FileStamp): Stated | null {
  try {
    const info = Deno.statSync(path);
    return fileStampOf(info).stamp === stamp.stamp ? statedOf(info) : null;
  } catch {
    return null;
  }
}

/**
 * Makes room in `map` (at most `max` entries, oldest kept first) for `key`, kept again as the
 * latest: the oldest entry this run has not used goes. False when every entry is one this run used
 * (a walk that needs more than `max`): the rest are not kept, rather than pushing out entries the
 * next run needs again and writing the memo on every run.
 */
function makeRoom<T>(map: Map<string, T>, key: string, max: number, used: Set<string>): boolean {
  if (map.delete(key) || map.size < max) return true;
  for (const old of map.keys()) {
    if (used.has(old)) continue;
    map.delete(old);
    return true;
  }
  return false;
}

/** What the memo file at `path` holds, parsed; `empty()` when there is none yet or it cannot be read. */
function readParsed<T>(path: string, parse: (text: string) => T, empty: () => T): T {
  try {
    return parse(Deno.readTextFileSync(path));
  } catch {
    return empty();
  }
}

/**
 * Writes a memo file (with `mode`, when given, where the system has one); one that cannot be
 * written is not kept.
 */
function keep(path: string, text: string, mode?: number): void {
  try {
    writeTextAtomicSync(path, text, mode === undefined ? {} : { mode });
  } catch {
    // not kept: the next run lists, reads and hashes as it would without it
  }
}

/**
 * The memo of `walk`, kept in `stateDir`; `now` is the clock that decides what has settled. On
 * Windows no folder is kept, only files' hashes and texts and the digests: a FAT folder's time does
 * not change when an entry is added to it there, while a file's time follows its content
 * everywhere.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { openWalkMemo } from "./walk_memo.ts";
 * const state = Deno.makeTempDirSync();
 * const file = `${Deno.makeTempDirSync()}/big.md`;
 * Deno.writeTextFileSync(file, "x".repeat(4096));
 * const info = Deno.statSync(file);
 * const stamp = { size: 4096, stamp: `4096:${info.mtime!.getTime()}`, uid: null };
 * const later = () => Date.now() + 60_000; // the file's last change has settled by then
 * const walk = { root: "/lib", folder: "src" };
 * const first = openWalkMemo(state, walk, later);
 * first.offerHash(file, stamp, "h1");
 * first.flush();
 * assert.equal(openWalkMemo(state, walk, later).recallHash(file, stamp), "h1");
 * assert.equal(openWalkMemo(state, { ...walk, root: "/other" }, later).recallHash(file, stamp), undefined);
 * ```
 */
export function openWalkMemo(
  stateDir: string,
  walk: Walk,
  now: () => number = Date.now,
  os: string = Deno.build.os,
): WalkMemo {
  const keepsFolders = os !== "windows";
  const path = walkMemoPath(stateDir, walk);
  let data: WalkMemoData | undefined;
  let dirty = false;
  const textsPath = textMemoPath(stateDir, walk);
  let texts: TextMemoData | undefined;
  let textsDirty = false;
  // what this run took from its memos or put in them: never pushed out by this run's offers
  const used = new Set<string>();
  const counts = { recalled: 0, kept: 0 };
  // each folder's stamp as stat'ed before this run listed it (recall), to keep with the listing
  const statedBefore = new Map<string, Stated>();
  const memo = (): WalkMemoData =>
    data ??= readParsed(
      path,
      (text) => parseWalkMemo(text, walk.root, walk.folder),
      () => emptyWalkMemo(walk.root, walk.folder),
    );
  const keptTexts = (): TextMemoData =>
    texts ??= readParsed(
      textsPath,
      (text) => parseTextMemo(text, walk.root, walk.folder, DIGEST_FORMAT),
      () => ({ texts: new Map(), digests: new Map() }),
    );
  const forget = (map: Map<string, unknown>, key: string) => {
    if (map.delete(key)) dirty = true;
  };
  const recalled = (key: string) => {
    counts.recalled++;
    used.add(key);
  };
  /** Puts `value()` in `map` as its latest entry, when {@link makeRoom} finds room for it. */
  const keepIn = <T>(map: Map<string, T>, key: string, value: () => T, max: number): boolean => {
    if (!makeRoom(map, key, max, used)) return false;
    map.set(key, value());
    used.add(key);
    counts.kept++;
    return true;
  };
  // a file read after it was stat'ed as `stamp`: its stamp now, when it is still that file and
  // has settled
  const settledFile = (file: string, stamp: FileStamp): Stated | null => {
    const stated = statFile(file, stamp);
    return stated !== null && isSettled(stated.changedMs, now()) ? stated : null;
  };
  const keepFolder = (folder: string, stamp: string, level: PlainLevel) => {
    const kept = { stamp, files: level.files, subfolders: level.subfolders };
    if (keepIn(memo().folders, folder, () => kept, MAX_KEPT_FOLDERS)) dirty = true;
  };
  return {
    counts,
    recallLevel(folder) {
      if (!keepsFolders) return undefined;
      const kept = memo().folders.get(folder);
      if (kept === undefined) return undefined;
      const stated = statFolder(folder);
      if (stated === null) {
        forget(memo().folders, folder);
        return undefined;
      }
      if (stated.stamp === kept.stamp) {
        recalled(folder);
        return { files: kept.files, subfolders: kept.subfolders };
      }
      statedBefore.set(folder, stated);
      return undefined;
    },
    offerLevel(folder, level, entries, relist) {
      if (!keepsFolders) return;
      if (entries < MEMO_MIN_ENTRIES) {
        if (data?.folders.has(folder)) forget(data.folders, folder);
        return;
      }
      const before = statedBefore.get(folder);
      if (before !== undefined) {
        // stat'ed before this listing was made: the pair holds
        if (isSettled(before.changedMs, now())) keepFolder(folder, before.stamp, level);
        else forget(memo().folders, folder);
        return;
      }
      // listed without a stamp: stat it now, then list it again to keep the pair
      const stated = statFolder(folder);
      if (stated === null || !isSettled(stated.changedMs, now())) return;
      const again = relist();
      if (again !== null) keepFolder(folder, stated.stamp, again);
    },
    recallHash(path, stamp) {
      const kept = memo().hashes.get(path);
      if (kept === undefined) return undefined;
      if (kept.stamp !== statedNow(path, stamp)?.stamp) {
        forget(memo().hashes, path);
        return undefined;
      }
      recalled(path);
      return kept.hash;
    },
    offerHash(path, stamp, hash) {
      if (stamp.size < MEMO_MIN_BYTES) return;
      const stated = settledFile(path, stamp);
      if (stated === null) return;
      const kept = { stamp: stated.stamp, hash };
      if (keepIn(memo().hashes, path, () => kept, MAX_KEPT_HASHES)) dirty = true;
    },
    recallText(path, stamp) {
      if (stamp.size >= MEMO_MIN_BYTES) return undefined; // never kept: the texts are not read
      const map = keptTexts().texts;
      const kept = map.get(path);
      if (kept === undefined) return undefined;
      if (kept.stamp !== statedNow(path, stamp)?.stamp) {
        map.delete(path);
        textsDirty = true;
        return undefined;
      }
      recalled(path);
      return { text: kept.text, hash: kept.hash };
    },
    offerText(path, stamp, text, hash) {
      if (stamp.size >= MEMO_MIN_BYTES) return;
      // stat'ed again after the read: the text kept is the file's as stamped
      const stated = settledFile(path, stamp);
      if (stated === null) return;
      // the hash is made only when the text is kept
      const kept = () => ({ stamp: stated.stamp, text, hash: hash() });
      if (keepIn(keptTexts().texts, path, kept, MAX_KEPT_TEXTS)) textsDirty = true;
    },
    recallDigest(key) {
      const digest = keptTexts().digests.get(key);
      if (digest !== undefined) recalled(key);
      return digest;
    },
    offerDigest(key, digest) {
      if (digest.length > MAX_DIGEST_CHARS) return;
      if (keepIn(keptTexts().digests, key, () => digest, MAX_KEPT_DIGESTS)) textsDirty = true;
    },
    flush() {
      if (dirty && data !== undefined) {
        dirty = false;
        keep(path, formatWalkMemo(data));
      }
      if (textsDirty && texts !== undefined) {
        textsDirty = false;
        keep(textsPath, formatTextMemo(walk.root, walk.folder, DIGEST_FORMAT, texts), 0o600);
      }
    },
  };
}

/**
 * Removes the memos in `stateDir` not written for `maxAgeMs` (a walk not made for that long, or a
 * library gone); returns how many were removed. A memo still in use is only rebuilt: nothing is lost.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { pruneWalkMemos } from "./walk_memo.ts";
 * assert.equal(await pruneWalkMemos(Deno.makeTempDirSync()), 0);
 * ```
 */
export async function pruneWalkMemos(
  stateDir: string,
  now: number = Date.now(),
  maxAgeMs: number = WALK_MEMO_MAX_AGE_MS,
): Promise<number> {
  const isMemo = (entry: Deno.DirEntry) =>
    entry.isFile && /^[0-9a-f]{16}(\.texts)?\.json$/.test(entry.name);
  return await removeOlderThan(joinPath(stateDir, "walk"), isMemo, now, maxAgeMs);
}
