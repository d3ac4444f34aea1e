/**
 * Likely-credential detection (pure), so secrets never reach a committed library file.
 *
 * Finds private-key headers; AWS, GitHub, GitLab, Slack, Stripe, Google, OpenAI and Anthropic
 * keys; JWTs; bearer tokens; passwords in connection URLs; and obvious `password=` / `token:`
 * assignments with a long value. A finding names the kind and the line, never the secret.
 *
 * It errs towards holding a block back: a false alarm costs one edit in scratch, a miss puts a
 * credential into git history.
 *
 * @module
 */

/** One likely credential: what kind it looks like and where (never the value itself). */
export interface SecretFinding {
  /** A human name for the kind, e.g. "GitHub token". */
  kind: string;
  /** 1-based line number within the scanned text. */
  line: number;
}

interface Detector {
  kind: string;
  pattern: RegExp;
  /** Extra check on the match (e.g. "has a digit"), to cut false alarms. */
  accept?: (match: RegExpExecArray) => boolean;
}

const hasDigit = (s: string) => /\d/.test(s);

const DETECTORS: readonly Detector[] = [
  {
    kind: "private key",
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  { kind: "AWS access key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/ },
  {
    kind: "AWS secret key",
    pattern: /aws_?secret_?(?:access_?)?key\W{0,4}[=:]\W{0,3}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/i,
  },
  { kind: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
  { kind: "GitHub token", pattern: /\bgithub_pat_[A-Za-z0-9_]{40,}\b/ },
  {
    kind: "GitLab token",
    pattern: /\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|imt|agent)-[A-Za-z0-9_-]{20,}/,
  },
  { kind: "Slack token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/ },
  {
    kind: "Slack webhook",
    pattern:
      /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]{8,}/,
  },
  { kind: "Stripe key", pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { kind: "Stripe webhook secret", pattern: /\bwhsec_[A-Za-z0-9]{24,}/ },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { kind: "Google OAuth secret", pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/ },
  { kind: "Google OAuth token", pattern: /\bya29\.[0-9A-Za-z_-]{20,}/ },
  { kind: "Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_-]{20,}/ },
  {
    kind: "OpenAI API key",
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/,
    accept: (m) => hasDigit(m[0]),
  },
  {
    kind: "JWT",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  },
  {
    kind: "bearer token",
    pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/,
    accept: (m) => hasDigit(m[1]!) && !isPlaceholder(m[1]!),
  },
  {
    kind: "password in a URL",
    // The scheme is bounded so a long run like `a+a+a+...` is not rescanned from every letter.
    pattern: /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]+:([^\s/@]{6,})@/i,
    accept: (m) => !isPlaceholder(m[1]!),
  },
];

/**
 * A secret-ish keyword, assigned a value. The key's other characters before the keyword are read
 * by {@link keyBefore} rather than matched here, so that a long dotted run (`a.a.a...`) is scanned
 * once, not once per word boundary.
 */
const ASSIGNMENT =
  /(password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth[_-]?key)["']?\s*(?::=|=>|[=:])\s*(["'`]?)([^\s"'`,;)]+)/gi;
const KEY_CHAR = /[A-Za-z0-9_.-]/;
/** The most key characters before a keyword that are looked at. */
const MAX_KEY_PREFIX = 64;

/** The key characters right before `index` (e.g. `DB_` before `PASSWORD`). */
function keyBefore(text: string, index: number): string {
  let start = index;
  while (start > 0 && index - start < MAX_KEY_PREFIX && KEY_CHAR.test(text[start - 1]!)) start--;
  return text.slice(start, index);
}

const PLACEHOLDER =
  /^(?:<.*>|\{.*\}|\[.*\]|\$.*|%.*%|x{3,}|\*{3,}|\.{3,}|#.*)$|your|example|placeholder|changeme|redacted|dummy|sample|replace|xxxx|\*\*\*|process\.env|os\.environ|getenv|secrets\.|env\(|\$\{/i;

/** True for values that stand in for a secret rather than being one. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** A dotted reference such as `config.auth.token` or `settings.apiKey()`. */
function isReference(value: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?$/.test(value);
}

/**
 * Whether an assignment's value looks like a real credential: passwords of 8+ characters,
 * other secrets of 16+ characters with a digit (random tokens) or 24+ characters, never a
 * placeholder, a reference or a type name.
 */
export function looksLikeSecretValue(key: string, value: string): boolean {
  if (isPlaceholder(value) || isReference(value)) return false;
  if (/^(?:true|false|null|undefined|none|string|number|boolean|required|optional)$/i.test(value)) {
    return false;
  }
  const isPassword = /pass|pwd/i.test(key);
  if (isPassword) return value.length >= 8;
  if (value.length >= 24 && /[A-Za-z]/.test(value) && hasDigit(value)) return true;
  return value.length >= 16 && hasDigit(value) && /[A-Za-z]/.test(value);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Finds likely credentials in `text`, at most one finding per kind, in order of appearance.
 *
 * @example
 * ```ts
 * findSecrets("- deploy key: AKIAABCDEFGHIJKLMNOP"); // [{ kind: "AWS access key", line: 1 }]
 * ```
 */
export function findSecrets(text: string): SecretFinding[] {
  const found = new Map<string, number>();
  const note = (kind: string, index: number) => {
    if (!found.has(kind)) found.set(kind, index);
  };
  for (const detector of DETECTORS) {
    const pattern = new RegExp(detector.pattern.source, detector.pattern.flags + "g");
    for (const match of text.matchAll(pattern)) {
      if (detector.accept && !detector.accept(match as RegExpExecArray)) continue;
      note(detector.kind, match.index);
      break;
    }
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    const keyword = match[1]!;
    const key = keyBefore(text, match.index) + keyword;
    const value = match[3]!;
    if (looksLikeSecretValue(key, value)) {
      note(/pass|pwd/i.test(keyword) ? "password" : "secret assignment", match.index);
    }
  }
  return [...found.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([kind, index]) => ({ kind, line: lineOf(text, index) }));
}

/** One line for a person: "likely GitHub token (line 3)", never the value. */
export function describeSecrets(findings: readonly SecretFinding[]): string {
  const first = findings[0];
  if (!first) return "";
  const more = findings.length > 1 ? ` and ${findings.length - 1} more` : "";
  return `likely ${first.kind} (line ${first.line})${more}`;
}
