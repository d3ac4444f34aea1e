/**
 * Where a Bash command (or a Grep / Glob search) gets its library context: the project paths it
 * names, and the library files that apply to them, merged most specific first, each once. The
 * result has the shape of a located file's context, so the same decision (ledger, budget,
 * rendering) follows.
 *
 * Loaded only for these tools: the file tools never pay for the shell tokenizer.
 *
 * @module
 */

import { shortName } from "../format/names.ts";
import type { Library } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf, normalizePath, relativeInside, resolveLocalPath } from "../core/paths.ts";
import type { LibraryFile } from "../core/walk.ts";
import { type FolderListings, folderListings } from "../core/folder_listing.ts";
import { MAX_PATCH_FILES, patchFiles } from "../core/patch_files.ts";
import {
  mergedLibraryFiles,
  type ProjectTouch,
  projectTouchesOf,
  projectTouchesOfCommand,
} from "./bash_paths.ts";
import { clientLoadsAfterWriteAndShellRead, commandNativeSources } from "./native_sources.ts";
import { clientReadsOfCommand } from "./client_bash_reads.ts";
import { rootAgentsFile } from "./root_agents.ts";
import { claudeRuleExports, heldByExports } from "./loaded_exports.ts";
import { exportedClaudeRules } from "./rule_files.ts";

/** The tools whose input names paths through a command line or a search folder. */
export const COMMAND_TOOLS: readonly string[] = ["Bash", "Grep", "Glob", "apply_patch"];

/** Why a command gets no context. */
export type NoCommandContextReason =
  | "no-command"
  | "unparseable"
  | "no-project-paths"
  | "no-library-files";

/** The outcome of locating a command's context. */
export type CommandLocation =
  | {
    kind: "none";
    reason: NoCommandContextReason;
    /** Why it could not be parsed, or what it touched (for the log). */
    detail?: string;
    truncated?: boolean;
  }
  | {
    kind: "located";
    library: Library;
    /** The touched paths as the header names them (`src/api/x.ts, src/ui/`). */
    relPath: string;
    /** The library files that apply, most specific first, each once. */
    files: LibraryFile[];
    /** Project-relative touched paths (a folder ends in `/`). */
    touched: string[];
    /**
     * Project-relative folders the command writes files into (the folder of a written file, a
     * folder written into), each once: what a hold is about (`hold.ts`).
     */
    written: string[];
    /** Touched paths in other libraries' projects, left for their own events. */
    elsewhere: number;
    /** True when the command named more than was looked at. */
    truncated: boolean;
  };

/** At most this many touched paths are named in the header. */
const NAMED_IN_HEADER = 4;
/** Each named touched path is shortened to this many characters. */
const MAX_NAME_IN_HEADER = 48;

/**
 * The touched paths as the header names them.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(touchedNames(["a.ts", "src/"]), "a.ts, src/");
 * assert.equal(touchedNames(["1", "2", "3", "4", "5", "6"]), "1, 2, 3, 4 and 2 more");
 * assert.equal(touchedNames(["a\n--- [x] ---"]), "a\\n--- [x] ---");
 * ```
 */
export function touchedNames(touched: readonly string[]): string {
  // Quoted as data and kept short: the library's sections, not the list, fill the context.
  const named = touched.slice(0, NAMED_IN_HEADER).map((t) => shortName(t, MAX_NAME_IN_HEADER))
    .join(", ");
  const more = touched.length - NAMED_IN_HEADER;
  return more > 0 ? `${named} and ${more} more` : named;
}

/**
 * The working folder of an event: its `cwd` when absolute, else the process's (`null` when that
 * was deleted).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { workingFolder } from "./command_context.ts";
 * assert.equal(workingFolder("/p/q"), "/p/q");
 * assert.equal(typeof workingFolder(undefined), "string");
 * ```
 */
export function workingFolder(cwd: unknown): string | null {
  const given = typeof cwd === "string" ? resolveLocalPath(cwd) : null;
  if (given !== null) return given;
  try {
    return normalizePath(Deno.cwd());
  } catch {
    return null;
  }
}

/**
 * The context location for touched project paths (those of the first library only).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(locateTouches([], false), { kind: "none", reason: "no-project-paths", truncated: false });
 * ```
 *
 * @param clientReads absolute paths of the files the client reads by itself, loading their
 *   nested memory (`client_bash_reads.ts`): their native sources are left to it.
 * @param listings this touch's folder listings (`core/folder_listing.ts`), shared with the search
 *   for the touches' libraries: they spare the probes of names a folder does not hold.
 */
