/**
 * Provenance comments (pure): the one machine-readable line the stop hook writes above every block
 * it files, saying when it was learned, at which commit, and about which code files.
 *
 * ```
 * <!-- librarian: 2026-11-30 a1b2c3d src/api/billing/invoice.ts src/api/billing/tax.ts -->
 * <!-- librarian: 2026-11-30 a1b2c3d from:auto-memory/deploy-freeze.md -->
 * ```
 *
 * Grammar: `<!-- librarian: DAY [COMMIT] [from:ORIGIN] [FILE ...] [seen:DIGEST,...] -->`. DAY is
 * `YYYY-MM-DD`;
 * COMMIT is 7 to 40 lowercase hex digits (`HEAD` when filed; absent outside git); ORIGIN says where
 * a block came from when it was not tagged in a turn (`auto-memory/<file>`, `import/<file>`);
 * FILEs are project-relative paths. In a path, `%`, whitespace, control characters and `>` are
 * percent-encoded, and a path that would read as a commit, an origin or digests is written with
 * `./`. DIGESTs (8 hex digits, one per FILE, empty when unknown) say what each file was as the
 * turn left it, so `changed since` compares with what the model saw.
 * The inject hook strips these lines from what the model receives; `librarian read` shows them
 * with `--provenance`; `librarian lint` reads them to find learnings about code that moved.
 *
 * @module
 */

