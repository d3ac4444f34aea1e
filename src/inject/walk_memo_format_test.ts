/**
 * The walk memo's format (src/inject/walk_memo_format.ts): what a memo's text must be to be
 * believed, what is kept of it, and when a change has settled (the effects and the hook:
 * tests/walk_memo_test.ts).
 */
import assert from "node:assert/strict";
import {
  emptyWalkMemo,
  formatWalkMemo,
  isSettled,
  MAX_KEPT_FOLDERS,
  MAX_MEMO_CHARS,
  memoStamp,
  parseWalkMemo,
  SETTLED_MS,
  WALK_MEMO_VERSION,
} from "./walk_memo_format.ts";

const ROOT = "/p/_memory_library";
const FOLDER = "src/api";

function memoText(fields: Record<string, unknown>): string {
  return JSON.stringify({
    version: WALK_MEMO_VERSION,
    root: ROOT,
    folder: FOLDER,
    folders: {},
    hashes: {},
    ...fields,
  });
}

Deno.test("a memo read back is the memo written: folders and hashes, in the order kept", () => {
  const memo = emptyWalkMemo(ROOT, FOLDER);
  memo.folders.set(`${ROOT}/src`, {
    stamp: "1:2:3:4",
    files: ["a.md", "b.md"],
    subfolders: ["api"],
  });
  memo.folders.set(ROOT, { stamp: "5:6:7:8", files: ["tech.md"], subfolders: ["src"] });
  memo.hashes.set(`${ROOT}/tech.md`, { stamp: "9:9:9:4096", hash: "0123abcd" });
  const back = parseWalkMemo(formatWalkMemo(memo), ROOT, FOLDER);
  assert.deepEqual([...back.folders], [...memo.folders]);
  assert.deepEqual([...back.hashes], [...memo.hashes]);
});

Deno.test("a memo of another library or walk, another version, or no memo at all reads as empty", () => {
  const kept = memoText({ hashes: { [`${ROOT}/a.md`]: { stamp: "s", hash: "h" } } });
  assert.equal(parseWalkMemo(kept, ROOT, FOLDER).hashes.size, 1, "the memo itself is believed");
  assert.equal(parseWalkMemo(kept, "/q/_memory_library", FOLDER).hashes.size, 0);
  assert.equal(parseWalkMemo(kept, ROOT, "src").hashes.size, 0, "another walk's memo");
  assert.equal(
    parseWalkMemo(kept.replace(`"version":1`, `"version":2`), ROOT, FOLDER).hashes.size,
    0,
  );
  for (const text of ["", "{", "null", "[]", "42", `"text"`, `{"version":1}`]) {
    const memo = parseWalkMemo(text, ROOT, FOLDER);
    assert.equal(memo.folders.size + memo.hashes.size, 0, text);
    assert.equal(memo.root, ROOT);
  }
});

Deno.test("a memo too big to have been written by this format is not read", () => {
  const padded = memoText({
    hashes: { [`${ROOT}/a.md`]: { stamp: "s", hash: "h" } },
    padding: "x".repeat(MAX_MEMO_CHARS),
  });
  assert.equal(parseWalkMemo(padded, ROOT, FOLDER).hashes.size, 0);
});

Deno.test("a kept folder naming anything but plain entries of itself is left out, the rest kept", () => {
  const folders: Record<string, unknown> = {
    [`${ROOT}/good`]: { stamp: "s", files: ["a.md"], subfolders: ["sub"] },
    [`${ROOT}/up`]: { stamp: "s", files: ["../../etc/passwd.md"], subfolders: [] },
    [`${ROOT}/dot`]: { stamp: "s", files: [], subfolders: [".."] },
    [`${ROOT}/slash`]: { stamp: "s", files: ["x/y.md"], subfolders: [] },
    [`${ROOT}/backslash`]: { stamp: "s", files: ["x\\y.md"], subfolders: [] },
    [`${ROOT}/nul`]: { stamp: "s", files: ["a\0.md"], subfolders: [] },
    [`${ROOT}/empty`]: { stamp: "s", files: [""], subfolders: [] },
    [`${ROOT}/number`]: { stamp: "s", files: [7], subfolders: [] },
    [`${ROOT}/no-stamp`]: { files: [], subfolders: [] },
    [`${ROOT}/not-list`]: { stamp: "s", files: "a.md", subfolders: [] },
    [`${ROOT}/null`]: null,
    [`${ROOT}/one-bad-of-many`]: { stamp: "s", files: ["a.md"], subfolders: ["ok", "x/y", "z"] },
    [`${ROOT}/dot-last`]: { stamp: "s", files: ["a.md", "."], subfolders: ["ok"] },
    [`${ROOT}/nul-last`]: { stamp: "s", files: ["a.md"], subfolders: ["ok", "\0"] },
    [`${ROOT}/object`]: { stamp: "s", files: [{ name: "a.md" }], subfolders: [] },
  };
  const memo = parseWalkMemo(memoText({ folders }), ROOT, FOLDER);
  assert.deepEqual([...memo.folders.keys()], [`${ROOT}/good`]);
});

Deno.test("a kept hash without a stamp or a hash of text is left out", () => {
  const hashes = {
    [`${ROOT}/good.md`]: { stamp: "s", hash: "h" },
    [`${ROOT}/no-hash.md`]: { stamp: "s" },
    [`${ROOT}/number.md`]: { stamp: 1, hash: "h" },
    [`${ROOT}/list.md`]: ["s", "h"],
  };
  assert.deepEqual([...parseWalkMemo(memoText({ hashes }), ROOT, FOLDER).hashes.keys()], [
    `${ROOT}/good.md`,
  ]);
});

Deno.test("at most MAX_KEPT_FOLDERS folders are written: the ones kept last", () => {
  const memo = emptyWalkMemo(ROOT, FOLDER);
  for (let i = 0; i < MAX_KEPT_FOLDERS + 5; i++) {
    memo.folders.set(`${ROOT}/f${i}`, { stamp: "s", files: [], subfolders: [] });
  }
  const back = parseWalkMemo(formatWalkMemo(memo), ROOT, FOLDER);
  assert.equal(back.folders.size, MAX_KEPT_FOLDERS);
  assert.ok(!back.folders.has(`${ROOT}/f4`));
  assert.ok(back.folders.has(`${ROOT}/f5`));
  assert.ok(back.folders.has(`${ROOT}/f${MAX_KEPT_FOLDERS + 4}`));
});

Deno.test("a stamp changes with each of modification time, status-change time, inode and size", () => {
  const base = { mtime: new Date(1_000), ctime: new Date(2_000), ino: 3, size: 4 };
  const stamp = memoStamp(base);
  assert.notEqual(memoStamp({ ...base, mtime: new Date(1_001) }), stamp);
  assert.notEqual(memoStamp({ ...base, ctime: new Date(2_001) }), stamp, "touch -d back in time");
  assert.notEqual(memoStamp({ ...base, ino: 4 }), stamp, "replaced by another file");
  assert.notEqual(memoStamp({ ...base, size: 5 }), stamp);
  assert.equal(memoStamp({ ...base }), stamp);
});

Deno.test("a change settles SETTLED_MS after it was made; a time in the future or none never does", () => {
  const changed = 1_700_000_000_000;
  assert.ok(!isSettled(changed, changed));
  assert.ok(!isSettled(changed, changed + SETTLED_MS - 1));
  assert.ok(isSettled(changed, changed + SETTLED_MS));
  assert.ok(!isSettled(changed + 10_000, changed), "a modification time ahead of the clock");
  assert.ok(!isSettled(0, changed));
  assert.ok(!isSettled(Number.NaN, changed));
});
