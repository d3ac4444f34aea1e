/**
 * The checks behind `librarian doctor`, each giving one line and, when it is not fine, the fix.
 *
 * @module
 */

import {
  ageOf,
  type EnvReader,
  isFile,
  joinPath,
  type Library,
  LIBRARY_DIR_NAME,
  logFile,
  normalizePath,
  readBudget,
  readProjectRuns,
  refusalMessage,
  refusalWarning,
  type RefusedLibrary,
  refusedSettings,
  safeText,
  scanLibrary,
  scratchPathOf,
} from "../../core/mod.ts";
import { autoMemoryCheck } from "./automemory_check.ts";
import {
  binaryName,
  cliLinkProblem,
  currentRuntime,
  describeWiring,
  detectHookWiring,
  findPluginRoot,
  type HookWiring,
  inspectPluginRoot,
  type PluginFiles,
  type Runtime,
  shSingleQuote,
} from "../../setup/mod.ts";
import { describeFoundBy, locateLibrary } from "../../cli/mod.ts";
import { type Check, fail, ok, warn } from "./check.ts";
import { logCheck } from "./log_check.ts";
import { binaryFacts, describeBinary } from "./binary_check.ts";
import { codexCheck } from "./codex_check.ts";
import { loadedTwiceCheck } from "./native_check.ts";
import { type PluginDirRun, pluginDirRun } from "./plugin_dir.ts";

const REINSTALL = "reinstall the plugin (/plugin uninstall librarian, then /plugin install)";
const INSTALL = "install the plugin (/plugin install librarian@<marketplace>), or run " +
  "'librarian setup-hooks' to write the hooks into .claude/settings.local.json";

function runtimeCheck(runtime: Runtime): Check {
  return ok(
    "runtime",
    runtime.compiled
      ? `compiled binary ${runtime.execPath} (Deno ${runtime.denoVersion} inside)`
      : `Deno ${runtime.denoVersion} at ${runtime.execPath}, running from source`,
  );
}

/**
 * The problem with a plugin root's files, or undefined when the hooks can run from it.
 *
 * @example Usage
 * ```ts
 * import { pluginFilesProblem } from "./doctor_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const good = { launcher: "ok" as const, hooksFile: "ok" as const, binary: null, source: true };
 * assert.equal(pluginFilesProblem(good), undefined);
 * assert.equal(pluginFilesProblem({ ...good, launcher: "missing" }), "bin/librarian is missing");
 * assert.equal(
 *   pluginFilesProblem({ ...good, source: false }),
 *   "neither a compiled binary nor src/main.ts is there",
 * );
 * ```
 */
export function pluginFilesProblem(files: PluginFiles): string | undefined {
  if (files.launcher === "missing") return "bin/librarian is missing";
  if (files.launcher === "not-sh") return "bin/librarian is not the sh launcher";
  if (files.hooksFile === "missing") return "hooks/hooks.json is missing";
  if (files.hooksFile === "invalid") return "hooks/hooks.json is not valid hooks JSON";
  if (files.hooksFile === "no-launcher") return "hooks/hooks.json does not run bin/librarian";
  if (!files.binary && !files.source) return "neither a compiled binary nor src/main.ts is there";
  return undefined;
}

async function installChecks(env: EnvReader, runtime: Runtime): Promise<Check[]> {
  const root = findPluginRoot(env, runtime);
  if (!root) return [warn("launcher", "could not tell where this program is installed", REINSTALL)];
  const files = await inspectPluginRoot(root.path, runtime.target);
  const problem = pluginFilesProblem(files);
  const checks = [
    problem
      ? fail("launcher", `${root.path}: ${problem}`, REINSTALL)
      : ok("launcher", `${root.path}/bin/librarian and hooks/hooks.json are in place`),
  ];
  if (runtime.compiled) {
    checks.push(ok("binary", describeBinary(await binaryFacts(runtime.execPath))));
  } else if (files.binary) {
    checks.push(ok("binary", `${files.binary} runs the hooks (no Deno needed)`));
  } else if (isFile(joinPath(root.path, "bin", "release-binaries.txt"))) {
    checks.push(warn(
      "binary",
      `the binary for this version (${binaryName(runtime.target)}) is not fetched yet, so ` +
        "hooks run src/main.ts with deno",
      "start a new Claude Code session (its SessionStart fetches it) or run " +
        "'librarian fetch-binary'; offline, download it and run 'librarian install-binary <file>'",
    ));
  } else if (files.source) {
    checks.push(warn(
      "binary",
      `no ${binaryName(runtime.target)} in ${root.path}/bin, so hooks run src/main.ts with deno`,
      "keep deno on the PATH Claude Code starts with (npm install -g deno), or install a " +
        "release that ships binaries",
    ));
  }
  return checks;
}

