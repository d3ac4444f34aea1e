/**
 * `deno task bundle`: builds each hook as one module of plain JavaScript, which the launcher
 * (`bin/librarian`) runs in source mode.
 *
 * Why: `deno run` pays for every TypeScript module it loads (reading it, its cached emit and
 * code cache, about 0.2 ms each on a 20 ms start), and the inject hook has some 30. One bundled
 * module loads in about 1 ms (docs/benchmarks.md). The compiled binary does not need this: it
 * carries its modules in memory.
 *
 * A checkout's bundles are built into `bundles/` (git-ignored, never committed): the tasks that run
 * the hooks (`test`, `test:binary`, `bench`, `demo`, `e2e`) build them first, all in one
 * `deno bundle` run. Beside each bundle goes `<hook>.fresh.sh`, an sh fragment the launcher sources
 * (no process): it is true only while every source module the bundle holds, and `deno.json`, is
 * older than the bundle, so after an edit the launcher runs the hook's TypeScript entry until the
 * next build. The release staging (`scripts/stage_release.ts`) builds the bundles from its own
 * checkout into the release tree's `hooks/`, where the launcher runs them without a check.
 *
 * Whether a bundle matches its sources is a byte comparison with a fresh build
 * (`deno task bundle --check`, `tests/hook_bundle_test.ts`), never a header.
 *
 * Usage: `deno task bundle` (write; `--quiet` says nothing), `deno task bundle --check` (exit 1
 * when a bundle in `bundles/` differs from a fresh build).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where a checkout's bundles are built, relative to the repository root (git-ignored). */
export const BUNDLE_DIR = "bundles";

/** A bundled hook: the file the launcher runs and the entry module it is built from. */
export interface HookBundle {
  /** The hook command the launcher runs it for (`inject`, `inject --shell`, `stop`). */
  name: string;
  /** The bundle's file name, in `bundles/` (a checkout) and in `hooks/` (the release tree). */
  file: string;
  /** Its entry module, relative to the repository root. */
  entry: string;
}

/** The bundled hooks. */
export const HOOK_BUNDLES: readonly HookBundle[] = [
  { name: "inject", file: "inject.js", entry: "src/entry/bundle_inject.ts" },
  { name: "inject --shell", file: "inject-shell.js", entry: "src/entry/bundle_inject_shell.ts" },
  { name: "stop", file: "stop.js", entry: "src/entry/bundle_stop.ts" },
];

/**
 * A part of a hook that its bundle loads only when a run needs it, built as a module of its own
 * beside the bundle: the stop hook's filing code (`stop-filing.js`). An idle turn never reads it;
 * a turn that files reads one module of JavaScript instead of some 100 TypeScript modules from
 * `src/` (about 5 ms against 27 ms). Its sources count towards its hook's freshness fragment, so
 * a checkout never runs a stale chunk: after an edit the launcher runs the hook's TypeScript entry.
 */
export interface LaterChunk {
  /** The name of the hook bundle that loads it ({@link HookBundle.name}). */
  hook: string;
  /** Its file name, beside its hook's bundle (`bundles/` in a checkout, `hooks/` in a release). */
  file: string;
  /** Its entry module, relative to the repository root. */
  entry: string;
}

/** The chunks the hook bundles load later. */
export const LATER_CHUNKS: readonly LaterChunk[] = [
  { hook: "stop", file: "stop-filing.js", entry: "src/entry/bundle_stop_filing.ts" },
];

/** Every file a build writes beside the freshness fragments: the hook bundles and their chunks. */
export const BUILT_MODULES: readonly string[] = [
  ...HOOK_BUNDLES.map((bundle) => bundle.file),
  ...LATER_CHUNKS.map((chunk) => chunk.file),
];

/** The name of the sh fragment that says whether a checkout's bundle is fresh. */
export function freshnessFile(bundle: HookBundle): string {
  return bundle.file.replace(/\.js$/, ".fresh.sh");
}

/** The `file:` URL of a path relative to the repository root. */
function repoUrl(path: string): string {
  return new URL(`../${path}`, import.meta.url).href;
}

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string } }>;
}

