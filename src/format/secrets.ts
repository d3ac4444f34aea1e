/**
 * Likely-credential detection (pure), so secrets never reach a committed library file.
 *
 * Finds the shapes in `secret_patterns.ts` (private-key headers; AWS, GitHub, GitLab, Slack,
 * Stripe, Google, OpenAI, Anthropic, npm, PyPI, SendGrid, Vault, Shopify, Telegram, Twilio and
 * Azure keys; JWTs; bearer and basic auth headers; passwords in URLs, on `mysql`/`curl` command
 * lines and in `.netrc`; a token-like value right beside a credential word, as in "the auth token
 * is …"), and assignments of a secret-named key (`DB_PASSWORD=…`, `PGPASSWORD='…'`,
 * `SECRET_KEY = '…'`, `JWT_SECRET_KEY=…`, `"apiKey": "…"`) whose value looks real. A finding names
 * the kind and the line, never the secret.
 *
 * It errs towards holding a block back: a false alarm costs one edit in scratch, a miss puts a
 * credential into git history. `tests/fixtures/secret_corpus.txt` holds the shapes it must find,
 * each with a near miss it must let through.
 *
 * Why not a maintained rule set such as secretlint's recommended preset: measured under Deno it
 * adds 60-100 ms of loading to every turn that files anything, and it finds none of the
 * assignment forms above (only URL passwords and provider tokens, which are here too).
 *
 * @module
 */

import { DETECTORS, hasDigit, isPlaceholder } from "./secret_patterns.ts";

export { isPlaceholder } from "./secret_patterns.ts";

/** Every detector's hints, each once, longest first. */
const HINTS: readonly string[] = [...new Set(DETECTORS.flatMap((detector) => detector.hints))]
  .sort((a, b) => b.length - a.length);

/**
 * At each position of a lower-cased text where a hint starts, the longest one that does (the
 * alternatives go longest first). It matches no text, so every position is tried: overlapping and
 * nested hints are all found, a shorter one starting where a longer one does as its prefix.
 */
const HINT_AT = new RegExp(`(?=(${HINTS.map(literally).join("|")}))`, "g");

/** `text` as a regular expression that matches it literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^$|()[\]{}\\/]/g, "\\$&");
}

/** For each hint (by its place in {@link HINTS}), the hints it starts with, itself included. */
const PREFIXES: readonly (readonly number[])[] = HINTS.map((hint) =>
  HINTS.flatMap((other, i) => hint.startsWith(other) ? [i] : [])
);

/**
 * Which hints a lower-cased text holds, by their place in {@link HINTS}: one scan of the text,
 * where asking each hint (`includes`) scanned it some 60 times for each learning filed.
 */
function presentHints(lower: string): boolean[] {
  const present = new Array<boolean>(HINTS.length).fill(false);
  for (const match of lower.matchAll(HINT_AT)) {
    for (const i of PREFIXES[HINTS.indexOf(match[1]!)]!) present[i] = true;
  }
  return present;
}

/**
 * The detectors' hints (`secret_patterns.ts`) that a lower-cased text holds, longest first: the
 * same as asking each hint whether the text `includes` it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { hintsIn } from "./secrets.ts";
 *
 * // a hint inside a longer one ("sk-" and "sk" in "sk-ant-") is found too
 * assert.deepEqual(hintsIn("key sk-ant-"), ["sk-ant-", "sk-", "sk"]);
 * assert.deepEqual(hintsIn("plain words"), []);
 * ```
 */
export function hintsIn(lower: string): string[] {
  const present = presentHints(lower);
  return HINTS.filter((_, i) => present[i]);
}

/** Each detector with its pattern compiled once for scanning (`g`). */
const SCANS = DETECTORS.map((detector) => ({
  ...detector,
  global: new RegExp(detector.pattern.source, detector.pattern.flags + "g"),
}));

/**
 * For each hint (by its place in {@link HINTS}), the detectors (by their place in `DETECTORS`)
 * that a match of it calls for: those with it, or with a hint it starts with, among their hints.
 */
const DETECTORS_AT: readonly (readonly number[])[] = PREFIXES.map((prefixes) =>
  DETECTORS.flatMap((detector, d) =>
    prefixes.some((i) => detector.hints.includes(HINTS[i]!)) ? [d] : []
  )
);

