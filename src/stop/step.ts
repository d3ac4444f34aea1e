/**
 * A pipeline's step, and the runner that takes steps in their order: each step says whether it
 * is due for the run (`due`, cheap: a flag or a stat, never a module loaded) and does its work
 * (`run`, loading its code only then). The Stop hook's steps are listed in `pipeline.ts`; the
 * steps of filing one library in `file_library.ts`.
 *
 * @module
 */

/** One named step of a pipeline over the context `C`, which the steps read and add to. */
export interface Step<C> {
  /** What the step is, for a reader of the list (`"nested-libraries"`). */
  readonly name: string;
  /** Whether the step has work in this run. */
  due(context: C): boolean | Promise<boolean>;
  /** The step's work, recorded on the context. */
  run(context: C): void | Promise<void>;
}

/**
 * Runs each step that is due, in order, one after the other: a step sees what the steps before
 * it recorded. Returns the context.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSteps, type Step } from "./step.ts";
 *
 * const steps: Step<{ seen: string[] }>[] = [
 *   { name: "a", due: () => true, run: (c) => void c.seen.push("a") },
 *   { name: "b", due: (c) => c.seen.length === 0, run: (c) => void c.seen.push("b") },
 *   { name: "c", due: async () => true, run: async (c) => void c.seen.push("c") },
 * ];
 * assert.deepEqual((await runSteps(steps, { seen: [] })).seen, ["a", "c"]);
 * ```
 */
export async function runSteps<C>(steps: readonly Step<C>[], context: C): Promise<C> {
  for (const step of steps) {
    if (await step.due(context)) await step.run(context);
  }
  return context;
}

/**
 * An error as a log field or message says it: its name and message.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorText } from "./step.ts";
 *
 * assert.equal(errorText(new TypeError("bad")), "TypeError: bad");
 * assert.equal(errorText("gone"), "Error: gone");
 * ```
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
}
