/**
 * Checks of the installed program itself, by reading files only (the program may run nothing but
 * `git`): which runtime this is, where the plugin root is, and whether its launcher, hooks file
 * and binary or source are in place.
 *
 * @module
 */

import {
  basenameOf,
  dirnameOf,
  type EnvReader,
  isFile,
  joinPath,
  normalizePath,
  readTextIfExists,
} from "../core/mod.ts";
import { hooksFileProblems, parseChecked } from "./claude_json.ts";

/** How this process runs. */
export interface Runtime {
  compiled: boolean;
  execPath: string;
  denoVersion: string;
  /** The compiled-binary target name for this machine (`x86_64-unknown-linux-gnu`). */
  target: string;
}

/**
 * This process's runtime.
 *
 * @example Usage
 * ```ts
 * import { currentRuntime } from "./install_check.ts";
 * import assert from "node:assert/strict";
 *
 * const runtime = currentRuntime();
 * assert.equal(runtime.denoVersion, Deno.version.deno);
 * assert.equal(runtime.target, Deno.build.target);
 * assert.equal(typeof runtime.compiled, "boolean");
 * ```
 */
export function currentRuntime(): Runtime {
  const execPath = normalizePath(Deno.execPath());
  const name = basenameOf(execPath).toLowerCase();
  return {
    compiled: name !== "deno" && name !== "deno.exe",
    execPath,
    denoVersion: Deno.version.deno,
    target: Deno.build.target,
  };
}

/** The plugin root and how it was found. */
export interface PluginRoot {
  path: string;
  from: "CLAUDE_PLUGIN_ROOT" | "launcher" | "binary" | "source";
}

/**
 * The plugin root: `CLAUDE_PLUGIN_ROOT`, else for a binary the folder above the launcher that
 * started it (`LIBRARIAN_LAUNCHER`; a fetched binary lives in the data folder) or above the
 * binary, else the folder above the source's.
 *
 * @example Usage
 * ```ts
 * import { currentRuntime, findPluginRoot } from "./install_check.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const runtime = currentRuntime();
 * assert.deepEqual(findPluginRoot(envFrom({ CLAUDE_PLUGIN_ROOT: "/plugins/librarian" }), runtime), {
 *   path: "/plugins/librarian",
 *   from: "CLAUDE_PLUGIN_ROOT",
 * });
 * const compiled = { ...runtime, compiled: true, execPath: "/p/librarian/bin/librarian-x" };
 * assert.equal(findPluginRoot(envFrom({}), compiled)?.path, "/p/librarian");
 * ```
 */
export function findPluginRoot(env: EnvReader, runtime: Runtime): PluginRoot | null {
  const configured = env("CLAUDE_PLUGIN_ROOT")?.trim();
  if (configured) return { path: normalizePath(configured), from: "CLAUDE_PLUGIN_ROOT" };
  // a binary the launcher fetched lives in the data folder: the launcher names the plugin
  const launcher = env("LIBRARIAN_LAUNCHER")?.trim();
  if (runtime.compiled && launcher) {
    return { path: dirnameOf(dirnameOf(normalizePath(launcher))), from: "launcher" };
  }
  if (runtime.compiled) return { path: dirnameOf(dirnameOf(runtime.execPath)), from: "binary" };
  const url = new URL("../..", import.meta.url);
  if (url.protocol !== "file:") return null;
  return {
    path: normalizePath(decodeURIComponent(url.pathname)).replace(/^\/([A-Z]:)/, "$1"),
    from: "source",
  };
}

/**
 * The compiled binary's file name for a target.
 *
 * @example Usage
 * ```ts
 * import { binaryName } from "./install_check.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(binaryName("x86_64-unknown-linux-gnu"), "librarian-x86_64-unknown-linux-gnu");
 * assert.equal(binaryName("x86_64-pc-windows-msvc"), "librarian-x86_64-pc-windows-msvc.exe");
 * ```
 */
export function binaryName(target: string): string {
  return `librarian-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** What was found in a plugin root. */
export interface PluginFiles {
  launcher: "ok" | "missing" | "not-sh";
  hooksFile: "ok" | "missing" | "invalid" | "no-launcher";
  /** Present when `bin/librarian-<target>` exists. */
  binary: string | null;
  /** True when `src/main.ts` exists (source mode, needs deno on PATH). */
  source: boolean;
}

/** The file's text, or null when it is missing or cannot be read (a folder, no permission). */
function readOrNull(path: string): string | null {
  try {
    return readTextIfExists(path);
  } catch {
    return null;
  }
}

/**
 * Looks at the files in a plugin root that make the hooks run.
 *
 * @example Usage
 * ```ts
 * import { inspectPluginRoot } from "./install_check.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * assert.deepEqual(await inspectPluginRoot(root, "x"), {
 *   launcher: "missing",
 *   hooksFile: "missing",
 *   binary: null,
 *   source: false,
 * });
 * Deno.mkdirSync(`${root}/bin`);
 * Deno.writeTextFileSync(`${root}/bin/librarian`, "#!/bin/sh\n");
 * assert.equal((await inspectPluginRoot(root, "x")).launcher, "ok");
 * ```
 */
export async function inspectPluginRoot(root: string, target: string): Promise<PluginFiles> {
  const launcherText = readOrNull(joinPath(root, "bin", "librarian"));
  const launcher = launcherText === null
    ? "missing"
    : launcherText.startsWith("#!/bin/sh")
    ? "ok"
    : "not-sh";
  const hooksText = readOrNull(joinPath(root, "hooks", "hooks.json"));
  let hooksFile: PluginFiles["hooksFile"] = "missing";
  if (hooksText !== null) {
    hooksFile = !parseChecked(hooksText, hooksFileProblems).ok
      ? "invalid"
      : hooksText.includes("bin/librarian")
      ? "ok"
      : "no-launcher";
  }
  const binaryPath = joinPath(root, "bin", binaryName(target));
  return {
    launcher,
    hooksFile,
    binary: (await isFile(binaryPath)) ? binaryPath : null,
    source: await isFile(joinPath(root, "src", "main.ts")),
  };
}
