/**
 * The context for one file: find its library, walk up the mirror, read the files, drop what the
 * context window already has, and render the rest under the budget.
 *
 * Both the inject hook and `librarian read` use this, so a person sees exactly what the model
 * gets.
 *
 * @module
 */

import { encodeName } from "../format/names.ts";
import type { RenderedContext } from "./context_budget.ts";
import { type ChoiceRead, type ChooseOptions, readChoice, renderChoice } from "./choose.ts";
import {
  isLibrary,
  type Library,
  lookUpLibraryForFile,
  placeFileResolved,
  type RefusedLibrary,
  trustsOwnersOf,
} from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { type FolderListings, folderListings } from "../core/folder_listing.ts";
import { type StaleView, staleView } from "./stale_view.ts";
import { dirnameOf, normalizePath, resolveLocalPath } from "../core/paths.ts";
import { collectLibraryFiles, type LevelMemo, type LibraryFile } from "../core/walk.ts";
import type { ReadMemo } from "../core/read_text.ts";
import {
  builtinLoadedAgents,
  clientLoadedSources,
  clientLoadsAfterWriteAndShellRead,
  nativeSources,
  scopedRules,
} from "./native_sources.ts";
import { readRuleFiles, type RuleFile } from "./rule_files.ts";
import { ROOT_AGENTS, rootAgentsFile } from "./root_agents.ts";
import { claudeRuleExports, generatedOnly, heldByExports } from "./loaded_exports.ts";

/** Why no context was produced for a file. */
export type NoContextReason =
  | "not-a-local-path"
  | "no-library"
  | "library-refused"
  | "outside-project"
  | "in-library"
  | "no-library-files"
  | "all-sent";

/** The outcome of building a file's context. */
export type FileContext =
  | {
    kind: "none";
    reason: NoContextReason;
    library?: Library;
    relPath?: string;
    /** The library folder that was found but not used (`library-refused`), and why. */
    refused?: RefusedLibrary;
    hits: number;
    /** Fingerprints of files touched on disk but unchanged, to refresh in the ledger. */
    refreshed?: Record<string, string>;
  }
  | {
    kind: "context";
    library: Library;
    /** The file's path relative to the project root. */
    relPath: string;
    rendered: RenderedContext;
    /**
     * Library file's absolute path → fingerprint, for every file the model now has (shown, cut or
     * skipped). Absolute, so two nested libraries' `tech.md` are two files.
     */
    delivered: Record<string, string>;
    /** How many applicable files were skipped because the context window already has them. */
    hits: number;
    /** Every applicable library file, most specific first. */
    files: LibraryFile[];
    /** The stale marks for its files (read only when a file is read). */
    stale?: StaleView;
  };

/** Options for {@link buildFileContext}. */
export interface FileContextOptions {
  env: EnvReader;
  budget: number;
  /**
   * Fingerprints already sent to this context window, by the library file's absolute path (empty
   * to ignore the ledger).
   */
  alreadySent?: Record<string, string>;
  /**
   * Folder to resolve a relative file path against (the event's `cwd`); when it is missing or not
   * an absolute path, the process's working folder.
   */
  cwd?: string | undefined;
  /** Keep provenance comments in the text (`librarian read --provenance`). */
  keepProvenance?: boolean;
}

/** At most this much of the file's path is shown in the header (its end, after `…`). */
export const MAX_HEADER_PATH = 240;

/** The header line the model sees first. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextHeader } from "./file_context.ts";
 * assert.equal(contextHeader("src/a.ts", 0), "[Librarian] Memory library context for src/a.ts:");
 * ```
 */
export function contextHeader(relPath: string, hits: number): string {
  // Quoted as data: a path with line breaks cannot start a line (a section head) of its own.
  let shown = encodeName(relPath);
  if (shown.length > MAX_HEADER_PATH) {
    shown = shown.slice(-(MAX_HEADER_PATH - 1));
    if (/^[\udc00-\udfff]/.test(shown)) shown = shown.slice(1); // never half a surrogate pair
    shown = `…${shown}`;
  }
  const earlier = hits > 0
    ? ` (${hits} unchanged library file${
      hits === 1 ? "" : "s"
    } for this path already sent earlier in this session)`
    : "";
  return `[Librarian] Memory library context for ${shown}${earlier}:`;
}

