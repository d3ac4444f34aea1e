/**
 * The ledger's persisted form (pure): the {@link Ledger} type, its fingerprints, and a complete
 * validator for the JSON on disk. Format version {@link LEDGER_FORMAT}:
 *
 * ```json
 * {"version":2,"files":{"/abs/_memory_library/tech.md":"120:1700000000000:02cc5d0536b78ae7"},
 *  "reminded":true,"events":["tool:toolu_01"]}
 * ```
 *
 * Version 1 (no `version` key; hashes from an earlier home-made hash) reads as empty: its hashes
 * cannot be compared, so the files are simply sent again once.
 *
 * @module
 */

import { isAbsolutePath, MAX_PATH_LENGTH } from "../core/paths.ts";
import { isObject } from "../core/json.ts";

/** The ledger file format written now. */
export const LEDGER_FORMAT = 2;

/** How many handled events a ledger remembers (enough for one model message's parallel calls). */
export const MAX_EVENTS = 64;

/** What one context window has been sent. */
export interface Ledger {
  /** Library file's absolute path → fingerprint of the version the context window has. */
  files: Record<string, string>;
  /** Whether the tagging reminder was given. */
  reminded: boolean;
  /** Events already handled (`tool:<tool_use_id>`, `prompt:<hash>`), oldest first. */
  events: string[];
  /** Tag folders whose tagging hint this context window was given (absent: none yet). */
  hinted?: string[];
  /** Code folders (absolute) whose first write this context window held once (absent: none). */
  held?: string[];
  /**
   * Code folders (absolute) this context window touched last, most recent first, at most
   * {@link MAX_RECENT}: what a compaction sends again (`inject/start.ts`).
   */
  recent?: string[];
}

/** How many hinted folders a ledger remembers (the newest; a hint forgotten may be given again). */
export const MAX_HINTED = 256;

/** How many held folders a ledger remembers (the newest; a folder forgotten had its files sent). */
export const MAX_HELD = 256;

/** How many recently touched folders a ledger remembers (their files come back after compaction). */
export const MAX_RECENT = 4;

/** An empty ledger. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyLedger } from "./ledger_format.ts";
 * assert.deepEqual(emptyLedger(), { files: {}, reminded: false, events: [] });
 * ```
 */
export function emptyLedger(): Ledger {
  return { files: {}, reminded: false, events: [] };
}

/**
 * A ledger fingerprint: `<size>:<mtime-ms>:<content hash>`. The stamp part lets an unchanged file
 * be recognised without reading it; the hash decides when the stamp moved (a checkout that
 * rewrote the file without changing it is not sent again). A file that could not be shown has a
 * hash part naming why (`unreadable`, `outside`), so it is named once, not on every touch.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashOf, makeFingerprint, stampOf } from "./ledger_format.ts";
 * const fp = makeFingerprint("120:1700000000000", "02cc5d0536b78ae7");
 * assert.equal(stampOf(fp), "120:1700000000000");
 * assert.equal(hashOf(fp), "02cc5d0536b78ae7");
 * ```
 */
export function makeFingerprint(stamp: string, hash: string): string {
  return `${stamp}:${hash}`;
}

/** The `<size>:<mtime-ms>` part of a fingerprint. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { stampOf } from "./ledger_format.ts";
 * assert.equal(stampOf("12:1700:ab"), "12:1700");
 * ```
 */
export function stampOf(fingerprint: string): string {
  const second = fingerprint.indexOf(":", fingerprint.indexOf(":") + 1);
  return second < 0 ? fingerprint : fingerprint.slice(0, second);
}

/** The content-hash part of a fingerprint. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashOf } from "./ledger_format.ts";
 * assert.equal(hashOf("12:1700:ab"), "ab");
 * assert.equal(hashOf("garbage"), "");
 * ```
 */
export function hashOf(fingerprint: string): string {
  const second = fingerprint.indexOf(":", fingerprint.indexOf(":") + 1);
  return second < 0 ? "" : fingerprint.slice(second + 1);
}

/** A character that is white space (JavaScript's `\s`). */
const SPACE = /\s/;

/** A run of ASCII letters `a` to `z`, whole. */
const LOWER_WORD = /^[a-z]+$/;

/**
 * True when `text` is a fingerprint as written: `<1–40>:<1–40>:<1–200>` characters, no white
 * space, no `:` in the first two parts. Checked by position rather than with one regular
 * expression with those counts, which V8 builds into a large program: compiling it took about
 * 0.3 ms of each hook run that read a ledger, and matching a ledger's fingerprints 0.1 ms.
 */