/**
 * The modules `deno run` loads before `entry`'s first line: its static graph from
 * `deno info --json`, following code imports only (a type-only `typeof import("./x.ts")` costs
 * nothing at run time). Paths under `src/` are given relative to `src/`; anything else (`npm:`,
 * `node:`) as its specifier. Sorted.
 */
export async function startupGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    // a file: URL, since a Windows path (`Z:\\repo\\...`) would read as a URL scheme `z:`
    args: ["info", "--json", "--config", join(REPO_ROOT, "deno.json"), repoUrl(entry)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  // Under Windows deno info names modules by path (drive letter in lower case) and their
  // dependencies by URL: key both by path, without case there.
  const fold = (path: string) => Deno.build.os === "windows" ? path.toLowerCase() : path;
  const keyOf = (specifier: string) => fold(localPathOf(specifier) ?? specifier);
  const byKey = new Map(info.modules.map((m) => [keyOf(m.specifier), m]));
  const seen = new Map<string, string>();
  const queue = [...info.roots];
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    const key = keyOf(specifier);
    if (seen.has(key)) continue;
    seen.set(key, specifier);
    for (const dep of byKey.get(key)?.dependencies ?? []) {
      if (dep.code) queue.push(dep.code.specifier);
    }
  }
  const src = fold(localPathOf(new URL("../src/", import.meta.url).href)!);
  return [...seen.values()].map((m) => {
    const path = localPathOf(m);
    return path !== null && fold(path).startsWith(src) ? path.slice(src.length) : m;
  }).sort();
}

/**
 * A local module's path with forward slashes, or `null` for `npm:` and
 * `node:` modules. deno info names local modules by `file:` URL, but under Windows by path, with
 * the drive letter in lower case (`z:\\repo\\src\\a.ts`).
 */
function localPathOf(specifier: string): string | null {
  if (specifier.startsWith("file:")) {
    return decodeURIComponent(new URL(specifier).pathname).replace(/^\/([a-zA-Z]:)/, "$1");
  }
  if (/^[a-zA-Z]:[\\/]/.test(specifier) || specifier.startsWith("/")) {
    return specifier.replaceAll("\\", "/");
  }
  return null;
}

/** The first line of every bundle and chunk. */
function header(bundle: { entry: string }): string {
  return `// @generated by scripts/bundle_hooks.ts from ${bundle.entry}: edit the sources; ` +
    `deno task bundle rebuilds it.\n`;
}

/**
 * The sh fragment the launcher sources before it runs a checkout's bundle (`bundles/<hook>.js`):
 * its status is 0 only while each of `sources` (paths under `src/`) and `deno.json` is strictly
 * older than the bundle. `-ot` of a shell that keeps whole seconds (busybox, macOS's bash 3.2)
 * calls a source from the bundle's second stale, so the launcher then runs the TypeScript entry:
 * slower, never out of date. `$root` is the launcher's repository root.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshnessScript, HOOK_BUNDLES } from "./bundle_hooks.ts";
 *
 * const script = freshnessScript(HOOK_BUNDLES[2]!, ["stop/stop_hook.ts"]);
 * assert.match(script, /\[ "\$root\/src\/stop\/stop_hook\.ts" -ot "\$root\/bundles\/stop\.js" \] &&/);
 * assert.match(script, /\[ "\$root\/deno\.json" -ot "\$root\/bundles\/stop\.js" \]\n$/);
 * ```
 */
export function freshnessScript(bundle: HookBundle, sources: readonly string[]): string {
  const target = `"$root/${BUNDLE_DIR}/${bundle.file}"`;
  const tests = [...sources.map((s) => `src/${s}`), "deno.json"]
    .map((path) => `[ "$root/${path}" -ot ${target} ]`);
  return `# @generated by scripts/bundle_hooks.ts: true while ${BUNDLE_DIR}/${bundle.file} is ` +
    `newer than each file it was built from (bin/librarian sources this).\n` +
    `${tests.join(" &&\n")}\n`;
}

/** What a build writes into its folder: file name → text. */
export type BuiltFiles = Map<string, string>;

/**
 * Builds every hook bundle from this checkout's sources, in one `deno bundle` run, with each
 * bundle's source list from `deno info` alongside; returns the files (not yet written): each
 * bundle and its fragment ({@link freshnessScript}).
 */
