/**
 * One published hash everywhere (XXH32, see core/hash.ts), and the switch from the home-made
 * cyrb53 losing and doubling nothing: a journal, sync records and lock files written by a
 * version before the switch are read, ignored or cleaned up so that every learning is filed
 * exactly once.
 */
import assert from "node:assert/strict";
import * as hash from "../src/core/hash.ts";
import { hashUtf8 } from "../src/core/hash.ts";
import type { Library } from "../src/core/discover.ts";
import { envFrom, type EnvReader } from "../src/core/env.ts";
import { encodeProjectDir } from "../src/automemory/locate.ts";
import { syncAutoMemory } from "../src/automemory/sync.ts";
import { scanAutoMemory } from "../src/automemory/scan.ts";
import { acquireLock } from "../src/filing/lock.ts";
import { coordinationPaths } from "../src/filing/coordination_paths.ts";
import { loadJournal, parseJournal } from "../src/filing/journal.ts";
import { rawHash } from "../src/filing/plan.ts";
import { routeLocked } from "../src/filing/route.ts";
import { routeScratch } from "../src/filing/route_scratch.ts";
import { recordPathOf } from "../src/automemory/records.ts";
import { folderSlug } from "../src/export/formats.ts";
import { isCaseInsensitiveOs, joinPath, normalizePath } from "../src/core/paths.ts";
import { tempDir } from "./helpers.ts";
import { makeProject, type Project } from "./stop_fixtures.ts";

const NOW = new Date("2026-11-30T12:00:00");
const DAY = 24 * 60 * 60 * 1000;
/** A key and a block hash as the version before the switch wrote them (cyrb53: 14 hex digits). */
const OLD_KEY = "1b2c3d4e5f6a7b";
const OLD_HASH = "0a1b2c3d4e5f60";

function libraryOf(p: Project): Library {
  return { root: p.lib, projectRoot: p.root, foundBy: "cwd" };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

Deno.test("every hash the product persists is XXH32's (hashUtf8); cyrb53 is gone", async () => {
  assert.equal("hashText" in hash, false);
  assert.equal(
    rawHash("## [TAG: global, type: tech]\n- a\r\n"),
    hashUtf8("## [TAG: global, type: tech]\n- a"),
  );
  assert.equal(recordPathOf("/state", "/m"), `/state/automemory/${hashUtf8("/m")}.json`);
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const paths = coordinationPaths(libraryOf(p), envFrom({ HOME: p.home }))!;
  // The key is taken from the library's real path in the program's normal form (lower case where
  // the file system ignores case).
  const real = normalizePath(Deno.realPathSync(p.lib));
  const key = hashUtf8(isCaseInsensitiveOs() ? real.toLowerCase() : real);
  assert.equal(paths.journal.endsWith(`/${key}.filed.json`), true, paths.journal);
  assert.equal(paths.lock.endsWith(`/${key}.lock`), true);
});

Deno.test("the journal format is version 3; a version-2 journal is read as one whose hashes cannot match", () => {
  assert.deepEqual(parseJournal('{"version":3,"filed":[["ab",5]]}'), {
    version: 3,
    filed: [["ab", 5]],
  });
  const old = parseJournal(
    JSON.stringify({ version: 2, filed: [[OLD_HASH, 1000], ["x", 9000]], active: ["tech.md"] }),
  );
  assert.deepEqual(old, {
    version: 3,
    filed: [],
    active: ["tech.md"],
    legacyUntil: 9000 + 30 * DAY,
  });
});

/** Scratch, targets and the journal as a pre-switch run left them when killed mid-pass. */
async function crashedOldPass(p: Project, withOldJournal: boolean): Promise<string> {
  // The pass filed tech.md (a paragraph and a bullet) and was killed before writing notes.md and
  // before rewriting scratch.
  await Deno.writeTextFile(
    p.scratch,
    "## [TAG: global, type: tech]\nDeno runs the build.\n- use deno\n\n" +
      "## [TAG: global, type: notes]\n- keep notes short\n",
  );
  await Deno.writeTextFile(
    joinPath(p.lib, "tech.md"),
    "# tech\n\n## Learnings (2026-11-30)\n\nDeno runs the build.\n- use deno\n",
  );
  const locks = joinPath(p.home, ".claude", "librarian", "locks");
  await Deno.mkdir(locks, { recursive: true });
  if (withOldJournal) {
    const old = {
      version: 2,
      filed: [[OLD_HASH, NOW.getTime() - 1000]],
      active: ["tech.md", "notes.md"],
    };
    await Deno.writeTextFile(joinPath(locks, `${OLD_KEY}.filed.json`), JSON.stringify(old));
  }
  await Deno.writeTextFile(joinPath(locks, `${OLD_KEY}.lock`), "");
  return locks;
}

Deno.test("an old-format journal with a pass in progress, then the new code: every block filed exactly once", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  await crashedOldPass(p, true);
  const env = envFrom({ HOME: p.home });
  const report = await routeLocked(libraryOf(p), { env, now: NOW });
  assert.equal(report.status, "routed");
  const tech = await Deno.readTextFile(joinPath(p.lib, "tech.md"));
  assert.equal(count(tech, "Deno runs the build."), 1, tech);
  assert.equal(count(tech, "- use deno"), 1, tech);
  const notes = await Deno.readTextFile(joinPath(p.lib, "notes.md"));
  assert.equal(count(notes, "- keep notes short"), 1, notes);
  assert.equal((await Deno.readTextFile(p.scratch)).trim(), "");
  // The new journal (version 3) keeps the old one's window, so a later run is as careful.
  const { journal } = loadJournal(coordinationPaths(libraryOf(p), env)!.journal);
  assert.equal(journal.version, 3);
  assert.equal(journal.legacyUntil, NOW.getTime() - 1000 + 30 * DAY);
});

