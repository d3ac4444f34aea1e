/**
 * Choosing what a context window still needs from a list of library files, and rendering it:
 * drop what the ledger says the window already has (unchanged since), read the rest (only as much
 * as the budget can use), skip what cannot be shown, and never read an entry outside the library.
 *
 * Used for a touched file's walk-up (PreToolUse), and for the library root's files at session
 * and subagent start. What the model gets of a file is its knowledge: metadata lines (provenance,
 * imported-by, review markers, the front matter's priority) are stripped (`format/library_doc.ts`).
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import {
  type ContextSection,
  type ContextSkip,
  cutText,
  renderContext,
  type RenderedContext,
  sectionDigest,
} from "./context_budget.ts";
import { hashOf, makeFingerprint, stampOf } from "./ledger_format.ts";
import { MIN_SLICE } from "../format/budget.ts";
import { priorityOf, stripMetadata } from "../format/library_doc.ts";
import {
  type FileStamp,
  type LazyFileText,
  readLibraryTextLazily,
  type ReadMemo,
  statStamp,
} from "../core/read_text.ts";
import { type OwnerCheck, trustedByThisProcess } from "../core/discover.ts";
import type { LibraryFile } from "../core/walk.ts";
import { withoutExportSection } from "../format/export_marks.ts";
import type { StaleView } from "./stale_view.ts";

/** What a context window still needs, rendered; or nothing. */
export type Choice =
  | {
    kind: "none";
    hits: number;
    /** Fingerprints of files touched on disk but unchanged, to refresh in the ledger. */
    refreshed: Record<string, string>;
  }
  | {
    kind: "context";
    rendered: RenderedContext;
    /**
     * Library file's absolute path → fingerprint, for every file the model now has (shown, cut,
     * or named as skipped or outside the library, so it is named once per context window).
     */
    delivered: Record<string, string>;
    /** Files skipped because the context window already has them unchanged. */
    hits: number;
    /** Entries named as outside the library. */
    outside: string[];
  };

/** The fingerprint of an entry that leads outside the library (never read). */
export const OUTSIDE_FINGERPRINT = "-:-:outside";
const UNREADABLE = "unreadable";
const NOT_OWNED = "not-owned";
/** At most this many outside entries are named one by one. */
const MAX_OUTSIDE_NAMED = 5;

/** The characters a section takes besides its text (`\n\n--- [label] ---\n`). */
const SECTION_FRAME = 12;

/**
 * A library file is read up to this many bytes: past it, only its start is shown (a cut file's
 * newest learnings are at its end, so the limit is far above the budget).
 */
export const MAX_READ_BYTES = 256 * 1024;

/** The mirror folder of a library file (its label without the file name). */
function folderOfFile(file: LibraryFile): string {
  return file.relPath.slice(0, file.relPath.lastIndexOf("/") + 1);
}

/**
 * The order files are read in: round the folders (the first file of each, most specific first,
 * then the second of each...), as the budget gives out its slices (`format/budget.ts`), so
 * that a folder of many files never keeps the others' files from being read.
 */
function readingOrder(files: readonly LibraryFile[]): number[] {
  const groups = new Map<string, number[]>();
  files.forEach((file, i) => {
    const key = folderOfFile(file);
    const members = groups.get(key);
    if (members) members.push(i);
    else groups.set(key, [i]);
  });
  const queues = [...groups.values()];
  const order: number[] = [];
  for (let round = 0; order.length < files.length; round++) {
    for (const queue of queues) if (round < queue.length) order.push(queue[round]!);
  }
  return order;
}

/** An import's provenance line (`import/plan.ts` `provenanceLine`): the file it copied. */
const IMPORTED_FROM = /^[ \t]*<!-- imported by 'librarian import' from (\S+) on /gm;

/**
 * The project files a library text says it holds a copy of (its import provenance lines).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { importedFrom } from "./choose.ts";
 * const text = "<!-- imported by 'librarian import' from .cursor/rules/db.mdc on 2026-11-30 (x) -->\n- y";
 * assert.deepEqual(importedFrom(text), [".cursor/rules/db.mdc"]);
 * assert.deepEqual(importedFrom("- no mark"), []);
 * ```
 */
export function importedFrom(text: string): string[] {
  if (!text.includes("imported by 'librarian import' from ")) return [];
  return [...text.matchAll(IMPORTED_FROM)].map((m) => m[1]!);
}

function isProblemFingerprint(fingerprint: string): boolean {
  const hash = hashOf(fingerprint);
  return hash === UNREADABLE || hash === "outside" || hash === NOT_OWNED;
}

/**
 * The notice naming library entries that lead outside the library: never read, never offered for
 * reading.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { outsideNotice } from "./choose.ts";
 * assert.match(outsideNotice(["/p/_memory_library/a.md"]), /outside the library.*\/a\.md/);
 * assert.equal(outsideNotice([]), "");
 * ```
 */
