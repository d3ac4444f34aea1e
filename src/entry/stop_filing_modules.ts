/**
 * The modules the stop hook loads later, only when a turn files or nudges (the shell reader: only
 * for a turn that ran Bash, to count the files it wrote), or when the stale record must be remade:
 * by path under `src/`. The stop bundle names them to `loadLater` as held by its filing chunk
 * (`bundle_stop.ts`); the chunk's entry carries exactly these (`bundle_stop_filing.ts`).
 *
 * @module
 */

/** The stop hook's filing modules, by path under `src/`. */
export const STOP_FILING_MODULES: readonly string[] = [
  "automemory/sync.ts",
  "format/provenance.ts",
  "export/after_filing.ts",
  "filing/coordination.ts",
  "git/head.ts",
  "filing/library_lock.ts",
  "filing/nested.ts",
  "filing/nudge_reason.ts",
  "filing/over_share.ts",
  "filing/provenance_stamp.ts",
  "filing/route.ts",
  "filing/stop_summary.ts",
  "filing/subagent_note.ts",
  "shell/bash_touches.ts",
  "git/stale_extend.ts",
  "git/stale_refresh.ts",
];
