/**
 * Configuration read from the environment, in one place so that tests can pass their own.
 *
 * Every variable is read through {@link processEnv}, which goes by the table of
 * `core/env_vars.ts`: a variable not in the table reads as undefined; a `location` setting the
 * project's own settings name in `"env"` reads as undefined (the default is used, and
 * {@link refusedSettings} says so); a test-only knob reads as undefined unless a test entry module
 * called {@link enableTestKnobs}.
 *
 * @module
 */

import { isLocalAbsolutePath, joinPath, normalizePath } from "./paths.ts";
import { envVar, namesOfKind } from "./env_vars.ts";
import {
  type ProjectEnvNames,
  projectEnvNames,
  projectFolders,
  settingFileOf,
} from "./project_env.ts";

/** A read-only view of environment variables. */
export type EnvReader = (name: string) => string | undefined;

/** The variable as the process has it (no permission to read it: undefined). */
function rawVariable(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * A variable as the process has it, read again to check a watched run's read of it
 * (`inject/observed_run.ts`): the value only ever compared, never used.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { processVariable } from "./env.ts";
 * assert.equal(processVariable("LIBRARIAN_NO_SUCH_VARIABLE"), undefined);
 * ```
 */
export function processVariable(name: string): string | undefined {
  return rawVariable(name);
}

/**
 * Watches the process's environment for a watched hook run (`inject/observed_run.ts`): each
 * variable read is told to `onRead`, and a change or a read of the whole environment to
 * `onEffect` (by the method's name). Returns the function that puts `Deno.env` back as it was.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchProcessEnv } from "./env.ts";
 * const reads: string[] = [];
 * const undo = watchProcessEnv((name) => reads.push(name), () => {});
 * Deno.env.get("LIBRARIAN_NO_SUCH_VARIABLE");
 * undo();
 * Deno.env.get("LIBRARIAN_NO_SUCH_VARIABLE");
 * assert.deepEqual(reads, ["LIBRARIAN_NO_SUCH_VARIABLE"]);
 * ```
 */
export function watchProcessEnv(
  onRead: (name: string, value: string | undefined) => void,
  onEffect: (method: string) => void,
): () => void {
  const env = Deno.env as unknown as Record<string, unknown>;
  const effects = ["set", "delete", "toObject", "has"];
  const own = new Map(
    ["get", ...effects].map((method) => [method, Object.getOwnPropertyDescriptor(env, method)]),
  );
  const original = (method: string) =>
    (env[method] as (...args: unknown[]) => unknown).bind(Deno.env);
  const get = original("get");
  for (const method of effects) {
    const fn = original(method);
    env[method] = (...args: unknown[]) => {
      onEffect(`env.${method}`);
      return fn(...args);
    };
  }
  env.get = (name: string) => {
    const value = get(name) as string | undefined;
    onRead(name, value);
    return value;
  };
  return () => {
    for (const [method, descriptor] of own) {
      if (descriptor) Object.defineProperty(env, method, descriptor);
      else delete env[method];
    }
  };
}

/** This module's process-wide state: whether test knobs are on, and the project's names. */
interface EnvState {
  testKnobs: boolean;
  projectNames?: { key: string; names: ProjectEnvNames };
}

/**
 * Where {@link EnvState} lives: on `globalThis`, not in a module variable, because the stop hook's
 * bundle and the filing modules it loads from `src/` each hold a copy of this module
 * (`src/entry/bundle_stop.ts`), and both must see one state.
 */
const STATE_KEY: symbol = Symbol.for("librarian.core.env");

function envState(): EnvState {
  const holder = globalThis as unknown as Record<symbol, EnvState | undefined>;
  return holder[STATE_KEY] ??= { testKnobs: false };
}

/**
 * Makes the test-only knobs (`kind: "test"` in `core/env_vars.ts`: `LIBRARIAN_FAULT`,
 * `LIBRARIAN_NOW`, `LIBRARIAN_LOCK_TIMEOUT_MS`) readable in this process. Only a test entry module
 * calls it (`tests/knob_program.ts`); no shipped entry does, so the compiled binary, the
 * hook bundles and the source the launcher runs never read them.
 *
 * @example Usage
 * ```ts
 * import { enableTestKnobs, processEnv } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * Deno.env.set("LIBRARIAN_NOW", "2026-11-30T12:00:00Z");
 * assert.equal(processEnv()("LIBRARIAN_NOW"), undefined);
 * enableTestKnobs();
 * assert.equal(processEnv()("LIBRARIAN_NOW"), "2026-11-30T12:00:00Z");
 * Deno.env.delete("LIBRARIAN_NOW");
 * ```
 */
export function enableTestKnobs(): void {
  envState().testKnobs = true;
}

/**
 * The names the project's settings set in `"env"`, read once per process and `CLAUDE_PROJECT_DIR`
 * (the program never changes its working folder; a `Deno.cwd()` per read would cost more than the
 * read).
 */
function projectNames(): ProjectEnvNames {
  const projectDir = rawVariable("CLAUDE_PROJECT_DIR");
  const key = projectDir ?? "";
  const state = envState();
  if (state.projectNames?.key !== key) {
    let cwd: string;
    try {
      cwd = Deno.cwd();
    } catch {
      cwd = "/";
    }
    state.projectNames = { key, names: projectEnvNames(projectFolders(projectDir, cwd)) };
  }
  return state.projectNames.names;
}

/** The project settings file that sets `name`, a `location` setting with a value, or undefined. */
function refusingFile(name: string): string | undefined {
  if (envVar(name)?.kind !== "location" || rawVariable(name) === undefined) return undefined;
  return settingFileOf(projectNames(), name);
}

/**
 * The process environment, read through the table of `core/env_vars.ts`: a variable the table
 * does not list, a `location` setting the project's settings set, a value its row requires to be
 * an absolute path that is not, and a test-only knob (unless {@link enableTestKnobs} was called)
 * come back `undefined`.
 *
 * @example Usage
 * ```ts
 * import { processEnv } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * Deno.env.set("LIBRARIAN_HINT", "off");
 * Deno.env.set("EDITOR", "vi");
 * Deno.env.set("LIBRARIAN_LAUNCHER", "bin/librarian");
 * assert.equal(processEnv()("LIBRARIAN_HINT"), "off");
 * assert.equal(processEnv()("EDITOR"), undefined);
 * assert.equal(processEnv()("LIBRARIAN_LAUNCHER"), undefined, "not an absolute path");
 * Deno.env.delete("LIBRARIAN_HINT");
 * Deno.env.delete("EDITOR");
 * Deno.env.delete("LIBRARIAN_LAUNCHER");
 * ```
 */
export function processEnv(): EnvReader {
  return (name) => {
    const row = envVar(name);
    if (row === undefined) return undefined;
    if (row.kind === "test" && !envState().testKnobs) return undefined;
    if (row.kind === "location" && refusingFile(name) !== undefined) return undefined;
    const value = rawVariable(name);
    if (row.absolute && value !== undefined && !isLocalAbsolutePath(normalizePath(value.trim()))) {
      return undefined;
    }
    return value;
  };
}

/** A `location` setting that was not used because the project's settings set it. */
export interface RefusedSetting {
  name: string;
  /** The project's settings file that sets it. */
  file: string;
}

/**
 * The `location` settings the project's own settings set in `"env"` (in table order): the hooks
 * Claude Code runs for this project get them and do not use them. With `inProcess`, only those
 * this process has a value for, which it therefore did not use.
 *
 * @example Usage
 * ```ts
 * import { refusedSettings } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const repo = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${repo}/.claude`);
 * const env = { LIBRARIAN_LOG: `${repo}/log`, LIBRARIAN_STATE_DIR: `${repo}/state` };
 * Deno.writeTextFileSync(`${repo}/.claude/settings.json`, JSON.stringify({ env }));
 * Deno.env.set("LIBRARIAN_LOG", `${repo}/log`);
 * Deno.env.set("CLAUDE_PROJECT_DIR", repo);
 * try {
 *   assert.deepEqual(refusedSettings().map((r) => r.name), ["LIBRARIAN_STATE_DIR", "LIBRARIAN_LOG"]);
 *   assert.deepEqual(refusedSettings({ inProcess: true }).map((r) => r.name), ["LIBRARIAN_LOG"]);
 * } finally {
 *   Deno.env.delete("LIBRARIAN_LOG");
 *   Deno.env.delete("CLAUDE_PROJECT_DIR");
 * }
 * ```
 */
export function refusedSettings(options: { inProcess?: boolean } = {}): RefusedSetting[] {
  const refused: RefusedSetting[] = [];
  const names = projectNames();
  if (names.size === 0) return refused;
  for (const name of namesOfKind("location")) {
    if (options.inProcess && rawVariable(name) === undefined) continue;
    const file = settingFileOf(names, name);
    if (file !== undefined) refused.push({ name, file });
  }
  return refused;
}

/**
 * One line saying which settings were not used, why, and what to do; undefined when none.
 *
 * @example Usage
 * ```ts
 * import { refusalMessage } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(refusalMessage([]), undefined);
 * assert.equal(
 *   refusalMessage([{ name: "LIBRARIAN_LOG", file: "/r/.claude/settings.json" }]),
 *   "LIBRARIAN_LOG is not used: /r/.claude/settings.json sets it, and a project's settings " +
 *     "cannot choose where the Librarian reads, writes or what it runs; the default is used. " +
 *     "Set it in your own environment or ~/.claude/settings.json (docs/configuration.md)",
 * );
 * ```
 */
export function refusalMessage(refused: readonly RefusedSetting[]): string | undefined {
  if (refused.length === 0) return undefined;
  const byFile = new Map<string, string[]>();
  for (const { name, file } of refused) byFile.set(file, [...(byFile.get(file) ?? []), name]);
  const parts = [...byFile].map(([file, names]) =>
    `${names.join(", ")} ${names.length === 1 ? "is" : "are"} not used: ${file} sets ${
      names.length === 1 ? "it" : "them"
    }`
  );
  const it = refused.length === 1 ? "it" : "them";
  return `${parts.join("; ")}, and a project's settings cannot choose where the Librarian ` +
    `reads, writes or what it runs; the default is used. Set ${it} in your own environment or ` +
    "~/.claude/settings.json (docs/configuration.md)";
}

/**
 * An environment made from a plain record, for tests and tools.
 *
 * @example Usage
 * ```ts
 * import { envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const env = envFrom({ HOME: "/home/ada" });
 * assert.equal(env("HOME"), "/home/ada");
 * assert.equal(env("USERPROFILE"), undefined);
 * ```
 */
export function envFrom(record: Record<string, string | undefined>): EnvReader {
  return (name) => record[name];
}

/** Claude Code's cap on hook output strings; longer text is replaced by a preview. */
export const CLAUDE_CONTEXT_CAP = 10_000;
/** The default character budget for one injection. */
export const DEFAULT_BUDGET = 9_000;
/** The largest budget accepted: safely under Claude Code's cap. */
export const MAX_BUDGET = 9_900;
/** The smallest budget accepted: room for a header, one section and the closing line. */
export const MIN_BUDGET = 1_000;

/** The character budget and, when `LIBRARIAN_BUDGET` was unusable, why it was not used. */
export interface BudgetSetting {
  budget: number;
  warning?: string;
}

/**
 * Reads `LIBRARIAN_BUDGET`, clamped to [{@link MIN_BUDGET}, {@link MAX_BUDGET}].
 *
 * @example Usage
 * ```ts
 * import { envFrom, MAX_BUDGET, readBudget } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(readBudget(envFrom({ LIBRARIAN_BUDGET: "5_000" })), { budget: 5000 });
 * assert.equal(readBudget(envFrom({ LIBRARIAN_BUDGET: "99999" })).budget, MAX_BUDGET);
 * assert.ok(readBudget(envFrom({ LIBRARIAN_BUDGET: "lots" })).warning);
 * ```
 */
export function readBudget(env: EnvReader): BudgetSetting {
  const raw = env("LIBRARIAN_BUDGET")?.trim();
  if (raw === undefined || raw === "") return { budget: DEFAULT_BUDGET };
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isFinite(value) || !Number.isInteger(value)) {
    return {
      budget: DEFAULT_BUDGET,
      warning: `LIBRARIAN_BUDGET="${raw}" is not a whole number; using ${DEFAULT_BUDGET}`,
    };
  }
  if (value > MAX_BUDGET) {
    return {
      budget: MAX_BUDGET,
      warning:
        `LIBRARIAN_BUDGET=${value} is above Claude Code's ${CLAUDE_CONTEXT_CAP}-character cap; using ${MAX_BUDGET}`,
    };
  }
  if (value < MIN_BUDGET) {
    return {
      budget: MIN_BUDGET,
      warning: `LIBRARIAN_BUDGET=${value} is too small to be useful; using ${MIN_BUDGET}`,
    };
  }
  return { budget: value };
}