export async function buildBundles(): Promise<BuiltFiles> {
  const tmp = await Deno.makeTempDir({ prefix: "librarian-bundle-" });
  try {
    const bundling = new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--minify",
        "--platform",
        "deno",
        "--config",
        join(REPO_ROOT, "deno.json"),
        "--outdir",
        tmp,
        ...HOOK_BUNDLES.map((bundle) => join(REPO_ROOT, bundle.entry)),
        ...LATER_CHUNKS.map((chunk) => join(REPO_ROOT, chunk.entry)),
      ],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const graphs = Promise.all(HOOK_BUNDLES.map((bundle) => startupGraph(bundle.entry)));
    const chunkGraphs = Promise.all(LATER_CHUNKS.map((chunk) => startupGraph(chunk.entry)));
    const out = await bundling;
    if (out.code !== 0) {
      throw new Error(`deno bundle failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    const sources = await graphs;
    const chunkSources = await chunkGraphs;
    const builtFrom = (entry: string) =>
      join(tmp, entry.replace(/^.*\//, "").replace(/\.ts$/, ".js"));
    const files: BuiltFiles = new Map();
    for (const [index, bundle] of HOOK_BUNDLES.entries()) {
      files.set(bundle.file, header(bundle) + await Deno.readTextFile(builtFrom(bundle.entry)));
      // a bundle is fresh while its own sources and those of the chunks it loads are older
      const ofChunks = LATER_CHUNKS.flatMap((chunk, at) =>
        chunk.hook === bundle.name ? chunkSources[at]! : []
      );
      const local = [...new Set([...sources[index]!, ...ofChunks])]
        .filter((module) => module.endsWith(".ts"))
        .sort();
      files.set(freshnessFile(bundle), freshnessScript(bundle, local));
    }
    for (const chunk of LATER_CHUNKS) {
      files.set(chunk.file, header(chunk) + await Deno.readTextFile(builtFrom(chunk.entry)));
    }
    return files;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/**
 * Builds the bundles and their fragments into `dir` (default: this checkout's `bundles/`). Each
 * bundle's modification time is set to the moment the build started, so a source saved while the
 * build ran counts as newer. Each file is replaced whole (a temp file renamed over it), so a hook
 * that starts meanwhile (CI runs the Windows suite beside the Linux one) reads the old bundle or
 * the new, never half of one. Returns the names of the files written.
 */
export async function writeBundles(dir: string = join(REPO_ROOT, BUNDLE_DIR)): Promise<string[]> {
  const started = new Date();
  const files = await buildBundles();
  await Deno.mkdir(dir, { recursive: true });
  await Promise.all([...files].map(async ([name, text]) => {
    const temp = join(dir, `.${name}.tmp-${Deno.pid}`);
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, join(dir, name));
  }));
  await Promise.all(
    BUILT_MODULES.map((file) => Deno.utime(join(dir, file), started, started)),
  );
  return [...files.keys()];
}

/**
 * How the files in `dir` (default: this checkout's `bundles/`) differ from a fresh build of the
 * current sources, byte for byte: one sentence per file missing or different, none when all match.
 */
export async function bundleDifferences(
  dir: string = join(REPO_ROOT, BUNDLE_DIR),
): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, text] of await buildBundles()) {
    let found: string;
    try {
      found = await Deno.readTextFile(join(dir, name));
    } catch {
      problems.push(`${join(dir, name)} is missing: run deno task bundle`);
      continue;
    }
    if (found !== text) {
      problems.push(
        `${join(dir, name)} differs from a fresh build of the current sources: ` +
          `run deno task bundle`,
      );
    }
  }
  return problems;
}

if (import.meta.main) {
  const quiet = Deno.args.includes("--quiet");
  if (Deno.args.includes("--check")) {
    const problems = await bundleDifferences();
    for (const problem of problems) console.error(problem);
    if (problems.length > 0) Deno.exit(1);
  } else {
    const written = await writeBundles();
    if (!quiet) console.log(`wrote ${written.map((f) => `${BUNDLE_DIR}/${f}`).join(", ")}`);
  }
}