/** The event's `cwd` when it is an absolute path, else the process's working folder. */
function baseFolder(cwd: string | undefined): string | undefined {
  const given = cwd === undefined ? null : resolveLocalPath(cwd);
  if (given !== null) return given;
  try {
    return normalizePath(Deno.cwd());
  } catch {
    return undefined; // the working folder was deleted
  }
}

/** Where a touched file's library context comes from, or why there is none. */
export type FileLocation =
  | {
    kind: "none";
    reason: NoContextReason;
    library?: Library;
    relPath?: string;
    /** The library folder that was found but not used (`library-refused`), and why. */
    refused?: RefusedLibrary;
    /** The project's memory files the client loads by itself on this touch (native_sources.ts). */
    clientLoaded?: LibraryFile[];
    /** The touch's folder listings, for the hint's package probes (`core/package_root.ts`). */
    listings?: FolderListings;
  }
  | {
    kind: "located";
    library: Library;
    relPath: string;
    files: LibraryFile[];
    /** The project's memory files the client loads by itself on this touch (native_sources.ts). */
    clientLoaded?: LibraryFile[];
    /** The stale marks for its files (the record is read only when a file is read). */
    stale?: StaleView;
    /** The touch's folder listings, for the hint's package probes (`core/package_root.ts`). */
    listings?: FolderListings;
    /**
     * The `claude-rules` exports this touch read with the project's rules (`rule_files.ts`), for
     * the root files' export check (`inject_hook.ts`), which need not read `.claude/rules` again.
     */
    exportedRules?: readonly RuleFile[];
    /** What is kept between runs of this walk's reads (`walk_memo.ts`), when kept. */
    reads?: ReadMemo;
  };

/**
 * What the inject hook keeps of a walk between runs (`walk_memo.ts`): big folders' listings, big
 * files' hashes and small files' texts.
 */
export type LibraryMemo = LevelMemo & ReadMemo;

/**
 * Finds the library for the file at `rawPath` and the library files that apply to it, most
 * specific first (no ledger, no reading of library files yet).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { locateFileContext } from "./file_context.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library/src`, { recursive: true });
 * Deno.writeTextFileSync(`${p}/_memory_library/src/edge.md`, "- e");
 * const found = locateFileContext(`${p}/src/a.ts`, { env: envFrom({}) });
 * assert.equal(found.kind, "located");
 * assert.deepEqual(found.kind === "located" ? found.files.map((f) => f.label) : [], ["src/edge.md"]);
 * ```
 */