/**
 * The first of `names` set to an absolute path, normalised. A relative value is ignored: it would
 * resolve against whatever folder a hook happens to run in (usually the user's project).
 */
function absolutePathFrom(env: EnvReader, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env(name)?.trim();
    if (!value) continue;
    const path = normalizePath(value);
    if (isLocalAbsolutePath(path)) return path;
  }
  return undefined;
}

/**
 * The user's home folder (`HOME`, else `USERPROFILE` on Windows), normalised, or undefined.
 *
 * @example Usage
 * ```ts
 * import { envFrom, homeDir } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(homeDir(envFrom({ HOME: "/home/ada" })), "/home/ada");
 * assert.equal(homeDir(envFrom({})), undefined);
 * ```
 */
export function homeDir(env: EnvReader): string | undefined {
  return absolutePathFrom(env, "HOME", "USERPROFILE");
}

/**
 * Claude Code's configuration folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @example Usage
 * ```ts
 * import { claudeDir, envFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(claudeDir(envFrom({ HOME: "/home/ada" })), "/home/ada/.claude");
 * assert.equal(claudeDir(envFrom({ CLAUDE_CONFIG_DIR: "/etc/claude" })), "/etc/claude");
 * ```
 */
export function claudeDir(env: EnvReader): string | undefined {
  const configured = absolutePathFrom(env, "CLAUDE_CONFIG_DIR");
  if (configured) return configured;
  const home = homeDir(env);
  return home ? joinPath(home, ".claude") : undefined;
}