/**
 * The detectors (by their place in `DETECTORS`, in that order) at least one of whose hints a
 * lower-cased text holds: the only ones whose patterns can match it. One scan of the text; most
 * learnings call for none.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { DETECTORS } from "./secret_patterns.ts";
 * import { hintedDetectors } from "./secrets.ts";
 *
 * const kinds = hintedDetectors("token ghp_0123").map((d) => DETECTORS[d]!.kind);
 * assert.ok(kinds.includes("GitHub token"));
 * assert.deepEqual(hintedDetectors("plain words"), []);
 * ```
 */
export function hintedDetectors(lower: string): number[] {
  let called: boolean[] | undefined;
  for (const match of lower.matchAll(HINT_AT)) {
    called ??= new Array<boolean>(DETECTORS.length).fill(false);
    for (const d of DETECTORS_AT[HINTS.indexOf(match[1]!)]!) called[d] = true;
  }
  const detectors: number[] = [];
  for (let d = 0; called && d < called.length; d++) if (called[d]) detectors.push(d);
  return detectors;
}

/** One likely credential: what kind it looks like and where (never the value itself). */
export interface SecretFinding {
  /** A human name for the kind, e.g. "GitHub token". */
  kind: string;
  /** 1-based line number within the scanned text. */
  line: number;
}

/**
 * A secret-named key and the value assigned to it: the keyword, the rest of the key after it
 * (`_PROD` in `DB_PASSWORD_PROD`), and the value, quoted (up to 200 characters on the line) or
 * bare. The key's characters before the keyword are read by {@link keyBefore} rather than matched
 * here, so that a long dotted run (`a.a.a...`) is scanned once, not once per word boundary.
 */
const ASSIGNMENT =
  /(password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|account[_-]?key|client[_-]?secret|credentials?|auth[_-]?key)([A-Za-z0-9_.-]{0,40})["']?[ \t]*(?::=|=>|[=:])[ \t]*(?:(["'`])([^\n]{0,200}?)\3|([^\s"'`]{1,200}))/gi;
const KEY_CHAR = /[A-Za-z0-9_.-]/;
/** The most key characters before a keyword that are looked at. */
const MAX_KEY_PREFIX = 64;
/** Words after the keyword that make the key name something about a secret, not the secret. */
const NOT_A_SECRET_KEY =
  /^(?:id|ids|name|names|file|files|path|dir|env|var|vars|length|len|count|type|ttl|expiry|expires|expiration|header|headers|field|url|uri|endpoint|policy|min|max|regex|pattern|prompt|hint|reset|rotation|age|size|format|version|label|hash|ref|arn|help|required|enabled|mode|prefix|store|manager|provider|location|source|s)$/i;

/** The key characters right before `index` (e.g. `DB_` before `PASSWORD`). */
function keyBefore(text: string, index: number): string {
  let start = index;
  while (start > 0 && index - start < MAX_KEY_PREFIX && KEY_CHAR.test(text[start - 1]!)) start--;
  return text.slice(start, index);
}

/** A dotted reference such as `config.auth.token` or `settings.apiKey()`. */
function isReference(value: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\)|\[.*)?$/.test(value);
}

/** Whether the key names a secret itself, not something about one (`SECRET_NAME`, `TOKEN_TTL`). */
function namesASecret(suffix: string): boolean {
  return !suffix.split(/[_.-]+/).some((word) => NOT_A_SECRET_KEY.test(word));
}

/**
 * Whether an assignment's value looks like a real credential: never a placeholder, a reference or
 * a type name; for a password, 8+ characters, or 5+ with a digit or symbol; for other secrets,
 * 16+ characters with letters and digits, or 24+ with mixed case or symbols.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(looksLikeSecretValue("DB_PASSWORD", "Xk9;mQ2#vL8@pR4"), true);
 * assert.equal(looksLikeSecretValue("DB_PASSWORD", "${DB_PASSWORD}"), false);
 * assert.equal(looksLikeSecretValue("token", "string"), false);
 * ```
 */
export function looksLikeSecretValue(key: string, value: string): boolean {
  if (value === "" || isPlaceholder(value) || isReference(value)) return false;
  if (/^(?:true|false|null|undefined|none|string|number|boolean|required|optional)$/i.test(value)) {
    return false;
  }
  const symbolOrDigit = /[^A-Za-z]/.test(value);
  if (/pass|pwd/i.test(key)) return value.length >= 8 || (value.length >= 5 && symbolOrDigit);
  const letters = /[A-Za-z]/.test(value);
  if (value.length >= 16 && letters && hasDigit(value)) return true;
  const mixedCase = /[a-z]/.test(value) && /[A-Z]/.test(value);
  return value.length >= 24 && !/\s/.test(value) && (mixedCase || /[^\w-]/.test(value));
}

/** The value of an assignment match, or `null` when it is prose rather than a value. */
function assignedValue(match: RegExpMatchArray): string | null {
  const quoted = match[4];
  if (quoted === undefined) return match[5]!.replace(/[,;)\]}]+$/, "");
  // A quoted value with spaces is a passphrase after `=` (`PGPASSWORD='correct horse …'`), but
  // prose after `:` (`password: "at least 12 characters"`).
  if (/\s/.test(quoted) && !/=\s*["'`]$/.test(match[0].slice(0, -quoted.length - 1))) return null;
  return quoted;
}

/**
 * The 1-based line of an index in `text`: the line starts are found once, each look-up is a binary
 * search (a text with thousands of findings is not rescanned from its start for each).
 */
function lineFinder(text: string): (index: number) => number {
  const breaks: number[] = [];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) breaks.push(i);
  return (index) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (breaks[mid]! < index) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}