export function locateTouches(
  touches: ProjectTouch[],
  truncated: boolean,
  clientReads: readonly string[] = [],
  listings: FolderListings = folderListings(),
): CommandLocation {
  if (touches.length === 0) return { kind: "none", reason: "no-project-paths", truncated };
  const library = touches[0]!.library;
  const own = touches.filter((t) => t.library.root === library.root);
  const touched = own.map((t) => t.folder ? `${t.relPath}/` : t.relPath);
  // the project's own nested memory files and path rules: sent, but for the files a client
  // reads its way (2.1.3xx after `cat F`), whose memory it loads itself
  const served = clientReads.flatMap((path) => {
    const rel = relativeInside(path, library.projectRoot);
    return rel === null || rel === "" ? [] : [rel];
  });
  // the root AGENTS.md, general last (touched by name, the command itself brings it)
  const rootAgents = rootAgentsFile(library.projectRoot, listings);
  const named = rootAgents !== null && touched.includes(rootAgents.relPath);
  // the library files a claude-rules export holds, for the files the client reads its way (it
  // loads the export with them: loaded_exports.ts)
  const libraryFiles = mergedLibraryFiles(library, own);
  // `.claude/rules` read once for all those files (and not probed where the root has none)
  const exported = served.length === 0 ? [] : exportedClaudeRules(library.projectRoot, listings);
  const held = new Set(
    heldByExports(
      libraryFiles,
      served.flatMap((rel) => claudeRuleExports(library.projectRoot, rel, exported)),
    ).map((f) => f.absPath),
  );
  const files = [
    ...libraryFiles.filter((f) => !held.has(f.absPath)),
    ...commandNativeSources(library.projectRoot, touched, served, listings),
    ...(rootAgents && !named ? [rootAgents] : []),
  ];
  const written = [
    ...new Set(
      own.filter((t) => t.written).map((t) => t.folder ? t.relPath : dirnameOf(t.relPath)),
    ),
  ];
  if (files.length === 0) {
    return { kind: "none", reason: "no-library-files", detail: touched.join(","), truncated };
  }
  return {
    kind: "located",
    library,
    relPath: touchedNames(touched),
    files,
    touched,
    written,
    elsewhere: touches.length - own.length,
    truncated,
  };
}

/**
 * Locates the context for an `apply_patch` edit (Codex CLI, Copilot CLI): every file its
 * `*** Add/Update/Delete File:` and `*** Move to:` lines name, each written.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const found = locatePatch({ command: "*** Begin Patch\n*** End Patch" }, "/", () => undefined);
 * assert.deepEqual(found, { kind: "none", reason: "no-project-paths", truncated: false });
 * ```
 */
export function locatePatch(
  input: Record<string, unknown> | undefined,
  folder: string | null,
  env: EnvReader,
): CommandLocation {
  const text = input?.command ?? input?.patch ?? input?.input;
  if (typeof text !== "string" || text.trim() === "" || folder === null) {
    return { kind: "none", reason: "no-command" };
  }
  const named = patchFiles(text).flatMap((file) => {
    const path = resolveLocalPath(file.path, folder);
    return path === null ? [] : [{ path, role: "write" as const }];
  });
  const listings = folderListings();
  const found = projectTouchesOf(named, env, listings);
  const truncated = found.truncated || named.length >= MAX_PATCH_FILES;
  return locateTouches(found.touches, truncated, [], listings);
}

/**
 * Locates the context for a Bash command line (`tool_input.command`) or a Grep / Glob search
 * (`tool_input.path`), run in folder `cwd`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * const found = locateCommandContext("Bash", { command: "ls" }, "/", () => undefined);
 * assert.equal(found.kind, "none");
 * ```
 */
export function locateCommandContext(
  tool: string,
  input: Record<string, unknown> | undefined,
  cwd: unknown,
  env: EnvReader,
): CommandLocation {
  const folder = workingFolder(cwd);
  // each folder on the way up listed once for this touch: its listing answers the probes of the
  // library folder, the memory files and the rule folders it does not hold (core/folder_listing.ts)
  const listings = folderListings();
  if (tool === "Bash") {
    const command = input?.command;
    if (typeof command !== "string" || command.trim() === "" || folder === null) {
      return { kind: "none", reason: "no-command" };
    }
    const found = projectTouchesOfCommand(command, folder, env, listings);
    if (!found.ok) return { kind: "none", reason: "unparseable", detail: found.reason };
    const clientReads = clientLoadsAfterWriteAndShellRead(env)
      ? clientReadsOfCommand(command).flatMap((file) => resolveLocalPath(file, folder) ?? [])
      : [];
    return locateTouches(found.touches, found.truncated, clientReads, listings);
  }
  if (tool === "apply_patch") return locatePatch(input, folder, env);
  const path = input?.path;
  if (typeof path !== "string" || path.trim() === "" || folder === null) {
    return { kind: "none", reason: "no-project-paths" };
  }
  const absolute = resolveLocalPath(path, folder);
  if (absolute === null) return { kind: "none", reason: "no-project-paths" };
  const found = projectTouchesOf([{ path: absolute, role: "read" }], env, listings);
  return locateTouches(found.touches, found.truncated, [], listings);
}
