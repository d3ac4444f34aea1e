/**
 * What the library already knows, for filing each learning once (pure): the normalised
 * learnings of a target file and of every library file sent along with it (the other files of
 * its folder and of the folders above), and of what this pass has filed so far.
 *
 * A learning is known when its normalised text (`format/learnings.ts`) is already there. Bullets
 * are compared whatever their length; a paragraph only when it is long enough to be a learning of
 * its own (a `**Why:**` line that many learnings share is not), and a code block never (the same
 * snippet may belong to two learnings).
 *
 * @module
 */

import { learningKey, learningsOf } from "../format/learnings.ts";
import type { Item } from "./items.ts";

/** A library file sent along with a target (for the same folder or one below). */
export interface VisibleFile {
  /** Library-relative path. */
  relPath: string;
  text: string;
}

/** Where a known learning is: a library file and its 1-based line (0: filed in this pass). */
export interface KnownAt {
  file: string;
  line: number;
}

/** A paragraph shorter than this (normalised) is not compared: it is part of a learning. */
export const MIN_PARAGRAPH_KEY = 20;

/**
 * The key an item is compared by, or `undefined` when it is not compared (pure).
 *
 * @example Usage
 * ```ts
 * import { comparableKey } from "./known.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(comparableKey({ lines: ["- Use Deno."], bullet: true, gapBefore: false }), "use deno");
 * assert.equal(comparableKey({ lines: ["**Why:**"], bullet: false, gapBefore: false }), undefined);
 * assert.equal(comparableKey({ lines: ["---"], bullet: true, gapBefore: false }), undefined);
 * ```
 */
export function comparableKey(item: Item): string | undefined {
  const key = learningKey(item.lines);
  if (key === "" || key.startsWith("code:")) return undefined;
  if (!item.bullet && key.length < MIN_PARAGRAPH_KEY) return undefined;
  return key;
}

/**
 * The first line of each learning's key in a library file's text (pure).
 *
 * @example Usage
 * ```ts
 * import { keyLines } from "./known.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(keyLines("# tech\n\n- Use deno\n- use Deno.\n"), new Map([["use deno", 3]]));
 * ```
 */
export function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  for (const unit of learningsOf(text)) {
    if (unit.key !== "" && !lines.has(unit.key)) lines.set(unit.key, unit.line);
  }
  return lines;
}

/** The folder of a library-relative file path (`""` at the root). */
function folderOf(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash < 0 ? "" : relPath.slice(0, slash);
}

/** True when `folder` is `below` or one of its ancestors. */
function isAtOrAbove(folder: string, below: string): boolean {
  return folder === "" || folder === below || below.startsWith(`${folder}/`);
}

/**
 * The learnings known to one routing pass: the files it read (parsed once each) and what it
 * files as it goes.
 *
 * @example Usage
 * ```ts
 * import { KnownLearnings } from "./known.ts";
 * import assert from "node:assert/strict";
 *
 * const known = new KnownLearnings();
 * const visible = [{ relPath: "tech.md", text: "# tech\n\n- Money is integer cents.\n" }];
 * known.addTarget("src/api/edge.md", null, visible);
 * assert.deepEqual(known.find("src/api/edge.md", "money is integer cents"), { file: "tech.md", line: 3 });
 * assert.equal(known.find("src/api/edge.md", "use deno"), undefined);
 * known.remember("src/api/edge.md", "use deno");
 * assert.deepEqual(known.find("src/api/edge.md", "use deno"), { file: "src/api/edge.md", line: 0 });
 * ```
 */
export class KnownLearnings {
  /** Per library file read: key → first line. */
  #files = new Map<string, Map<string, number>>();
  /** Per target: the files it is sent with, most specific first (itself first). */
  #visible = new Map<string, string[]>();
  /** Per target filed into in this pass: the keys filed. */
  #filed = new Map<string, Set<string>>();
  /**
   * Per key filed in this pass: the targets it was filed into, in the order those targets were
   * first filed into (the order of {@link #filed}), so that a lookup reads only them instead of
   * every target of the pass.
   */
  #filedInto = new Map<string, string[]>();

  /** Registers a target, its text (`null`: new file) and the files sent along with it. */
  addTarget(target: string, text: string | null, visible: readonly VisibleFile[]): void {
    this.#files.set(target, text === null ? new Map() : keyLines(text));
    for (const file of visible) {
      if (!this.#files.has(file.relPath)) this.#files.set(file.relPath, keyLines(file.text));
    }
    this.#visible.set(target, [target, ...visible.map((f) => f.relPath)]);
  }

  /** Where `key` is already known for `target`, or `undefined`. */
  find(target: string, key: string): KnownAt | undefined {
    const own = this.#filed.get(target);
    if (own?.has(key)) return { file: target, line: 0 };
    for (const file of this.#visible.get(target) ?? [target]) {
      const line = this.#files.get(file)?.get(key);
      if (line !== undefined) return { file, line };
    }
    // filed in this pass into another target sent along with this one
    const folder = folderOf(target);
    for (const other of this.#filedInto.get(key) ?? []) {
      if (other !== target && isAtOrAbove(folderOf(other), folder)) {
        return { file: other, line: 0 };
      }
    }
    return undefined;
  }

  /** Records that this pass files `key` into `target`. */
  remember(target: string, key: string): void {
    let keys = this.#filed.get(target);
    if (!keys) this.#filed.set(target, keys = new Set());
    if (keys.has(key)) return;
    keys.add(key);
    const into = this.#filedInto.get(key);
    if (!into) {
      this.#filedInto.set(key, [target]);
      return;
    }
    // in the order the targets were first filed into, as a scan of #filed would meet them
    const order = [...this.#filed.keys()];
    into.push(target);
    into.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
}
