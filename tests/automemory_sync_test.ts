/**
 * The auto-memory sync: each entry once, edits again, nested folders, the modes of
 * LIBRARIAN_AUTOMEMORY, and a scratch or record it must not trust.
 */
import assert from "node:assert/strict";
import type { Library } from "../src/core/discover.ts";
import { envFrom, type EnvReader } from "../src/core/env.ts";
import { encodeProjectDir, listMemoryFiles } from "../src/automemory/memory_locate.ts";
import { recordPathOf } from "../src/automemory/records.ts";
import { REVIEW_MARKER } from "../src/automemory/review_mode.ts";
import { syncMessages } from "../src/automemory/sync_report.ts";
import { autoMemoryMode } from "../src/automemory/mode.ts";
import { syncAutoMemory } from "../src/automemory/sync.ts";
import { scanAutoMemory } from "../src/automemory/scan.ts";
import { classifyBlock } from "../src/filing/classify.ts";
import { parseScratch } from "../src/format/scratch.ts";
import { reviewScratch, scratchFindings } from "../src/commands/scratch/scratch_review.ts";
import { joinPath } from "../src/core/paths.ts";
import { stripProvenance } from "../src/format/provenance.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

interface Setup {
  library: Library;
  memory: string;
  scratch: string;
  state: string;
  env: EnvReader;
}

async function setup(root: string, extraEnv: Record<string, string> = {}): Promise<Setup> {
  const project = joinPath(root, "proj");
  const library: Library = {
    root: joinPath(project, "_memory_library"),
    projectRoot: project,
    foundBy: "cwd",
  };
  await Deno.mkdir(library.root, { recursive: true });
  const claude = joinPath(root, "claude");
  const memory = joinPath(claude, "projects", encodeProjectDir(project), "memory");
  await Deno.mkdir(memory, { recursive: true });
  const state = joinPath(root, "state");
  const env = envFrom({ CLAUDE_CONFIG_DIR: claude, LIBRARIAN_STATE_DIR: state, ...extraEnv });
  return { library, memory, scratch: joinPath(library.root, ".scratch.md"), state, env };
}

const FEEDBACK_A = "---\nname: a\ndescription: first\ntype: feedback\n---\n";

Deno.test("scan and sync: each entry once, edits again, nothing read when nothing changed", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path);
  await writeTree(memory, {
    "MEMORY.md": "- [a](feedback_a.md)\n",
    "feedback_a.md": FEEDBACK_A,
    "user_me.md": "---\nname: me\ndescription: personal\ntype: user\n---\n",
  });
  await Deno.writeTextFile(scratch, "notes without a final newline");

  const scan = scanAutoMemory(library, env);
  assert.deepEqual(scan.changed.map((c) => c.name).sort(), ["feedback_a.md", "user_me.md"]);
  const report = await syncAutoMemory(library, env, scan);
  assert.deepEqual(report.synced.map((s) => s.name), ["a"]);
  assert.deepEqual(report.skipped, [{ file: "user_me.md", why: "user" }]);
  const synced = await Deno.readTextFile(scratch);
  assert.match(
    synced,
    /^## \[TAG: global, type: patterns\]\n<!-- librarian: \d{4}-\d\d-\d\d from:auto-memory\/feedback_a\.md -->\n/m,
    "the block says where it came from, under its tag line",
  );
  assert.equal(
    stripProvenance(synced),
    "notes without a final newline\n## [TAG: global, type: patterns]\n- a: first\n",
  );
  assert.deepEqual(scanAutoMemory(library, env).changed, [], "recorded: not even read again");

  await Deno.writeTextFile(
    joinPath(memory, "feedback_a.md"),
    "---\nname: a\ndescription: second\ntype: feedback\n---\n",
  );
  const again = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(again.synced.map((s) => s.name), ["a"]);
  assert.match(
    stripProvenance(await Deno.readTextFile(scratch)),
    /- a: first\n## \[TAG: global, type: patterns\]\n- a: second\n$/,
  );

  await Deno.remove(joinPath(memory, "user_me.md"));
  const pruned = scanAutoMemory(library, env);
  assert.equal(pruned.stale.length, 1);
  await syncAutoMemory(library, env, pruned);
  assert.deepEqual(scanAutoMemory(library, env).stale, []);
});

Deno.test("team memory in a nested folder is synced", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path);
  await writeTree(memory, {
    "team/MEMORY.md": "- index\n",
    "team/project_release.md":
      "---\nname: release\ndescription: release on Tuesdays\nmetadata:\n  type: project\n---\nNever on Fridays.\n",
  });
  const report = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(report.synced, [
    { file: "team/project_release.md", name: "release", type: "project", mapped: "product" },
  ]);
  assert.equal(
    stripProvenance(await Deno.readTextFile(scratch)),
    "## [TAG: global, type: product]\n- release: release on Tuesdays\n  Never on Fridays.\n",
  );
});

