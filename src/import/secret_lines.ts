/**
 * A likely secret costs a line, not a file (pure): `import` keeps out each line (or private-key
 * block) holding a likely credential, with its line number and reason, and imports the rest.
 * The line `<!-- librarian: not-a-secret -->` (the marker filing reads) right above a line, or at
 * its end, lets that line through. Inside fenced code and in obvious templates (`<token>`, `${VAR}`,
 * `user:password@host`) only a provider's own key shape counts, never a password-like guess.
 *
 * @module
 */

import { findSecrets, findSecretSpans, NOT_A_SECRET } from "../format/mod.ts";

/** A line kept out of the library. */
export interface HeldLine {
  /** 1-based, as in the source file. */
  line: number;
  /** What it looks like ("password in a URL"), never the value. */
  kind: string;
}

/** Kinds that are a guess from a word (password, secret) rather than a provider's key shape. */
const GUESSED = new Set(["password", "secret assignment", "password in a URL"]);

const MARKER = /<!--[ \t]*librarian:[ \t]*not-a-secret[ \t]*-->/;
/** A value that is a template or an example, not a credential. */
const TEMPLATE =
  /<[\w .:-]+>|\$\{[^}]*\}|\{\{[^}]*\}\}|%[\w]+%|:\/\/[\w.-]*:(?:password|passwd|pass|pwd|secret|token|key|changeme|x{3,}|\*{3,}|<[^>]*>)@/i;

/**
 * The text without its likely secrets, and which lines were held back (pure). `firstLine` is the
 * number of the text's first line in its file.
 *
 * @example Usage
 * ```ts
 * import { withoutSecretLines } from "./secret_lines.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "- keep this\n- token: ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n- and this\n";
 * const { text: kept, held } = withoutSecretLines(text, 1);
 * assert.equal(kept, "- keep this\n- and this\n");
 * assert.deepEqual(held, [{ line: 2, kind: "GitHub token" }]);
 * const fence = "`".repeat(3);
 * const fenced = `${fence}ts\nconst password = 'Zx9#q!rT2' // test fixture\n${fence}\n`;
 * assert.deepEqual(withoutSecretLines(fenced, 1).held, []);
 * assert.deepEqual(withoutSecretLines("- dsn contember://project:token@endpoint\n", 1).held, []);
 * ```
 */
export function withoutSecretLines(
  text: string,
  firstLine: number,
): { text: string; held: HeldLine[] } {
  const lines = text.split("\n");
  const dropped = new Set<number>();
  const heldAt = new Map<number, string>();
  const allowedAt = (i: number) =>
    MARKER.test(lines[i]!) || i > 0 && MARKER.test(lines[i - 1]!) &&
      lines[i - 1]!.trim() === NOT_A_SECRET;
  let fence: string | null = null;
  let inKey = false;
  for (const [i, line] of lines.entries()) {
    if (inKey) {
      dropped.add(i);
      if (/-----END [A-Z0-9 ]*PRIVATE KEY/.test(line)) inKey = false;
      continue;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    const fencedBefore = fence !== null;
    if (open) {
      if (fence === null) fence = open[1]!;
      else if (open[1]!.startsWith(fence[0]!) && open[1]!.length >= fence.length) fence = null;
    }
    const findings = allowedAt(i)
      ? []
      : findSecrets(line).filter((f) =>
        !GUESSED.has(f.kind) || !(fencedBefore || TEMPLATE.test(line))
      );
    if (findings.length === 0) continue;
    const named = findings.find((f) => !GUESSED.has(f.kind)) ?? findings[0]!;
    dropped.add(i);
    heldAt.set(i, named.kind);
    if (findings.some((f) => f.kind === "private key") && !/-----END/.test(line)) inKey = true;
  }
  // A provider's key shape that only shows across lines (a key header soft-wrapped inside a
  // bullet or split across bullets) is found in the whole text, its body with it.
  for (const span of findSecretSpans(text)) {
    if (GUESSED.has(span.kind)) continue;
    const range = [...Array(span.endLine - span.line + 1).keys()].map((k) => span.line - 1 + k);
    if (range.some((i) => allowedAt(i)) || range.every((i) => dropped.has(i))) continue;
    for (const i of range) dropped.add(i);
    heldAt.set(range[0]!, span.kind);
  }
  const held = [...heldAt].sort(([a], [b]) => a - b)
    .map(([i, kind]) => ({ line: firstLine + i, kind }));
  return { text: lines.filter((_, i) => !dropped.has(i)).join("\n"), held };
}

/**
 * Held lines in words: "line 12 (likely password), line 40 (likely JWT)" (pure).
 *
 * @example Usage
 * ```ts
 * import { describeHeld } from "./secret_lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeHeld([{ line: 3, kind: "JWT" }]), "line 3 (likely JWT)");
 * ```
 */
export function describeHeld(held: readonly HeldLine[]): string {
  return held.map((h) => `line ${h.line} (likely ${h.kind})`).join(", ");
}