/**
 * The Librarian's state folder (ledgers, session records, sync records): one folder whichever
 * way the hooks were wired. `LIBRARIAN_STATE_DIR`, else `~/.claude/librarian` (`CLAUDE_CONFIG_DIR`
 * honoured), and only without a home folder `CLAUDE_PLUGIN_DATA`: the plugin's hooks get that
 * variable and hooks from settings do not, so preferring it would give a doubly wired session two
 * state folders (every file sent twice, the Stop nudge sent twice, each auto memory synced twice).
 *
 * @example Usage
 * ```ts
 * import { envFrom, stateDir } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stateDir(envFrom({ HOME: "/home/ada" })), "/home/ada/.claude/librarian");
 * const plugin = envFrom({ HOME: "/home/ada", CLAUDE_PLUGIN_DATA: "/data" });
 * assert.equal(stateDir(plugin), "/home/ada/.claude/librarian");
 * assert.equal(stateDir(envFrom({ CLAUDE_PLUGIN_DATA: "/data" })), "/data");
 * ```
 */
export function stateDir(env: EnvReader): string | undefined {
  const explicit = absolutePathFrom(env, "LIBRARIAN_STATE_DIR");
  if (explicit) return explicit;
  const claude = claudeDir(env);
  return claude ? joinPath(claude, "librarian") : absolutePathFrom(env, "CLAUDE_PLUGIN_DATA");
}

