/**
 * `librarian lint --fix`: the safe actions only. A library folder whose code folder git shows was
 * renamed is moved to mirror the new folder: with `git mv` when git tracks it (the move is staged,
 * history follows), else renamed on disk. Nothing is moved when the new folder already exists in
 * the library (its files would have to be merged by a person), and no learning is ever deleted.
 *
 * @module
 */

import {
  Boundary,
  dirnameOf,
  isDirectory,
  joinPath,
  type Library,
  messageOf,
} from "../../core/mod.ts";
import { runGit } from "../../git/mod.ts";
import type { Finding } from "./lint_checks.ts";

/** One folder move `--fix` made or refused. */
export interface FolderMove {
  /** Library-relative folder before. */
  from: string;
  /** Library-relative folder after. */
  to: string;
  how: "git mv" | "rename" | "skipped";
  /** Why a move was skipped. */
  why?: string;
}

async function gitTracks(projectRoot: string, relPath: string): Promise<boolean> {
  try {
    const listed = await runGit(projectRoot, ["ls-files", "--", relPath]);
    return listed.code === 0 && listed.stdout.trim() !== "";
  } catch {
    return false;
  }
}

/**
 * Moves one library folder (`from` → `to`, library-relative), inside the library only: a source
 * that is a link, or a target beyond a link that leaves the library, is refused (the boundary).
 */
async function moveFolder(library: Library, from: string, to: string): Promise<FolderMove> {
  const source = joinPath(library.root, from);
  const target = joinPath(library.root, to);
  if (isDirectory(target)) {
    return { from, to, how: "skipped", why: `${to}/ already exists: merge the files by hand` };
  }
  try {
    const boundary = new Boundary(library.root, "library");
    const checked = boundary.checkMove(source, target);
    boundary.ensureFolder(dirnameOf(checked.to.path));
    const rel = (path: string) => path.slice(library.projectRoot.length + 1);
    if (await gitTracks(library.projectRoot, rel(source))) {
      const moved = await runGit(library.projectRoot, ["mv", "--", rel(source), rel(target)]);
      if (moved.code === 0) return { from, to, how: "git mv" };
    }
    boundary.move(source, target);
    return { from, to, how: "rename" };
  } catch (error) {
    return { from, to, how: "skipped", why: messageOf(error) };
  }
}

/** Applies the folder moves the stale-folder findings suggest; returns what was done. */
export async function applyFolderMoves(
  library: Library,
  findings: readonly Finding[],
): Promise<FolderMove[]> {
  const moves: FolderMove[] = [];
  for (const finding of findings) {
    if (finding.check !== "stale-folder" || !finding.movedTo) continue;
    const from = finding.path.replace(/\/$/, "");
    moves.push(await moveFolder(library, from, finding.movedTo));
  }
  return moves;
}
