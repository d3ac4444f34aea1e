/**
 * What a person is told to do about a near-miss tag line (pure): the problem, then the corrected
 * line when the intended path and type are valid, else the tag's shape.
 *
 * Kept apart from the parser (`tag_line.ts`) so that parsing scratch, which every turn does, does
 * not load the tag rules and the credential patterns.
 *
 * @module
 */

import { findSecrets } from "./secrets.ts";
import { type IntendedTag, TAG_SHAPE } from "./tag_line.ts";
import { tagTarget } from "./tag_rules.ts";

/** The longest corrected line a reason quotes. */
const MAX_SUGGESTION = 160;

/**
 * The fix for a near miss: `<problem>; write '<corrected line>'` when the line it meant is valid
 * (and holds nothing that looks like a credential, since reasons are shown and kept in scratch),
 * else `<problem>; write it as '## [TAG: <path>, type: <name>]'`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   nearMissFix("3 '#' instead of 2", { path: "src/api", type: "patterns" }),
 *   "3 '#' instead of 2; write '## [TAG: src/api, type: patterns]'",
 * );
 * assert.equal(
 *   nearMissFix("no closing ']'", { path: "../x", type: "y" }),
 *   "no closing ']'; write it as '## [TAG: <path>, type: <name>]'",
 * );
 * ```
 */
export function nearMissFix(problem: string, intended?: IntendedTag): string {
  if (intended && tagTarget(intended.path, intended.type).ok) {
    const line = `## [TAG: ${intended.path}, type: ${intended.type}]`;
    if (line.length <= MAX_SUGGESTION && findSecrets(line).length === 0) {
      return `${problem}; write '${line}'`;
    }
  }
  return `${problem}; write it as '${TAG_SHAPE}'`;
}

/** The generic fix for a tag line that cannot be filed. */
export const TAG_FIX = "fix the tag line: ## [TAG: <code folder, or global>, type: <file name>]";

/**
 * The fix for a block kept for its tag line, from the reason it was kept: the corrected line when
 * the reason names one (a near miss whose intent is clear), else {@link TAG_FIX}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   tagLineFix("malformed tag: 3 '#' instead of 2; write '## [TAG: src/api, type: edge]'"),
 *   "replace the tag line with '## [TAG: src/api, type: edge]'",
 * );
 * assert.equal(tagLineFix("path '../x' has a '..' segment"), TAG_FIX);
 * ```
 */
export function tagLineFix(reason: string): string {
  const corrected = /; write '(## \[TAG: [^\n]*\])'$/.exec(reason);
  return corrected ? `replace the tag line with '${corrected[1]}'` : TAG_FIX;
}
