/**
 * Rendering the model's context under a character budget (pure).
 *
 * Sections are taken most specific first. A section that does not fit whole is cut (when a useful
 * part fits) or left out; every cut or left-out file is named, with its path, in a closing line
 * that tells the model to Read it. The text never exceeds the budget: before each section the
 * room for the worst-case closing line is held back.
 *
 * @module
 */

/** A library file's text, ready to be shown. */
export interface ContextSection {
  label: string;
  /** The path the model can pass to its Read tool. */
  readPath: string;
  /** The text, or `null` when it was not read because the budget was already spent. */
  body: string | null;
  /** True when `body` is only the start of the file (the file was too large to read whole). */
  partial: boolean;
}

/** A library file that cannot be shown (binary, not UTF-8, unreadable). */
export interface ContextSkip {
  label: string;
  readPath: string;
  reason: string;
}

/** The rendered context and what happened to each file. */
export interface RenderedContext {
  text: string;
  /** Labels shown whole. */
  shown: string[];
  /** Labels shown in part. */
  cut: string[];
  /** Labels left out for lack of room. */
  left: string[];
  /** Labels skipped because they are not text. */
  skipped: string[];
  /** Read paths of every file the model now has (shown, cut, or named as skipped). */
  delivered: string[];
}

/** The smallest part of a file worth showing when it has to be cut. */
export const MIN_CUT_CHARS = 300;
/** At most this many files are named one by one in the closing line. */
export const MAX_NAMED = 12;

interface Pending {
  readPath: string;
  note: string;
}

function sectionHead(label: string): string {
  return `\n\n--- [${label}] ---\n`;
}

/**
 * Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair.
 *
 * @example Usage
 * ```ts
 * import { cutText } from "./context.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cutText("abcdef", 4), "abcd");
 * assert.equal(cutText("ab", 4), "ab");
 * assert.equal(cutText("a😀b", 2), "a", "never half of a surrogate pair");
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** The folder of a read path, with its trailing `/`. */
function folderOf(readPath: string): string {
  return readPath.slice(0, readPath.lastIndexOf("/") + 1);
}

/**
 * The distinct folders of `pending`, in order, as words (`A`, `A and B`, `A, B and C`). The text
 * for a subset of folders is never longer than the text for the whole set.
 */
function folderWords(pending: readonly { readPath: string }[]): string {
  const folders = [...new Set(pending.map((p) => folderOf(p.readPath)))].filter((f) => f !== "");
  if (folders.length <= 1) return folders[0] ?? "";
  return `${folders.slice(0, -1).join(", ")} and ${folders[folders.length - 1]}`;
}

/**
 * The closing line for `total` files not shown whole, the first of them given in `first`; the
 * ones not named are counted, and `restFolders` says where they are (so the model can list them).
 */
function closingText(first: Pending[], total: number, budget: number, restFolders = ""): string {
  if (total === 0) return "";
  const named = first.slice(0, MAX_NAMED).map((p) => `${p.readPath} (${p.note})`);
  const rest = total - named.length;
  const where = rest <= 0 || restFolders === ""
    ? ""
    : named.length > 0
    ? ` (the others are in ${restFolders})`
    : ` (in ${restFolders})`;
  const more = rest <= 0
    ? ""
    : named.length > 0
    ? `; and ${rest} more`
    : `${rest} library file${rest === 1 ? "" : "s"}`;
  return `\n\n[Librarian] Not shown in full (context budget ${budget} characters); ` +
    `read these with the Read tool when they matter${where}: ${named.join("; ")}${more}.`;
}

/**
 * The closing line naming files not shown whole (empty when there are none), at most `room`
 * characters long: at most twelve are named, and the folders of the rest given; when that does not
 * fit (a tiny budget, very long paths), fewer are named, and at last the rest only counted.
 *
 * @example Usage
 * ```ts
 * import { closingLine } from "./context.ts";
 * import assert from "node:assert/strict";
 *
 * const pending = [{ readPath: "/lib/src/big.md", note: "first 900 characters shown" }];
 * const line = closingLine(pending, 9000);
 * assert.ok(line.startsWith("\n\n[Librarian] Not shown in full (context budget 9000 characters)"));
 * assert.ok(line.endsWith(": /lib/src/big.md (first 900 characters shown)."));
 * assert.equal(closingLine([], 9000), "");
 * assert.ok(closingLine(pending, 9000, 120).length <= 120);
 * ```
 */
