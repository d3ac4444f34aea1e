/**
 * Every environment variable the shipped program (`src/`) and its launcher (`bin/librarian`) read,
 * in one table: its name, its kind, how its value is checked, and one line of documentation.
 * `docs/configuration.md` is checked against this table, and `tests/env_vars_test.ts` fails on a
 * variable read anywhere that is not in it.
 *
 * Why the kinds: a repository's committed `.claude/settings.json` `"env"` reaches every hook
 * process, so whoever wrote the repository the user just cloned chooses every variable a hook
 * sees. Hence:
 *
 * - `location`: chooses what runs, where the program reads and writes, or what it trusts. Honoured
 *   only when its value passes validation and the project's settings (`.claude/settings.json`,
 *   `.claude/settings.local.json`) do not name it in `"env"`; otherwise the default is used and
 *   the refusal is said (the hook's log line, `librarian doctor`). See `core/project_env.ts`.
 * - `switch`: a behaviour switch a team may share; the project may set it.
 * - `context`: describes the run (which agent, the terminal, `PATH` for a hint); read as given.
 * - `internal`: set by the launcher for the process it starts; see each row for its check.
 * - `test`: test-only knobs, inert in what ships: read only after a test entry module called
 *   `enableTestKnobs` (`core/env.ts`); no shipped entry does.
 *
 * @module
 */

/** How a variable may be set; see the module documentation. */
export type EnvKind = "location" | "switch" | "context" | "internal" | "test";

/** Who reads a variable: the TypeScript program, the sh launcher, or both. */
export type EnvReaderSide = "program" | "launcher";

/** One row of the table. */
export interface EnvVar {
  name: string;
  kind: EnvKind;
  readBy: readonly EnvReaderSide[];
  /** What a value must be to be used (else the default is used). */
  validation: string;
  /** One line: what it does, and its default. */
  doc: string;
  /**
   * True when `processEnv` (`core/env.ts`) reads a value that is not an absolute path as unset
   * (for variables whose readers do not check it themselves).
   */
  absolute?: true;
}

const PROGRAM = ["program"] as const;
const LAUNCHER = ["launcher"] as const;
const BOTH = ["program", "launcher"] as const;

