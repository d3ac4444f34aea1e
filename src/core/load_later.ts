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
 * A bundled hook (`bundles/*.js` in a checkout, `hooks/*.js` in the release tree, built by
 * `scripts/bundle_hooks.ts`) is one module. Its entry hands the modules it carries to
 * {@link provideBundled}; any other is loaded from `src/`, as a copy of its own beside the
 * bundle's. The bundles carry only what their events need: the inject bundle
 * the session-start handlers, the shell bundle (`inject --shell`) the shell-command reader too,
 * the stop bundle nothing (`src/entry/bundle_inject.ts` and `src/entry/bundle_stop.ts` say why
 * loading the rest from source is safe; `tests/hook_bundle_test.ts` checks that no module held by
 * both copies keeps state or a class checked with `instanceof`). Every target is a string literal
 * under `src/`, so `tests/layers_test.ts` reads these edges like imports.
 *
 * @module
 */

/** The modules a bundled hook carries, by their path under `src/`. */
const bundled = new Map<string, unknown>();

/**
 * Where paths under `src/` resolve: this module sits in `src/core/`; a bundle sits in `bundles/`
 * or `hooks/`, one folder below the repository root, so its `src/` is `../src/`. Made on first
 * use: a hook run that loads nothing from source never pays for a `URL` (about 0.2 ms the first
 * time).
 */
let srcRoot: URL | undefined;

/**
 * Imports the module at `srcPath`, its path under `src/` (`"inject/start.ts"`), typed by the
 * caller: `loadLater<typeof import("./start.ts")>("inject/start.ts")` (a type-only reference,
 * free at run time). A module a bundle carries ({@link provideBundled}) is returned as it is.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLater } from "./load_later.ts";
 *
 * const errors = await loadLater<typeof import("./errors.ts")>("core/errors.ts");
 * assert.equal(errors.messageOf(new Error("boom")), "boom");
 * ```
 */
export function loadLater<T>(srcPath: string): Promise<T> {
  const carried = bundled.get(srcPath);
  if (carried !== undefined) return Promise.resolve(carried as T);
  srcRoot ??= new URL(import.meta.url.endsWith(".ts") ? "../" : "../src/", import.meta.url);
  return import(new URL(srcPath, srcRoot).href);
}

/**
 * Hands the modules a bundle carries to {@link loadLater}, by their path under `src/`. Only a
 * bundle's entry module calls this (`src/entry/bundle_*.ts`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLater, provideBundled } from "./load_later.ts";
 *
 * const carried = { answer: 42 };
 * provideBundled({ "example/carried.ts": carried });
 * assert.equal(await loadLater("example/carried.ts"), carried);
 * ```
 */
export function provideBundled(modules: Readonly<Record<string, unknown>>): void {
  for (const [srcPath, module] of Object.entries(modules)) bundled.set(srcPath, module);
}