Deno.test("a dry run after the switch plans what the run will do: the old pass's block is recovered", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  await crashedOldPass(p, true);
  const report = await routeLocked(libraryOf(p), {
    env: envFrom({ HOME: p.home }),
    now: NOW,
    dryRun: true,
  });
  assert.equal(report.status, "dry-run");
  assert.equal(report.recovered, 1, "tech.md's block is already filed");
  assert.equal(report.learnings, 1, "only notes.md's bullet is new");
});

Deno.test("without the old journal the paragraph would be filed twice (what the migration guards)", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  await crashedOldPass(p, false);
  await routeLocked(libraryOf(p), { env: envFrom({ HOME: p.home }), now: NOW });
  const tech = await Deno.readTextFile(joinPath(p.lib, "tech.md"));
  assert.equal(count(tech, "Deno runs the build."), 2, "the guard is needed");
});

Deno.test("an old journal's window ends: after 30 days blocks are judged by the new hashes only", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  await crashedOldPass(p, true);
  const later = new Date(NOW.getTime() + 31 * DAY);
  await routeLocked(libraryOf(p), { env: envFrom({ HOME: p.home }), now: later });
  const tech = await Deno.readTextFile(joinPath(p.lib, "tech.md"));
  assert.equal(count(tech, "Deno runs the build."), 2, "the old window no longer applies");
});

Deno.test("a left-over old lock, even held, and an old journal neither block nor confuse a run", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const locks = await crashedOldPass(p, true);
  await Deno.writeTextFile(p.scratch, "## [TAG: global, type: tech]\n- use xxh32\n");
  await using held = await acquireLock(joinPath(locks, `${OLD_KEY}.lock`), { timeoutMs: 100 });
  assert.ok(held.path);
  const report = await routeScratch(libraryOf(p), {
    env: envFrom({ HOME: p.home }),
    now: NOW,
    lockTimeoutMs: 200,
  });
  assert.equal(report.status, "routed");
  const tech = await Deno.readTextFile(joinPath(p.lib, "tech.md"));
  assert.equal(count(tech, "- use xxh32"), 1);
  // The old journal is left as it was (it may belong to another library), never set aside as damaged.
  const old = JSON.parse(await Deno.readTextFile(joinPath(locks, `${OLD_KEY}.filed.json`)));
  assert.equal(old.version, 2);
});

