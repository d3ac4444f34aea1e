/**
 * From the paths a Bash command names to the project folders it touches: expand globs as Bash
 * would, keep what exists (or is the target of a write), place each in its library's project,
 * and gather the library files that apply, merged most specific first, each once.
 *
 * Bounded: at most {@link MAX_PROBES} file-system look-ups per command, however many files it
 * names.
 *
 * @module
 */

import { findLibraryForFile, type Library, placeFileResolved } from "../core/discover.ts";
import type { FolderListings } from "../core/folder_listing.ts";
import type { EnvReader } from "../core/env.ts";
import { dirnameOf, joinPath, MAX_PATH_LENGTH, normalizePath } from "../core/paths.ts";
import { collectLibraryFiles, type LibraryFile } from "../core/walk.ts";
import { type ShellTouch, touchesOfCommand } from "../shell/bash_touches.ts";

/** A project path a command touches. */
export interface ProjectTouch {
  library: Library;
  /** Project-relative path of the file or folder. */
  relPath: string;
  /** True for a folder (its own mirror folder applies), false for a file (its folder's does). */
  folder: boolean;
  /** True when the command writes or creates it (`>`, `tee`, `sed -i`, the target of `cp`...). */
  written?: boolean;
}

/** What a command touches in projects with a library. */
export type CommandProjectTouches =
  | { ok: true; touches: ProjectTouch[]; truncated: boolean }
  | { ok: false; reason: string };

/** At most this many file-system look-ups (stat, directory listing) per command. */
export const MAX_PROBES = 256;
/** At most this many touched folders are walked for one command (the first ones named). */
export const MAX_FOLDERS = 32;
/** A glob stops after this many matches. */
const MAX_MATCHES = 64;

/** Paths never worth a look-up: devices, process and kernel files. */
const SYSTEM_PATH = /^\/(dev|proc|sys)(\/|$)/;
/** A `..` step in a path. */
const PARENT_STEP = /(^|[\\/])\.\.([\\/]|$)/;

class Prober {
  probes = 0;
  truncated = false;

  spend(): boolean {
    if (this.probes >= MAX_PROBES) {
      this.truncated = true;
      return false;
    }
    this.probes++;
    return true;
  }

  /** "folder", "file", or null when it does not exist (or the look-up budget is spent). */
  kind(path: string): "folder" | "file" | null {
    if (SYSTEM_PATH.test(path) || !this.spend()) return null;
    try {
      const stat = Deno.statSync(path);
      return stat.isDirectory ? "folder" : stat.isFile ? "file" : null;
    } catch {
      return null;
    }
  }

  /**
   * Where the kernel finds an absolute `path` that has `..` steps: each `..` goes up from where
   * the name before it leads (a link's target), not back over the name as `cd` goes. The part up
   * to the last `..` is looked up (one real-path look-up); null when it does not exist (the
   * kernel would not find the file either) or the budget is spent. On Windows `..` is taken
   * back over the name before the file system is asked, so the path's normal form is it.
   */
  physical(path: string): string | null {
    if (!PARENT_STEP.test(path)) return path;
    if (Deno.build.os === "windows") return normalizePath(path);
    const segments = path.replaceAll("\\", "/").split("/");
    const last = segments.lastIndexOf("..");
    const head = segments.slice(0, last + 1).join("/");
    if (SYSTEM_PATH.test(normalizePath(head)) || !this.spend()) return null;
    try {
      const real = normalizePath(Deno.realPathSync(head));
      return normalizePath(joinPath(real, ...segments.slice(last + 1)));
    } catch {
      return null;
    }
  }

