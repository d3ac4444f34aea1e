/**
 * `deno task bundle`: builds `hooks/inject.js` and `hooks/stop.js`, each hook as one module of
 * plain JavaScript, which the launcher runs in source mode (`bin/librarian`).
 *
 * Why: `deno run` pays for every TypeScript module it loads (reading it, its cached emit and
 * code cache, about 0.2 ms each on a 20 ms start), and the inject hook has some 30. One bundled
 * module loads in about 1 ms (docs/benchmarks.md). The compiled binary does not need this: it
 * carries its modules in memory.
 *
 * Each bundle starts with a header naming the sources it was built from and their SHA-256, so
 * `deno task bundle --check` (and `tests/hook_bundle_test.ts`) can tell a bundle that no longer
 * matches its sources, whatever Deno version built it.
 *
 * The bundles are not committed (`.gitignore`): the tasks that run the hooks (`test`, `bench`,
 * `e2e`, `demo`) build them first, and the release staging builds them into the release.
 *
 * Usage: `deno task bundle` (write; `--quiet` says nothing), `deno task bundle --check` (exit 1
 * when a bundle is stale).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "./sha256.ts";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A bundled hook: the file the launcher runs and the entry module it is built from. */
export interface HookBundle {
  /** The hook command the launcher runs it for (`inject`, `inject --shell`, `stop`). */
  name: string;
  /** The bundle, relative to the repository root. */
  output: string;
  /** Its entry module, relative to the repository root. */
  entry: string;
}

/** The bundled hooks. */
export const HOOK_BUNDLES: readonly HookBundle[] = [
  { name: "inject", output: "hooks/inject.js", entry: "src/entry/bundle_inject.ts" },
  {
    name: "inject --shell",
    output: "hooks/inject-shell.js",
    entry: "src/entry/bundle_inject_shell.ts",
  },
  { name: "stop", output: "hooks/stop.js", entry: "src/entry/bundle_stop.ts" },
];

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

/** The header's second line: how many source modules, and the SHA-256 over their paths and text. */
export async function sourcesLine(sources: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const source of sources) {
    // line endings as git checks the file in, so a Windows checkout (CRLF) hashes alike
    const text = (await Deno.readTextFile(join(REPO_ROOT, "src", source))).replaceAll("\r\n", "\n");
    parts.push(source, "\0", text, "\0");
  }
  const digest = await sha256Hex(new TextEncoder().encode(parts.join("")));
  return `// sources: ${sources.length} modules under src/, sha256 ${digest}`;
}

/** The two header lines a bundle built from `entry` now would start with. */
export async function expectedHeader(bundle: HookBundle): Promise<string> {
  const sources = (await startupGraph(bundle.entry)).filter((m) => m.endsWith(".ts"));
  return `// @generated by scripts/bundle_hooks.ts (deno task bundle) from ${bundle.entry}: ` +
    `edit the sources, then run deno task bundle.\n${await sourcesLine(sources)}\n`;
}

/** Why a bundle does not match its sources, or `null` when it does. */
export async function staleness(bundle: HookBundle): Promise<string | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(REPO_ROOT, bundle.output));
  } catch {
    return `${bundle.output} is missing: run deno task bundle`;
  }
  const header = await expectedHeader(bundle);
  const normal = text.replaceAll("\r\n", "\n");
  if (normal.startsWith(header)) return null;
  const built = normal.split("\n", 2)[1] ?? "(no header)";
  return `${bundle.output} was not built from the current sources of ${bundle.entry} ` +
    `(the bundle says "${built.slice(3)}", the sources are "${
      header.split("\n")[1]!.slice(3)
    }"): ` +
    `run deno task bundle`;
}

/** Builds one bundle: `deno bundle`, then the header. */
export async function buildBundle(bundle: HookBundle): Promise<void> {
  const header = await expectedHeader(bundle);
  const tmp = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "deno",
        "--config",
        join(REPO_ROOT, "deno.json"),
        "--output",
        tmp,
        join(REPO_ROOT, bundle.entry),
      ],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) {
      throw new Error(
        `deno bundle ${bundle.entry} failed: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    const code = await Deno.readTextFile(tmp);
    await Deno.writeTextFile(join(REPO_ROOT, bundle.output), header + code);
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const quiet = Deno.args.includes("--quiet");
  let failed = false;
  for (const bundle of HOOK_BUNDLES) {
    if (check) {
      const why = await staleness(bundle);
      if (why) {
        console.error(why);
        failed = true;
      }
    } else {
      await buildBundle(bundle);
      if (!quiet) console.log(`wrote ${bundle.output}`);
    }
  }
  if (failed) Deno.exit(1);
}