Deno.test("a UTF-16 scratch is never appended to: the user is told, the entry waits", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path);
  await writeTree(memory, { "feedback_a.md": FEEDBACK_A });
  const utf16 = new Uint8Array([
    0xff,
    0xfe,
    ...[..."## notes\n"].flatMap((c) => [c.charCodeAt(0), 0]),
  ]);
  await Deno.writeFile(scratch, utf16);

  const report = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(report.synced, []);
  assert.match(report.error ?? "", /UTF-16.*save it as UTF-8/);
  assert.deepEqual(await Deno.readFile(scratch), utf16, "scratch untouched");
  assert.match(
    syncMessages(report).join("; "),
    /^auto memory not synced: scratch is saved as UTF-16/,
  );
  assert.equal(scanAutoMemory(library, env).changed.length, 1, "not marked synced");

  await Deno.writeTextFile(scratch, "## notes\n");
  const later = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(later.synced.map((s) => s.name), ["a"], "synced once scratch is UTF-8");
});

Deno.test("a damaged sync record is set aside and reported; its entries sync again", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, state, env } = await setup(dir.path);
  await writeTree(memory, { "feedback_a.md": FEEDBACK_A });
  await syncAutoMemory(library, env, scanAutoMemory(library, env));
  await Deno.remove(scratch);
  const record = recordPathOf(state, memory);
  await Deno.writeTextFile(
    record,
    JSON.stringify({ version: 1, dir: memory, files: { "feedback_a.md": 1 } }),
  );

  const scan = scanAutoMemory(library, env);
  assert.deepEqual(scan.stale, [memory], "a damaged record makes the sync look again");
  const report = await syncAutoMemory(library, env, scan);
  assert.equal(report.damaged?.length, 1);
  assert.match(report.damaged![0]!.reason, /feedback_a\.md is not an object/);
  assert.ok(report.damaged![0]!.setAside?.startsWith(`${record}.damaged-`));
  assert.match(syncMessages(report).join("; "), /sync record was damaged .*set aside as/);
  assert.deepEqual(report.synced.map((s) => s.name), ["a"]);
  assert.match(await Deno.readTextFile(scratch), /- a: first/);
  assert.deepEqual(scanAutoMemory(library, env).changed, [], "a fresh record was written");
});

Deno.test("LIBRARIAN_AUTOMEMORY=off: auto memory is not looked at", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path, { LIBRARIAN_AUTOMEMORY: "off" });
  await writeTree(memory, { "feedback_a.md": FEEDBACK_A });
  const scan = scanAutoMemory(library, env);
  assert.deepEqual(scan.changed, []);
  assert.equal(scan.skipped, "LIBRARIAN_AUTOMEMORY=off");
  await syncAutoMemory(library, env, scan);
  assert.equal(await Deno.stat(scratch).catch(() => null), null);
});

Deno.test("LIBRARIAN_AUTOMEMORY=review: entries arrive in scratch marked as awaiting review", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path, {
    LIBRARIAN_AUTOMEMORY: "review",
  });
  await writeTree(memory, { "feedback_a.md": FEEDBACK_A });
  const report = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.equal(
    stripProvenance(await Deno.readTextFile(scratch)),
    `## [TAG: global, type: patterns]\n${REVIEW_MARKER}\n- a: first\n`,
  );
  assert.deepEqual(syncMessages(report), [
    "1 auto memory awaits review in scratch (edit, then `librarian route --accept`)",
  ]);
});

Deno.test("LIBRARIAN_AUTOMEMORY: sync, review or off; anything else is sync, with a warning", () => {
  assert.deepEqual(autoMemoryMode(envFrom({})), { mode: "sync" });
  assert.deepEqual(autoMemoryMode(envFrom({ LIBRARIAN_AUTOMEMORY: "OFF" })), { mode: "off" });
  const odd = autoMemoryMode(envFrom({ LIBRARIAN_AUTOMEMORY: "never" }));
  assert.equal(odd.mode, "sync");
  assert.match(odd.warning ?? "", /LIBRARIAN_AUTOMEMORY="never" is not sync, review or off/);
});

Deno.test("a memory file replaced by a FIFO is never opened", {
  ignore: skipOnWindows("needs FIFOs"),
}, async () => {
  await using dir = await tempDir();
  const { library, memory, env } = await setup(dir.path);
  await writeTree(memory, { "feedback_a.md": FEEDBACK_A });
  const scan = scanAutoMemory(library, env);
  await Deno.remove(joinPath(memory, "feedback_a.md"));
  const fifo = joinPath(memory, "feedback_a.md");
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const report = await syncAutoMemory(library, env, scan);
  assert.deepEqual(report.synced, []);
});

