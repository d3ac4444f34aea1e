/**
 * What the platform a test runs on can do. A test that needs something Windows does not have (a
 * POSIX shell, POSIX mode bits, FIFOs, git, ...) is skipped there with
 * `ignore: skipOnWindows("one-line reason")`; `docs/windows.md` lists every such skip with what
 * covers that behaviour instead, and `tests/windows_skips_test.ts` keeps the two equal.
 *
 * @module
 */

/** True when the tests run on the Windows Deno runtime. */
export const IS_WINDOWS: boolean = Deno.build.os === "windows";

/**
 * The `ignore:` value of a test that cannot run on Windows: true there, false elsewhere. Pass it
 * directly in the test's options (the skip-list check reads it from the source), with a reason of
 * one line that says what the test needs.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(skipOnWindows("needs a POSIX shell"), Deno.build.os === "windows");
 * ```
 */
export function skipOnWindows(reason: string): boolean {
  if (reason.trim() === "" || reason.includes("\n")) {
    throw new Error("skipOnWindows needs a one-line reason");
  }
  return IS_WINDOWS;
}

/** True when the Windows tests run under Wine (`scripts/test_windows.sh` sets `LIBRARIAN_TEST_WINE=1`). */
export const UNDER_WINE: boolean = IS_WINDOWS && Deno.env.get("LIBRARIAN_TEST_WINE") === "1";

/**
 * The `ignore:` value of a test that real Windows passes but Wine cannot run (Wine behaves
 * differently there; docs/windows.md, "Wine limits"). Like {@link skipOnWindows}, the reason is
 * listed in docs/windows.md.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(skipUnderWine("renames over a file held open"), UNDER_WINE);
 * ```
 */
export function skipUnderWine(reason: string): boolean {
  if (reason.trim() === "" || reason.includes("\n")) {
    throw new Error("skipUnderWine needs a one-line reason");
  }
  return UNDER_WINE;
}

/** True when the tests run as root on a system that tells file owners (not Windows). */
export const AS_ROOT: boolean = !IS_WINDOWS && Deno.uid() === 0;

/**
 * The `ignore:` value of a test that must run as root (to give a file to another user with
 * `chown`): false as root, else true, and the reason is printed once, so a run that skips it
 * says why. CI runs as root.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(skipUnlessRoot("chowns a folder to nobody"), !AS_ROOT);
 * ```
 */
export function skipUnlessRoot(reason: string): boolean {
  if (reason.trim() === "" || reason.includes("\n")) {
    throw new Error("skipUnlessRoot needs a one-line reason");
  }
  if (!AS_ROOT) console.log(`skipped (not running as root): ${reason}`);
  return !AS_ROOT;
}

/** How many cases a sampled loop keeps under Wine. */
const WINE_SAMPLE = 4;

/**
 * The cases a loop of process runs goes through: all of them, except under Wine, where a process
 * start costs about a second and a loop over platform-independent inputs (argument spellings,
 * malformed events, commands) keeps an even sample of four, the first and the last among them.
 * What varies between the cases is pure logic that Linux and macOS run in full; what Windows
 * adds (its paths, its process and file contract) each kept case proves. docs/windows.md lists
 * the sampled tests.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const cases = ["a", "b", "c", "d", "e", "f", "g"];
 * assert.deepEqual(wineSample(cases, true), ["a", "c", "e", "g"]);
 * assert.deepEqual(wineSample(cases, false), cases);
 * assert.deepEqual(wineSample(["a", "b"], true), ["a", "b"]);
 * ```
 */
export function wineSample<T>(cases: readonly T[], underWine: boolean = UNDER_WINE): T[] {
  if (!underWine || cases.length <= WINE_SAMPLE) return [...cases];
  const picked = new Set<number>();
  for (let i = 0; i < WINE_SAMPLE; i++) {
    picked.add(Math.round(i * (cases.length - 1) / (WINE_SAMPLE - 1)));
  }
  return [...picked].sort((a, b) => a - b).map((i) => cases[i]!);
}