/** The table, grouped by kind. */
export const ENV_VARS: readonly EnvVar[] = Object.freeze([
  // ---- behaviour switches a team may share (the project may set them) ----
  {
    name: "LIBRARIAN_BUDGET",
    kind: "switch",
    readBy: PROGRAM,
    validation: "a whole number, clamped to 1000–9900",
    doc: "character budget for one injection; default 9000",
  },
  {
    name: "LIBRARIAN_SESSION_START",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`off`, `0`, `false` or `no` turns it off",
    doc: "library root files at session or subagent start and after compaction; default on",
  },
  {
    name: "LIBRARIAN_NUDGE",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`session`, `turn` or `off`; anything else is `session`",
    doc: "the Stop hook's nudge to file learnings; default `session` (at most once per session)",
  },
  {
    name: "LIBRARIAN_HINT",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`off`, `0`, `false` or `no` turns it off",
    doc: "the tag hint at a folder's first edit; default on",
  },
  {
    name: "LIBRARIAN_STALE",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`hide`, `off`; anything else is `mark`",
    doc: "stale learnings: marked (default), left out (`hide`) or sent unmarked (`off`)",
  },
  {
    name: "LIBRARIAN_HOLD",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`off`, `0`, `false` or `no` turns it off",
    doc: "hold a blind first write into a folder once, so its notes come first; default on",
  },
  {
    name: "LIBRARIAN_AUTOMEMORY",
    kind: "switch",
    readBy: PROGRAM,
    validation: "`sync`, `review` or `off` (any case); anything else is `sync`, with a warning",
    doc: "this project's Claude Code auto memories: filed (`sync`, default), kept in scratch " +
      "for review, or left alone; the memory folders themselves are `location` settings",
  },
  // ---- locations: what runs, where the program reads and writes, what it trusts ----
  {
    name: "LIBRARIAN_PATH",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path of an existing folder",
    doc: "the library folder (any name; its parent is the project root); default: the " +
      "nearest `_memory_library/` above the file, `CLAUDE_PROJECT_DIR` or the working folder",
  },
  {
    name: "LIBRARIAN_STATE_DIR",
    kind: "location",
    readBy: BOTH,
    validation: "an absolute path",
    doc: "ledgers, sync and session records (and the launcher's fetched binary without " +
      "`CLAUDE_PLUGIN_DATA`); default `~/.claude/librarian/`",
  },
  {
    name: "LIBRARIAN_LOG",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path, or `off`",
    doc: "the hook log; default `~/.claude/librarian.log` (rotated to `.1` past 1 MiB)",
  },
  {
    name: "LIBRARIAN_LAUNCHER",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path, set by the launcher to its own",
    absolute: true,
    doc: "the launcher that started the program, which `setup-hooks` and `install-cli` point at",
  },
  {
    name: "LIBRARIAN_BINARY_URL",
    kind: "location",
    readBy: LAUNCHER,
    validation: "an `https://` URL",
    doc: "the folder the binary is downloaded from (a mirror; `{version}` is replaced); " +
      "default: the GitHub release of the installed version",
  },
  {
    name: "LIBRARIAN_FETCH_SECONDS",
    kind: "location",
    readBy: LAUNCHER,
    validation: "a whole number of seconds",
    doc: "how long the launcher's binary download may take; default 50",
  },
  {
    name: "LIBRARIAN_FORCE_SOURCE",
    kind: "location",
    readBy: LAUNCHER,
    validation: "`1`",
    doc: "run from source with Deno even when a binary is present",
  },
  {
    name: "LIBRARIAN_FORCE_BINARY",
    kind: "location",
    readBy: LAUNCHER,
    validation: "`1`",
    doc: "run the compiled binary only, never Deno from source",
  },
  {
    name: "LIBRARIAN_UNBUNDLED",
    kind: "location",
    readBy: LAUNCHER,
    validation: "`1`",
    doc: "in source mode, run the hooks' TypeScript entry modules instead of their bundles",
  },
  {
    name: "HOME",
    kind: "location",
    readBy: BOTH,
    validation: "an absolute path",
    doc: "the user's home folder (`~/.claude`, the default state folder and log)",
  },
  {
    name: "USERPROFILE",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path",
    doc: "the home folder on Windows, when `HOME` is not set",
  },
  {
    name: "CLAUDE_CONFIG_DIR",
    kind: "location",
    readBy: BOTH,
    validation: "an absolute path",
    doc: "Claude Code's folder (auto memory, state and log defaults); default `~/.claude`",
  },
  {
    name: "CLAUDE_PLUGIN_DATA",
    kind: "location",
    readBy: BOTH,
    validation: "an absolute path; set by the plugin system",
    doc: "the plugin's data folder: the launcher's fetched binary; state only without a home",
  },
  {
    name: "CLAUDE_PLUGIN_ROOT",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path, set by the plugin system",
    absolute: true,
    doc: "the installed plugin's folder (which install runs the hooks)",
  },
  {
    name: "CLAUDE_PROJECT_DIR",
    kind: "location",
    readBy: BOTH,
    validation: "an absolute path, set by Claude Code for hooks",
    absolute: true,
    doc: "the project's root folder; default: the working folder",
  },
  {
    name: "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path",
    doc: "Claude Code's auto-memory folder override (read so that auto memories are found)",
  },
  {
    name: "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path",
    doc: "Claude Code's remote auto-memory folder (read so that auto memories are found)",
  },
  {
    name: "CLAUDE_CODE_PROJECT_DIR_NAME",
    kind: "location",
    readBy: PROGRAM,
    validation: "one folder name (no slash)",
    doc: "Claude Code's pinned project folder name under `projects/` (auto memory)",
  },
  {
    name: "CLAUDE_PID",
    kind: "location",
    readBy: PROGRAM,
    validation: "a whole number; set by Claude Code (2.1.3xx) for its hooks",
    doc: "a client that loads a Bash read's nested memory itself: the inject hook leaves it to it",
  },
  {
    name: "CLAUDE_CODE_SANDBOXED",
    kind: "location",
    readBy: PROGRAM,
    validation: "`1` or `true`",
    doc: "a sandboxed Claude Code: its workspace counts as trusted for auto-memory sync",
  },
  {
    name: "CODEX_HOME",
    kind: "location",
    readBy: PROGRAM,
    validation: "an absolute path",
    absolute: true,
    doc: "Codex CLI's configuration folder (`librarian doctor`); default `~/.codex`",
  },
  {
    name: "DENO_DIR",
    kind: "location",
    readBy: LAUNCHER,
    validation: "a path (Deno's own setting)",
    doc: "Deno's cache folder in source mode; default the platform's cache folder",
  },
  {
    name: "XDG_CACHE_HOME",
    kind: "location",
    readBy: LAUNCHER,
    validation: "a path",
    doc: "where the launcher puts Deno's cache without `DENO_DIR`; default `~/.cache`",
  },
  {
    name: "HTTPS_PROXY",
    kind: "location",
    readBy: LAUNCHER,
    validation: "a proxy URL, passed to curl, wget or PowerShell",
    doc: "the proxy for the binary download (`https_proxy` too)",
  },
  {
    name: "HTTP_PROXY",
    kind: "location",
    readBy: LAUNCHER,
    validation: "a proxy URL, passed to curl, wget or PowerShell",
    doc: "the proxy for the binary download (`http_proxy` too)",
  },
  // ---- context: describes the run; read as given ----
  {
    name: "GEMINI_SESSION_ID",
    kind: "context",
    readBy: PROGRAM,
    validation: "any non-empty value",
    doc: "set by Gemini CLI: the hook event came from Gemini",
  },
  {
    name: "COPILOT_CLI",
    kind: "context",
    readBy: PROGRAM,
    validation: "`1`",
    doc: "set by Copilot CLI: the hook event came from Copilot",
  },
  {
    name: "NO_COLOR",
    kind: "context",
    readBy: PROGRAM,
    validation: "any non-empty value",
    doc: "no colour in command output",
  },
  {
    name: "TERM",
    kind: "context",
    readBy: PROGRAM,
    validation: "`dumb` turns colour off",
    doc: "the terminal type",
  },
  {
    name: "PATH",
    kind: "context",
    readBy: PROGRAM,
    validation: "a search path",
    doc: "only to tell `install-cli`'s user whether the link's folder is on it",
  },
  {
    name: "OS",
    kind: "context",
    readBy: LAUNCHER,
    validation: "`Windows_NT` on Windows",
    doc: "tells the launcher it runs on Windows",
  },
  {
    name: "PWD",
    kind: "context",
    readBy: LAUNCHER,
    validation: "the shell's working folder",
    doc: "to make the launcher's own path absolute",
  },
  // ---- internal: set by the launcher for the process it starts ----
  {
    name: "LIBRARIAN_HOME",
    kind: "internal",
    readBy: PROGRAM,
    validation: "used only while `HOME` is the launcher's own `<plugin>/bin/.deno-home`",
    doc: "the user's real `HOME`, passed by the launcher, which runs Deno with a home of its own",
  },
  {
    name: "LIBRARIAN_HASH_FILE",
    kind: "internal",
    readBy: LAUNCHER,
    validation: "set by the launcher just before use",
    doc: "the file PowerShell hashes when no sha256 tool is present",
  },
  {
    name: "LIBRARIAN_FETCH_URL",
    kind: "internal",
    readBy: LAUNCHER,
    validation: "set by the launcher just before use",
    doc: "the URL PowerShell downloads",
  },
  {
    name: "LIBRARIAN_FETCH_TO",
    kind: "internal",
    readBy: LAUNCHER,
    validation: "set by the launcher just before use",
    doc: "the file PowerShell downloads to",
  },
  // ---- test-only knobs: inert in what ships ----
  {
    name: "LIBRARIAN_FAULT",
    kind: "test",
    readBy: PROGRAM,
    validation: "`<point>` or `<point>:<n>` (core/fault.ts)",
    doc: "end the run at a named fault point (crash tests)",
  },
  {
    name: "LIBRARIAN_NOW",
    kind: "test",
    readBy: PROGRAM,
    validation: "an ISO time",
    doc: "the time of the run (dated headings in tests)",
  },
  {
    name: "LIBRARIAN_LOCK_TIMEOUT_MS",
    kind: "test",
    readBy: PROGRAM,
    validation: "a number of milliseconds, zero or more",
    doc: "how long a lock is waited for: the library's (default 5 s) and a context window's " +
      "(default 2 s)",
  },
]);