  /** The paths matching an absolute glob pattern, segment by segment, as Bash expands it. */
  expand(pattern: string): string[] {
    // A Windows pattern starts at its drive (`C:/`), a POSIX one at `/`.
    const root = /^[A-Za-z]:\//.exec(pattern)?.[0] ?? "/";
    const segments = splitPattern(pattern.slice(root.length));
    let found = [root];
    let listed = false; // once a folder was listed, every later path must be checked to exist
    for (const segment of segments) {
      const next: string[] = [];
      for (const base of found) {
        if (!/(^|[^\\])[*?[]/.test(segment)) {
          const path = joinPath(base, unescape(segment));
          if (!listed || this.kind(path) !== null) next.push(path);
          continue;
        }
        listed = true;
        if (!this.spend()) return [];
        const regex = globRegex(segment);
        try {
          for (const entry of Deno.readDirSync(base)) {
            if (entry.name.startsWith(".") && !segment.startsWith(".")) continue;
            if (regex.test(entry.name)) next.push(joinPath(base, entry.name));
            if (next.length >= MAX_MATCHES) break;
          }
        } catch {
          // not a folder: no match below it
        }
      }
      found = next.slice(0, MAX_MATCHES);
      if (found.length === 0) break;
    }
    return found.sort();
  }
}

/**
 * The paths matching an absolute glob pattern (literal characters `\`-escaped), sorted, as Bash
 * expands it (`*` and `?` never match a leading dot); at most 64.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(expandGlob("/nonexistent-folder/*.ts"), []);
 * ```
 */
export function expandGlob(pattern: string): string[] {
  return new Prober().expand(pattern);
}

/** Splits a pattern at unescaped `/`. */
function splitPattern(pattern: string): string[] {
  return pattern.split("/").filter((s) => s !== "");
}

function unescape(segment: string): string {
  return segment.replace(/\\(.)/g, "$1");
}

/**
 * A regular expression for one glob segment (`*`, `?`, `[...]`, `\`-escapes).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(globRegex("*.ts").test("a.ts"));
 * assert.ok(!globRegex("*.ts").test("a.tsx"));
 * assert.ok(globRegex("[!a]?.md").test("bc.md"));
 * assert.ok(globRegex("x\\*").test("x*"));
 * ```
 */
export function globRegex(segment: string): RegExp {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "\\") out += (segment[++i] ?? "\\").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = segment.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${out}$`, "u");
  } catch {
    return /$^/; // an odd bracket expression: matches nothing
  }
}

/**
 * The project paths among `named`: every path that exists (or that the command creates), inside
 * a project with a library, outside the library itself. The project root as a folder (a listing
 * or search at the top) adds nothing. `listings`: the touch's folder listings
 * (`core/folder_listing.ts`), which spare the library search the probes of folders that hold none.
 *
 * @example Usage
 * ```ts
 * import { projectTouchesOf } from "./bash_paths.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.mkdirSync(`${project}/src`);
 * Deno.writeTextFileSync(`${project}/src/a.ts`, "");
 * const named = [
 *   { path: `${project}/src/a.ts`, role: "read" as const },
 *   { path: `${project}/missing.ts`, role: "read" as const },
 * ];
 * const { touches } = projectTouchesOf(named, envFrom({}));
 * assert.deepEqual(touches.map((t) => [t.relPath, t.folder]), [["src/a.ts", false]]);
 * ```
 */
export function projectTouchesOf(
  named: readonly ShellTouch[],
  env: EnvReader,
  listings?: FolderListings,
): { touches: ProjectTouch[]; truncated: boolean } {
  const prober = new Prober();
  const seen = new Set<string>();
  const libraries = new Map<string, Library | null>();
  const out: ProjectTouch[] = [];
  const placed = new Map<string, ProjectTouch>();
  const consider = (named: string, touch: ShellTouch) => {
    // `..` after a link goes up from its target: the path the kernel reads, not the lexical one
    const path = prober.physical(named);
    if (path === null) return;
    if (seen.has(path) || path.length > MAX_PATH_LENGTH) {
      // a path read first and written later (`cat x > x`) is written
      const earlier = placed.get(path);
      if (earlier && touch.role === "write") earlier.written = true;
      return;
    }
    seen.add(path);
    const kind = prober.kind(path);
    if (kind === null && touch.role === "read") return;
    const folder = kind === "folder" || (kind === null && touch.role === "folder");
    const parent = folder ? path : dirnameOf(path);
    if (!libraries.has(parent)) {
      libraries.set(parent, findLibraryForFile(joinPath(parent, "x"), env, listings));
    }
    const library = libraries.get(parent);
    if (!library) return;
    const placement = placeFileResolved(path, library);
    if (placement.kind !== "project") return; // outside, the root itself, or in the library
    const found: ProjectTouch = { library, relPath: placement.relPath, folder };
    if (touch.role === "write") found.written = true;
    placed.set(path, found);
    out.push(found);
  };
  for (const touch of named) {
    if (touch.glob === undefined) consider(touch.spelled ?? touch.path, touch);
    else {
      const matches = prober.expand(touch.glob);
      if (matches.length === 0) consider(touch.spelled ?? touch.path, touch); // Bash keeps the word
      for (const match of matches) consider(match, touch);
    }
  }
  return { touches: out, truncated: prober.truncated };
}

/**
 * The project paths a Bash command line touches, run in folder `cwd` (see
 * {@link projectTouchesOf}, `listings` too).
 *
 * @example Usage
 * ```ts
 * import { projectTouchesOfCommand } from "./bash_paths.ts";
 * import { envFrom } from "../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.mkdirSync(`${project}/_memory_library`);
 * Deno.mkdirSync(`${project}/src`);
 * const found = projectTouchesOfCommand("ls src", project, envFrom({}));
 * assert.ok(found.ok);
 * assert.deepEqual(found.touches.map((t) => [t.relPath, t.folder]), [["src", true]]);
 * ```
 */
export function projectTouchesOfCommand(
  command: string,
  cwd: string,
  env: EnvReader,
  listings?: FolderListings,
): CommandProjectTouches {
  const named = touchesOfCommand(command, { cwd, home: env("HOME") });
  if (!named.ok) return named;
  const found = projectTouchesOf(named.touches, env, listings);
  return { ok: true, touches: found.touches, truncated: named.truncated || found.truncated };
}

/** The mirror folder depth of a library file (`a/b/x.md` → 2, a root file → 0). */
function depthOf(file: LibraryFile): number {
  return file.relPath.split("/").length - 1;
}

/**
 * The library files that apply to several touched paths of one library: each path's walk-up,
 * merged most specific first (deeper folders first; among equals, in the order touched), each
 * file once; at most {@link MAX_FOLDERS} folders.
 *
 * @example Usage
 * ```ts
 * import { mergedLibraryFiles } from "./bash_paths.ts";
 * import assert from "node:assert/strict";
 *
 * const project = Deno.realPathSync(Deno.makeTempDirSync());
 * const library = { root: `${project}/_memory_library`, projectRoot: project, foundBy: "cwd" as const };
 * Deno.mkdirSync(`${library.root}/src/api`, { recursive: true });
 * Deno.writeTextFileSync(`${library.root}/tech.md`, "");
 * Deno.writeTextFileSync(`${library.root}/src/api/edge.md`, "");
 * Deno.writeTextFileSync(`${library.root}/src/notes.md`, "");
 * const touches = [
 *   { library, relPath: "src/x.ts", folder: false },
 *   { library, relPath: "src/api", folder: true },
 * ];
 * const files = mergedLibraryFiles(library, touches);
 * assert.deepEqual(files.map((f) => f.relPath), ["src/api/edge.md", "src/notes.md", "tech.md"]);
 * ```
 */
export function mergedLibraryFiles(library: Library, touches: ProjectTouch[]): LibraryFile[] {
  const byPath = new Map<string, { file: LibraryFile; order: number }>();
  let order = 0;
  const folders = new Set(touches.map((t) => t.folder ? t.relPath : dirnameOf(t.relPath)));
  for (const folder of [...folders].slice(0, MAX_FOLDERS)) {
    for (const file of collectLibraryFiles(library.root, folder)) {
      if (!byPath.has(file.absPath)) byPath.set(file.absPath, { file, order: order++ });
    }
  }
  return [...byPath.values()]
    .sort((a, b) => depthOf(b.file) - depthOf(a.file) || a.order - b.order)
    .map((entry) => entry.file);
}
