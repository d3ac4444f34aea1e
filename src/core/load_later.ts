/**
 * Loading a module only when a run needs it, without growing the start-up module graph.
 *
 * `deno run` reads every module a literal `import("./x.ts")` names, and everything those import,
 * before the first line runs, even when that branch never executes: with the command table in
 * `main.ts` that was every module of the program (over 100 files and an npm package) for each
 * hook run, about 5 ms of CPU on a 20 ms start. A specifier built at run time is not followed, so
 * the module is read only when it is imported. A compiled binary embeds these modules through
 * `--include src` (`scripts/build_plan.ts`).
 *
 * @module
 */

/**
 * Imports the module at `url` (build it as `new URL("./x.ts", import.meta.url)`), typed by the
 * caller: `loadLater<typeof import("./x.ts")>(...)` (a type-only reference, free at run time).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLater } from "./load_later.ts";
 *
 * const errors = await loadLater<typeof import("./errors.ts")>(
 *   new URL("./errors.ts", import.meta.url),
 * );
 * assert.equal(errors.messageOf(new Error("boom")), "boom");
 * ```
 */
export function loadLater<T>(url: URL): Promise<T> {
  return import(url.href);
}