Deno.test("export: an ambiguous folder's rule-file suffix is XXH32's", () => {
  assert.equal(folderSlug("src/a--b"), `src--a--b-${hashUtf8("src/a--b").slice(0, 8)}`);
});

// ---------------------------------------------------------------------------------------------
// Auto-memory sync records: named and filled with the old hash before the switch.

async function memorySetup(base: string) {
  const p = await makeProject(base);
  const claude = joinPath(base, "claude");
  const memory = joinPath(claude, "projects", encodeProjectDir(p.root), "memory");
  await Deno.mkdir(memory, { recursive: true });
  const state = joinPath(base, "state");
  const env = envFrom({ HOME: p.home, CLAUDE_CONFIG_DIR: claude, LIBRARIAN_STATE_DIR: state });
  return { p, memory, state, env, library: libraryOf(p) };
}

async function syncAndRoute(library: Library, env: EnvReader) {
  const synced = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  await routeLocked(library, { env, now: NOW });
  return synced;
}

Deno.test("auto memory after the switch: each memory read again once, nothing filed twice or lost, old records removed", async () => {
  await using dir = await tempDir();
  const { p, memory, state, env, library } = await memorySetup(dir.path);
  await Deno.writeTextFile(
    joinPath(memory, "feedback_pnpm.md"),
    "---\nname: pnpm\ndescription: use pnpm\ntype: feedback\n---\nNever npm.\n\nNot even once.\n",
  );
  await Deno.writeTextFile(
    joinPath(memory, "feedback_a.md"),
    "---\nname: a\ndescription: first\ntype: feedback\n---\n",
  );
  await syncAndRoute(library, env);
  const filed = await Deno.readTextFile(joinPath(p.lib, "patterns.md"));

  // Make it look as the version before the switch left it: the record under the old name, with
  // cyrb53 hashes inside.
  const current = recordPathOf(state, memory);
  const record = JSON.parse(await Deno.readTextFile(current));
  for (const file of Object.values(record.files) as Array<{ hash: string; entry: string }>) {
    file.hash = OLD_HASH;
    file.entry = OLD_HASH;
  }
  const old = joinPath(state, "automemory", `${OLD_KEY}.json`);
  await Deno.writeTextFile(old, JSON.stringify(record));
  await Deno.remove(current);
  // Another memory folder's old record is not this one's to remove.
  const other = joinPath(state, "automemory", "00000000000000.json");
  await Deno.writeTextFile(other, JSON.stringify({ ...record, dir: "/elsewhere" }));
  // A memory written after the upgrade.
  await Deno.writeTextFile(
    joinPath(memory, "feedback_b.md"),
    "---\nname: b\ndescription: second\ntype: feedback\n---\n",
  );

  const again = await syncAndRoute(library, env);
  assert.deepEqual(again.synced.map((s) => s.name).sort(), ["a", "b", "pnpm"], "read again once");
  const after = await Deno.readTextFile(joinPath(p.lib, "patterns.md"));
  for (const line of ["- pnpm: use pnpm", "  Never npm.", "  Not even once.", "- a: first"]) {
    assert.equal(count(after, line), 1, `${line} once:\n${after}`);
  }
  assert.equal(count(after, "- b: second"), 1, "the new memory is filed");
  assert.equal(after.startsWith(filed.trimEnd()), true, "nothing filed before is lost");
  assert.equal((await Deno.readTextFile(p.scratch)).trim(), "");
  await assert.rejects(() => Deno.lstat(old), Deno.errors.NotFound, "the old record is removed");
  assert.ok(await Deno.lstat(other), "another folder's record is left alone");
  assert.ok(await Deno.lstat(current));
  assert.deepEqual(scanAutoMemory(library, env).changed, [], "and only once");
});
