/**
 * The stop hook's idle check takes shortcuts (it loads no filing code, and names the carry-over
 * place beside the journal only when that folder holds a kept scratch at all). These say that no
 * shortcut ever skips work: whatever waits to be filed is filed on the next turn, and an idle turn
 * stays idle.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import type { Library } from "../src/core/discover.ts";
import { envFrom } from "../src/core/env.ts";
import { keptPath } from "../src/filing/carry_kept.ts";
import { coordinationPaths } from "../src/filing/coordination_paths.ts";
import { parseHookStdout, runLibrarian, type RunResult, tempDir } from "./helpers.ts";
import { makeProject, type Project, stopEvent } from "./stop_fixtures.ts";

const NOW = "2026-11-30T12:00:00";

async function stop(p: Project, log: string): Promise<RunResult> {
  return await runLibrarian(["stop"], {
    stdin: stopEvent(p.root),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_NOW: NOW, LIBRARIAN_LOG: log },
  });
}

function libraryOf(p: Project): Library {
  return { root: p.lib, projectRoot: p.root, foundBy: "cwd" };
}

/** The `result=` of the last log line. */
async function lastResult(log: string): Promise<string | undefined> {
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  return / result=(\S+)/.exec(lines.at(-1) ?? "")?.[1];
}

Deno.test("a late append kept beside the journal is carried over and filed on an otherwise idle turn", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const log = join(dir.path, "librarian.log");
  const { carry } = coordinationPaths(libraryOf(p), envFrom({ HOME: p.home }))!;
  await Deno.mkdir(join(carry, ".."), { recursive: true });
  // An old scratch, replaced by an earlier pass, that a writer appended to afterwards.
  await Deno.writeTextFile(keptPath(carry, "k1", 0), "## [TAG: global, type: tech]\n- late\n");
  const result = await stop(p, log);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await lastResult(log), "routed");
  assert.match(await Deno.readTextFile(join(p.lib, "tech.md")), /^- late$/m);
  assert.equal((await Deno.readTextFile(p.scratch)).trim(), "");
});

Deno.test("another library's kept scratch in the shared locks folder leaves this turn idle", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const log = join(dir.path, "librarian.log");
  const { carry, lock } = coordinationPaths(libraryOf(p), envFrom({ HOME: p.home }))!;
  const locks = join(carry, "..");
  await Deno.mkdir(locks, { recursive: true });
  await Deno.writeTextFile(keptPath(join(locks, "0123abcd.scratch"), "k1", 0), "- theirs\n");
  const result = await stop(p, log);
  assert.equal(parseHookStdout(result.stdout), null);
  assert.equal(await lastResult(log), "nothing-to-do");
  await assert.rejects(Deno.lstat(lock), Deno.errors.NotFound); // no lock taken
});

Deno.test("after an idle turn, a new, an edited and a removed auto memory are each noticed", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const log = join(dir.path, "librarian.log");
  const memory = join(p.home, ".claude", "projects", encodeProjectDir(p.root), "memory");
  await Deno.mkdir(memory, { recursive: true });
  const entry = (why: string) =>
    `---\nname: retries\ndescription: retries\ntype: feedback\n---\n${why}\n`;
  await Deno.writeTextFile(join(memory, "feedback_a.md"), entry("Jitter, always."));
  assert.equal((await stop(p, log)).code, 0);
  assert.equal(await lastResult(log), "routed"); // synced and filed
  assert.equal((await stop(p, log)).code, 0);
  assert.equal(await lastResult(log), "nothing-to-do");

  // Edited in place, same size: only the mtime tells.
  const file = join(memory, "feedback_a.md");
  await Deno.writeTextFile(file, entry("Jitter, never."));
  await Deno.utime(file, new Date(), new Date(Date.now() + 5_000));
  await stop(p, log);
  assert.notEqual(await lastResult(log), "nothing-to-do");
  assert.match(await Deno.readTextFile(join(p.lib, "patterns.md")), /Jitter, never\./);
  await stop(p, log);
  assert.equal(await lastResult(log), "nothing-to-do");

  await Deno.mkdir(join(memory, "team"));
  await Deno.writeTextFile(join(memory, "team", "feedback_b.md"), entry("Team: backoff caps."));
  await stop(p, log);
  assert.notEqual(await lastResult(log), "nothing-to-do");
  assert.match(await Deno.readTextFile(join(p.lib, "patterns.md")), /Team: backoff caps\./);

  await Deno.remove(join(memory, "team", "feedback_b.md"));
  await stop(p, log);
  assert.notEqual(await lastResult(log), "nothing-to-do"); // the record forgets it
  await stop(p, log);
  assert.equal(await lastResult(log), "nothing-to-do");
});
