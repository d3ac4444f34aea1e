/**
 * `librarian install-cli`: puts the `librarian` command on the user's PATH by linking this
 * installation's launcher (`bin/librarian`) into a bin folder (`~/.local/bin`, or `--dir`).
 * The launcher follows symlinks, so the link runs the plugin's own binary or source. Idempotent;
 * `--remove` takes the link away, and only a link that leads to a Librarian launcher.
 *
 * @module
 */

import {
  Boundary,
  dirnameOf,
  type EnvReader,
  isAbsolutePath,
  isFile,
  joinPath,
  LibrarianError,
  normalizePath,
  processEnv,
  readFileBounded,
} from "../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  pathArgument,
  printJson,
  runCommand,
  stringOption,
} from "../cli/mod.ts";
import { isPluginCachePath } from "./hook_program.ts";
import { currentRuntime, findPluginRoot } from "./install_check.ts";
import { VERSION } from "../version.ts";

/** The command line of `librarian install-cli`. */
export const SPEC: CommandSpec = {
  name: "install-cli",
  synopsis: "[--dir <folder>] [--remove] [--json]",
  summary: "put the librarian command on your PATH (a link to this installation's launcher)",
  details: [
    "Links <folder>/librarian (default ~/.local/bin/librarian) to this installation's",
    "bin/librarian. Running it again changes nothing; a link to another Librarian launcher (an",
    "older plugin version, recognised by the launcher's own marker line, or a launcher the plugin",
    "cache no longer holds) is updated. After a plugin update, run it again. --remove deletes the",
    "link, and only a link that leads to a Librarian launcher; another program's librarian (any",
    "path ending in bin/librarian is not enough) is left alone. Contributors working from a",
    "checkout can use 'deno install -g' instead (see docs/development.md).",
  ],
  options: {
    dir: {
      type: "string",
      valueName: "<folder>",
      description: "the bin folder to link into (default ~/.local/bin)",
    },
    remove: { type: "boolean", description: "remove the link instead" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** What `install-cli` did. */
export interface InstallCliReport {
  version: string;
  link: string;
  launcher: string | null;
  action: "created" | "updated" | "unchanged" | "removed" | "absent";
  /** The link's folder is not on PATH (unknown PATH: false). */
  notOnPath: boolean;
}

/**
 * This installation's launcher: the one that started us, else `bin/librarian` of the plugin.
 *
 * @example Usage
 * ```ts
 * import { thisLauncher } from "./install_cli.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(thisLauncher(envFrom({ LIBRARIAN_LAUNCHER: "/p/bin/librarian" })), "/p/bin/librarian");
 * const root = Deno.makeTempDirSync();
 * assert.equal(thisLauncher(envFrom({ CLAUDE_PLUGIN_ROOT: root })), null);
 * ```
 */
export function thisLauncher(env: EnvReader): string | null {
  const fromLauncher = env("LIBRARIAN_LAUNCHER")?.trim();
  if (fromLauncher) return normalizePath(fromLauncher);
  const root = findPluginRoot(env, currentRuntime());
  if (root === null) return null;
  const path = joinPath(root.path, "bin", "librarian");
  return isFile(path) ? path : null;
}

/**
 * True when `target` (a link's destination) names a Librarian launcher: `.../bin/librarian`.
 *
 * @example Usage
 * ```ts
 * import { isLauncherPath } from "./install_cli.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isLauncherPath("/cache/librarian/0.1.0/bin/librarian"));
 * assert.ok(isLauncherPath("C:\\p\\bin\\librarian"));
 * assert.ok(!isLauncherPath("/usr/bin/librarian-x86_64"));
 * ```
 */
export function isLauncherPath(target: string): boolean {
  return /(^|[\\/])bin[\\/]librarian$/.test(target);
}

/** The line every Librarian launcher (`bin/librarian`) carries near its top. */
export const LAUNCHER_MARKER = "# The Librarian launcher:";

/**
 * True when the link at `link`, leading to `target`, is the Librarian's own: the file it leads
 * to is a Librarian launcher (a regular file carrying {@link LAUNCHER_MARKER} in its first
 * lines), or it leads nowhere any more from inside Claude Code's plugin cache (the plugin was
 * updated and its old folder removed). A path that merely ends in `bin/librarian` is not enough:
 * another program's `librarian` is left alone.
 *
 * @example Usage
 * ```ts
 * import { isOwnLink, LAUNCHER_MARKER } from "./install_cli.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${dir}/ours/bin`, { recursive: true });
 * Deno.writeTextFileSync(`${dir}/ours/bin/librarian`, `#!/bin/sh\n${LAUNCHER_MARKER} ...\n`);
 * Deno.mkdirSync(`${dir}/theirs/bin`, { recursive: true });
 * Deno.writeTextFileSync(`${dir}/theirs/bin/librarian`, "#!/bin/sh\necho other\n");
 * assert.ok(isOwnLink(`${dir}/librarian`, `${dir}/ours/bin/librarian`));
 * assert.ok(!isOwnLink(`${dir}/librarian`, `${dir}/theirs/bin/librarian`));
 * assert.ok(isOwnLink(`${dir}/librarian`, "/h/.claude/plugins/cache/t/librarian/0.1.0/bin/librarian"));
 * assert.ok(!isOwnLink(`${dir}/librarian`, "/usr/local/other/bin/librarian"));
 * ```
 */
export function isOwnLink(link: string, target: string): boolean {
  const normal = normalizePath(target);
  const absolute = isAbsolutePath(normal) ? normal : joinPath(dirnameOf(link), normal);
  const read = readFileBounded(absolute, 1024 * 1024);
  if (read.kind === "bytes") {
    const head = new TextDecoder().decode(read.bytes.subarray(0, 4096));
    return head.split("\n").slice(0, 8).some((line) => line.startsWith(LAUNCHER_MARKER));
  }
  return read.kind === "missing" && isLauncherPath(normal) && isPluginCachePath(absolute);
}

function readLinkOrNull(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  // Something that is not a symlink is there (asked, readlink fails differently on each OS:
  // EINVAL on Linux, "not a reparse point", os error 4390, on Windows).
  if (!info.isSymlink) return "";
  return Deno.readLinkSync(path);
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function onPath(dir: string, env: EnvReader): boolean | null {
  const path = env("PATH");
  if (path === undefined) return null;
  const want = normalizePath(dir).replace(/\/+$/, "");
  return path.split(Deno.build.os === "windows" ? ";" : ":").some((entry) =>
    normalizePath(entry).replace(/\/+$/, "") === want
  );
}

/**
 * Creates, updates or removes the link; returns what it did.
 *
 * @example Usage
 * ```ts
 * import { installCli, LAUNCHER_MARKER } from "./install_cli.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * const launcher = `${Deno.makeTempDirSync()}/bin/librarian`;
 * Deno.mkdirSync(launcher.slice(0, -10));
 * Deno.writeTextFileSync(launcher, `#!/bin/sh\n${LAUNCHER_MARKER} ...\n`);
 * const env = envFrom({ LIBRARIAN_LAUNCHER: launcher, PATH: dir });
 * if (Deno.build.os !== "windows") {
 *   assert.equal(installCli({ dir, remove: false }, env).action, "created");
 *   assert.equal(Deno.readLinkSync(`${dir}/librarian`), launcher);
 *   assert.equal(installCli({ dir, remove: true }, env).action, "removed");
 * }
 * ```
 */
export function installCli(
  request: { dir: string; remove: boolean },
  env: EnvReader,
): InstallCliReport {
  const link = joinPath(request.dir, "librarian");
  const current = exists(link) ? readLinkOrNull(link) : null;
  const notOnPath = onPath(request.dir, env) === false;
  const report = (action: InstallCliReport["action"], launcher: string | null) => ({
    version: VERSION,
    link,
    launcher,
    action,
    notOnPath,
  });
  const folder = new Boundary(request.dir, "folder");
  if (request.remove) {
    if (current === null) return report("absent", null);
    if (current === "" || !isOwnLink(link, current)) {
      throw new LibrarianError(
        `${link} is not a link to a Librarian launcher; left it alone (remove it by hand if it is yours to remove)`,
      );
    }
    folder.remove(link);
    return report("removed", current);
  }
  const launcher = thisLauncher(env);
  if (launcher === null) {
    throw new LibrarianError(
      "cannot tell where this installation's bin/librarian is; run install-cli through the " +
        "launcher (sh <plugin>/bin/librarian install-cli)",
    );
  }
  if (current !== null && current !== launcher && (current === "" || !isOwnLink(link, current))) {
    throw new LibrarianError(
      `${link} already exists and is not a link to a Librarian launcher; remove it, or choose ` +
        "another folder with --dir <folder>",
    );
  }
  if (current === launcher) return report("unchanged", launcher);
  folder.ensureFolder(request.dir);
  folder.writeLink(link, launcher);
  return report(current === null ? "created" : "updated", launcher);
}

/**
 * A `doctor` finding for the `librarian` link in `~/.local/bin`: it leads nowhere (the plugin
 * was updated and its old folder swept away), or undefined when it is fine or absent.
 *
 * @example Usage
 * ```ts
 * import { cliLinkProblem } from "./install_cli.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.makeTempDirSync();
 * assert.equal(cliLinkProblem(envFrom({ HOME: home })), undefined);
 * if (Deno.build.os !== "windows") {
 *   Deno.mkdirSync(`${home}/.local/bin`, { recursive: true });
 *   Deno.symlinkSync(`${home}/gone/bin/librarian`, `${home}/.local/bin/librarian`);
 *   assert.ok(cliLinkProblem(envFrom({ HOME: home }))?.fix);
 * }
 * ```
 */
export function cliLinkProblem(env: EnvReader): { message: string; fix: string } | undefined {
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) return undefined;
  const link = joinPath(normalizePath(home), ".local", "bin", "librarian");
  let target: string;
  try {
    target = Deno.readLinkSync(link);
  } catch {
    return undefined; // no link, or not a link: not ours to judge
  }
  if (!isLauncherPath(target) || exists(target)) return undefined;
  return {
    message: `${link} leads to ${target}, which is gone (the plugin was updated)`,
    fix: "run 'librarian install-cli' again (inside Claude Code, or with the plugin's launcher)",
  };
}

/** Runs `librarian install-cli`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, (parsed) => {
    const option = stringOption(parsed, "dir");
    const home = env("HOME") ?? env("USERPROFILE");
    if (option === undefined && !home) {
      throw new LibrarianError("no home folder (HOME) to find ~/.local/bin in; use --dir <folder>");
    }
    const cwd = normalizePath(Deno.cwd());
    const dir = option !== undefined
      ? pathArgument(option, cwd)
      : joinPath(normalizePath(home!), ".local", "bin");
    const report = installCli({ dir, remove: flag(parsed, "remove") }, env);
    if (flag(parsed, "json")) {
      printJson(report);
      return Promise.resolve(EXIT_OK);
    }
    const lines: Record<InstallCliReport["action"], string> = {
      created: `Linked ${report.link} → ${report.launcher}`,
      updated: `Updated ${report.link} → ${report.launcher}`,
      unchanged: `Already linked: ${report.link} → ${report.launcher}`,
      removed: `Removed ${report.link}`,
      absent: `Nothing to remove: ${report.link} does not exist`,
    };
    console.log(lines[report.action]);
    if (report.notOnPath && !flag(parsed, "remove")) {
      console.log(
        `note: ${dir} is not on your PATH; add it in your shell's startup file:\n` +
          `  export PATH="${dir}:$PATH"`,
      );
    }
    return Promise.resolve(EXIT_OK);
  });
}