export function closingLine(pending: Pending[], budget: number, room = Infinity): string {
  for (let n = Math.min(MAX_NAMED, pending.length); n >= 0; n--) {
    const line = closingText(
      pending.slice(0, n),
      pending.length,
      budget,
      folderWords(pending.slice(n)),
    );
    if (line.length <= room) return line;
  }
  const counted = closingText([], pending.length, budget);
  return counted.length <= room ? counted : "";
}

/**
 * An upper bound on the closing line's length if everything pending, then `extra`, then all
 * `laterCount` remaining sections (paths at most `laterMaxPath` long) ended up not shown whole,
 * the files not named being somewhere in `allFolders` (the folder words of every file).
 * Whatever is actually shown later, the real closing line is never longer.
 */
function reserveFor(
  pending: Pending[],
  extra: Pending | undefined,
  laterCount: number,
  laterMaxPath: number,
  budget: number,
  allFolders: string,
): number {
  const first = pending.slice(0, MAX_NAMED);
  if (extra && first.length < MAX_NAMED) first.push(extra);
  const placeholder = { readPath: "x".repeat(laterMaxPath), note: "left out" };
  while (first.length < MAX_NAMED && first.length < pending.length + (extra ? 1 : 0) + laterCount) {
    first.push(placeholder);
  }
  const total = pending.length + (extra ? 1 : 0) + laterCount;
  return closingText(first, total, budget, allFolders).length;
}

/**
 * Renders `header` plus sections under `budget` characters, naming what did not fit.
 *
 * `trailer` is fixed text put last (counted in the budget): the notice of entries outside the
 * library, which is never an invitation to read them.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderContext } from "./context.ts";
 * const a = { label: "a.md (library root)", readPath: "/l/a.md", body: "x", partial: false };
 * const r = renderContext("[Librarian] ...", [a], [], 9000);
 * assert.deepEqual(r.shown, ["a.md (library root)"]);
 * assert.deepEqual(r.delivered, ["/l/a.md"]);
 * ```
 */
export function renderContext(
  header: string,
  sections: ContextSection[],
  skips: ContextSkip[],
  budget: number,
  trailer = "",
): RenderedContext {
  const result: RenderedContext = {
    text: header,
    shown: [],
    cut: [],
    left: [],
    skipped: [],
    delivered: [],
  };
  const pending: Pending[] = skips.map((s) => ({ readPath: s.readPath, note: s.reason }));
  result.skipped = skips.map((s) => s.label);
  result.delivered = skips.map((s) => s.readPath);
  // the trailer is fixed text at the very end: everything else fits in what it leaves
  const limit = budget - trailer.length;
  let text = header;
  const allFolders = folderWords([...pending, ...sections]);
  // longest read path among sections[i..], for the closing-line reserve
  const suffixMaxPath = new Array<number>(sections.length + 1).fill(0);
  for (let i = sections.length - 1; i >= 0; i--) {
    suffixMaxPath[i] = Math.max(sections[i]!.readPath.length, suffixMaxPath[i + 1]!);
  }
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i]!;
    if (section.body === null) {
      result.left.push(section.label);
      pending.push({ readPath: section.readPath, note: "left out" });
      continue;
    }
    const head = sectionHead(section.label);
    const body = section.body.trimEnd();
    const whole = head + body;
    const reserveWith = (extra: Pending | undefined) =>
      reserveFor(
        pending,
        extra,
        sections.length - i - 1,
        suffixMaxPath[i + 1]!,
        budget,
        allFolders,
      );
    if (!section.partial) {
      const reserve = reserveWith(undefined);
      if (text.length + whole.length + reserve <= limit) {
        text += whole;
        result.shown.push(section.label);
        result.delivered.push(section.readPath);
        continue;
      }
    }
    const cutNote = { readPath: section.readPath, note: "cut" };
    const reserve = reserveWith(cutNote);
    const marker = "\n[... cut here; the rest is in the file]";
    const room = limit - text.length - reserve - head.length - marker.length;
    if (room >= MIN_CUT_CHARS) {
      text += head + cutText(body, room) + marker;
      result.cut.push(section.label);
      result.delivered.push(section.readPath);
      pending.push(cutNote);
    } else {
      result.left.push(section.label);
      pending.push({ readPath: section.readPath, note: "left out" });
    }
  }
  text += closingLine(pending, budget, limit - text.length);
  if (text.length > limit) text = cutText(text, Math.max(0, limit)); // a guard: header too long
  text += trailer;
  result.text = text;
  return result;
}
