import assert from "node:assert/strict";
import {
  clearSessionLedgers,
  ledgerPath,
  loadLedger,
  parseLedger,
  pruneLedgers,
  recordInLedger,
  safeId,
} from "../src/inject/ledger.ts";
import { tempDir } from "./helpers.ts";

Deno.test("safeId() keeps ids usable as file names", () => {
  assert.equal(safeId("abc-123_X"), "abc-123_X");
  for (const id of ["../../etc/passwd", "", "a/1", "x".repeat(300)]) {
    assert.match(safeId(id), /^[A-Za-z0-9_-]{1,100}\.[0-9a-f]{14}$/, id);
  }
  assert.ok(safeId("../../etc/passwd").startsWith("______etc_passwd."));
  // ids that clean up alike still get files of their own
  assert.notEqual(safeId("a/1"), safeId("a_1"));
  assert.notEqual(safeId("a/1"), safeId("a.1"));
  assert.notEqual(safeId(`${"x".repeat(120)}1`), safeId(`${"x".repeat(120)}2`));
});

Deno.test("a subagent has its own ledger, separate from the main context window", async () => {
  await using dir = await tempDir();
  await recordInLedger(dir.path, { sessionId: "s" }, { "a.md": "1" });
  await recordInLedger(dir.path, { sessionId: "s", agentId: "sub" }, { "b.md": "2" });
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "s" })).files, { "a.md": "1" });
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "s", agentId: "sub" })).files, {
    "b.md": "2",
  });
  assert.notEqual(
    ledgerPath(dir.path, { sessionId: "s" }),
    ledgerPath(dir.path, { sessionId: "s", agentId: "sub" }),
  );
});

Deno.test("recordInLedger() merges with what is on disk and keeps the reminder flag", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  await recordInLedger(dir.path, key, { "a.md": "1" }, true);
  await recordInLedger(dir.path, key, { "b.md": "2" });
  await recordInLedger(dir.path, key, { "a.md": "3" });
  const ledger = await loadLedger(dir.path, key);
  assert.deepEqual(ledger.files, { "a.md": "3", "b.md": "2" });
  assert.equal(ledger.reminded, true);
});

Deno.test("parseLedger() reads damaged text as an empty ledger", () => {
  assert.deepEqual(parseLedger("{not json"), { files: {}, reminded: false });
  assert.deepEqual(parseLedger('{"files":{"a.md":3,"b.md":"x"}}').files, { "b.md": "x" });
});

Deno.test("clearSessionLedgers() forgets the session and its subagents only", async () => {
  await using dir = await tempDir();
  await recordInLedger(dir.path, { sessionId: "s" }, { "a.md": "1" }, true);
  await recordInLedger(dir.path, { sessionId: "s", agentId: "x" }, { "a.md": "1" });
  await recordInLedger(dir.path, { sessionId: "other" }, { "a.md": "1" });
  await clearSessionLedgers(dir.path, "s");
  assert.deepEqual(await loadLedger(dir.path, { sessionId: "s" }), { files: {}, reminded: false });
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "s", agentId: "x" })).files, {});
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "other" })).files, { "a.md": "1" });
});

Deno.test("pruneLedgers() removes sessions not written for a week", async () => {
  await using dir = await tempDir();
  await recordInLedger(dir.path, { sessionId: "old" }, { "a.md": "1" });
  await recordInLedger(dir.path, { sessionId: "new" }, { "a.md": "1" });
  const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
  await Deno.utime(`${dir.path}/ledgers/old`, weekAgo, weekAgo);
  assert.equal(await pruneLedgers(dir.path), 1);
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "old" })).files, {});
  assert.deepEqual((await loadLedger(dir.path, { sessionId: "new" })).files, { "a.md": "1" });
});

Deno.test("fingerprints split into the stat stamp and the content hash", async () => {
  const { makeFingerprint, stampOf, hashOf } = await import("../src/inject/ledger.ts");
  const fp = makeFingerprint("120:1700000000000", "00abcdef123456");
  assert.equal(stampOf(fp), "120:1700000000000");
  assert.equal(hashOf(fp), "00abcdef123456");
  assert.equal(hashOf("garbage"), "");
});
