/**
 * The hold (pure): no write made blind.
 *
 * PreToolUse context reaches the model with the tool's result, that is after the tool ran. For a
 * Read that is in time; for a Write of a new file, or a Bash command that writes a project file
 * (`sed -i`, `>`, `tee`, `cp`/`mv` into it, `git mv`, a here-document), the folder's library
 * files would arrive after the change. So the first such call into a folder whose library files
 * have not yet reached this context window is held once: it is denied
 * (`permissionDecision: "deny"`, the one decision the Librarian ever returns; never `allow` or
 * `ask`) with the folder's library context as the reason, and the model makes the call again with
 * that in mind. The hold is recorded in the ledger before it is answered, so the retry passes.
 *
 * At most once per folder per context window; never for a folder whose files were all sent
 * already (an Edit needs a Read first, which brought them), never for a folder with no library
 * files, and never when anything fails (the lock, the ledger): the call then goes through as
 * without the hold. `LIBRARIAN_HOLD=off` turns it off.
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf } from "../core/paths.ts";
import type { LibraryFile } from "../core/walk.ts";

/** The tools whose call writes the file it names. */
export const WRITE_TOOLS: ReadonlySet<string> = new Set([
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
]);

/**
 * Whether holds are on (`LIBRARIAN_HOLD=off`, `0`, `false` or `no` turns them off).
 *
 * @example Usage
 * ```ts
 * import { holdEnabled } from "./hold.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 * assert.equal(holdEnabled(envFrom({})), true);
 * assert.equal(holdEnabled(envFrom({ LIBRARIAN_HOLD: " Off " })), false);
 * ```
 */
export function holdEnabled(env: EnvReader): boolean {
  const value = env("LIBRARIAN_HOLD")?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false" || value === "no");
}

/**
 * Whether a library file applies to the project folder `folder` (project-relative, `""` for the
 * root): its mirror folder is that folder or one above it.
 */
function appliesTo(file: LibraryFile, folder: string): boolean {
  const own = dirnameOf(file.relPath);
  return own === "" || folder === own || folder.startsWith(`${own}/`);
}

/** What {@link foldersToHold} needs to know. */
export interface HoldFacts {
  /** Project-relative folders the call writes into (`""` for the project root). */
  written: readonly string[];
  /** Folders already held in this context window (the same form as the keys below). */
  held: readonly string[];
  /** The key a folder is remembered by (its absolute path). */
  keyOf: (folder: string) => string;
  /** The library files this call's context brings that the window has never been sent. */
  unsent: readonly LibraryFile[];
}

/**
 * The written folders this call is held for: those not held before in this window whose library
 * files (their own or an ancestor's) include one this window has never been sent. Empty: the call
 * goes through.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldersToHold } from "./hold.ts";
 * const edge = { relPath: "src/api/edge.md", label: "src/api/edge.md", absPath: "/p/_memory_library/src/api/edge.md" };
 * const keyOf = (folder: string) => `/p/${folder}`;
 * assert.deepEqual(foldersToHold({ written: ["src/api/v2"], held: [], keyOf, unsent: [edge] }), ["src/api/v2"]);
 * assert.deepEqual(foldersToHold({ written: ["src/api/v2"], held: ["/p/src/api/v2"], keyOf, unsent: [edge] }), []);
 * assert.deepEqual(foldersToHold({ written: ["src/ui"], held: [], keyOf, unsent: [edge] }), [], "not its files");
 * assert.deepEqual(foldersToHold({ written: ["src/api"], held: [], keyOf, unsent: [] }), [], "all sent");
 * ```
 */
export function foldersToHold(facts: HoldFacts): string[] {
  const held = new Set(facts.held);
  return [...new Set(facts.written)].filter((folder) =>
    !held.has(facts.keyOf(folder)) && facts.unsent.some((file) => appliesTo(file, folder))
  );
}

/**
 * The reason a held call is denied with: what to do, then why, then the library context. It opens
 * with the instruction because Claude Code 2.1.332 puts `PreToolUse:Write hook error: ` before a
 * deny reason: the first words after that must say this is a step to take, not a failure.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdReason } from "./hold.ts";
 * const reason = holdReason("Write", ["src/api"], "[Librarian] Memory library context for src/api/x.ts:");
 * assert.ok(reason.startsWith("[Librarian] Read the library notes for src/api below, then make this Write again"));
 * assert.ok(reason.endsWith("[Librarian] Memory library context for src/api/x.ts:"));
 * ```
 */
export function holdReason(tool: string, folders: readonly string[], context: string): string {
  return `${holdPreface(tool, folders)}\n\n${context}`;
}

/** The words before the context (see {@link holdReason}). */
export function holdPreface(tool: string, folders: readonly string[]): string {
  const named = folders.map((f) => f === "" ? "the project root" : encodeName(f));
  const where = named.length === 1
    ? named[0]!
    : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
  const what = tool === "Bash" ? "Bash command" : tool;
  return `[Librarian] Read the library notes for ${where} below, then make this ${what} again, ` +
    `as it was or changed in light of them. It was held once, not refused: those notes had not ` +
    `reached this conversation yet. Nothing was changed, and it will not be held again.`;
}
