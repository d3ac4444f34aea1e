/**
 * Stale learnings in what the model is sent (pure): the first line of each learning about code
 * that has since been deleted, renamed or rewritten ends with `(stale: <reason>)`, or, with
 * `LIBRARIAN_STALE=hide`, such learnings are left out and one closing line says how many. Which
 * learnings are stale comes from the stale record (`git/stale_record.ts`).
 *
 * @module
 */

/** A stale learning block: the lines of the learnings it covers, and why it is stale. */
export interface StaleLines {
  /** 1-based first and last lines of each learning. */
  lines: readonly (readonly [number, number])[];
  /** What happened, e.g. `src/api/tax.ts deleted since a1b2c3d`. */
  reason: string;
}

/** How a stale learning is shown: marked on its first line, or left out (`LIBRARIAN_STALE`). */
export type StaleMode = "mark" | "hide" | "off";

/**
 * The mode `LIBRARIAN_STALE` asks for: `hide`, `off`, else `mark`.
 *
 * @example Usage
 * ```ts
 * import { staleModeFrom } from "./stale_marks.ts";
 * import assert from "node:assert/strict";
 * assert.equal(staleModeFrom(undefined), "mark");
 * assert.equal(staleModeFrom(" Hide "), "hide");
 * assert.equal(staleModeFrom("off"), "off");
 * ```
 */
export function staleModeFrom(raw: string | undefined): StaleMode {
  const value = raw?.trim().toLowerCase();
  return value === "hide" || value === "off" ? value : "mark";
}

/**
 * The words put on a stale learning's first line.
 *
 * @example Usage
 * ```ts
 * import { staleNote } from "./stale_marks.ts";
 * import assert from "node:assert/strict";
 * assert.equal(staleNote("src/a.ts deleted since a1b2c3d"), " (stale: src/a.ts deleted since a1b2c3d)");
 * ```
 */
export function staleNote(reason: string): string {
  return ` (stale: ${reason})`;
}

/**
 * `text` (a library file as read: lines split on `\n`) with each mark applied: in `mark` mode the
 * first line of each learning a mark covers ends with `(stale: <reason>)`; in `hide` mode those
 * learnings' lines are emptied (so every other line keeps its number) and one closing line says
 * how many were left out. Lines past the text's end are ignored (pure).
 *
 * @example Usage
 * ```ts
 * import { applyStaleMarks } from "./stale_marks.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "# edge\n<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->\n- Old rule.\n- Kept.\n";
 * const marks = [{ lines: [[3, 3]] as [number, number][], reason: "src/a.ts deleted since a1b2c3d", cited: {} }];
 * assert.equal(
 *   applyStaleMarks(text, marks, "mark").text.split("\n")[2],
 *   "- Old rule. (stale: src/a.ts deleted since a1b2c3d)",
 * );
 * const hidden = applyStaleMarks(text, marks, "hide");
 * assert.equal(hidden.hidden, 1);
 * assert.ok(!hidden.text.includes("Old rule") && hidden.text.includes("- Kept."));
 * assert.match(hidden.text, /1 stale learning left out/);
 * ```
 */
export function applyStaleMarks(
  text: string,
  marks: readonly StaleLines[],
  mode: StaleMode,
): { text: string; hidden: number } {
  if (marks.length === 0 || mode === "off") return { text, hidden: 0 };
  const lines = text.split("\n");
  let hidden = 0;
  for (const mark of marks) {
    for (const [first, last] of mark.lines) {
      if (first > lines.length) continue;
      if (mode === "hide") {
        for (let i = first - 1; i < Math.min(last, lines.length); i++) lines[i] = "";
        hidden++;
        continue;
      }
      const line = lines[first - 1]!;
      const cr = line.endsWith("\r") ? "\r" : "";
      lines[first - 1] = line.slice(0, line.length - cr.length) + staleNote(mark.reason) + cr;
    }
  }
  let out = lines.join("\n");
  if (hidden > 0) {
    const what = hidden === 1 ? "1 stale learning" : `${hidden} stale learnings`;
    out = out.replace(/\n*$/, "\n") +
      `\n(${what} left out: the code files ${
        hidden === 1 ? "it cites were" : "they cite were"
      } deleted, renamed or rewritten; \`librarian lint\` lists ${
        hidden === 1 ? "it" : "them"
      }.)\n`;
  }
  return { text: out, hidden };
}
