/**
 * The journal (the stop side's crash record), in-process: a complete validator, a damaged
 * journal set aside (never deleted) and reported, no count limit that could cause a duplicate,
 * and a journal path that is a FIFO or a folder never hangs a run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Journal,
  loadJournal,
  parseJournal,
  saveJournal,
  withFiled,
} from "../src/filing/journal.ts";
import { tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const NOW = Date.UTC(2026, 10, 30, 12);

Deno.test("parseJournal accepts a journal of the right shape, with or without active targets", () => {
  const journal: Journal = { version: 3, filed: [["abc", NOW]], active: ["tech.md"] };
  assert.deepEqual(parseJournal(JSON.stringify(journal)), journal);
  assert.deepEqual(parseJournal('{"version":3,"filed":[]}'), { version: 3, filed: [] });
});

Deno.test("parseJournal rejects valid JSON of the wrong shape, and garbage, with a reason", () => {
  const damaged = [
    '{"version":3,"filed":[1]}',
    '{"version":3,"filed":[["abc"]]}',
    '{"version":3,"filed":[["abc","yesterday"]]}',
    '{"version":3,"filed":[[7,1]]}',
    '{"version":3,"filed":{}}',
    '{"version":2,"filed":[]}',
    '{"version":4,"filed":[]}',
    '{"version":3,"filed":[],"active":"tech.md"}',
    '{"version":3,"filed":[],"active":[1]}',
    '{"version":3,"filed":[],"active":["../../etc/passwd"]}',
    "[]",
    "null",
    "not json at all",
    "",
  ];
  for (const text of damaged) {
    const parsed = parseJournal(text);
    assert.equal(typeof parsed, "string", `accepted ${text}`);
    assert.ok((parsed as string).length > 0);
  }
});

Deno.test("a damaged journal is set aside (renamed, not deleted) and reported; a fresh one starts", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "key.filed.json");
  await Deno.writeTextFile(path, '{"version":3,"filed":[1]}');
  const load = loadJournal(path);
  assert.deepEqual(load.journal, { version: 3, filed: [] });
  assert.ok(load.setAside, "the damage is reported");
  assert.match(load.setAside.why, /filed/);
  assert.equal(await Deno.readTextFile(load.setAside.path), '{"version":3,"filed":[1]}');
  assert.equal(load.setAside.path.startsWith(`${path}.damaged-`), true);
  await assert.rejects(() => Deno.lstat(path), Deno.errors.NotFound);
});

Deno.test("a journal path that is a folder is set aside, never entered", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "key.filed.json");
  await Deno.mkdir(path);
  await Deno.writeTextFile(join(path, "mine.txt"), "kept");
  const load = loadJournal(path);
  assert.ok(load.setAside);
  assert.equal(await Deno.readTextFile(join(load.setAside.path, "mine.txt")), "kept");
  saveJournal(path, load.journal);
  assert.deepEqual(loadJournal(path), { journal: { version: 3, filed: [] } });
});

Deno.test({
  name: "a journal path that is a FIFO is set aside without ever being opened",
  ignore: skipOnWindows("needs FIFOs"),
  async fn() {
    await using dir = await tempDir();
    const path = join(dir.path, "key.filed.json");
    const made = await new Deno.Command("mkfifo", { args: [path] }).output();
    assert.equal(made.code, 0);
    const load = loadJournal(path); // would block forever if the FIFO were opened
    assert.ok(load.setAside);
    assert.match(load.setAside.why, /not a regular file/);
  },
});

Deno.test("a missing journal is an empty one, and nothing is reported", async () => {
  await using dir = await tempDir();
  assert.deepEqual(loadJournal(join(dir.path, "none.json")), {
    journal: { version: 3, filed: [] },
  });
});

Deno.test("the journal keeps every block filed in its time window, however many (no count limit)", () => {
  const hashes = Array.from({ length: 5_200 }, (_, i) => `h${i}`);
  const journal = withFiled({ version: 3, filed: [] }, hashes, NOW);
  assert.equal(journal.filed.length, 5_200);
  assert.deepEqual(journal.filed[0], ["h0", NOW]);
  const month = 31 * 24 * 3600_000;
  assert.deepEqual(withFiled(journal, ["new"], NOW + month).filed, [["new", NOW + month]]);
});

Deno.test("the journal round-trips through save and load", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "locks", "key.filed.json");
  await Deno.mkdir(join(dir.path, "locks"));
  const journal: Journal = { version: 3, filed: [["a", NOW], ["b", NOW + 1]] };
  saveJournal(path, journal);
  assert.deepEqual(loadJournal(path), { journal });
});
