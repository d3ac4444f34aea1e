/**
 * Reading the current turn from a Claude Code transcript. The fixture is a real session written by
 * Claude Code 2.1.197 (paths rewritten to /repo/project): a prompt whose turn Reads, Writes and
 * Edits, is continued once by a Stop hook ("Stop hook feedback:", isMeta) and Writes again; then a
 * second prompt whose turn has a failing Edit, a Bash command, a Read and a failing NotebookEdit,
 * and ends with two text blocks.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_TURN_BYTES, readTurnOnce, turnOfText } from "../src/filing/transcript.ts";
import { caughtUp, readTurn } from "../src/filing/stop_nudge.ts";
import { REPO_ROOT, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const FIXTURE = join(REPO_ROOT, "tests", "fixtures", "transcript_cc_2.1.197.jsonl");
const P = "/repo/project";
const fixture = Deno.readTextFileSync(FIXTURE);
const lines = fixture.split("\n").filter((l) => l.trim() !== "");
/** The first session's lines up to (not including) the second prompt's queue operations. */
const firstTurnEnd = lines.findIndex((l) => l.includes('"type":"last-prompt"'));
const firstSession = lines.slice(0, firstTurnEnd).join("\n");

Deno.test("the last turn of a real 2.1.197 transcript: every tool use since the prompt, failures marked", () => {
  const turn = turnOfText(fixture);
  assert.equal(turn.complete, true);
  assert.deepEqual(turn.toolUses.map((u) => [u.name, u.failed]), [
    ["Edit", true],
    ["Bash", false],
    ["Read", false],
    ["NotebookEdit", true],
  ]);
  assert.equal(turn.toolUses[1]!.input.command, "echo hi > src/c.ts");
  assert.equal(turn.newestAssistantText, "b");
});

Deno.test("a turn continued by a Stop hook is one turn: the feedback line (isMeta) is not a prompt", () => {
  const turn = turnOfText(firstSession);
  assert.equal(turn.complete, true);
  assert.deepEqual(turn.toolUses.map((u) => u.name), ["Read", "Write", "Edit", "Write"]);
  assert.deepEqual(
    turn.toolUses.filter((u) => u.name !== "Read").map((u) => u.input.file_path),
    [`${P}/src/b/new.ts`, `${P}/src/a.ts`, `${P}/notes.md`],
  );
  assert.equal(turn.newestAssistantText, "Nothing worth recording.");
});

Deno.test("a transcript cut off mid-turn (not flushed yet) lists what it has and the newest text", () => {
  const cut = lines.slice(0, 8).join("\n"); // up to the Write's tool_use, as seen by a real Stop hook
  const turn = turnOfText(cut);
  assert.deepEqual(turn.toolUses.map((u) => u.name), ["Read", "Write"]);
  assert.equal(turn.newestAssistantText, "");
  assert.equal(caughtUp(turn, "Done first."), false);
  assert.equal(caughtUp(turnOfText(firstSession), "Nothing worth recording."), true);
  assert.equal(
    caughtUp(turn, undefined),
    true,
    "without last_assistant_message there is nothing to wait for",
  );
});

Deno.test("unknown shapes are nothing known: garbage, half lines, other types, subagent lines", () => {
  const text = [
    '{"type":"user","message":{"content":"Prompt."}}',
    "not json at all",
    '{"type":"assistant","message":{"content":"a string, not a list"}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write"}]}}',
    '{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","id":"s","name":"Write","input":{"file_path":"/x"}}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Edit","input":{"file_path":"/y"}}]}}',
    "[1,2,3]",
    '{"type":"assistant","message":{"content":[{"type":"text","te',
  ].join("\n");
  const turn = turnOfText(text);
  assert.equal(turn.complete, true);
  assert.deepEqual(turn.toolUses.map((u) => u.input.file_path), ["/y"]);
  assert.deepEqual(turnOfText(""), { complete: false, toolUses: [] });
});

Deno.test("a prompt given as a list of text blocks (no tool_result) ends the turn", () => {
  const text = [
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Write","input":{"file_path":"/old"}}]}}',
    '{"type":"user","message":{"content":[{"type":"text","text":"look"},{"type":"image"}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b","name":"Write","input":{"file_path":"/new"}}]}}',
  ].join("\n");
  assert.deepEqual(turnOfText(text).toolUses.map((u) => u.input.file_path), ["/new"]);
});

