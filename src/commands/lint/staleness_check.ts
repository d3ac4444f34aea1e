/**
 * `librarian lint`'s staleness checks: learnings whose code files (named by their provenance
 * comment) were deleted, renamed, or changed heavily since they were filed. Git is asked a fixed
 * handful of questions for the whole library (see `git_history.ts`); the file system answers
 * whether each source exists now and how many lines it has.
 *
 * @module
 */

import { basenameOf, dirnameOf, type Library } from "../../core/mod.ts";
import type { Finding } from "./lint_checks.ts";
import { type Learning, scanStaleness, type SourceFate } from "../../git/mod.ts";

/** A served library file's text, for {@link staleLearningFindings}. */
export interface LibraryText {
  /** Library-relative path. */
  relPath: string;
  text: string;
}

function since(commit: string | undefined): string {
  return commit ? ` since ${commit.slice(0, 7)}` : "";
}

function findingOf(
  fate: SourceFate,
  learning: Learning,
  commit: string | undefined,
  libName: string,
): Finding {
  const base = {
    path: learning.file,
    line: learning.line + 1,
    source: fate.source,
    ...(commit ? { commit } : {}),
  };
  if (fate.kind === "deleted") {
    return {
      ...base,
      check: "source-deleted",
      message: `is about ${fate.source}, which was deleted${since(commit)}` +
        (fate.path !== fate.source ? ` (after it moved to ${fate.path})` : ""),
      fix: "check whether the learning still holds; move it where the code went, or delete it",
    };
  }
  if (fate.kind === "renamed") {
    const folder = dirnameOf(fate.to);
    return {
      ...base,
      check: "source-renamed",
      renamedTo: fate.to,
      message: `is about ${fate.source}, which was renamed to ${fate.to}${since(commit)}`,
      fix: `if it still holds, move it to ${libName}/${folder === "" ? "" : `${folder}/`} ` +
        "(where the code now lives); 'librarian lint --fix' moves whole folders",
    };
  }
  return {
    ...base,
    check: "source-changed",
    message: `is about ${fate.source}, which changed heavily${since(commit)} ` +
      `(${fate.lines} lines added or removed; it has ${fate.of})`,
    fix: "re-read the code and update the learning (or confirm it still holds)",
  };
}

/** Options for {@link staleLearningFindings}. */
export interface StalenessOptions {
  /** Share of a file's lines that must change to call it heavily changed; 0 turns it off. */
  changeRatio: number;
}

/** The staleness findings for the library's files, and what git could tell. */
export async function staleLearningFindings(
  library: Library,
  files: readonly LibraryText[],
  options: StalenessOptions,
): Promise<{ findings: Finding[]; git: string; learnings: number }> {
  const scan = await scanStaleness(library.projectRoot, files, options.changeRatio);
  const stale = scan.stale;
  const libName = basenameOf(library.root);
  const findings = stale.flatMap((s) =>
    s.fates.map((fate) =>
      findingOf(fate, s.learning, s.commit ?? s.learning.provenance.commit, libName)
    )
  );
  return { findings, git: scan.git, learnings: scan.learnings.length };
}