export function locateFileContext(
  rawPath: string,
  options: Pick<FileContextOptions, "env" | "cwd"> & {
    tool?: string;
    agent?: string;
    /**
     * The memo kept between runs for the walk up from `folder` (a mirror folder) in `library`
     * (`walk_memo.ts`), when the caller keeps one.
     */
    memoFor?: (library: Library, folder: string) => LibraryMemo | undefined;
  },
): FileLocation {
  const filePath = resolveLocalPath(rawPath) ??
    resolveLocalPath(rawPath, baseFolder(options.cwd));
  if (filePath === null) return { kind: "none", reason: "not-a-local-path" };
  // each folder on the way up listed once for this touch: its listing answers the library's, the
  // memory files' and the rule folders' probes of names it does not hold (folder_listing.ts)
  const listings = folderListings();
  const found = lookUpLibraryForFile(filePath, options.env, undefined, listings);
  if (found === null) return { kind: "none", reason: "no-library" };
  if (!isLibrary(found)) return { kind: "none", reason: "library-refused", refused: found };
  const library = found;
  const placement = placeFileResolved(filePath, library);
  if (placement.kind === "outside") return { kind: "none", reason: "outside-project", library };
  if (placement.kind === "in-library") return { kind: "none", reason: "in-library", library };
  const relPath = placement.relPath;
  // the project's own nested memory files the client does not load on a file tool's touch: on a
  // Write under a client that loads nothing after one (2.1.197), all of them
  const unloaded = options.tool === "Write" && !clientLoadsAfterWriteAndShellRead(options.env);
  // the project's rule files, read once: its own rules for both questions, and the exports
  const ruleFiles = readRuleFiles(library.projectRoot, listings);
  const rules = scopedRules(library.projectRoot, ruleFiles.own);
  // the nested AGENTS.md files a 2.1.3xx client's built-in loader sends after a Read
  const builtin = options.tool === "Read" && clientLoadsAfterWriteAndShellRead(options.env)
    ? builtinLoadedAgents(library.projectRoot, relPath, listings)
    : [];
  const native = [
    ...clientLoadedSources(library.projectRoot, relPath, rules, listings),
    ...builtin,
  ];
  // what Claude Code loads with this touch (the built-in loader's, a loaded CLAUDE.md's imports),
  // where it loads anything: not sent (another agent loads none of it)
  const byClaude = options.agent === undefined || options.agent === "claude";
  const folder = dirnameOf(relPath);
  const memo = options.memoFor?.(library, folder);
  const libraryFiles = collectLibraryFiles(library.root, folder, Deno.build.os, memo);
  // the Librarian's own exports it loads (a claude-rules rule, a generated AGENTS.md): the
  // library files they hold as they are now are in the window with them (loaded_exports.ts)
  const held = byClaude && !unloaded
    ? heldByExports(libraryFiles, [
      ...generatedOnly(native),
      ...claudeRuleExports(library.projectRoot, relPath, ruleFiles.exported),
    ])
    : [];
  const clientLoaded = [...native, ...held];
  const byClient = new Set(
    byClaude && !unloaded ? clientLoaded.map((file) => file.absPath) : [],
  );
  // the root AGENTS.md, general last: whether the client loaded it is decided with the ledger
  // (inject_hook.ts, root_agents.ts)
  const rootAgents = relPath === ROOT_AGENTS ? null : rootAgentsFile(library.projectRoot, listings);
  const files = [
    ...libraryFiles.filter((file) => !byClient.has(file.absPath)),
    ...nativeSources(
      library.projectRoot,
      [relPath],
      unloaded ? "command" : "file-tool",
      rules,
      listings,
    )
      .filter((file) => !byClient.has(file.absPath)),
    ...(rootAgents && !byClient.has(rootAgents.absPath) ? [rootAgents] : []),
  ];
  const loaded = clientLoaded.length > 0 ? { clientLoaded } : {};
  if (files.length === 0) {
    return { kind: "none", reason: "no-library-files", library, relPath, listings, ...loaded };
  }
  const stale = staleView(library, options.env);
  return {
    kind: "located",
    library,
    relPath,
    files,
    listings,
    exportedRules: ruleFiles.exported,
    ...(stale ? { stale } : {}),
    ...(memo ? { reads: memo } : {}),
    ...loaded,
  };
}

/** A located file's library files, read against what the context window already has. */
export interface FileContextRead {
  location: FileLocation & { kind: "located" };
  budget: number;
  read: ChoiceRead;
}

/**
 * Reads what of a located file's library files the context window still needs
 * (`choose.ts` `readChoice`), to render with {@link renderFileContext}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { locateFileContext, readFileContext, renderFileContext } from "./file_context.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library`);
 * Deno.writeTextFileSync(`${p}/_memory_library/tech.md`, "- t");
 * const found = locateFileContext(`${p}/a.ts`, { env: envFrom({}) });
 * assert.ok(found.kind === "located");
 * const read = readFileContext(found, 9000, {});
 * assert.equal(renderFileContext(read).kind, "context");
 * ```
 */
export function readFileContext(
  location: FileLocation & { kind: "located" },
  budget: number,
  alreadySent: Record<string, string>,
  extra: Pick<ChooseOptions, "keepProvenance"> = {},
): FileContextRead {
  const read = readChoice(location.files, {
    budget,
    alreadySent,
    ...(extra.keepProvenance === undefined ? {} : { keepProvenance: extra.keepProvenance }),
    ...(location.stale ? { stale: location.stale } : {}),
    ...(location.reads ? { reads: location.reads } : {}),
    trusts: trustsOwnersOf(location.library),
  });
  return { location, budget, read };
}