function isFingerprint(text: string): boolean {
  const first = text.indexOf(":");
  const second = text.indexOf(":", first + 1);
  return first >= 1 && first <= 40 && second - first >= 2 && second - first <= 41 &&
    text.length - second >= 2 && text.length - second <= 201 && !SPACE.test(text);
}

/** True when `text` is an event as written: `<a–z, 1–20>:<1–300>` characters, no white space. */
function isEvent(text: string): boolean {
  const colon = text.indexOf(":");
  return colon >= 1 && colon <= 20 && text.length - colon >= 2 && text.length - colon <= 301 &&
    LOWER_WORD.test(text.slice(0, colon)) && !SPACE.test(text);
}

/** The parsed ledger, or an empty one and why the text was not a valid ledger. */
export interface ParsedLedger {
  ledger: Ledger;
  problem?: string;
}

function invalid(problem: string): ParsedLedger {
  return { ledger: emptyLedger(), problem };
}

/**
 * Parses and validates ledger JSON: every key and value is checked, and anything that is not a
 * ledger of version {@link LEDGER_FORMAT} reads as empty, with the reason in `problem`. Empty
 * text (no ledger yet) is an empty ledger with no problem.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLedger } from "./ledger_format.ts";
 * const ok = parseLedger('{"version":2,"files":{"/l/a.md":"1:2:ab"},"reminded":true,"events":[]}');
 * assert.deepEqual(ok.ledger.files, { "/l/a.md": "1:2:ab" });
 * assert.equal(parseLedger('{"files":{}}').problem, "format version undefined, not 2");
 * ```
 */
export function parseLedger(text: string): ParsedLedger {
  if (text.trim() === "") return { ledger: emptyLedger() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid("not JSON");
  }
  if (!isObject(value)) return invalid("not a JSON object");
  if (value.version !== LEDGER_FORMAT) {
    return invalid(`format version ${JSON.stringify(value.version)}, not ${LEDGER_FORMAT}`);
  }
  for (const key of Object.keys(value)) {
    if (!["version", "files", "reminded", "events", "hinted", "held", "recent"].includes(key)) {
      return invalid(`unknown key ${JSON.stringify(key.slice(0, 40))}`);
    }
  }
  if (!isObject(value.files)) return invalid("files is not an object");
  // the parsed object itself, checked key by key: JSON.parse made it, and nothing else holds it
  const files = value.files as Record<string, unknown>;
  for (const path in files) {
    if (!isAbsolutePath(path) || path.length > MAX_PATH_LENGTH) {
      return invalid("a file key is not an absolute path");
    }
    const fingerprint = files[path];
    if (typeof fingerprint !== "string" || !isFingerprint(fingerprint)) {
      return invalid("a fingerprint is malformed");
    }
  }
  if (typeof value.reminded !== "boolean") return invalid("reminded is not true or false");
  if (!Array.isArray(value.events) || value.events.length > MAX_EVENTS) {
    return invalid(`events is not a list of at most ${MAX_EVENTS}`);
  }
  const events: string[] = [];
  for (const event of value.events) {
    if (typeof event !== "string" || !isEvent(event)) return invalid("an event is malformed");
    events.push(event);
  }
  const ledger: Ledger = {
    files: files as Record<string, string>,
    reminded: value.reminded,
    events,
  };
  const hinted = folderList(value.hinted, MAX_HINTED, "hinted");
  if (typeof hinted === "string") return invalid(hinted);
  if (hinted) ledger.hinted = hinted;
  const held = folderList(value.held, MAX_HELD, "held");
  if (typeof held === "string") return invalid(held);
  if (held) ledger.held = held;
  const recent = folderList(value.recent, MAX_RECENT, "recent");
  if (typeof recent === "string") return invalid(recent);
  if (recent) ledger.recent = recent;
  return { ledger };
}

/** A list of folders (`hinted`, `held`, `recent`): the list, `undefined` when absent, or what is wrong. */
function folderList(value: unknown, max: number, name: string): string[] | undefined | string {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > max) {
    return `${name} is not a list of at most ${max}`;
  }
  const folders: string[] = [];
  for (const folder of value) {
    if (typeof folder !== "string" || folder === "" || folder.length > MAX_PATH_LENGTH) {
      return `a ${name} folder is malformed`;
    }
    folders.push(folder);
  }
  return folders;
}