function libraryChecks(
  library: Library | null,
  envProblem: string | undefined,
  cwd: string,
  refused?: RefusedLibrary,
) {
  const checks: Check[] = [];
  if (envProblem) {
    checks.push(fail(
      "LIBRARIAN_PATH",
      envProblem,
      "set LIBRARIAN_PATH to the library folder's absolute path, or unset it",
    ));
  }
  if (refused) {
    checks.push(fail(
      "library",
      `${refusalWarning(refused)}, so the hooks stay silent here`,
      "check who made it (git's safe.directory refuses the same case), or set LIBRARIAN_PATH",
    ));
  } else if (!library) {
    checks.push(fail(
      "library",
      `no ${LIBRARY_DIR_NAME}/ in ${cwd} or above, so the hooks stay silent here`,
      "run 'librarian init' in the project's root folder, or set LIBRARIAN_PATH",
    ));
  } else {
    checks.push(ok("library", `${library.root} (found ${describeFoundBy(library)})`));
  }
  return checks;
}

async function scratchCheck(library: Library): Promise<Check> {
  const path = scratchPathOf(library);
  try {
    await Deno.stat(path);
    return ok("scratch", `${path} is in place`);
  } catch {
    return warn(
      "scratch",
      `${path} does not exist yet`,
      "run 'librarian init' (it also sets up .gitignore and .gitattributes)",
    );
  }
}

/**
 * The plugin and a settings file both run the hooks: every event runs two hook processes, so the
 * model is sent everything twice. The fix removes the settings entries (the plugin is the one
 * that updates itself), naming the exact command for each file.
 *
 * @example Usage
 * ```ts
 * import { doubleWiring } from "./doctor_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const wiring = {
 *   wired: true,
 *   plugin: { ids: ["librarian@tools"], installPaths: [], enabled: true },
 *   settings: [{ file: "/repo/.claude/settings.local.json", events: ["Stop"] }],
 *   unreadable: [],
 * };
 * const check = doubleWiring(wiring, "/repo");
 * assert.match(check?.fix ?? "", /librarian setup-hooks --remove --project '\/repo'/);
 * assert.equal(doubleWiring({ ...wiring, settings: [] }, "/repo"), undefined);
 * ```
 */
export function doubleWiring(wiring: HookWiring, projectRoot: string): Check | undefined {
  const { ids, enabled } = wiring.plugin;
  if (ids.length === 0 || enabled === false || wiring.settings.length === 0) return undefined;
  const fixes = wiring.settings.map(({ file }) => {
    const normalized = normalizePath(file);
    if (normalized === joinPath(projectRoot, ".claude", "settings.local.json")) {
      return `librarian setup-hooks --remove --project ${shSingleQuote(projectRoot)}`;
    }
    if (normalized.endsWith("/.claude/settings.json") && !normalized.startsWith(projectRoot)) {
      return "librarian setup-hooks --remove --user";
    }
    return `delete the hooks that run librarian from ${file}`;
  });
  return fail(
    "hooks",
    `wired twice: ${describeWiring(wiring)}; every hook runs twice, so the model gets the ` +
      "library context and the reminder twice",
    `keep the plugin and remove the settings entries: ${fixes.join("; ")} ` +
      `(or keep the settings and /plugin disable ${ids[0]})`,
  );
}

/** Library entries that lead outside the library (links): never read, so worth knowing about. */
async function linksCheck(library: Library): Promise<Check> {
  const outside = (await scanLibrary(library.root)).flatMap((folder) => folder.outside);
  if (outside.length === 0) return ok("links", "no library entry leads outside the library");
  const named = outside.slice(0, 5).join(", ") + (outside.length > 5 ? ", ..." : "");
  return fail(
    "links",
    `${outside.length} library ${
      outside.length === 1 ? "entry is a link" : "entries are links"
    } to places outside the library, never read or sent: ${named}`,
    "copy the content into the library or remove the links ('librarian lint' lists them all)",
  );
}

