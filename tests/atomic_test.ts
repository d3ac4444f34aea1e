/**
 * Whole-file writes (`src/core/atomic.ts`): a reader sees the old text or the new, never half;
 * a damaged file is set aside under a dated name, never overwritten.
 */
import assert from "node:assert/strict";
import {
  isTempSiblingName,
  removeIfPresent,
  setAsideSync,
  tempSiblingOf,
  writeTextAtomic,
  writeTextAtomicSync,
} from "../src/core/atomic.ts";
import { tempDir } from "./helpers.ts";

Deno.test("an atomic write replaces the file, creates folders and leaves no temp file", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/a/b/notes.md`;
  writeTextAtomicSync(path, "one");
  await writeTextAtomic(path, "two");
  assert.equal(Deno.readTextFileSync(path), "two");
  assert.deepEqual([...Deno.readDirSync(`${dir.path}/a/b`)].map((e) => e.name), ["notes.md"]);
});

Deno.test("a failed write leaves the old file and no temp file", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/target`;
  Deno.mkdirSync(path); // a folder cannot be replaced by a file
  assert.throws(() => writeTextAtomicSync(path, "x"));
  assert.ok(Deno.statSync(path).isDirectory);
  assert.deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name), ["target"]);
});

Deno.test("a rename Windows refuses for a moment (another process reading the file) is tried again; one that stays refused fails whole", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/ledger.json`;
  writeTextAtomicSync(path, "old");
  let refusals = 3;
  const io = {
    writeTextFileSync: Deno.writeTextFileSync,
    renameSync(from: string, to: string) {
      if (refusals-- > 0) throw new Deno.errors.PermissionDenied("Access is denied. (os error 5)");
      Deno.renameSync(from, to);
    },
  };
  writeTextAtomicSync(path, "recorded", { io, retryBusyRename: true });
  assert.equal(Deno.readTextFileSync(path), "recorded");
  refusals = Infinity;
  assert.throws(
    () => writeTextAtomicSync(path, "never", { io, retryBusyRename: true }),
    Deno.errors.PermissionDenied,
  );
  assert.equal(Deno.readTextFileSync(path), "recorded");
  assert.deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name), ["ledger.json"]);
});

Deno.test("temp names are unique and recognised only for their own file", () => {
  const names = new Set(Array.from({ length: 50 }, () => tempSiblingOf("/l/tech.md")));
  assert.equal(names.size, 50);
  const name = [...names][0]!.slice("/l/".length);
  assert.ok(isTempSiblingName(name, "tech.md"));
  assert.ok(!isTempSiblingName(name, "tech"));
  assert.ok(!isTempSiblingName("tech.md.tmp-1-2-abc.bak", "tech.md"));
});

Deno.test("setting aside: a dated name, the next free one when taken, null when gone", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/journal.json`;
  const now = new Date("2026-11-30T12:34:56.789Z");
  Deno.writeTextFileSync(path, "one");
  assert.equal(setAsideSync(path, now), `${path}.damaged-20261130T123456Z`);
  Deno.writeTextFileSync(path, "two");
  assert.equal(setAsideSync(path, now), `${path}.damaged-20261130T123456Z-1`);
  assert.equal(Deno.readTextFileSync(`${path}.damaged-20261130T123456Z`), "one");
  assert.equal(setAsideSync(path, now), null);
  removeIfPresent(`${path}.damaged-20261130T123456Z-1`);
  removeIfPresent(`${path}.never-there`);
  assert.throws(() => Deno.statSync(`${path}.damaged-20261130T123456Z-1`));
});
