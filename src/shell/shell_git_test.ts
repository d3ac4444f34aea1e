/**
 * The git commands of the shell-command reader (`src/shell/shell_git.ts`): which files a patch
 * reads and writes.
 */
import assert from "node:assert/strict";
import { patchTargets } from "./shell_git.ts";

Deno.test("a patch names what it writes (+++) and reads (---), /dev/null left out, -p stripped", () => {
  const body = [
    "--- /dev/null",
    "+++ b/src/new.ts\t2026-11-30",
    "--- a/docs/old.md",
    "+++ b/docs/old.md",
  ].join("\n");
  assert.deepEqual(patchTargets(body, 1).map((t) => [t.role, t.word.value]), [
    ["write", "src/new.ts"],
    ["read", "docs/old.md"],
    ["write", "docs/old.md"],
  ]);
  assert.deepEqual(patchTargets("+++ a", 1), [], "a path stripped to nothing is no path");
});
