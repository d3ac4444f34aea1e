/**
 * The one list of runtime permissions the Librarian runs with.
 *
 * The source-mode launcher (`bin/librarian`) and the compiled binaries (`scripts/build.ts`) both use
 * exactly these flags; `tests/permissions_test.ts` proves the launcher matches this list.
 *
 * - read/write: the library, the state folder, the log and Claude Code's auto memory can live
 *   anywhere on disk, so they cannot be narrowed at build time.
 * - env: only the variables the program reads (`CODEX_*`, `COPILOT_*`, `GEMINI_*` to tell
 *   which agent called a hook and where Codex keeps its configuration; `PATH` only to tell `librarian install-cli`'s user
 *   whether the link's folder is on it); any other variable reads as `undefined`
 *   (`--ignore-env`) instead of throwing, so a dependency that peeks at the environment cannot crash
 *   a hook.
 * - run: `git` only (rename hints in `librarian lint`); no network, no other subprocesses.
 * - sys: the user id only (`Deno.uid()`), so that a library owned by another user is not used
 *   (`src/core/discover.ts`); no other system information.
 *
 * @module
 */

/** Environment variables the program may read. */
export const ALLOWED_ENV: readonly string[] = [
  "LIBRARIAN_*",
  "CLAUDE_*",
  "CODEX_*",
  "COPILOT_*",
  "GEMINI_*",
  "HOME",
  "USERPROFILE",
  "NO_COLOR",
  "TERM",
  "PATH",
];

/** Subprocesses the program may start. */
export const ALLOWED_RUN: readonly string[] = ["git"];

/** System information the program may read. */
export const ALLOWED_SYS: readonly string[] = ["uid"];

/** The permission flags, in the order the launcher writes them. */
export const PERMISSION_FLAGS: readonly string[] = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  `--allow-env=${ALLOWED_ENV.join(",")}`,
  "--ignore-env",
  `--allow-run=${ALLOWED_RUN.join(",")}`,
  `--allow-sys=${ALLOWED_SYS.join(",")}`,
];

/**
 * V8 flags for every run, source mode and compiled alike.
 * - `--no-lazy` compiles each function when its module is compiled, so V8's code cache holds all
 *   of them and a hook, a short-lived process, does not compile its functions again on every run
 *   (measured: about 2 ms of a ~14 ms inject run).
 * - `--single-threaded` keeps V8 from handing work (garbage collection, optimising compiles) to
 *   helper threads. A hook lives for a few milliseconds: starting those threads and waiting for
 *   them at exit cost more than they save (measured: 1 to 4 ms of an inject run on a 2-core
 *   machine, where the main thread waited at exit for a helper thread that backed off in sleeps).
 * - `--no-enable-lazy-source-positions` keeps each function's source positions with its bytecode
 *   (and so in the code cache). Without it V8 leaves them out and, at the first exception that
 *   passes through a function (a failed `Deno.statSync` of a file that is not there, caught and
 *   expected), compiles the function again to find them: measured in instructions (callgrind),
 *   that cost about 13 million of an idle inject run's 74 million, and a repeat touch went from
 *   95 to 80 million (a bare start: 66).
 * - `--min-semi-space-size=16` starts the young generation at 16 MB, so a hook's few megabytes of
 *   short-lived objects never fill it: a first inject touch ran one scavenge (1.8 ms on a 2-core
 *   machine, about 1 million instructions) before it could exit. Only the pages used are touched.
 * - `--initial-old-space-size=64` lets the old generation grow to 64 MB before its first full
 *   collection: routing 2,000 scratch entries ran one mark-compact near its end (about 9 ms,
 *   1,784 against 1,754 million instructions); a hook's few megabytes never reach it, and an inject
 *   repeat touch runs the same instructions (74.03 against 74.05 million). Nothing is reserved.
 */
export const V8_FLAGS: readonly string[] = [
  "--v8-flags=--no-lazy,--single-threaded,--no-enable-lazy-source-positions,--min-semi-space-size=16,--initial-old-space-size=64",
];

/**
 * V8 flags for the inject hooks' runs in source mode (the launcher's `inject` and
 * `inject --shell`): {@link V8_FLAGS} and `--jitless`. An inject run does a few milliseconds of
 * work in which no function repeats often enough to repay compiling it: with `--single-threaded`
 * V8 compiles a function that grows hot (the file hash, a parser loop) on the main thread, and
 * that cost more than it saved (measured with `deno task bench`: 1.5 to 2 ms of a first or
 * repeat touch on a 2-core Linux VM, about 7 % of a bare start). The Stop hook keeps its
 * compilers: routing 2,000 entries took 2.4 times as long without them. A compiled binary runs
 * every command with the one set it was built with, {@link V8_FLAGS}.
 */
export const INJECT_V8_FLAGS: readonly string[] = [`${V8_FLAGS[0]},--jitless`];