export function outsideNotice(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const named = paths.slice(0, MAX_OUTSIDE_NAMED).map(encodeName).join("; ");
  const rest = paths.length - MAX_OUTSIDE_NAMED;
  const text = `\n\n[Librarian] Not read: these library entries are links to places outside the ` +
    `library, so their content is not library content: ${named}${
      rest > 0 ? `; and ${rest} more` : ""
    }.`;
  return cutText(text, 1200);
}

/** What {@link readChoice} needs: the files' side of {@link ChooseOptions}. */
export interface ReadChoiceOptions {
  budget: number;
  /** Fingerprints the context window already has, by absolute path. */
  alreadySent: Record<string, string>;
  /**
   * Keep metadata lines: provenance, imported-by and review comments
   * (`librarian read --provenance`); the model never gets them.
   */
  keepProvenance?: boolean;
  /** Marks (or leaves out) stale learnings in a file's text before it is cut to the budget. */
  stale?: StaleView;
  /**
   * Whose library files are served (`trustsOwnersOf` the library; by default the user's and
   * root's): another user's file is named once as not served, never read.
   */
  trusts?: OwnerCheck;
  /**
   * Reads kept between runs (`walk_memo.ts`): a big file unchanged since is not hashed again, a
   * small one not even opened.
   */
  reads?: ReadMemo;
}

/** What {@link renderChoice} needs: the rendering side of {@link ChooseOptions}. */
export interface RenderChoiceOptions {
  budget: number;
  /** The header line, given how many files were already sent. */
  header: (hits: number) => string;
  /** Text put at the very end, inside the budget (the tagging hint). */
  ending?: string;
  /** Characters of the budget kept for the caller's text before the context (a hold's words). */
  reserved?: number;
}

/** Options for {@link chooseContext}. */
export type ChooseOptions = ReadChoiceOptions & RenderChoiceOptions;

/**
 * What a context window still needs of some files, read but not rendered yet: nothing, or the
 * sections and skips to render. The same read renders with any header, ending and reserve.
 */
export type ChoiceRead =
  | { kind: "none"; hits: number; refreshed: Record<string, string> }
  | {
    kind: "read";
    /** The files to show (in the files' order; a section with no body is left out unread). */
    sections: ContextSection[];
    /** The files named as skipped (unreadable, binary, another user's). */
    skips: ContextSkip[];
    /** Entries named as outside the library. */
    outside: string[];
    hits: number;
    /** Touched on disk but unchanged: the new fingerprints to record. */
    touched: Record<string, string>;
    /** The outside entries to record as named (when `outside` is not empty). */
    outsideNamed: Record<string, string>;
    /** The fingerprint of a file read or named (its hash made on the first call: read_text.ts). */
    fingerprintOf: (path: string) => string | undefined;
  };

/** A small file's text as a memo kept it: whole, its hash made when it was read. */
interface RecalledText {
  kind: "text";
  text: string;
  partial: false;
  hash: string;
}

/**
 * What `section` comes to in so many characters, through `memo`: the digest kept under its key
 * (`key()`, the content's hash and how it was read, and the room), else made and offered.
 */
function digestThrough(
  memo: ReadMemo,
  key: () => string,
  section: ContextSection,
): (room: number) => string {
  return (room) => {
    const name = `${key()}:${room}`;
    const kept = memo.recallDigest(name);
    if (kept !== undefined) return kept;
    const made = sectionDigest(section, room);
    memo.offerDigest(name, made);
    return made;
  };
}

/**
 * A file's content hash made at most once: taken from `memo` when it kept one for the file as it
 * is (`stamp`), else made and offered to it.
 */
function memoisedHash(
  hash: string | (() => string),
  path: string,
  stamp: FileStamp,
  memo: ReadMemo | undefined,
): string | (() => string) {
  if (memo === undefined || typeof hash === "string") return hash;
  let made: string | undefined;
  return () => {
    if (made !== undefined) return made;
    made = memo.recallHash(path, stamp);
    if (made === undefined) {
      made = hash();
      memo.offerHash(path, stamp, made);
    }
    return made;
  };
}

/**
 * Reads what of `files` (most specific first) the context window still needs: stats each file,
 * reads those not sent unchanged (only as many as the budget can use), and leaves the rendering to
 * {@link renderChoice}. Each file is stat'ed and read at most once, and hashed only when its
 * fingerprint is asked for.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { readChoice, renderChoice } from "./choose.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/tech.md`, "- t");
 * const files = [{ relPath: "tech.md", label: "tech.md", absPath: `${root}/tech.md` }];
 * const read = readChoice(files, { budget: 9000, alreadySent: {} });
 * assert.equal(read.kind, "read");
 * const plain = renderChoice(read, { budget: 9000, header: () => "[h]" });
 * const ended = renderChoice(read, { budget: 9000, header: () => "[h]", ending: "\n[end]" });
 * assert.ok(plain.kind === "context" && ended.kind === "context");
 * assert.ok(ended.rendered.text.endsWith("[end]") && !plain.rendered.text.endsWith("[end]"));
 * ```
 */
