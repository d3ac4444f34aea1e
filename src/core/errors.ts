/**
 * Errors: the one way to turn anything thrown into words, and the one error class that carries
 * what the process should exit with.
 *
 * @module
 */

/**
 * The message of anything thrown: an `Error`'s message, or the value as text.
 *
 * @example Usage
 * ```ts
 * import { messageOf } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(messageOf(new Error("disk full")), "disk full");
 * assert.deepEqual(messageOf("plain"), "plain");
 * ```
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An error a person can act on, with the exit status it ends the command with (2 for a usage
 * error, 1 for a failure) and, where there is one, the error underneath as `cause`. `main.ts`
 * turns it into one line on stderr and the exit status, in one place.
 *
 * @example Usage
 * ```ts
 * import { LibrarianError } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new LibrarianError("cannot write the library", { exitCode: 1 });
 * assert.deepEqual(error.exitCode, 1);
 * ```
 */
export class LibrarianError extends Error {
  /** The process exit status this error ends a command with. */
  readonly exitCode: number;

  /** More fields for a command's `--json` error object (`{ library: null }`). */
  readonly details: Readonly<Record<string, unknown>>;

  /** `message` says what happened and what to do; `exitCode` defaults to 1. */
  constructor(
    message: string,
    options: { exitCode?: number; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LibrarianError";
    this.exitCode = options.exitCode ?? 1;
    this.details = options.details ?? {};
  }
}
