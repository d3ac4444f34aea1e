/**
 * Names quoted as data: a path or name shown to the model (a context header, a section head, a
 * closing line, a hint) or written into a generated file can never start a line of its own, so
 * no file or folder name can forge a section head, a front-matter key or a marker.
 *
 * @module
 */

/**
 * A path or name with every character that could end a line or hide what follows (control
 * characters, C1 controls among them, Unicode line and paragraph separators, `-->`) written as an
 * escape.
 *
 * @example Usage
 * ```ts
 * import { encodeName } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeName("src/api"), "src/api");
 * assert.equal(encodeName("a\nglobs: x"), "a\\nglobs: x");
 * assert.equal(encodeName("a\u2028b\tc-->"), "a\\u2028b\\tc--\\u003e");
 * assert.equal(encodeName("a\u0090b"), "a\\u0090b");
 * ```
 */
export function encodeName(name: string): string {
  // deno-lint-ignore no-control-regex -- control characters are exactly what is escaped
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]|-->/g, (c) => {
    if (c === "-->") return "--\\u003e";
    const short: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/**
 * A name shortened to at most `max` characters for a list (its start and its end kept, `…`
 * between), after {@link encodeName}; never half a surrogate pair.
 *
 * @example Usage
 * ```ts
 * import { shortName } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shortName("src/api/", 60), "src/api/");
 * const long = `services/${"a".repeat(200)}/module-01/`;
 * assert.equal(shortName(long, 40).length, 40);
 * assert.ok(shortName(long, 40).startsWith("services/a"));
 * assert.ok(shortName(long, 40).endsWith("/module-01/"));
 * assert.equal(shortName("a\nb", 60), "a\\nb");
 * ```
 */
export function shortName(name: string, max: number): string {
  const encoded = encodeName(name);
  if (encoded.length <= max) return encoded;
  const tail = Math.ceil((max - 1) * 0.6);
  let start = encoded.slice(0, max - 1 - tail);
  let end = encoded.slice(encoded.length - tail);
  if (/[\ud800-\udbff]$/.test(start)) start = start.slice(0, -1);
  if (/^[\udc00-\udfff]/.test(end)) end = end.slice(1);
  return `${start}…${end}`;
}