export function readChoice(files: readonly LibraryFile[], options: ReadChoiceOptions): ChoiceRead {
  const sent = options.alreadySent;
  const trusts = options.trusts ?? trustedByThisProcess;
  // by file index, so the sections keep the files' order whatever order they are read in
  const sectionAt: (ContextSection | undefined)[] = [];
  const skipAt: (ContextSkip | undefined)[] = [];
  const outside: string[] = [];
  // the outside entries named now, to record when the notice goes out
  const outsideNamed: Record<string, string> = {};
  // a file read whole and shown has its fingerprint made when it is recorded: the files read to
  // fill the budget and then left out are never hashed (read_text.ts)
  const fingerprints: Record<string, string | (() => string)> = {};
  const fingerprintAt = (path: string): string | undefined => {
    const fingerprint = fingerprints[path];
    return typeof fingerprint === "function" ? fingerprint() : fingerprint;
  };
  // touched on disk but unchanged: the new stamp is recorded so the next touch needs no read
  const touched: Record<string, string> = {};
  let hits = 0;
  // the project rules the library files read hold a copy of (an earlier import's provenance line)
  const copied = new Set<string>();
  // The least the files read so far take in the context (each its frame and a slice, empty and
  // skipped files too); once it passes the budget, no other file could get a slice, so the rest
  // are named as left out without being read.
  let leastChars = 0;
  // Small files' texts are kept for a first touch of these files in the window (none sent yet):
  // it reads the same files from one window to the next. A later touch reads others, named left
  // out before, that would only crowd them out of the memo (walk_memo.ts).
  const texts =
    options.reads !== undefined && files.every((file) => sent[file.absPath] === undefined)
      ? options.reads
      : undefined;
  const skip = (i: number, file: LibraryFile, reason: string, fingerprint: string) => {
    skipAt[i] = { label: file.label, readPath: file.absPath, reason };
    fingerprints[file.absPath] = fingerprint;
    leastChars += file.absPath.length + reason.length + 4;
  };
  for (const i of readingOrder(files)) {
    const file = files[i]!;
    const previous = sent[file.absPath];
    if (file.outside) {
      if (previous === OUTSIDE_FINGERPRINT) continue; // named once already
      outside.push(file.absPath + (file.outside === "folder" ? "/" : ""));
      outsideNamed[file.absPath] = OUTSIDE_FINGERPRINT;
      continue;
    }
    if (previous === undefined && leastChars > options.budget) {
      // the budget is already spent: name it without reading (or even stat'ing) it
      sectionAt[i] = { label: file.label, readPath: file.absPath, body: null, partial: false };
      continue;
    }
    const stat = statStamp(file.absPath);
    if ("error" in stat) {
      const fingerprint = makeFingerprint("-:-", UNREADABLE);
      if (previous !== fingerprint) skip(i, file, `unreadable: ${stat.error}`, fingerprint);
      continue;
    }
    if (!trusts(stat.uid)) {
      // another user's file in the user's library: never read, named once (lint tells the fix)
      const fingerprint = makeFingerprint(stat.stamp, NOT_OWNED);
      if (previous !== fingerprint) {
        skip(i, file, `not served: owned by another user (uid ${stat.uid}), not you`, fingerprint);
      }
      continue;
    }
    if (
      previous !== undefined && stampOf(previous) === stat.stamp && !isProblemFingerprint(previous)
    ) {
      hits++; // unchanged since it was sent: not even read
      continue;
    }
    // a small file unchanged since a run kept its text is not even opened
    const kept = texts?.recallText(file.absPath, stat);
    const text: LazyFileText | RecalledText = kept === undefined
      ? readLibraryTextLazily(file.absPath, stat.size, MAX_READ_BYTES)
      : { kind: "text", text: kept.text, partial: false, hash: kept.hash };
    if (text.kind === "unreadable") {
      const fingerprint = makeFingerprint(stat.stamp, UNREADABLE);
      if (previous !== fingerprint) skip(i, file, `unreadable: ${text.reason}`, fingerprint);
      continue;
    }
    const hash = memoisedHash(text.hash, file.absPath, stat, options.reads);
    const hashNow = () => typeof hash === "string" ? hash : hash();
    if (kept === undefined && text.kind === "text" && !text.partial) {
      texts?.offerText(file.absPath, stat, text.text, hashNow);
    }
    const stamp = stat.stamp;
    const fingerprint = () => makeFingerprint(stamp, hashNow());
    if (previous !== undefined && hashOf(previous) === hashNow()) {
      hits++; // touched but not changed
      touched[file.absPath] = fingerprint();
      continue;
    }
    if (text.kind === "text") {
      fingerprints[file.absPath] = fingerprint;
      // a project's own memory file (native_sources.ts) is shown as it lies: no library marks
      const native = "native" in file;
      const keep = options.keepProvenance === true || native;
      // (without the section `librarian export` keeps in it: the library's own text)
      const marked = native ? undefined : options.stale?.apply(file.relPath, text.text, hash);
      const source = native ? withoutExportSection(text.text) : marked?.text ?? text.text;
      if (!native) { for (const name of importedFrom(text.text)) copied.add(name); }
      const body = keep ? source : stripMetadata(source);
      leastChars += Math.min(body.length, MIN_SLICE) + file.label.length + SECTION_FRAME;
      const section: ContextSection = {
        label: file.label,
        readPath: file.absPath,
        body,
        partial: text.partial,
        source,
      };
      if (keep) section.keepMetadata = true;
      if (!native && priorityOf(text.text) === "always") section.always = true;
      // the file as it is on disk, or with stale marks, cut: what it came to is kept by its
      // content's hash (and the marks: stale_view.ts)
      const marks = source === text.text ? "" : marked?.marks;
      if (texts !== undefined && marks !== undefined) {
        const read = `${keep ? "k" : "-"}${text.partial ? "p" : "w"}${marks && `:${marks}`}`;
        section.digest = digestThrough(texts, () => `${hashNow()}:${read}`, section);
      }
      sectionAt[i] = section;
    } else {
      const reason = text.kind === "binary" ? "binary file, skipped" : "not UTF-8 text, skipped";
      skip(i, file, reason, fingerprint());
    }
  }
  // a project rule a library file holds a copy of is in the window with it: never sent twice
  files.forEach((file, i) => {
    if ("native" in file && copied.has(file.relPath) && sectionAt[i]) {
      const fingerprint = fingerprintAt(file.absPath);
      if (fingerprint === undefined) return;
      sectionAt[i] = undefined;
      touched[file.absPath] = fingerprint;
    }
  });
  const sections = sectionAt.filter((s): s is ContextSection => s !== undefined);
  const skips = skipAt.filter((s): s is ContextSkip => s !== undefined);
  if (sections.length === 0 && skips.length === 0 && outside.length === 0) {
    return { kind: "none", hits, refreshed: touched };
  }
  return {
    kind: "read",
    sections,
    skips,
    outside,
    hits,
    touched,
    outsideNamed,
    fingerprintOf: fingerprintAt,
  };
}