/**
 * {@link ENV_VARS} by name, with no prototype (so `constructor` names no row). Every read of the
 * environment looks its name up here, some 40 to 90 times a hook run: a scan of the table, in V8's
 * interpreter, cost a hook about 0.3 ms.
 */
const ROW_BY_NAME: Readonly<Record<string, EnvVar>> = Object.freeze(
  Object.assign(Object.create(null), Object.fromEntries(ENV_VARS.map((v) => [v.name, v]))),
);

/**
 * The table's row for `name`, or undefined for a variable the program does not read.
 *
 * @example Usage
 * ```ts
 * import { envVar } from "./env_vars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(envVar("LIBRARIAN_STATE_DIR")?.kind, "location");
 * assert.equal(envVar("LIBRARIAN_BUDGET")?.kind, "switch");
 * assert.equal(envVar("LIBRARIAN_FAULT")?.kind, "test");
 * assert.equal(envVar("EDITOR"), undefined);
 * assert.equal(envVar("constructor"), undefined);
 * ```
 */
export function envVar(name: string): EnvVar | undefined {
  return ROW_BY_NAME[name];
}

/**
 * The names of one kind, in table order.
 *
 * @example Usage
 * ```ts
 * import { namesOfKind } from "./env_vars.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(namesOfKind("location").includes("LIBRARIAN_LOG"));
 * assert.deepEqual(namesOfKind("test"), ["LIBRARIAN_FAULT", "LIBRARIAN_NOW", "LIBRARIAN_LOCK_TIMEOUT_MS"]);
 * ```
 */
export function namesOfKind(kind: EnvKind): string[] {
  return ENV_VARS.filter((v) => v.kind === kind).map((v) => v.name);
}