/**
 * The log file (`LIBRARIAN_LOG` when it is an absolute path, else `~/.claude/librarian.log`), or
 * undefined when `LIBRARIAN_LOG=off`.
 *
 * @example Usage
 * ```ts
 * import { envFrom, logFile } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(logFile(envFrom({ HOME: "/home/ada" })), "/home/ada/.claude/librarian.log");
 * assert.equal(logFile(envFrom({ HOME: "/home/ada", LIBRARIAN_LOG: "off" })), undefined);
 * ```
 */
export function logFile(env: EnvReader): string | undefined {
  const configured = env("LIBRARIAN_LOG")?.trim();
  if (configured && configured.toLowerCase() === "off") return undefined;
  const explicit = absolutePathFrom(env, "LIBRARIAN_LOG");
  if (explicit) return explicit;
  const claude = claudeDir(env);
  return claude ? joinPath(claude, "librarian.log") : undefined;
}

/** The HOME the launcher gives Deno in source mode: `<plugin>/bin/.deno-home`. */
const LAUNCHER_HOME = /[\\/]bin[\\/]\.deno-home$/;

/**
 * Puts the user's HOME back when the launcher ran Deno with a HOME of its own (so that Deno does
 * not parse a `~/.npmrc` it cannot read; see `bin/librarian`): the launcher passes the real one in
 * `LIBRARIAN_HOME`, empty when there was none. Child processes (git) then see the real HOME too.
 * Only while HOME is the launcher's own (`<plugin>/bin/.deno-home`): anywhere else (the compiled
 * binary, a project's settings setting `LIBRARIAN_HOME`) the variable is dropped and HOME kept.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { restoreLauncherHome } from "./env.ts";
 * const before = Deno.env.get("HOME");
 * Deno.env.set("HOME", "/plugins/librarian/bin/.deno-home");
 * Deno.env.set("LIBRARIAN_HOME", "/home/someone");
 * restoreLauncherHome();
 * assert.equal(Deno.env.get("HOME"), "/home/someone");
 * assert.equal(Deno.env.get("LIBRARIAN_HOME"), undefined);
 * Deno.env.set("LIBRARIAN_HOME", "/elsewhere");
 * restoreLauncherHome();
 * assert.equal(Deno.env.get("HOME"), "/home/someone", "not the launcher's HOME: kept");
 * if (before !== undefined) Deno.env.set("HOME", before);
 * ```
 */
