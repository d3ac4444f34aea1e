/**
 * Named fault points, for tests only: `LIBRARIAN_FAULT=<point>` (or `<point>:<n>`, the n-th time
 * the point is reached) makes a run fail at exactly that point, so every crash position of the
 * filing protocol (and of an export) is tested deterministically instead of by killing a process at a random time.
 *
 * Inert in what ships: the variable is a test-only knob (`core/env_vars.ts`), read only in a
 * process a test entry started (`enableTestKnobs`, `tests/knob_program.ts`). A fault
 * point costs one cached environment lookup.
 *
 * @module
 */

import { processEnv } from "./env.ts";

/** Where a run can be made to fail. */
export type FaultPoint =
  /** The journal (with the targets about to be written) is saved; no target written yet. */
  | "after-journal-write"
  /** A target file is written (use `:<n>` for the n-th). */
  | "after-target-write"
  /** Every target is written; scratch is not rewritten yet. */
  | "after-targets"
  /** The new scratch is in its temp file and the old one is kept for carry-over; not renamed. */
  | "before-scratch-rename"
  /** Scratch is replaced; the journal still lists the targets as being written. */
  | "after-scratch-rename"
  /** Releasing the lock throws (as an unlock refused by the system would). */
  | "lock-release-throws"
  /** The routing pass throws an unexpected error before it reads scratch. */
  | "route-throws"
  /** An export wrote a generated file (use `:<n>` for the n-th); the rest are not written yet. */
  | "after-export-write"
  /** A write through the file boundary finds the disk full half-way (`:<n>`: the n-th write). */
  | "write-disk-full";

/** The process exit status of a run ended at a fault point (as if it had been killed). */
export const FAULT_EXIT_CODE = 86;

let configured: { point: string; nth: number } | null | undefined;
const reached = new Map<string, number>();

function fault(): { point: string; nth: number } | null {
  if (configured !== undefined) return configured;
  const raw = processEnv()("LIBRARIAN_FAULT");
  if (!raw) return configured = null;
  const [point, nth] = raw.trim().split(":");
  return configured = { point: point!, nth: Math.max(1, Number(nth) || 1) };
}

/**
 * True when `LIBRARIAN_FAULT` names `point` and this is the time it should fire.
 *
 * @example Usage
 * ```ts
 * import { faultFires } from "./fault.ts";
 * import { enableTestKnobs } from "./env.ts";
 * import assert from "node:assert/strict";
 *
 * enableTestKnobs();
 * Deno.env.set("LIBRARIAN_FAULT", "after-target-write:2");
 * try {
 *   assert.equal(faultFires("after-targets"), false);
 *   assert.equal(faultFires("after-target-write"), false);
 *   assert.equal(faultFires("after-target-write"), true);
 *   assert.equal(faultFires("after-target-write"), false);
 * } finally {
 *   Deno.env.delete("LIBRARIAN_FAULT");
 * }
 * ```
 */
export function faultFires(point: FaultPoint): boolean {
  const wanted = fault();
  if (wanted === null || wanted.point !== point) return false;
  const count = (reached.get(point) ?? 0) + 1;
  reached.set(point, count);
  return count === wanted.nth;
}

/** Ends the process on the spot (no `finally`, like a kill) when `LIBRARIAN_FAULT` says so. */
export function crashPoint(point: FaultPoint): void {
  if (faultFires(point)) Deno.exit(FAULT_EXIT_CODE);
}
