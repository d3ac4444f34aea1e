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
