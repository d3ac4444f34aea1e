/**
 * Where `librarian setup-hooks` points the hooks: which project, and which program (this
 * installation's launcher or compiled binary, or `--launcher`).
 *
 * @module
 */

import {
  dirnameOf,
  type EnvReader,
  findLibraryAbove,
  isFile,
  joinPath,
  LibrarianError,
  normalizePath,
  resolveLocalPath,
} from "../core/mod.ts";
import { gitRootAbove } from "../git/mod.ts";
import type { HookProgram, HookShell } from "./hook_command.ts";
import { binaryName, currentRuntime } from "./install_check.ts";

/**
 * `path` made absolute against `cwd`; a path that cannot exist here is the user's to fix.
 *
 * @example Usage
 * ```ts
 * import { absolute } from "./hook_program.ts";
 * import { LibrarianError } from "../core/errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(absolute("bin/librarian", "/repo"), "/repo/bin/librarian");
 * if (Deno.build.os !== "windows") assert.throws(() => absolute("C:\\x", "/repo"), LibrarianError);
 * ```
 */
export function absolute(path: string, cwd: string): string {
  const resolved = resolveLocalPath(path, cwd);
  if (resolved === null) throw new LibrarianError(`'${path}' is not a path on this machine`);
  return resolved;
}

/**
 * The project: `--project`, else `CLAUDE_PROJECT_DIR`, else the library's, else git's root.
 *
 * @example Usage
 * ```ts
 * import { chooseProject } from "./hook_program.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.mkdirSync(`${project}/src`);
 * assert.equal(await chooseProject(undefined, envFrom({}), `${project}/src`), project);
 * assert.equal(await chooseProject("other", envFrom({}), project), `${project}/other`);
 * assert.equal(await chooseProject(undefined, envFrom({ CLAUDE_PROJECT_DIR: "/p" }), project), "/p");
 * ```
 */
export async function chooseProject(
  option: string | undefined,
  env: EnvReader,
  cwd: string,
): Promise<string> {
  if (option !== undefined) return absolute(option, cwd);
  const fromEnv = env("CLAUDE_PROJECT_DIR")?.trim();
  if (fromEnv) return absolute(fromEnv, cwd);
  const library = await findLibraryAbove(cwd, "cwd");
  if (library) return library.projectRoot;
  return gitRootAbove(cwd) ?? cwd;
}

/**
 * True for a path inside Claude Code's plugin cache, which changes with every plugin update.
 *
 * @example Usage
 * ```ts
 * import { isPluginCachePath } from "./hook_program.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isPluginCachePath("/home/a/.claude/plugins/cache/tools/librarian/0.1.0/bin/librarian"));
 * assert.ok(!isPluginCachePath("/home/a/.local/bin/librarian"));
 * ```
 */
export function isPluginCachePath(path: string): boolean {
  return /\/plugins\/(cache|marketplaces)\//i.test(normalizePath(path));
}

/**
 * What the hooks should run: `--launcher`, else this installation's launcher or binary.
 *
 * @example Usage
 * ```ts
 * import { chooseProgram } from "./hook_program.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${dir}/bin`);
 * Deno.writeTextFileSync(`${dir}/bin/librarian`, "#!/bin/sh\n");
 * const program = chooseProgram("bin/librarian", "sh", envFrom({}), dir);
 * assert.deepEqual(program, { kind: "launcher", path: `${dir}/bin/librarian` });
 * assert.throws(() => chooseProgram("bin/missing", "sh", envFrom({}), dir));
 * ```
 */
export function chooseProgram(
  option: string | undefined,
  shell: HookShell,
  env: EnvReader,
  cwd: string,
): HookProgram {
  let program: HookProgram;
  if (option !== undefined) {
    const path = absolute(option, cwd);
    if (!isFile(path)) throw new LibrarianError(`--launcher ${path} is not a file`);
    program = { kind: /[\\/]librarian$/.test(path) ? "launcher" : "binary", path };
  } else {
    const launcher = env("LIBRARIAN_LAUNCHER")?.trim();
    const runtime = currentRuntime();
    if (launcher) program = { kind: "launcher", path: absolute(launcher, cwd) };
    else if (runtime.compiled) program = { kind: "binary", path: runtime.execPath };
    else {
      const url = new URL("../../bin/librarian", import.meta.url);
      program = { kind: "launcher", path: normalizePath(decodeURIComponent(url.pathname)) };
      program.path = program.path.replace(/^\/([A-Za-z]:)/, "$1");
    }
    if (isPluginCachePath(program.path)) {
      throw new LibrarianError(
        `this is the plugin's copy of the Librarian (${program.path}), which moves with every ` +
          "plugin update, and the plugin already runs these hooks; use --library-path <dir> " +
          "--env-only to save LIBRARIAN_PATH only, or --launcher <path> of a separate install",
      );
    }
  }
  if (shell === "powershell" && program.kind === "launcher") {
    const exe = joinPath(
      dirnameOf(normalizePath(program.path)),
      binaryName(currentRuntime().target),
    );
    if (!isFile(exe)) {
      throw new LibrarianError(
        `PowerShell hooks run the compiled binary, and there is none at ${exe}; download it ` +
          "from the release, or pass --launcher <path to librarian-<target>.exe>",
      );
    }
    program = { kind: "binary", path: exe };
  }
  return program;
}