/**
 * Renders what {@link readChoice} read under the budget, with the header, the ending and the
 * reserve given (pure: no file is read again).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderChoice } from "./choose.ts";
 * const none = { kind: "none" as const, hits: 2, refreshed: {} };
 * assert.deepEqual(renderChoice(none, { budget: 9000, header: () => "[h]" }), none);
 * ```
 */
export function renderChoice(read: ChoiceRead, options: RenderChoiceOptions): Choice {
  if (read.kind === "none") {
    return { kind: "none", hits: read.hits, refreshed: { ...read.refreshed } };
  }
  const { sections, skips, outside, hits } = read;
  const notice = outsideNotice(outside);
  const trailer = notice + (options.ending ?? "");
  const rendered = renderContext(
    options.header(hits),
    sections,
    skips,
    options.budget,
    trailer,
    options.reserved ?? 0,
  );
  const delivered: Record<string, string> = { ...read.touched };
  for (const path of rendered.delivered) {
    const fingerprint = read.fingerprintOf(path);
    if (fingerprint !== undefined) delivered[path] = fingerprint;
  }
  if (notice !== "") Object.assign(delivered, read.outsideNamed);
  return { kind: "context", rendered, delivered, hits, outside: [...outside] };
}

/** Chooses and renders what of `files` (most specific first) the context window still needs. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseContext } from "./choose.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/tech.md`, "- t");
 * const files = [{ relPath: "tech.md", label: "tech.md (library root)", absPath: `${root}/tech.md` }];
 * const first = chooseContext(files, { budget: 9000, alreadySent: {}, header: () => "[h]" });
 * assert.equal(first.kind, "context");
 * const again = chooseContext(files, {
 *   budget: 9000,
 *   alreadySent: first.kind === "context" ? first.delivered : {},
 *   header: () => "[h]",
 * });
 * assert.equal(again.kind, "none");
 * ```
 */
export function chooseContext(files: readonly LibraryFile[], options: ChooseOptions): Choice {
  return renderChoice(readChoice(files, options), options);
}