export function restoreLauncherHome(): void {
  try {
    const real = rawVariable("LIBRARIAN_HOME");
    if (real === undefined) return;
    Deno.env.delete("LIBRARIAN_HOME");
    if (!LAUNCHER_HOME.test(rawVariable("HOME") ?? "")) return;
    if (real === "") Deno.env.delete("HOME");
    else Deno.env.set("HOME", real);
  } catch {
    // no permission for these variables: leave the environment as it is
  }
}

/**
 * The time of this run: `LIBRARIAN_NOW` (ISO time, for tests) when valid, else now.
 *
 * @example Usage
 * ```ts
 * import { envFrom, nowFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * const now = nowFrom(envFrom({ LIBRARIAN_NOW: "2026-11-30T12:00:00Z" }));
 * assert.equal(now.toISOString(), "2026-11-30T12:00:00.000Z");
 * assert.ok(Math.abs(nowFrom(envFrom({ LIBRARIAN_NOW: "soon" })).getTime() - Date.now()) < 60_000);
 * ```
 */
export function nowFrom(env: EnvReader): Date {
  const raw = env("LIBRARIAN_NOW")?.trim();
  if (raw) {
    const date = new Date(raw);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

/**
 * A wait in milliseconds from an environment value (`LIBRARIAN_LOCK_TIMEOUT_MS`, a test-only
 * knob): a number of zero or more, else `fallback` (unset, blank, negative,
 * not a number).
 *
 * @example Usage
 * ```ts
 * import { millisecondsFrom } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(millisecondsFrom(" 250 ", 9), 250);
 * assert.equal(millisecondsFrom("0", 9), 0);
 * assert.equal(millisecondsFrom("  ", 9), 9);
 * assert.equal(millisecondsFrom("-1", 9), 9);
 * assert.equal(millisecondsFrom(undefined, 9), 9);
 * ```
 */
export function millisecondsFrom(raw: string | undefined, fallback: number): number {
  const text = raw?.trim();
  const value = Number(text);
  return text && Number.isFinite(value) && value >= 0 ? value : fallback;
}