/** Where a block came from. */
export interface Provenance {
  /** The day it was filed, `YYYY-MM-DD`. */
  day: string;
  /** The short commit of `HEAD` when it was filed. */
  commit?: string;
  /** Set for blocks not tagged in a turn: `auto-memory/<file>`, `import/<file>`. */
  origin?: string;
  /** Project-relative code files the turn changed. */
  files: string[];
  /**
   * A digest of each of `files` as the turn left it (`""` when unknown), so that "changed since"
   * compares with what the model saw: written as one `seen:<d1>,<d2>…` token after the files.
   */
  digests?: string[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const COMMIT = /^[0-9a-f]{7,40}$/;
const LINE =
  /^[ \t]*<!--[ \t]*librarian:[ \t]+(\d{4}-\d{2}-\d{2}(?:[ \t][^\r\n]*?)?)[ \t]*-->[ \t]*\r?$/;
const ORIGIN_PREFIX = "from:";
const SEEN_PREFIX = "seen:";
const DIGESTS = /^seen:[0-9a-f]{0,16}(?:,[0-9a-f]{0,16})*$/;
/** Percent-encoded in paths: `%`, `>`, whitespace and control characters. */
// deno-lint-ignore no-control-regex
const ENCODED = /[%>\s\u0000-\u001f\u007f]/g;

function encodeToken(text: string): string {
  return text.replace(
    ENCODED,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

function decodeToken(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

function encodeFile(file: string): string {
  const encoded = encodeToken(file);
  return COMMIT.test(encoded) || encoded.startsWith(ORIGIN_PREFIX) ||
      encoded.startsWith(SEEN_PREFIX)
    ? `./${encoded}`
    : encoded;
}

/**
 * The comment line for `provenance` (no line ending).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   formatProvenance({ day: "2026-11-30", commit: "a1b2c3d", files: ["src/a b.ts"] }),
 *   "<!-- librarian: 2026-11-30 a1b2c3d src/a%20b.ts -->",
 * );
 * assert.equal(
 *   formatProvenance({ day: "2026-11-30", files: ["a.ts", "b.ts"], digests: ["0a1b2c3d", ""] }),
 *   "<!-- librarian: 2026-11-30 a.ts b.ts seen:0a1b2c3d, -->",
 * );
 * ```
 */
export function formatProvenance(provenance: Provenance): string {
  const tokens = [provenance.day];
  if (provenance.commit && COMMIT.test(provenance.commit)) tokens.push(provenance.commit);
  if (provenance.origin) tokens.push(ORIGIN_PREFIX + encodeToken(provenance.origin));
  const files = provenance.files.filter((file) => file !== "");
  for (const file of files) tokens.push(encodeFile(file));
  const digests = provenance.digests;
  if (digests !== undefined && files.length > 0 && digests.some((d) => d !== "")) {
    tokens.push(SEEN_PREFIX + files.map((_, i) => digests[i] ?? "").join(","));
  }
  return `<!-- librarian: ${tokens.join(" ")} -->`;
}

/**
 * The provenance a line holds, or `null` when it is not a provenance comment (kept-in-scratch and
 * not-a-secret markers are not).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseProvenance("<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->"), {
 *   day: "2026-11-30",
 *   commit: "a1b2c3d",
 *   files: ["src/a.ts"],
 * });
 * assert.equal(parseProvenance("<!-- librarian: not-a-secret -->"), null);
 * const seen = "<!-- librarian: 2026-11-30 a1b2c3d src/a.ts src/b.ts seen:0a1b2c3d, -->";
 * assert.deepEqual(parseProvenance(seen)?.digests, ["0a1b2c3d", ""]);
 * ```
 */
export function parseProvenance(line: string): Provenance | null {
  const match = LINE.exec(line);
  if (!match) return null;
  const tokens = match[1]!.split(/[ \t]+/).filter((t) => t !== "");
  const day = tokens.shift()!;
  if (!DAY.test(day)) return null;
  const provenance: Provenance = { day, files: [] };
  if (tokens[0] !== undefined && COMMIT.test(tokens[0])) provenance.commit = tokens.shift()!;
  if (tokens[0]?.startsWith(ORIGIN_PREFIX)) {
    provenance.origin = decodeToken(tokens.shift()!.slice(ORIGIN_PREFIX.length));
  }
  const last = tokens[tokens.length - 1];
  if (last !== undefined && DIGESTS.test(last)) {
    tokens.pop();
    provenance.digests = last.slice(SEEN_PREFIX.length).split(",");
  }
  for (const token of tokens) {
    const file = decodeToken(token.startsWith("./") ? token.slice(2) : token);
    if (file !== "") provenance.files.push(file);
  }
  if (provenance.digests !== undefined) {
    const digests = provenance.files.map((_, i) => provenance.digests![i] ?? "");
    if (digests.some((d) => d !== "")) provenance.digests = digests;
    else delete provenance.digests;
  }
  return provenance;
}

/**
 * True when the line is a provenance comment.
 *
 * @example Usage
 * ```ts
 * import { isProvenanceLine } from "./provenance.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isProvenanceLine("<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->"), true);
 * assert.equal(isProvenanceLine("<!-- librarian: not-a-secret -->"), false);
 * assert.equal(isProvenanceLine("- a learning"), false);
 * ```
 */
export function isProvenanceLine(line: string): boolean {
  return parseProvenance(line) !== null;
}

const MARKER = "<!--";
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/**
 * `text` without its provenance lines (outside code fences), for what the model is sent. A text
 * with no `librarian:` comment at all is returned as it is, without being split.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const text = "# edge\n\n<!-- librarian: 2026-11-30 src/a.ts -->\n- a learning\n";
 * assert.equal(stripProvenance(text), "# edge\n\n- a learning\n");
 * ```
 */
export function stripProvenance(text: string): string {
  if (!text.includes("librarian:") || !text.includes(MARKER)) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opener = FENCE.exec(line)?.[1];
    if (opener !== undefined) {
      if (fence === undefined) fence = opener;
      else if (opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
    }
    if (fence === undefined && isProvenanceLine(line)) continue;
    kept.push(line);
  }
  return kept.join("\n");
}

/** A 1-based line and the provenance it holds, for {@link provenanceLines}. */
export interface ProvenanceAt {
  line: number;
  provenance: Provenance;
}

/**
 * Every provenance line of a text, with its 1-based line number (outside code fences).
 *
 * @example Usage
 * ```ts
 * import { provenanceLines } from "./provenance.ts";
 * import assert from "node:assert/strict";
 * const line = "<!-- librarian: 2026-11-30 src/a.ts -->";
 * const text = `# edge\n${line}\n- a\n\`\`\`\n${line}\n\`\`\`\n`;
 * assert.deepEqual(provenanceLines(text), [
 *   { line: 2, provenance: { day: "2026-11-30", files: ["src/a.ts"] } },
 * ]);
 * ```
 */
export function provenanceLines(text: string): ProvenanceAt[] {
  if (!text.includes("librarian:")) return [];
  const found: ProvenanceAt[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const opener = FENCE.exec(line)?.[1];
    if (opener !== undefined) {
      if (fence === undefined) fence = opener;
      else if (opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const provenance = parseProvenance(line);
    if (provenance) found.push({ line: i + 1, provenance });
  });
  return found;
}

/**
 * The local calendar day of `date` as `YYYY-MM-DD`.
 *
 * @example Usage
 * ```ts
 * import { localDay } from "./provenance.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(localDay(new Date(2026, 10, 30, 12)), "2026-11-30");
 * ```
 */
export function localDay(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, "0");
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}
