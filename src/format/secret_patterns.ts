/**
 * The credential shapes that have a recognisable form of their own (pure): provider tokens with a
 * fixed prefix, key headers, and passwords on command lines. Assignments such as `password=…`
 * are judged in `secrets.ts`.
 *
 * @module
 */

/** One recognisable credential shape. */
export interface Detector {
  /** A human name for the kind, e.g. "GitHub token". */
  kind: string;
  /** The shape (no `g` flag; the caller adds it). */
  pattern: RegExp;
  /** Extra check on the match (e.g. "has a digit"), to cut false alarms. */
  accept?: (match: RegExpExecArray) => boolean;
  /**
   * Lower-case text of which at least one must be in the (lower-cased) text for the shape to be
   * there at all: a plain search that skips the pattern on almost every learning.
   */
  hints: readonly string[];
}

const PLACEHOLDER =
  /^(?:<.*>|\{.*\}|\[.*\]|\$.*|%.*%|x{3,}|\*{3,}|\.{3,}|#.*)$|your|example|placeholder|changeme|redacted|dummy|sample|replace|xxxx|\*\*\*|process\.env|os\.environ|getenv|secrets\.|env\(|\$\{/i;

/**
 * True for values that stand in for a secret rather than being one (`<token>`, `${X}`...).
 *
 * @example Usage
 * ```ts
 * import { isPlaceholder } from "./secret_patterns.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isPlaceholder("<token>"));
 * assert.ok(isPlaceholder("${API_KEY}"));
 * assert.ok(!isPlaceholder("ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
 * ```
 */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** True when a text has a digit. */
export const hasDigit = (s: string): boolean => /\d/.test(s);

const realValue = (group: number) => (m: RegExpExecArray) => !isPlaceholder(m[group]!);

/**
 * Whether a value near a credential word is one: 32 hex digits (a Twilio auth token), or 20 to 64
 * letters and digits in both cases with digits in two places or more (an API key's secret, not a
 * name such as OAuth2TokenStore).
 */
function secretInProse(value: string): boolean {
  if (/^[0-9a-f]{32}$/i.test(value)) return hasDigit(value) && /[a-f]/i.test(value);
  const digitRuns = value.match(/\d+/g)?.length ?? 0;
  return digitRuns >= 2 && /[A-Z]/.test(value) && /[a-z]/.test(value);
}

/** Every recognisable shape, checked in this order. */
export const DETECTORS: readonly Detector[] = [
  {
    kind: "private key",
    // The header as written, or soft-wrapped inside a bullet, or split across bullets or quoted
    // lines: between its words any run of spaces, line breaks and list or quote markers.
    pattern:
      /-----BEGIN(?:[\s>*+-]{1,12}[A-Z0-9]{1,12}){0,4}?[\s>*+-]{1,12}PRIVATE[\s>*+-]{1,12}KEY\b/,
    hints: ["-----begin"],
  },
  {
    kind: "AWS access key",
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/,
    // AWS's own documentation key (AKIAIOSFODNN7EXAMPLE) is not a credential.
    accept: (m) => !m[0].endsWith("EXAMPLE"),
    hints: ["akia", "asia", "abia", "acca", "a3t"],
  },
  {
    kind: "AWS secret key",
    pattern: /aws_?secret_?(?:access_?)?key\W{0,4}[=:]\W{0,3}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/i,
    hints: ["aws"],
  },
  {
    kind: "AWS secret key",
    // In prose: "the AWS secret access key is …", "AWS Secret Access Key : …", "the secret key
    // is …", or a 40-character key with both cases and a digit close after the word AWS. A git
    // hash has no capitals. AWS's documentation key (…EXAMPLEKEY) is held too: written as a
    // learning's key it reads as one, and the not-a-secret marker lets it through.
    pattern:
      /\b(?:aws\b|secret[\s_-]{0,3}(?:access[\s_-]{0,3})?key\b)[^\n]{0,60}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/i,
    accept: (m) => {
      const key = m[1]!;
      return hasDigit(key) && /[A-Z]/.test(key) && /[a-z]/.test(key);
    },
    hints: ["aws", "secret"],
  },
  {
    kind: "Twilio account SID",
    // `AC` and 32 hex digits: with the auth token beside it, the account's login.
    pattern: /\bAC[0-9a-f]{32}(?![A-Za-z0-9])/,
    accept: (m) => hasDigit(m[0].slice(2)),
    hints: ["ac"],
  },
  {
    kind: "Twilio API key",
    // `SK` and 32 hex digits: an API key's SID, whose secret is usually written beside it.
    pattern: /\bSK[0-9a-f]{32}(?![A-Za-z0-9])/,
    accept: (m) => hasDigit(m[0].slice(2)),
    hints: ["sk"],
  },
  {
    kind: "secret in prose",
    // A credential word (in a name too: TWILIO_AUTH_TOKEN=), then within a few words a value of 32 hex digits (a Twilio auth token)
    // or of 20 to 64 letters and digits in both cases with digits in two places or more (an API
    // key's secret, not a name such as OAuth2TokenStore): "the auth token is …", "its secret …".
    // Without the word, a 32-hex checksum is not held; a git hash (40 hex, no capitals) never is.
    pattern:
      /(?<![A-Za-z0-9])(?:auth[\s_-]{0,2}token|access[\s_-]{0,2}token|api[\s_-]{0,2}secret|secret|token|password|passphrase|credentials?|creds?|twilio)(?![A-Za-z])[^\n]{0,40}?(?<![A-Za-z0-9/+_-])([A-Za-z0-9]{20,64})(?![A-Za-z0-9/+_-])/i,
    accept: (m) => secretInProse(m[1]!),
    hints: ["token", "secret", "password", "passphrase", "cred", "twilio"],
  },
  {
    kind: "secret in prose",
    // The same value with the word after it: "… 9f3b…1c8d is the Twilio auth token".
    pattern:
      /(?<![A-Za-z0-9/+_-])([A-Za-z0-9]{20,64})(?![A-Za-z0-9/+_-])[^\n]{0,30}?\b(?:auth[\s_-]{0,2}token|access[\s_-]{0,2}token|api[\s_-]{0,2}secret|secret|token|password|passphrase|credentials?|creds?|twilio)(?![A-Za-z])/i,
    accept: (m) => secretInProse(m[1]!),
    hints: ["token", "secret", "password", "passphrase", "cred", "twilio"],
  },
  { kind: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, hints: ["gh"] },
  { kind: "GitHub token", pattern: /\bgithub_pat_[A-Za-z0-9_]{40,}\b/, hints: ["github_pat_"] },
  {
    kind: "GitLab token",
    pattern: /\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|imt|agent)-[A-Za-z0-9_-]{20,}/,
    hints: ["gl"],
  },
  { kind: "Slack token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/, hints: ["xox"] },
  { kind: "Slack token", pattern: /\bxapp-\d-[A-Za-z0-9-]{20,}/, hints: ["xapp-"] },
  {
    kind: "Discord webhook",
    pattern: /discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/\d{5,}\/[A-Za-z0-9_-]{20,}/i,
    hints: ["discord"],
  },
  {
    kind: "Hugging Face token",
    pattern: /\bhf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])/,
    accept: (m) => hasDigit(m[0]) && /[A-Z]/.test(m[0]),
    hints: ["hf_"],
  },
  {
    kind: "Slack webhook",
    pattern:
      /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]{8,}/,
    hints: ["hooks.slack.com"],
  },
  {
    kind: "Stripe key",
    pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/,
    hints: ["_live_", "_test_"],
  },
  { kind: "Stripe webhook secret", pattern: /\bwhsec_[A-Za-z0-9]{24,}/, hints: ["whsec_"] },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/, hints: ["aiza"] },
  { kind: "Google OAuth secret", pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/, hints: ["gocspx-"] },
  { kind: "Google OAuth token", pattern: /\bya29\.[0-9A-Za-z_-]{20,}/, hints: ["ya29."] },
  {
    kind: "Anthropic API key",
    pattern: /\bsk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_-]{20,}/,
    hints: ["sk-ant-"],
  },
  {
    kind: "OpenAI API key",
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/,
    accept: (m) => hasDigit(m[0]),
    hints: ["sk-"],
  },
  { kind: "npm token", pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/, hints: ["npm_"] },
  { kind: "PyPI token", pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}/, hints: ["pypi-"] },
  {
    kind: "SendGrid key",
    pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64}/,
    hints: ["sg."],
  },
  {
    kind: "Vault token",
    pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/,
    hints: ["hvs.", "hvb.", "hvr."],
  },
  { kind: "Shopify token", pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/, hints: ["shp"] },
  {
    kind: "Telegram bot token",
    pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/,
    hints: [":aa"],
  },
  {
    kind: "Azure storage key",
    pattern: /AccountKey=([A-Za-z0-9+/]{40,}={0,2})/,
    accept: (m) => hasDigit(m[1]!),
    hints: ["accountkey="],
  },
  {
    kind: "Azure access key",
    // Service Bus, Event Hubs, IoT Hub and SignalR connection strings.
    pattern: /SharedAccessKey\s*=\s*([A-Za-z0-9+/]{30,}={0,2})/i,
    accept: (m) => hasDigit(m[1]!),
    hints: ["sharedaccesskey"],
  },
  {
    kind: "npm credentials",
    // .npmrc: `_auth=<base64 user:password>`, `//registry/:_authToken=…`, `_password=…`.
    pattern: /(?:^|[\s:;"'])_(?:auth|authToken|password)[ \t]*=[ \t]*["']?([^\s"']{8,})/m,
    accept: realValue(1),
    hints: ["_auth", "_password"],
  },
  {
    kind: "JWT",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
    hints: ["eyj"],
  },
  {
    kind: "bearer token",
    pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/,
    accept: (m) => hasDigit(m[1]!) && !isPlaceholder(m[1]!),
    hints: ["bearer"],
  },
  {
    kind: "basic auth header",
    pattern: /\bAuthorization\s*:\s*Basic\s+([A-Za-z0-9+/]{12,}={0,2})/i,
    accept: (m) => hasDigit(m[1]!) || /[A-Z]/.test(m[1]!) && /[a-z]/.test(m[1]!),
    hints: ["basic"],
  },
  {
    kind: "password in a URL",
    // The scheme is bounded so a long run like `a+a+a+...` is not rescanned from every letter.
    // The user may be empty (`redis://:pass@host`).
    pattern: /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]{0,256}:([^\s/@]{1,256})@/i,
    accept: realValue(1),
    hints: ["://"],
  },
  {
    kind: "password",
    // `mysql -u root -pS3cret app`: the password is glued to -p.
    pattern: /\bmysql(?:dump|admin|sh)?\b[^\n]{0,200}?\s-p([^\s'"-][^\s]{3,})/,
    accept: realValue(1),
    hints: ["mysql"],
  },
  {
    kind: "password",
    pattern: /\bcurl\b[^\n]{0,200}?\s(?:-u|--user)\s+["']?[^\s:"']{1,64}:([^\s"']{4,})/,
    accept: realValue(1),
    hints: ["curl"],
  },
  {
    kind: "password",
    // `docker login -u ci -p S3cret registry`, `--password=S3cret` (never --password-stdin).
    pattern:
      /\bdocker\b[^\n]{0,40}?\blogin\b[^\n]{0,200}?\s(?:-p|--password)(?:[ \t]+|=)["']?([^\s"'-][^\s"']{3,})/,
    accept: realValue(1),
    hints: ["docker"],
  },
  {
    kind: "password",
    // A .netrc entry.
    pattern: /\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S{4,})/,
    accept: realValue(1),
    hints: ["machine"],
  },
];