Deno.test("the file is read from the end only back to the prompt, across chunk boundaries", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "t.jsonl");
  const filler = JSON.stringify({
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: "x", content: "é".repeat(50_000) }] },
  });
  // an older turn with a Write, then this turn with a big result between its two tool uses
  const text = [
    '{"type":"user","message":{"content":"Old prompt."}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"o","name":"Write","input":{"file_path":"/old"}}]}}',
    '{"type":"user","message":{"content":"New prompt."}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Write","input":{"file_path":"/a"}}]}}',
    ...Array.from({ length: 4 }, () => filler),
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b","name":"Édit","input":{"file_path":"/b"}}]}}',
    '{"type":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}',
    "",
  ].join("\n");
  await Deno.writeTextFile(path, text);
  const read = readTurnOnce(path);
  assert.equal(read.status, "ok");
  assert.deepEqual(read.activity!.toolUses.map((u) => u.input.file_path), ["/a", "/b"]);
  assert.equal(read.activity!.toolUses[1]!.name, "Édit", "a multi-byte character split by a chunk");

  const bounded = readTurnOnce(path, 100_000);
  assert.equal(bounded.status, "truncated");
  assert.deepEqual(bounded.activity!.toolUses.map((u) => u.input.file_path), ["/b"]);
  assert.ok(MAX_TURN_BYTES >= 1_000_000);
});

Deno.test("a missing, relative or folder transcript path is no transcript, never an error", async () => {
  await using dir = await tempDir();
  assert.equal(readTurnOnce(join(dir.path, "missing.jsonl")).status, "missing");
  assert.equal(readTurnOnce("relative.jsonl").status, "missing");
  assert.equal(readTurnOnce(undefined).status, "missing");
  assert.equal(readTurnOnce(42).status, "missing");
  assert.equal(readTurnOnce(dir.path).status, "unreadable");
});

Deno.test({
  name: "a FIFO transcript path is never opened (it would block the hook)",
  ignore: skipOnWindows("needs FIFOs"),
  fn: async () => {
    await using dir = await tempDir();
    const fifo = join(dir.path, "fifo");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success, "mkfifo failed");
    assert.equal(readTurnOnce(fifo).status, "unreadable");
  },
});

Deno.test("readTurn waits for a transcript that has not caught up, and gives up after the bound", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "t.jsonl");
  const start = '{"type":"user","message":{"content":"P."}}\n' +
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Write","input":{"file_path":"/a"}}]}}\n';
  await Deno.writeTextFile(path, start);
  const late = setTimeout(() => {
    Deno.writeTextFileSync(
      path,
      '{"type":"assistant","message":{"content":[{"type":"text","text":"All done."}]}}\n',
      { append: true },
    );
  }, 60);
  const read = await readTurn(path, { lastAssistantMessage: "All done.", maxWaitMs: 2_000 });
  clearTimeout(late);
  assert.equal(read.status, "ok");
  assert.equal(read.activity!.newestAssistantText, "All done.");
  assert.ok(read.waitedMs > 0, "it waited");

  const never = await readTurn(path, { lastAssistantMessage: "Something else.", maxWaitMs: 50 });
  assert.equal(never.status, "lagging");
  assert.deepEqual(never.activity!.toolUses.map((u) => u.input.file_path), ["/a"]);
});

Deno.test("readTurn waits for a transcript that does not exist yet when the Stop names its last message, and not otherwise", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "t.jsonl");
  const lines = '{"type":"user","message":{"content":"P."}}\n' +
    '{"type":"assistant","message":{"content":[{"type":"text","text":"All done."}]}}\n';
  // Claude Code writes its transcript through a buffer: a first turn's Stop can come first.
  const late = setTimeout(() => Deno.writeTextFileSync(path, lines), 60);
  const read = await readTurn(path, { lastAssistantMessage: "All done.", maxWaitMs: 2_000 });
  clearTimeout(late);
  assert.equal(read.status, "ok");
  assert.equal(read.activity!.newestAssistantText, "All done.");

  const other = join(dir.path, "never.jsonl");
  const gone = await readTurn(other, { lastAssistantMessage: "All done.", maxWaitMs: 50 });
  assert.equal(gone.status, "missing");
  assert.ok(gone.waitedMs >= 50, `waited ${gone.waitedMs} ms, not the whole bound`);
  const unasked = await readTurn(other, { maxWaitMs: 2_000 });
  assert.equal(unasked.status, "missing");
  assert.equal(unasked.waitedMs, 0, "nothing to wait for, so no wait");
});

/** A clock that moves `step` ms every time it is read: a machine so loaded that every step is slow. */
function slowClock(step: number): () => number {
  let now = 0;
  return () => now += step;
}

Deno.test("readTurn counts only time spent waiting: reading on a loaded machine is not a wait", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "t.jsonl");
  await Deno.writeTextFile(
    path,
    '{"type":"user","message":{"content":"P."}}\n' +
      '{"type":"assistant","message":{"content":[{"type":"text","text":"All done."}]}}\n',
  );
  const now = slowClock(50);
  const caught = await readTurn(path, { lastAssistantMessage: "All done.", now });
  assert.equal(caught.status, "ok");
  assert.equal(caught.waitedMs, 0, "the transcript had caught up: no wait");
  const missing = await readTurn(join(dir.path, "none.jsonl"), { now });
  assert.equal(missing.status, "missing");
  assert.equal(missing.waitedMs, 0, "no last message named: nothing to wait for");
});

