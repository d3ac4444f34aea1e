/**
 * The one check every validator of persisted JSON starts with.
 *
 * @module
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/**
 * True for a plain JSON object (not null, not an array).
 *
 * @example Usage
 * ```ts
 * import { isObject } from "./json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isObject({ a: 1 }));
 * assert.ok(!isObject([1]) && !isObject(null));
 * ```
 */
export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