async function hooksChecks(
  wiring: HookWiring,
  target: string,
  projectRoot: string,
  pluginDir: PluginDirRun | null,
): Promise<Check[]> {
  const checks = wiring.unreadable.map(({ file, problem }) =>
    warn("settings", `${file} ${problem}, so Claude Code ignores it`, `fix ${file}`)
  );
  if (pluginDir !== null) {
    // Hooks ran from a plugin no file lists: Claude Code was started with --plugin-dir.
    const ran = `hooks ran ${ageOf(pluginDir.time)} from a plugin loaded with --plugin-dir ` +
      `(${safeText(pluginDir.root)})`;
    if (wiring.settings.length > 0) {
      const files = wiring.settings.map((s) => s.file).join(", ");
      checks.push(fail(
        "hooks",
        `wired twice in such sessions: ${ran}, and ${files} runs them too, so the model gets ` +
          "the library context and the reminder twice",
        "remove the settings entries (librarian setup-hooks --remove) while you use --plugin-dir",
      ));
      return checks;
    }
    if (!wiring.wired) {
      checks.push(ok(
        "hooks",
        `${ran}; no installed plugin or settings file runs them, so only sessions started ` +
          "with --plugin-dir have them (do not add setup-hooks too: they would run twice)",
      ));
      return checks;
    }
  }
  if (!wiring.wired) {
    const id = wiring.plugin.ids[0];
    const fix = id
      ? `enable it: /plugin enable ${id} (or set enabledPlugins["${id}"] to true)`
      : INSTALL;
    checks.push(fail("hooks", describeWiring(wiring), fix));
    return checks;
  }
  const double = doubleWiring(wiring, projectRoot);
  checks.push(double ?? ok("hooks", describeWiring(wiring)));
  for (const installPath of wiring.plugin.installPaths) {
    const problem = pluginFilesProblem(await inspectPluginRoot(installPath, target));
    if (problem) {
      checks.push(fail("installed-copy", `${installPath}: ${problem}`, REINSTALL));
    }
  }
  return checks;
}

/**
 * The newest recent hook run in the project from a plugin that is not installed (one loaded
 * with `--plugin-dir`), read from the log, or `null`.
 *
 * @example Usage
 * ```ts
 * import { recentPluginDirRun } from "./doctor_checks.ts";
 * import { envFrom } from "../../core/env.ts";
 * import { appendLog } from "../../core/log.ts";
 * import assert from "node:assert/strict";
 *
 * const log = `${Deno.makeTempDirSync()}/librarian.log`;
 * appendLog(log, "stop", { result: "nothing-to-do", project: "/repo", plugin: "/src/librarian" });
 * const wiring = {
 *   wired: false,
 *   plugin: { ids: [], installPaths: [], enabled: null },
 *   settings: [],
 *   unreadable: [],
 * };
 * const run = await recentPluginDirRun(envFrom({ LIBRARIAN_LOG: log }), "/repo", wiring);
 * assert.equal(run?.root, "/src/librarian");
 * ```
 */
export async function recentPluginDirRun(
  env: EnvReader,
  projectRoot: string,
  wiring: HookWiring,
): Promise<PluginDirRun | null> {
  const path = logFile(env);
  if (!path) return null;
  const records = await readProjectRuns(path, projectRoot, 200).catch(() => null);
  return records ? pluginDirRun(records, wiring.plugin.installPaths) : null;
}

/**
 * A warning when the project's own settings set a location setting in `"env"` (the hooks do not
 * use it; docs/configuration.md), else nothing.
 */
function projectSettingsCheck(): Check[] {
  const message = refusalMessage(refusedSettings());
  if (message === undefined) return [];
  const [what, fix] = message.split("; the default is used. ");
  return [warn("settings", `${what}; the default is used`, fix!)];
}

function budgetCheck(env: EnvReader): Check {
  const { budget, warning } = readBudget(env);
  return warning
    ? warn(
      "budget",
      warning,
      "set LIBRARIAN_BUDGET to a whole number from 1000 to 9900, or unset it",
    )
    : ok("budget", `${budget} characters per injection`);
}

/**
 * Runs every check for a session started in `cwd`.
 *
 * @example Usage
 * ```ts
 * import { runChecks } from "./doctor_checks.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.makeTempDirSync();
 * const checks = await runChecks(envFrom({ HOME: home }), home);
 * assert.ok(checks.length > 3);
 * assert.ok(checks.every((c) => ["ok", "warn", "fail"].includes(c.status)));
 * assert.ok(checks.some((c) => c.status !== "ok" && /library/i.test(c.id)));
 * ```
 */
export async function runChecks(env: EnvReader, cwd: string): Promise<Check[]> {
  const runtime = currentRuntime();
  const { library, envProblem, refused } = await locateLibrary(env, cwd);
  const projectRoot = library?.projectRoot ?? env("CLAUDE_PROJECT_DIR") ?? cwd;
  const wiring = await detectHookWiring(env, projectRoot);
  return [
    runtimeCheck(runtime),
    ...(await installChecks(env, runtime)),
    ...libraryChecks(library, envProblem, cwd, refused),
    ...(library
      ? [await scratchCheck(library), await linksCheck(library), loadedTwiceCheck(library)]
      : []),
    ...(await hooksChecks(
      wiring,
      runtime.target,
      normalizePath(projectRoot),
      await recentPluginDirRun(env, normalizePath(projectRoot), wiring),
    )),
    await logCheck(env, normalizePath(projectRoot)),
    ...projectSettingsCheck(),
    budgetCheck(env),
    autoMemoryCheck(library, env),
    ...[codexCheck(env)].filter((c) => c !== undefined),
    ...[cliLinkProblem(env)].filter((p) => p !== undefined).map((p) =>
      warn("cli", p.message, p.fix)
    ),
  ];
}
