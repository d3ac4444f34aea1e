/**
 * Rendering the model's context under a character budget (pure).
 *
 * Sections stay in their order (most specific first, global last). When they do not all fit,
 * the room is shared by the fair budget (`format/budget.ts`): every file gets at least a useful
 * slice, files smaller than the fair share are shown whole, larger ones are cut to the share and
 * show their hand-written top, their newest learnings and an outline of the rest
 * (`digest.ts`). Every cut or left-out file is named, with its path, in a closing line that tells
 * the model to Read it. The text never exceeds the budget: the closing line's room is held back
 * before the room is shared.
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import { type BudgetClaim, MIN_SLICE, planBudget } from "../format/budget.ts";
import { parseLibraryDoc } from "../format/library_doc.ts";
import { cutText, digestOf } from "./digest.ts";

export { cutText } from "./digest.ts";

/** A library file's text, ready to be shown. */
export interface ContextSection {
  label: string;
  /** The path the model can pass to its Read tool. */
  readPath: string;
  /**
   * The text as the model is sent it whole (metadata lines stripped), or `null` when it was not
   * read because the budget was already spent.
   */
  body: string | null;
  /** True when `body` is only the start of the file (the file was too large to read whole). */
  partial: boolean;
  /**
   * The file's text as read, metadata lines included (default: `body`): a cut file's outline
   * gives line numbers of the file on disk.
   */
  source?: string;
  /** Keep metadata lines in a cut file's text too (`librarian read --provenance`). */
  keepMetadata?: boolean;
  /** Never cut while it fits (`priority: always`). */
  always?: boolean;
  /**
   * What the text comes to in `room` characters when its reader has a cheaper way to it than
   * parsing and cutting it here (a memo of an earlier run's cut): the same text as {@link digestOf}.
   */
  digest?: (room: number) => string;
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
export const MIN_CUT_CHARS = MIN_SLICE;
/** At most this many files are named one by one in the closing line. */
export const MAX_NAMED = 12;

interface Pending {
  readPath: string;
  note: string;
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
  // the distinct folders encoded, not every file's (a closing line is made a few times a render,
  // each time for up to every file on the way up): the same words, in the same order
  const distinct = new Set<string>();
  for (const p of pending) distinct.add(folderOf(p.readPath));
  const folders = [...new Set([...distinct].map(encodeName))].filter((f) => f !== "");
  if (folders.length <= 1) return folders[0] ?? "";
  return `${folders.slice(0, -1).join(", ")} and ${folders[folders.length - 1]}`;
}

/**
 * The closing line for `total` files not shown whole, the first of them given in `first`; the
 * ones not named are counted, and `restFolders` says where they are (so the model can list them).
 */
function closingText(first: Pending[], total: number, budget: number, restFolders = ""): string {
  if (total === 0) return "";
  const named = first.slice(0, MAX_NAMED).map((p) => `${encodeName(p.readPath)} (${p.note})`);
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
 * import { closingLine } from "./context_budget.ts";
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
 * What `section` comes to in `room` characters, parsed and cut: its text as read (`source`), else
 * `body` (by default its own).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { sectionDigest } from "./context_budget.ts";
 * const body = Array.from({ length: 400 }, (_, i) => `- learning ${i}`).join("\n");
 * const section = { label: "a.md", readPath: "/l/a.md", body, partial: false };
 * const digest = sectionDigest(section, 900);
 * assert.ok(digest.length > 0 && digest.length <= 900);
 * ```
 */
export function sectionDigest(
  section: ContextSection,
  room: number,
  body: string = section.body ?? "",
): string {
  const doc = parseLibraryDoc(section.source ?? body, section.keepMetadata === true);
  return digestOf(doc, room, section.partial);
}

/** The section heading line of a file (its label). */
function sectionHead(label: string): string {
  return `\n\n--- [${encodeName(label)}] ---\n`;
}

/** How a section's file is named in the closing line when it is not shown whole. */
function pendingFor(section: ContextSection, note: string): Pending {
  return { readPath: section.readPath, note };
}

/**
 * Renders `header` plus sections under `budget` characters, naming what did not fit.
 *
 * `trailer` is fixed text put last (counted in the budget): the notice of entries outside the
 * library, which is never an invitation to read them, and the tagging hint. `reserved`
 * characters of the budget are kept for text the caller puts before it all (a hold's words).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderContext } from "./context_budget.ts";
 * const a = { label: "a.md (library root)", readPath: "/l/a.md", body: "x", partial: false };
 * const r = renderContext("[Librarian] ...", [a], [], 9000);
 * assert.deepEqual(r.shown, ["a.md (library root)"]);
 * assert.deepEqual(r.delivered, ["/l/a.md"]);
 * const big = (name: string) => ({ ...a, label: name, readPath: `/l/${name}`, body: "- x\n".repeat(5000) });
 * const cut = renderContext("[Librarian] ...", [big("p.md"), big("q.md"), big("t.md")], [], 9000);
 * assert.deepEqual(cut.cut, ["p.md", "q.md", "t.md"], "every file is represented");
 * assert.ok(cut.text.length <= 9000);
 * ```
 */
export function renderContext(
  header: string,
  sections: ContextSection[],
  skips: ContextSkip[],
  budget: number,
  trailer = "",
  reserved = 0,
): RenderedContext {
  const result: RenderedContext = {
    text: header,
    shown: [],
    cut: [],
    left: [],
    skipped: skips.map((s) => s.label),
    delivered: skips.map((s) => s.readPath),
  };
  // the trailer is fixed text at the very end: everything else fits in what it leaves
  const limit = budget - trailer.length - reserved;
  const bodies = sections.map((s) => s.body === null ? null : s.body.trimEnd());
  const claimed: number[] = []; // section index of each claim
  const claims: BudgetClaim[] = [];
  sections.forEach((section, i) => {
    const body = bodies[i];
    if (body === null || body === undefined) return;
    claimed.push(i);
    claims.push({
      frame: sectionHead(section.label).length,
      // a file read only in part is never shown whole
      size: body.length + (section.partial ? 1 : 0),
      always: section.always === true,
      group: folderOf(section.readPath),
    });
  });
  const allotmentsFor = (reserve: number) => {
    const plan = planBudget(claims, limit - header.length - reserve);
    const bySection = new Array<number | null>(sections.length).fill(null);
    claimed.forEach((s, c) => bySection[s] = plan.allotments[c] ?? null);
    return bySection;
  };
  const pendingOf = (allotted: (number | null)[]): Pending[] => [
    ...skips.map((s) => ({ readPath: s.readPath, note: s.reason })),
    ...sections.flatMap((section, i) => {
      const body = bodies[i];
      const room = allotted[i];
      if (body === null || body === undefined || room === null || room === undefined) {
        return [pendingFor(section, "left out")];
      }
      return room < body.length || section.partial ? [pendingFor(section, "cut")] : [];
    }),
  ];
  // Hold back room for the closing line: more room cut means more files named, so grow the
  // reserve until it holds the line for what is then cut (a few rounds at most).
  let reserve = 0;
  let allotted = allotmentsFor(reserve);
  // The library's sections come first: the line never takes more than two thirds of the room
  // (with long paths it then names fewer files, or only counts them).
  const maxReserve = Math.max(0, Math.floor(((limit - header.length) * 2) / 3));
  for (let round = 0; round <= claims.length + 1; round++) {
    const need = Math.min(closingLine(pendingOf(allotted), budget).length, maxReserve);
    if (need <= reserve) break;
    reserve = need;
    allotted = allotmentsFor(reserve);
  }
  if (claims.length > 0 && allotted.every((room) => room === null)) {
    // Naming the files took all the room: count them instead, so that the most specific file
    // still gets a slice (a small budget, long paths, a hold's words before it all).
    const counted = closingText([], pendingOf(allotted).length, budget).length;
    const sliced = allotmentsFor(counted);
    if (sliced.some((room) => room !== null)) allotted = sliced;
  }
  const pending = skips.map((s) => ({ readPath: s.readPath, note: s.reason }));
  let text = header;
  sections.forEach((section, i) => {
    const body = bodies[i];
    const room = allotted[i];
    if (body === null || body === undefined || room === null || room === undefined) {
      result.left.push(section.label);
      pending.push(pendingFor(section, "left out"));
      return;
    }
    if (room >= body.length && !section.partial) {
      text += sectionHead(section.label) + body;
      result.shown.push(section.label);
      result.delivered.push(section.readPath);
      return;
    }
    const digest = section.digest?.(room) ?? sectionDigest(section, room, body);
    if (digest === "") {
      result.left.push(section.label);
      pending.push(pendingFor(section, "left out"));
      return;
    }
    text += sectionHead(section.label) + digest;
    result.cut.push(section.label);
    result.delivered.push(section.readPath);
    pending.push(pendingFor(section, "cut"));
  });
  text += closingLine(pending, budget, limit - text.length);
  if (text.length > limit) text = cutText(text, Math.max(0, limit)); // a guard: header too long
  text += trailer;
  result.text = text;
  return result;
}
