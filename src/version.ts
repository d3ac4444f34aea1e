/**
 * The program's version, from deno.json: one import for `--version` and every `--json` output.
 *
 * @module
 */

import denoConfig from "../deno.json" with { type: "json" };

/**
 * The program's version (`deno.json`'s `version`).
 *
 * @example Usage
 * ```ts
 * import { VERSION } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(VERSION, /^\d+\.\d+\.\d+/);
 * ```
 */
export const VERSION: string = denoConfig.version;
