/**
 * Look-alike folder names (pure): a tag path segment that could pass for another name.
 *
 * Rejected (after NFKC, which the caller checks first, has turned nothing):
 * - letters of scripts that are mixed in one segment in a way real names are not (UTS #39,
 *   "moderately restrictive"): Latin with Cyrillic or Greek (`src/аpi` with a Cyrillic `а`), or
 *   two scripts other than Latin, except the CJK combinations (Han with Hiragana and Katakana,
 *   Bopomofo or Hangul, each also with Latin);
 * - a Cyrillic or Greek segment made only of letters that look Latin (`арі` for `api`);
 * - characters that look like `/`, `\` or `:` but are none of them (division slash, ratio...);
 * - ASCII digits mixed with digits of another system.
 *
 * A pure-ASCII segment is never looked at further, so the common case costs one test.
 *
 * @module
 */

/** The scripts told apart, in the order they are tried. */
const SCRIPT_NAMES = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Devanagari",
  "Bengali",
  "Tamil",
  "Telugu",
  "Thai",
  "Georgian",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
  "Cherokee",
  "Ethiopic",
];

/**
 * One `\p{Script=…}` pattern per script, built on first use: building them costs about a
 * millisecond, which a pure-ASCII path (the common case, and every inject hint) never pays.
 */
let scriptPatterns: ReadonlyArray<readonly [string, RegExp]> | undefined;

/** Scripts whose letters pass for Latin ones: never mixed with Latin in one segment. */
const LATIN_LOOKALIKE_SCRIPTS = new Set(["Cyrillic", "Greek", "Cherokee"]);
const CJK_SETS = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

/** Cyrillic and Greek letters that look like a Latin letter, and that letter. */
const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  "а": "a",
  "е": "e",
  "о": "o",
  "р": "p",
  "с": "c",
  "у": "y",
  "х": "x",
  "і": "i",
  "ј": "j",
  "ѕ": "s",
  "ԁ": "d",
  "һ": "h",
  "ԛ": "q",
  "ԝ": "w",
  "А": "A",
  "В": "B",
  "Е": "E",
  "К": "K",
  "М": "M",
  "Н": "H",
  "О": "O",
  "Р": "P",
  "С": "C",
  "Т": "T",
  "Х": "X",
  "І": "I",
  "Ј": "J",
  "Ѕ": "S",
  "ο": "o",
  "ν": "v",
  "ι": "i",
  "κ": "k",
  "ρ": "p",
  "υ": "u",
  "χ": "x",
  "Α": "A",
  "Β": "B",
  "Ε": "E",
  "Ζ": "Z",
  "Η": "H",
  "Ι": "I",
  "Κ": "K",
  "Μ": "M",
  "Ν": "N",
  "Ο": "O",
  "Ρ": "P",
  "Τ": "T",
  "Υ": "Y",
  "Χ": "X",
};

/** Characters that look like a path separator or a colon (NFKC leaves them as they are). */
const SEPARATOR_LOOKALIKES =
  /[\u2044\u2215\u29f8\u2571\u27cb\u2216\u29f5\u29f9\u2236\ua789\u0589]/u;

function scriptOf(char: string): string {
  scriptPatterns ??= SCRIPT_NAMES.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")]);
  for (const [name, pattern] of scriptPatterns) if (pattern.test(char)) return name;
  return "another script";
}

function allowedMix(scripts: ReadonlySet<string>): boolean {
  if (scripts.size <= 1) return true;
  if (CJK_SETS.some((set) => [...scripts].every((s) => set.has(s)))) return true;
  if (scripts.size > 2 || !scripts.has("Latin")) return false;
  return ![...scripts].some((s) => LATIN_LOOKALIKE_SCRIPTS.has(s));
}

/**
 * What makes one path segment (NFC, NFKC-stable) a possible look-alike, or `null` when it is
 * fine. The reason is one line a person can act on.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lookalikeProblem("api"), null);
 * assert.equal(lookalikeProblem("документы"), null);
 * assert.equal(
 *   lookalikeProblem("\u0430pi"),
 *   "segment 'аpi' mixes Cyrillic and Latin letters; write 'api'",
 * );
 * ```
 */
export function lookalikeProblem(segment: string): string | null {
  // deno-lint-ignore no-control-regex
  if (/^[\u0000-\u007f]*$/.test(segment)) return null;
  const quoted = `'${segment}'`;
  if (SEPARATOR_LOOKALIKES.test(segment)) {
    return `segment ${quoted} has a character that looks like '/', '\\' or ':'`;
  }
  if (/[0-9]/.test(segment) && /(?![0-9])\p{Nd}/u.test(segment)) {
    return `segment ${quoted} mixes ASCII digits with digits of another system`;
  }
  const scripts = new Set<string>();
  let latinSkeleton = "";
  let allLookalike = true;
  let othersLookLatin = true;
  for (const char of segment) {
    if (!/\p{L}/u.test(char)) {
      latinSkeleton += char;
      continue;
    }
    const script = scriptOf(char);
    scripts.add(script);
    const latin = LATIN_LOOKALIKES[char];
    if (latin === undefined) allLookalike = false;
    if (latin === undefined && script !== "Latin") othersLookLatin = false;
    latinSkeleton += latin ?? char;
  }
  if (!allowedMix(scripts)) {
    const names = [...scripts].sort();
    const last = names.pop();
    const fix = othersLookLatin ? `; write '${latinSkeleton}'` : "";
    return `segment ${quoted} mixes ${names.join(", ")} and ${last} letters${fix}`;
  }
  if (allLookalike && scripts.size === 1 && !scripts.has("Latin")) {
    return `segment ${quoted} looks like the Latin '${latinSkeleton}' (write it in Latin letters)`;
  }
  return null;
}
