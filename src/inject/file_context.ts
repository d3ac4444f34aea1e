/**
 * The context for one file: find its library, walk up the mirror, read the files, drop what the
 * context window already has, and render the rest under the budget.
 *
 * Both the inject hook and `librarian read` use this, so a person sees exactly what the model
 * gets.
 *
 * @module
 */

import {
  type ContextSection,
  type ContextSkip,
  renderContext,
  type RenderedContext,
} from "./context.ts";
import { findLibraryForFile, type Library, placeFileResolved } from "../core/discover.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf, normalizePath, resolveLocalPath } from "../core/paths.ts";
import { hashOf, makeFingerprint, stampOf } from "./ledger.ts";
import { readLibraryText, statStamp } from "../core/read_text.ts";
import { collectLibraryFiles, type LibraryFile } from "../core/walk.ts";

/** Why no context was produced for a file. */
export type NoContextReason =
  | "not-a-local-path"
  | "no-library"
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
}

/** At most this much of the file's path is shown in the header (its end, after `…`). */
export const MAX_HEADER_PATH = 240;

/** The characters a section takes besides its text (`\n\n--- [label] ---\n`). */
const SECTION_FRAME = 12;

/** The header line the model sees first. */
export function contextHeader(relPath: string, hits: number): string {
  let shown = relPath;
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

/** Builds the context for the file at `rawPath`. */
export function buildFileContext(rawPath: string, options: FileContextOptions): FileContext {
  const filePath = resolveLocalPath(rawPath) ??
    resolveLocalPath(rawPath, baseFolder(options.cwd));
  if (filePath === null) return { kind: "none", reason: "not-a-local-path", hits: 0 };
  const library = findLibraryForFile(filePath, options.env);
  if (!library) return { kind: "none", reason: "no-library", hits: 0 };
  const placement = placeFileResolved(filePath, library);
  if (placement.kind === "outside") {
    return { kind: "none", reason: "outside-project", library, hits: 0 };
  }
  if (placement.kind === "in-library") {
    return { kind: "none", reason: "in-library", library, hits: 0 };
  }
  const relPath = placement.relPath;
  const relDir = dirnameOf(relPath);
  const files = collectLibraryFiles(library.root, relDir);
  if (files.length === 0) {
    return { kind: "none", reason: "no-library-files", library, relPath, hits: 0 };
  }

  const maxBytes = options.budget * 4 + 1024;
  const sent = options.alreadySent ?? {};
  const sections: ContextSection[] = [];
  const skips: ContextSkip[] = [];
  const fingerprints: Record<string, string> = {};
  // touched on disk but unchanged: the new stamp is recorded so the next touch needs no read
  const touched: Record<string, string> = {};
  let hits = 0;
  // What the files read so far would take in the context (empty and skipped files too); once it
  // passes the budget, the rest are named as left out without being read.
  let charsRead = 0;
  const skip = (file: LibraryFile, reason: string) => {
    skips.push({ label: file.label, readPath: file.absPath, reason });
    charsRead += file.absPath.length + reason.length + 4;
  };
  for (const file of files) {
    const previous = sent[file.absPath];
    if (previous === undefined && charsRead > options.budget) {
      // the budget is already spent: name it without reading (or even stat'ing) it
      sections.push({ label: file.label, readPath: file.absPath, body: null, partial: false });
      continue;
    }
    const stat = statStamp(file.absPath);
    if ("error" in stat) {
      skip(file, `unreadable: ${stat.error}`);
      continue;
    }
    if (previous !== undefined && stampOf(previous) === stat.stamp) {
      hits++; // unchanged since it was sent: not even read
      continue;
    }
    const text = readLibraryText(file.absPath, stat.size, maxBytes);
    if (text.kind === "unreadable") {
      skip(file, `unreadable: ${text.reason}`);
      continue;
    }
    const fingerprint = makeFingerprint(stat.stamp, text.hash);
    if (previous !== undefined && hashOf(previous) === text.hash) {
      hits++; // touched but not changed
      touched[file.absPath] = fingerprint;
      continue;
    }
    fingerprints[file.absPath] = fingerprint;
    if (text.kind === "text") {
      charsRead += text.text.length + file.label.length + SECTION_FRAME;
      sections.push({
        label: file.label,
        readPath: file.absPath,
        body: text.text,
        partial: text.partial,
      });
    } else {
      skip(file, text.kind === "binary" ? "binary file, skipped" : "not UTF-8 text, skipped");
    }
  }
  if (sections.length === 0 && skips.length === 0) {
    return { kind: "none", reason: "all-sent", library, relPath, hits, refreshed: touched };
  }
  const rendered = renderContext(contextHeader(relPath, hits), sections, skips, options.budget);
  const delivered: Record<string, string> = { ...touched };
  const pathOfLabel = new Map(files.map((f) => [f.label, f.absPath]));
  for (const label of [...rendered.shown, ...rendered.cut, ...rendered.skipped]) {
    const path = pathOfLabel.get(label);
    if (path !== undefined && fingerprints[path] !== undefined) {
      delivered[path] = fingerprints[path]!;
    }
  }
  return { kind: "context", library, relPath, rendered, delivered, hits, files };
}