/** One match of a credential shape: its kind and where it starts and ends in the text. */
interface SecretMatch {
  kind: string;
  index: number;
  end: number;
}

/**
 * Every match of every shape in `text`; a detector whose kind `done` says is known already is
 * not run again (findSecrets wants one finding per kind, the spans every one).
 */
function* secretMatches(text: string, done: (kind: string) => boolean): Generator<SecretMatch> {
  for (const d of hintedDetectors(text.toLowerCase())) {
    const detector = SCANS[d]!;
    if (done(detector.kind)) continue;
    for (const match of text.matchAll(detector.global)) {
      if (detector.accept && !detector.accept(match as RegExpExecArray)) continue;
      yield { kind: detector.kind, index: match.index, end: match.index + match[0].length };
      if (done(detector.kind)) break;
    }
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    const keyword = match[1]!;
    if (!namesASecret(match[2]!)) continue;
    const value = assignedValue(match);
    const key = keyBefore(text, match.index) + keyword + match[2]!;
    if (value !== null && looksLikeSecretValue(key, value)) {
      const kind = /pass|pwd/i.test(key) ? "password" : "secret assignment";
      yield { kind, index: match.index, end: match.index + match[0].length };
    }
  }
}

/** The lines a likely credential covers: 1-based, first and last (inclusive). */
export interface SecretSpan extends SecretFinding {
  /** The last line it covers (a key's body runs to its END line, or to a blank line). */
  endLine: number;
}

/** A line of a key's body, with any list or quote marker: base64, or a PEM header field. */
const KEY_BODY =
  /^[\s>*+-]*(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}|(?:Proc-Type|DEK-Info|Comment):.*)[ \t]*$/;

/**
 * The last line (1-based) of a key whose header ends on line `headerEnd`: its END line, or its
 * last body line when there is no END line (never a learning that follows it).
 */
function keyBodyEnd(lines: readonly string[], headerEnd: number): number {
  let last = headerEnd;
  for (let i = headerEnd; i < lines.length; i++) {
    if (KEY_END.test(lines[i]!)) return i + 1;
    // an END line soft-wrapped or split like the header
    if (i + 1 < lines.length && KEY_END.test(`${lines[i]}\n${lines[i + 1]}`)) return i + 2;
    if (!KEY_BODY.test(lines[i]!)) break;
    last = i + 1;
  }
  return last;
}

const KEY_END =
  /-----END[\s>*+-]{1,12}(?:[A-Z0-9]{1,12}[\s>*+-]{1,12}){0,4}?PRIVATE[\s>*+-]{1,12}KEY/;

/**
 * Every likely credential in `text` with the lines it covers, in line order: what must be set
 * aside so that no part of one is kept. A private key runs from its header to its END line (or,
 * without one, to its last base64 line), so its body goes with it.
 *
 * @example Usage
 * ```ts
 * import { findSecretSpans } from "./secrets.ts";
 * import assert from "node:assert/strict";
 *
 * const key = ["-----BEGIN RSA", "PRIVATE KEY-----"].join(" ");
 * const text = `- one\n- ${key}\n  MIIEowIBAAKCAQEAq7w\n  -----END RSA PRIVATE KEY-----\n- two\n`;
 * assert.deepEqual(findSecretSpans(text), [{ kind: "private key", line: 2, endLine: 4 }]);
 * assert.deepEqual(findSecretSpans("- nothing here\n"), []);
 * ```
 */
