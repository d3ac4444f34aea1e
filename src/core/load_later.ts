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
 * {@link provideBundled}, and names those a chunk beside it holds to {@link provideChunk}; any
 * other is loaded from `src/`. Either way, a module loaded later is a copy of its own beside the
 * bundle's. The bundles carry only what their events need: the inject bundle the session-start
 * handlers, the shell bundle (`inject --shell`) the shell-command reader too, the stop bundle
 * nothing, its filing code being in its chunk (`src/entry/bundle_inject.ts` and
 * `src/entry/bundle_stop.ts` say why the copies are safe; `tests/hook_bundle_test.ts` checks that
 * no module held by both copies keeps state or a class checked with `instanceof`). Every target is
 * a string literal under `src/`, so `tests/layers_test.ts` reads these edges like imports.
 *
 * @module
 */

/** The modules a bundled hook carries, by their path under `src/`. */
const bundled = new Map<string, unknown>();

/** The chunk that holds a module a bundled hook loads later, by the module's path under `src/`. */
const chunkOf = new Map<string, string>();

/** Each chunk's loading, once: true when it loaded and handed over its modules. */
const chunkLoads = new Map<string, Promise<boolean>>();

/**
 * Where paths under `src/` resolve: this module sits in `src/core/`; a bundle sits in `bundles/`
 * or `hooks/`, one folder below the repository root, so its `src/` is `../src/`. Made on first
 * use: a hook run that loads nothing from source never pays for a `URL` (about 0.2 ms the first
 * time).
 */
let srcRoot: URL | undefined;

/** Whether this run has imported a module at run time (from a chunk or from `src/`). */
let imported = false;

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
  const chunk = chunkOf.get(srcPath);
  return chunk === undefined ? fromSource(srcPath) : fromChunk(chunk, srcPath);
}

function fromSource<T>(srcPath: string): Promise<T> {
  imported = true;
  srcRoot ??= new URL(import.meta.url.endsWith(".ts") ? "../" : "../src/", import.meta.url);
  return import(new URL(srcPath, srcRoot).href);
}

/** The module from its chunk; from `src/` when the chunk is missing or does not hold it. */
async function fromChunk<T>(chunk: string, srcPath: string): Promise<T> {
  let loading = chunkLoads.get(chunk);
  if (loading === undefined) {
    imported = true;
    loading = import(chunk).then(
      (module: { MODULES?: Readonly<Record<string, unknown>> }) => {
        provideBundled(module.MODULES ?? {});
        return true;
      },
      () => false,
    );
    chunkLoads.set(chunk, loading);
  }
  await loading;
  const module = bundled.get(srcPath);
  return module === undefined ? fromSource(srcPath) : module as T;
}

/**
 * Names the modules the chunk at `chunk` (a `file:` URL, beside the bundle: built by
 * `scripts/bundle_hooks.ts`, whose entry exports them as `MODULES` by path under `src/`) holds:
 * {@link loadLater} of one of them loads the chunk once and takes it from there. A chunk that
 * cannot be loaded (missing, damaged) only costs the speed: the modules come from `src/`. Only a
 * bundle's entry module calls this (`src/entry/bundle_*.ts`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathToFileURL } from "node:url";
 * import { loadLater, provideChunk } from "./load_later.ts";
 *
 * const path = `${Deno.makeTempDirSync()}/chunk.js`;
 * Deno.writeTextFileSync(path, 'export const MODULES = { "example/chunked.ts": { n: 7 } };');
 * const chunk = pathToFileURL(path).href;
 * provideChunk(chunk, ["example/chunked.ts", "core/errors.ts"]);
 * assert.deepEqual(await loadLater("example/chunked.ts"), { n: 7 });
 * // named but not in the chunk: loaded from src/
 * const errors = await loadLater<typeof import("./errors.ts")>("core/errors.ts");
 * assert.equal(errors.messageOf(new Error("boom")), "boom");
 * ```
 */
export function provideChunk(chunk: string, modules: readonly string[]): void {
  for (const srcPath of modules) chunkOf.set(srcPath, chunk);
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

/**
 * Whether this run has imported a module at run time: a chunk, or a module from `src/` (a carried
 * one is not imported). Deno may still be writing such a module's code cache when the run ends
 * (`load_clock.ts`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { importedLater, loadLater } from "./load_later.ts";
 *
 * await loadLater("core/errors.ts");
 * assert.equal(importedLater(), true);
 * ```
 */
export function importedLater(): boolean {
  return imported;
}