/**
 * Renders a file's context from what {@link readFileContext} read, ending with `ending` within
 * the budget less `reserved` characters (pure: nothing is read again).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderFileContext } from "./file_context.ts";
 * const location = {
 *   kind: "located" as const, relPath: "a.ts", files: [],
 *   library: { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const },
 * };
 * const read = { kind: "none" as const, hits: 1, refreshed: {} };
 * assert.equal(renderFileContext({ location, budget: 9000, read }).kind, "none");
 * ```
 */
export function renderFileContext(
  { location, budget, read }: FileContextRead,
  extra: Pick<ChooseOptions, "ending" | "reserved"> = {},
): FileContext {
  const { library, relPath, files } = location;
  const choice = renderChoice(read, {
    budget,
    ...extra,
    header: (hits) => contextHeader(relPath, hits),
  });
  if (choice.kind === "none") {
    return {
      kind: "none",
      reason: "all-sent",
      library,
      relPath,
      hits: choice.hits,
      refreshed: choice.refreshed,
    };
  }
  const { rendered, delivered, hits } = choice;
  return { kind: "context", library, relPath, rendered, delivered, hits, files };
}

/** Chooses and renders a located file's context against what the context window already has. *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { decideFileContext, locateFileContext } from "./file_context.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library`);
 * Deno.writeTextFileSync(`${p}/_memory_library/tech.md`, "- t");
 * const found = locateFileContext(`${p}/a.ts`, { env: envFrom({}) });
 * assert.ok(found.kind === "located");
 * assert.equal(decideFileContext(found, 9000, {}).kind, "context");
 * ```
 */
export function decideFileContext(
  location: FileLocation & { kind: "located" },
  budget: number,
  alreadySent: Record<string, string>,
  extra: Pick<ChooseOptions, "keepProvenance" | "ending" | "reserved"> = {},
): FileContext {
  const { keepProvenance, ...rendering } = extra;
  const read = readFileContext(
    location,
    budget,
    alreadySent,
    keepProvenance === undefined ? {} : { keepProvenance },
  );
  return renderFileContext(read, rendering);
}

/**
 * A touch's context for each of its attempts (`touch.ts` `Touch.contextFor`): the library files
 * are read once against the files the window was sent (again only for another `sent`), and
 * rendered with each attempt's ending and reserve, so a held first touch stats, reads and hashes
 * each file once.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { locateFileContext, touchContext } from "./file_context.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${p}/_memory_library`);
 * Deno.writeTextFileSync(`${p}/_memory_library/tech.md`, "- t");
 * const found = locateFileContext(`${p}/a.ts`, { env: envFrom({}) });
 * assert.ok(found.kind === "located");
 * const contextFor = touchContext(found, 9000);
 * const sent = {};
 * const plain = contextFor(sent, "", 0);
 * Deno.removeSync(`${p}/_memory_library/tech.md`); // read already: the next attempt renders it
 * const held = contextFor(sent, "", 40);
 * assert.ok(plain.kind === "context" && held.kind === "context");
 * assert.deepEqual(held.rendered.shown, plain.rendered.shown);
 * ```
 */
export function touchContext(
  location: FileLocation & { kind: "located" },
  budget: number,
): (sent: Record<string, string>, ending: string, reserved: number) => FileContext {
  let last: { sent: Record<string, string>; read: FileContextRead } | undefined;
  return (sent, ending, reserved) => {
    if (last?.sent !== sent) last = { sent, read: readFileContext(location, budget, sent) };
    return renderFileContext(last.read, { ending, reserved });
  };
}

/** Builds the context for the file at `rawPath` (locate, then decide). *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { buildFileContext } from "./file_context.ts";
 * const result = buildFileContext("relative/a.ts", { env: envFrom({}), budget: 9000, cwd: "rel" });
 * assert.equal(result.kind, "none");
 * ```
 */
export function buildFileContext(rawPath: string, options: FileContextOptions): FileContext {
  const location = locateFileContext(rawPath, options);
  if (location.kind === "none") return { ...location, hits: 0 };
  return decideFileContext(
    location,
    options.budget,
    options.alreadySent ?? {},
    { keepProvenance: options.keepProvenance ?? false },
  );
}
