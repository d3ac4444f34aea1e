/**
 * Quiet repeats (`src/inject/quiet_repeat.ts`), as Claude Code meets them: a touch that finds
 * everything already in the window is answered from the record of the last such touch, and
 * anything that touch read changing since (a library file, a folder's entries, the ledger, a
 * setting) has the hook decide afresh, exactly as it would have without the record. Each test
 * runs the hook as Claude Code does (`sh bin/librarian inject`, one event on stdin).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SETTLED_MS } from "../src/inject/walk_memo_format.ts";
import { parseHookStdout, runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "- ROOT-TECH",
  "proj/_memory_library/.scratch.md": "",
  "proj/_memory_library/pkg/shared.md": "- PKG-SHARED",
  "proj/pkg/a.ts": "export const a = 1;\n",
};

interface Touch {
  context: string | undefined;
  line: string;
}

/** One Read of `proj/pkg/a.ts` in session `s`: what it sent and its log line. */
async function touch(p: TempProject, env: Record<string, string> = {}): Promise<Touch> {
  const log = join(p.dir.path, "librarian.log");
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: "s",
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(p.root, "pkg", "a.ts") },
      tool_use_id: `toolu_${crypto.randomUUID()}`,
      cwd: p.root,
    }),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_LOG: log, ...env },
    deadlineMs: 30_000,
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, string> | undefined;
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  return { context: specific?.additionalContext, line: lines.at(-1)! };
}

/** Waits until what the last run read has settled, as it has between a user's tool calls. */
function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 300));
}

/**
 * A project whose window has everything, and a quiet repeat kept: the next touch replays. (A
 * touch that writes, such as the walk memo learning what has settled, is not kept, and the touch
 * after it reads what was just written: a record can take two settled pauses.)
 */
async function replaying(): Promise<TempProject> {
  const p = await tempProject(TREE);
  const first = await touch(p);
  assert.match(first.context ?? "", /ROOT-TECH/);
  for (let pause = 0; pause < 3 && recordsOf(p).length === 0; pause++) {
    await settled();
    const quiet = await touch(p);
    assert.equal(quiet.context, undefined);
    assert.doesNotMatch(quiet.line, /replayed/, "decided: there was no record yet");
  }
  assert.equal(recordsOf(p).length, 1, "a record was kept");
  return p;
}

function recordsOf(p: TempProject): string[] {
  const folder = join(p.home, ".claude", "librarian", "ledgers", "s", "main.quiet");
  try {
    return [...Deno.readDirSync(folder)].map((entry) => join(folder, entry.name))
      .filter((path) => Deno.statSync(path).size > 0); // not an event's mark of its first touch
  } catch {
    return [];
  }
}

Deno.test("a repeat touch with nothing changed is answered from the record, silent, with the decided touch's log line", async () => {
  const p = await replaying();
  await using _ = p.dir;
  const decided = await Deno.readTextFile(join(p.dir.path, "librarian.log"));
  const replayed = await touch(p);
  assert.equal(replayed.context, undefined);
  assert.match(replayed.line, / replayed=true /);
  const fields = (line: string) =>
    line.replace(/^\S+ /, "").replace(/ replayed=true/, "").replace(/ (load_)?ms=\S+/g, "");
  assert.equal(fields(replayed.line), fields(decided.trim().split("\n").at(-1)!));
  assert.match(replayed.line, /result=all-sent/);
});

Deno.test("a library file edited after the record is sent at the next touch", async () => {
  const p = await replaying();
  await using _ = p.dir;
  await Deno.writeTextFile(join(p.root, "_memory_library", "pkg", "shared.md"), "- PKG-NEWER");
  const next = await touch(p);
  assert.match(next.context ?? "", /PKG-NEWER/);
  assert.doesNotMatch(next.line, /replayed/);
});

Deno.test("a library file put back with the same size and age is decided afresh, not replayed (new inode, new status change)", async () => {
  const p = await replaying();
  await using _ = p.dir;
  const path = join(p.root, "_memory_library", "pkg", "shared.md");
  const before = Deno.statSync(path);
  const temp = `${path}.new`;
  await Deno.writeTextFile(temp, "- PKG-SHAREE"); // same length
  await Deno.utime(temp, before.atime!, before.mtime!);
  await Deno.rename(temp, path);
  // the hook itself knows a sent file by its size and modification time (core/read_text.ts)
  const next = await touch(p);
  assert.doesNotMatch(next.line, /replayed/);
});

Deno.test("a new library file in a folder on the way is sent at the next touch", async () => {
  const p = await replaying();
  await using _ = p.dir;
  await Deno.writeTextFile(join(p.root, "_memory_library", "pkg", "edge.md"), "- PKG-EDGE");
  const next = await touch(p);
  assert.match(next.context ?? "", /PKG-EDGE/);
  assert.doesNotMatch(next.context ?? "", /PKG-SHARED/, "what the window has is not sent twice");
});

Deno.test("a setting that changed since the record is decided afresh", async () => {
  const p = await replaying();
  await using _ = p.dir;
  const next = await touch(p, { LIBRARIAN_BUDGET: "5000" });
  assert.doesNotMatch(next.line, /replayed/);
  assert.match(next.line, /result=all-sent/);
  // one record an event: the one just kept holds the other setting
  assert.doesNotMatch((await touch(p)).line, /replayed/);
});

Deno.test("a new context window (compaction) sends the library again, record or not", async () => {
  const p = await replaying();
  await using _ = p.dir;
  const compact = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: "s",
      hook_event_name: "SessionStart",
      source: "compact",
      cwd: p.root,
    }),
    home: p.home,
    cwd: p.root,
    deadlineMs: 30_000,
  });
  assert.equal(compact.code, 0, compact.stderr);
  const next = await touch(p);
  assert.doesNotMatch(next.line, /replayed/);
  // the start sends the root's files and the recent folder's; the touch what is left
  const sent = compact.stdout + (next.context ?? "");
  assert.equal(sent.match(/ROOT-TECH/g)?.length, 1);
  assert.equal(sent.match(/PKG-SHARED/g)?.length, 1);
});

Deno.test("a damaged record is not used, and the next quiet touch replaces it", async () => {
  const p = await replaying();
  await using _ = p.dir;
  const [record] = recordsOf(p);
  assert.ok(record, "a record was kept");
  await Deno.writeTextFile(record, '{"key": 1, "seen": [[');
  const next = await touch(p);
  assert.equal(next.context, undefined);
  assert.doesNotMatch(next.line, /replayed/);
  assert.doesNotThrow(() => JSON.parse(Deno.readTextFileSync(record)), "kept anew");
  assert.match((await touch(p)).line, / replayed=true /);
});

Deno.test("a window's first touch keeps no record, and nothing read in the last seconds is kept", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  await touch(p);
  assert.deepEqual(recordsOf(p), [], "the first touch is not watched");
  const soon = await touch(p); // the ledger was written a moment ago
  assert.equal(soon.context, undefined);
  assert.deepEqual(recordsOf(p), [], "not settled: not kept");
});
