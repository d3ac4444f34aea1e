/**
 * The log tail behind `librarian status` and `doctor`: the last records of the hook log, the runs
 * of one project, and how a record and its age are shown to people.
 */
import assert from "node:assert/strict";
import { appendLog } from "../src/core/log.ts";
import { ageOf, describeRecord, readLogTail, readProjectRuns } from "../src/core/log_tail.ts";
import { tempDir } from "./helpers.ts";

Deno.test("the tail is the last records, oldest first; a missing log is null, not an error", async () => {
  await using dir = await tempDir();
  const log = `${dir.path}/librarian.log`;
  assert.equal(await readLogTail(log, 5), null);
  for (let n = 1; n <= 4; n++) {
    appendLog(log, "inject", { n }, new Date(Date.UTC(2026, 10, 30, 0, n)));
  }
  const tail = await readLogTail(log, 2);
  assert.deepEqual(tail?.map((r) => r.fields.n), ["3", "4"]);
  assert.equal(tail?.[0]?.time, "2026-11-30T00:03:00.000Z");
});

Deno.test("lines that are not log records are skipped, not fatal", async () => {
  await using dir = await tempDir();
  const log = `${dir.path}/librarian.log`;
  Deno.writeTextFileSync(log, "garbage\n");
  appendLog(log, "stop", { result: "filed" });
  Deno.writeTextFileSync(log, "half a li", { append: true });
  const tail = await readLogTail(log, 10);
  assert.deepEqual(tail?.map((r) => r.fields.result), ["filed"]);
});

Deno.test("a folder where the log should be reads as no log", async () => {
  await using dir = await tempDir();
  assert.equal(await readLogTail(dir.path, 10), null);
});

Deno.test("a project's runs leave out other projects' and keep the last `limit`", async () => {
  await using dir = await tempDir();
  const log = `${dir.path}/librarian.log`;
  appendLog(log, "stop", { project: "/work/a", n: 1 });
  appendLog(log, "stop", { project: "/work/ab", n: 2 });
  appendLog(log, "stop", { project: "/work/a", n: 3 });
  appendLog(log, "stop", { project: "/work/a", n: 4 });
  assert.deepEqual((await readProjectRuns(log, "/work/a", 2))?.map((r) => r.fields.n), ["3", "4"]);
  assert.deepEqual(await readProjectRuns(log, "/work/a", 0), []);
});

Deno.test("a record for people: time to the second, the fields that matter, no raw controls", () => {
  const line = describeRecord({
    time: "2026-11-30T06:40:00.123Z",
    command: "inject",
    fields: {
      event: "PreToolUse",
      tool: "Read",
      result: "sent",
      file: "src/a\x1b[31m.ts",
      ms: "4",
    },
  });
  assert.ok(line.startsWith("2026-11-30 06:40:00Z  inject  PreToolUse  Read  sent  src/a"));
  assert.ok(line.endsWith("4 ms"));
  assert.ok(!line.includes("\x1b"), "an escape sequence never reaches the terminal");
});

Deno.test("ages read as seconds, minutes, hours, then days; a future time is 0 s", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  assert.equal(ageOf("2026-11-30T11:59:30Z", now), "30 s ago");
  assert.equal(ageOf("2026-11-30T11:30:00Z", now), "30 min ago");
  assert.equal(ageOf("2026-11-30T02:00:00Z", now), "10 h ago");
  assert.equal(ageOf("2026-11-20T12:00:00Z", now), "10 days ago");
  assert.equal(ageOf("2026-12-01T00:00:00Z", now), "0 s ago");
});
