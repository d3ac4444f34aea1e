/**
 * `doctor`'s auto-memory line (`src/commands/doctor/automemory_check.ts`) and the git root it starts
 * from (`src/git/root.ts`), in process.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { autoMemoryCheck } from "../src/commands/doctor/automemory_check.ts";
import { gitRootAbove } from "../src/git/root.ts";
import { tempDir } from "./helpers.ts";

Deno.test("auto memory: off, sync and review are ok; a bad LIBRARIAN_AUTOMEMORY warns with the fix", () => {
  const env = (mode?: string) => envFrom({ HOME: "/nonexistent-home", LIBRARIAN_AUTOMEMORY: mode });
  assert.deepEqual(autoMemoryCheck(null, env("off")), {
    id: "auto-memory",
    status: "ok",
    message: "off: not read",
  });
  assert.match(autoMemoryCheck(null, env()).message, /^sync; no memory folder yet/);
  assert.match(autoMemoryCheck(null, env("review")).message, /^review: entries wait in scratch; /);
  const bad = autoMemoryCheck(null, env("sometimes"));
  assert.equal(bad.status, "warn");
  assert.equal(bad.fix, "set LIBRARIAN_AUTOMEMORY to sync, review or off, or unset it");
});

Deno.test("the git root is the nearest folder with .git, a folder or a worktree's file", async () => {
  await using dir = await tempDir();
  Deno.mkdirSync(`${dir.path}/repo/.git`, { recursive: true });
  Deno.mkdirSync(`${dir.path}/repo/src/deep`, { recursive: true });
  Deno.mkdirSync(`${dir.path}/wt/src`, { recursive: true });
  Deno.writeTextFileSync(`${dir.path}/wt/.git`, "gitdir: /elsewhere\n");
  assert.equal(gitRootAbove(`${dir.path}/repo/src/deep`), `${dir.path}/repo`);
  assert.equal(gitRootAbove(`${dir.path}/wt/src`), `${dir.path}/wt`);
});