Deno.test("scan without a state folder syncs nothing (it could not remember what it synced)", () => {
  const library = { root: "/nowhere/_memory_library", projectRoot: "/nowhere", foundBy: "cwd" };
  const scan = scanAutoMemory(library as Library, envFrom({}));
  assert.equal(scan.skipped, "no state folder");
});

Deno.test("a block awaiting review is kept by the router until accepted; lint does not flag it", () => {
  const text = `## [TAG: global, type: patterns]\n${REVIEW_MARKER}\n- a: first\n`;
  const block = parseScratch(text).blocks[0]!;
  const kept = classifyBlock(block);
  assert.equal(kept.kind === "keep" && kept.code, "review");
  assert.equal(classifyBlock(block, { acceptReview: true }).kind, "route");
  assert.equal(reviewScratch(text)[0]!.kind, "kept", "`librarian scratch` lists it");
  assert.deepEqual(scratchFindings(text, ".scratch.md"), []);
});

Deno.test("no silent cap: more than 5,000 memory files are all listed (issue 22)", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 5_200; i++) files[`team/feedback_${String(i).padStart(4, "0")}.md`] = "x";
  await writeTree(dir.path, files);
  assert.equal(listMemoryFiles(dir.path).length, 5_200, "every file is listed");
});

Deno.test("each turn syncs a bounded number of changed memories, says how many wait, and the next turns go on (issue 22)", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path);
  const files: Record<string, string> = {};
  for (let i = 0; i < 7; i++) {
    files[`team/feedback_${i}.md`] =
      `---\nname: m${i}\ndescription: memory ${i}\ntype: feedback\n---\n`;
  }
  await writeTree(memory, files);
  const seen = new Set<string>();
  let turns = 0;
  for (;;) {
    const scan = scanAutoMemory(library, env, 3);
    if (scan.changed.length === 0) break;
    const report = await syncAutoMemory(library, env, scan);
    for (const s of report.synced) seen.add(s.name);
    turns++;
    const waiting = 7 - seen.size;
    assert.equal(report.waiting ?? 0, waiting, `turn ${turns}`);
    if (waiting > 0) {
      const words = waiting === 1
        ? "1 more auto memory waits"
        : `${waiting} more auto memories wait`;
      assert.ok(
        syncMessages(report).includes(`${words} for the next turn`),
        syncMessages(report).join("; "),
      );
    }
    assert.ok(turns <= 3, "each turn makes progress");
  }
  assert.equal(turns, 3);
  assert.equal(seen.size, 7, "every memory synced, none twice");
  const text = await Deno.readTextFile(scratch);
  assert.equal(text.match(/^- m\d+: memory \d+$/gm)?.length, 7);
});

Deno.test("a memory whose front matter nests 50,000 '[' is skipped and named once; the others sync (issue 31)", async () => {
  await using dir = await tempDir();
  const { library, memory, scratch, env } = await setup(dir.path);
  const deep = 50_000;
  await writeTree(memory, {
    "feedback_a.md": FEEDBACK_A,
    "feedback_deep.md": `---\nname: deep\ndescription: ${"[".repeat(deep)}${
      "]".repeat(deep)
    }\ntype: feedback\n---\n`,
    "feedback_nest.md": `---\nname: nest\ntype: feedback\nx: ${"[".repeat(20_000)}${
      "]".repeat(20_000)
    }\n---\n`,
    "feedback_open.md": `---\nname: open\ntype: feedback\nx: ${"[\n".repeat(deep)}---\nbody\n`,
    "project_b.md": "---\nname: b\ndescription: second\ntype: project\n---\n",
  });
  const report = await syncAutoMemory(library, env, scanAutoMemory(library, env));
  assert.deepEqual(report.synced.map((s) => s.name), ["a", "b"]);
  assert.deepEqual(report.skipped, [
    {
      file: "feedback_deep.md",
      why: "malformed",
      detail: "the front matter is longer than 65536 characters",
    },
    {
      file: "feedback_nest.md",
      why: "malformed",
      detail: "collections nested more than 64 deep at line 3",
    },
    {
      file: "feedback_open.md",
      why: "malformed",
      detail: "the front matter is longer than 65536 characters",
    },
  ]);
  assert.equal(report.error, undefined);
  const synced = stripProvenance(await Deno.readTextFile(scratch));
  assert.match(synced, /- a: first\n/);
  assert.match(synced, /- b: second\n/);
  assert.ok(!synced.includes("[[["), "the bad entry is not filed");
  // named once: the next turn does not read or name it again
  assert.deepEqual(scanAutoMemory(library, env).changed, []);
});