export function findSecretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const lineOf = lineFinder(text);
  for (const match of secretMatches(text, () => false)) {
    const line = lineOf(match.index);
    let endLine = lineOf(Math.max(match.index, match.end - 1));
    if (match.kind === "private key") endLine = keyBodyEnd(text.split("\n"), endLine);
    spans.push({ kind: match.kind, line, endLine });
  }
  return spans.sort((a, b) => a.line - b.line || a.endLine - b.endLine);
}

const ITEM_START = /^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;

/**
 * `text` without each list item or paragraph that holds a likely credential, and the spans
 * (widened to those blocks) taken out: for an export, which keeps every other learning of a file.
 *
 * @example Usage
 * ```ts
 * import { withoutSecretBlocks } from "./secrets.ts";
 * import assert from "node:assert/strict";
 *
 * const token = ["gh", "p_", "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3d"].join("");
 * const text = `# Tech\n\n- CI pushes\n  with ${token}\n- Postgres 16\n`;
 * const { text: kept, spans } = withoutSecretBlocks(text);
 * assert.equal(kept, "# Tech\n\n- Postgres 16\n");
 * assert.deepEqual(spans, [{ kind: "GitHub token", line: 3, endLine: 4 }]);
 * ```
 */
export function withoutSecretBlocks(text: string): { text: string; spans: SecretSpan[] } {
  const lines = text.split("\n");
  // A block ends at a blank line, a heading, or the start of the next list item.
  const edge = (i: number) =>
    lines[i]!.trim() === "" || HEADING.test(lines[i]!) || ITEM_START.test(lines[i]!);
  const spans = findSecretSpans(text).map((span) => {
    let first = span.line - 1;
    while (
      first > 0 && !edge(first) && lines[first - 1]!.trim() !== "" &&
      !HEADING.test(lines[first - 1]!)
    ) {
      first--;
    }
    let last = span.endLine - 1;
    while (last + 1 < lines.length && !edge(last + 1)) last++;
    return { kind: span.kind, line: first + 1, endLine: last + 1 };
  });
  return { text: dropLines(text, spans), spans };
}

/** `text` without the lines of `spans` (1-based, inclusive). */
function dropLines(text: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0) return text;
  return text.split("\n")
    .filter((_, i) => !spans.some((span) => i + 1 >= span.line && i + 1 <= span.endLine))
    .join("\n");
}

/**
 * Finds likely credentials in `text`, at most one finding per kind, in order of appearance.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(findSecrets("- staging: DB_PASSWORD=Xk9;mQ2#vL8@pR4"), [
 *   { kind: "password", line: 1 },
 * ]);
 * assert.deepEqual(findSecrets("- DB_PASSWORD comes from Vault"), []);
 * ```
 */
export function findSecrets(text: string): SecretFinding[] {
  const found = new Map<string, number>();
  for (const match of secretMatches(text, (kind) => found.has(kind))) {
    if (!found.has(match.kind)) found.set(match.kind, match.index);
  }
  if (found.size === 0) return []; // almost every learning
  const lineOf = lineFinder(text);
  return [...found.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([kind, index]) => ({ kind, line: lineOf(index) }));
}

/**
 * One line for a person: "likely GitHub token (line 3)", never the value.
 *
 * @example Usage
 * ```ts
 * import { describeSecrets } from "./secrets.ts";
 * import assert from "node:assert/strict";
 *
 * const findings = [{ kind: "GitHub token", line: 3 }, { kind: "AWS key", line: 5 }];
 * assert.equal(describeSecrets(findings.slice(0, 1)), "likely GitHub token (line 3)");
 * assert.equal(describeSecrets(findings), "likely GitHub token (line 3) and 1 more");
 * assert.equal(describeSecrets([]), "");
 * ```
 */
export function describeSecrets(findings: readonly SecretFinding[]): string {
  const first = findings[0];
  if (!first) return "";
  const more = findings.length > 1 ? ` and ${findings.length - 1} more` : "";
  return `likely ${first.kind} (line ${first.line})${more}`;
}
