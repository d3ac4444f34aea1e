/**
 * The per-context-window lock of the inject hook (`src/inject/lock.ts`), in process: one holder,
 * a bounded wait that gives up with `null` (the hook then sends nothing rather than block), and
 * release by `using`.
 */
import assert from "node:assert/strict";
import { lockSync } from "../src/inject/lock.ts";
import { patchTargets } from "../src/inject/shell_git.ts";
import { tempDir } from "./helpers.ts";

Deno.test("a held window lock makes a second taker give up with null", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/ledgers/s1/main.lock`;
  const held = lockSync(path, 100);
  assert.ok(held, "the first taker gets it (creating the folder)");
  assert.equal(lockSync(path, 20), null);
  held[Symbol.dispose]();
  using again = lockSync(path, 20);
  assert.ok(again, "released locks can be taken again");
});

Deno.test("`using` releases the window lock at the end of the block", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/main.lock`;
  {
    using held = lockSync(path, 100);
    assert.ok(held);
  }
  using next = lockSync(path, 0);
  assert.ok(next);
});

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
