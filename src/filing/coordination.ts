/**
 * Where the files that coordinate filing runs live: the lock every run of a library takes, and
 * the journal (the crash record of what was filed).
 *
 * @module
 */

import { type Library, realPathOfNearest } from "../core/discover.ts";
import { claudeDir, type EnvReader, homeDir, stateDir } from "../core/env.ts";
import { hashText } from "../core/hash.ts";
import { isCaseInsensitiveOs, joinPath } from "../core/paths.ts";

/** Where the lock file and the journal of a library live. */
export interface CoordinationPaths {
  lock: string;
  journal: string;
}

/**
 * The lock and journal files for `library`, keyed by its real path. They live in
 * `~/.claude/librarian/locks/` under the home folder, which every process of the user sees alike:
 * a hook's `CLAUDE_PLUGIN_DATA` is not set for `librarian route` in a terminal, and two Claude
 * Code accounts (`CLAUDE_CONFIG_DIR`) working on one project must still share one lock. Without
 * a home folder: under Claude Code's config folder, else the state folder, else next to scratch.
 */
export function coordinationPaths(library: Library, env: EnvReader): CoordinationPaths {
  const real = realPathOfNearest(library.root) ?? library.root;
  const key = hashText(isCaseInsensitiveOs() ? real.toLowerCase() : real);
  const home = homeDir(env);
  const claude = home ? joinPath(home, ".claude") : claudeDir(env);
  const state = stateDir(env);
  const dir = claude
    ? joinPath(claude, "librarian", "locks")
    : state
    ? joinPath(state, "locks")
    : undefined;
  if (!dir) {
    return {
      lock: joinPath(library.root, ".scratch.md.lock"),
      journal: joinPath(library.root, ".scratch.md.filed.json"),
    };
  }
  return { lock: joinPath(dir, `${key}.lock`), journal: joinPath(dir, `${key}.filed.json`) };
}