Deno.test("the scan is linear: a 6 MB pasted image in the prompt is looked at about once (issue 22)", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "t.jsonl");
  const image = { type: "image", source: { type: "base64", data: "iVBORw0KGgo".repeat(550_000) } };
  const text = [
    '{"type":"user","message":{"content":"Old prompt."}}',
    JSON.stringify({
      type: "user",
      message: { content: [image, { type: "text", text: "Fix it." }] },
    }),
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Edit","input":{"file_path":"/a"}}]}}',
    '{"type":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}',
    "",
  ].join("\n");
  await Deno.writeTextFile(path, text);
  const size = (await Deno.stat(path)).size;
  assert.ok(size > 6_000_000);
  const stats = { bytesExamined: 0 };
  const read = readTurnOnce(path, MAX_TURN_BYTES, stats);
  assert.equal(read.status, "ok");
  assert.deepEqual(read.activity!.toolUses.map((u) => u.input.file_path), ["/a"]);
  assert.equal(read.activity!.complete, true, "the image's prompt ends the turn");
  // each byte searched for a line break once and copied at most once: not once per chunk
  assert.ok(stats.bytesExamined <= 2 * size + 1024, `${stats.bytesExamined} bytes for ${size}`);
});

// Claude Code 2.1.332 writes about 4.5 times the bytes per turn, with new line types
// (api-request, api-request-blob, api-request-shape, atis-latch, tools-used, cost-state, mode,
// system stop_hook_summary). The fixture is a real 2.1.332 session (paths rewritten to
// /home/dev/project, long strings and lists trimmed): a prompt whose turn Reads src/api/a.ts,
// Writes it and src/api/b.ts and Reads README.md six times; a second prompt that Writes src/c.ts.
const FIXTURE_332 = join(REPO_ROOT, "tests", "fixtures", "transcript_cc_2.1.332.jsonl");
const fixture332 = Deno.readTextFileSync(FIXTURE_332);
const lines332 = fixture332.split("\n").filter((l) => l.trim() !== "");
const D = "/home/dev/project";
const secondPrompt332 = lines332.findIndex((l) =>
  l.includes('"type":"user"') && l.includes('"content":"Change c."')
);

Deno.test("the last turn of a real 2.1.332 transcript: its Write, among the new line types", () => {
  assert.ok(
    ["api-request", "api-request-blob", "api-request-shape", "cost-state"].every((type) =>
      fixture332.includes(`"type":"${type}"`)
    ),
    "the fixture has 2.1.332's new line types",
  );
  const turn = turnOfText(fixture332);
  assert.equal(turn.complete, true);
  assert.deepEqual(turn.toolUses.map((u) => [u.name, u.input.file_path, u.failed]), [
    ["Write", `${D}/src/c.ts`, false],
  ]);
  assert.equal(turn.newestAssistantText, "Done again.");
});

Deno.test("the first turn of a real 2.1.332 transcript: every tool use since its prompt", () => {
  assert.ok(secondPrompt332 > 0);
  const turn = turnOfText(lines332.slice(0, secondPrompt332).join("\n"));
  assert.equal(turn.complete, true);
  assert.deepEqual(
    turn.toolUses.filter((u) => u.name === "Write").map((u) => u.input.file_path),
    [`${D}/src/api/a.ts`, `${D}/src/api/b.ts`],
  );
  assert.equal(turn.toolUses.filter((u) => u.name === "Read").length, 7);
  assert.equal(turn.newestAssistantText, "Done.");
});

Deno.test("a long 2.1.332 turn (150 requests, each with a 38 KB api-request-shape line) is read back whole within the byte bound", async () => {
  await using dir = await tempDir();
  const shape = JSON.stringify({
    type: "api-request-shape",
    sessionId: "s",
    shape: "x".repeat(38 * 1024),
  });
  const first = lines332.slice(0, secondPrompt332);
  const writeAt = first.findIndex((l) => l.includes('"name":"Write"'));
  const padded = [
    ...first.slice(0, writeAt + 1),
    ...Array.from({ length: 150 }, () => shape),
    ...first.slice(writeAt + 1),
  ];
  const path = join(dir.path, "t.jsonl");
  await Deno.writeTextFile(path, padded.join("\n") + "\n");
  assert.ok((await Deno.stat(path)).size > 5_000_000);
  const read = readTurnOnce(path);
  assert.equal(read.status, "ok");
  assert.equal(read.activity?.complete, true);
  assert.deepEqual(
    read.activity?.toolUses.filter((u) => u.name === "Write").map((u) => u.input.file_path),
    [`${D}/src/api/a.ts`, `${D}/src/api/b.ts`],
  );
});
