/**
 * Sync records are validated completely; a damaged one is set aside, reported, never trusted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseSyncRecord, readRecord, type SyncRecord } from "../src/automemory/records.ts";
import { loadRecord, saveRecord } from "../src/automemory/record_store.ts";
import { tempDir } from "./helpers.ts";

const GOOD: SyncRecord = {
  version: 1,
  dir: "/m",
  files: {
    "a.md": { size: 10, mtime: 1700000000000, hash: "abc", entry: "def" },
    "team/b.md": { size: 0, mtime: 0, hash: "", entry: "" },
  },
};

Deno.test("a valid record is read back exactly", () => {
  assert.deepEqual(parseSyncRecord(JSON.stringify(GOOD), "/m"), { ok: true, record: GOOD });
});

Deno.test("every kind of damage is named", () => {
  const file = GOOD.files["a.md"]!;
  const cases: ReadonlyArray<[unknown, RegExp]> = [
    [null, /not a JSON object/],
    [[GOOD], /not a JSON object/],
    [{ ...GOOD, version: 2 }, /version is 2/],
    [{ ...GOOD, dir: "/other" }, /another memory folder/],
    [{ ...GOOD, files: [1] }, /files is not an object/],
    [{ ...GOOD, files: null }, /files is not an object/],
    [{ ...GOOD, files: { "a.md": 1 } }, /a\.md is not an object/],
    [{ ...GOOD, files: { "a.md": { ...file, size: -1 } } }, /size/],
    [{ ...GOOD, files: { "a.md": { ...file, size: 1.5 } } }, /size/],
    [{ ...GOOD, files: { "a.md": { ...file, size: "10" } } }, /size/],
    [{ ...GOOD, files: { "a.md": { ...file, mtime: null } } }, /mtime/],
    [{ ...GOOD, files: { "a.md": { ...file, hash: 5 } } }, /content hash/],
    [{ ...GOOD, files: { "a.md": { size: 1, mtime: 1, hash: "" } } }, /entry hash/],
    [{ ...GOOD, files: { "../x.md": file } }, /not a relative path/],
    [{ ...GOOD, files: { "/x.md": file } }, /not a relative path/],
    [{ ...GOOD, files: { "": file } }, /empty/],
  ];
  for (const [value, reason] of cases) {
    const parsed = parseSyncRecord(JSON.stringify(value), "/m");
    assert.equal(parsed.ok, false, JSON.stringify(value));
    assert.match(parsed.ok ? "" : parsed.reason, reason, JSON.stringify(value));
  }
  assert.deepEqual(parseSyncRecord("{", "/m"), { ok: false, reason: "not valid JSON" });
});

Deno.test("a damaged record is set aside, reported, and replaced by an empty one", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "automemory", "r.json");
  await Deno.mkdir(join(dir.path, "automemory"));
  await Deno.writeTextFile(path, '{"version":1,"dir":"/m","files":{"a.md":[1]}}');
  const loaded = loadRecord(path, "/m", new Date("2026-11-30T10:00:00Z"));
  assert.deepEqual(loaded.record, { version: 1, dir: "/m", files: {} });
  assert.deepEqual(loaded.damaged, {
    path,
    reason: "entry for a.md is not an object",
    setAside: `${path}.damaged-20261130T100000Z`,
  });
  assert.equal(
    await Deno.readTextFile(`${path}.damaged-20261130T100000Z`),
    '{"version":1,"dir":"/m","files":{"a.md":[1]}}',
    "kept for inspection",
  );
  assert.deepEqual(loadRecord(path, "/m"), {
    record: { version: 1, dir: "/m", files: {} },
  });
  saveRecord(path, GOOD);
  assert.equal(readRecord(path, "/m").kind, "ok");
});

Deno.test("a record that is a FIFO, a folder or not UTF-8 is damaged, never waited on", async () => {
  await using dir = await tempDir();
  const folder = join(dir.path, "folder.json");
  await Deno.mkdir(folder);
  assert.deepEqual(readRecord(folder, "/m").kind, "damaged");
  const binary = join(dir.path, "binary.json");
  await Deno.writeFile(binary, new Uint8Array([0xff, 0xfe, 0x7b, 0x00]));
  assert.match(JSON.stringify(readRecord(binary, "/m")), /not UTF-8/);
  if (Deno.build.os !== "windows") {
    const fifo = join(dir.path, "fifo.json");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    assert.match(JSON.stringify(readRecord(fifo, "/m")), /not a regular file/);
  }
  assert.equal(readRecord(join(dir.path, "missing.json"), "/m").kind, "missing");
});
