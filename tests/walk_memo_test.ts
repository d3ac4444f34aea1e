/**
 * The inject hook's walk memo (src/inject/walk_memo.ts): a big library folder's listing, a big
 * library file's hash and a small one's text kept between runs. What it keeps is never wrong: a
 * folder changed since is listed again, a file changed since is hashed or read again (even with its
 * old time put back), and a memo that is missing, damaged or cannot be written only costs the walk
 * it saves.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { collectLibraryFiles } from "../src/core/walk.ts";
import { type FileStamp, statStamp } from "../src/core/read_text.ts";
import { openWalkMemo, pruneWalkMemos, walkMemoPath } from "../src/inject/walk_memo.ts";
import {
  MAX_DIGEST_CHARS,
  MAX_KEPT_TEXTS,
  MEMO_MIN_BYTES,
  MEMO_MIN_ENTRIES,
  SETTLED_MS,
  WALK_MEMO_MAX_AGE_MS,
} from "../src/inject/walk_memo_format.ts";
import { parseHookStdout, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const LONG_AGO = new Date(Date.now() - 3_600_000);

/**
 * Gives `paths` a modification time an hour ago. Their status-change time is now: a memo believes
 * them settled only on a clock some seconds ahead ({@link later}), or some seconds from now.
 */
function settle(...paths: string[]): void {
  for (const path of paths) Deno.utimeSync(path, LONG_AGO, LONG_AGO);
}

/** A clock ten seconds ahead: what was changed until now has settled on it. */
const later = () => Date.now() + 10_000;

/** The walk these tests make: up from `src/api` in the library at `lib`. */
const apiWalk = (lib: string) => ({ root: lib, folder: "src/api" });

/** Writes `text` at the absolute `path`, making its folders. */
async function writeAt(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A library whose `src/` folder holds `MEMO_MIN_ENTRIES + 6` subfolders and `patterns.md`. */
async function wideLibrary(base: string): Promise<string> {
  const lib = `${base}/_memory_library`;
  const files: Record<string, string> = {
    "_memory_library/tech.md": "- ROOT-TECH",
    "_memory_library/src/patterns.md": "- SRC-PATTERNS",
    "_memory_library/src/api/edge.md": "- API-EDGE",
  };
  for (let i = 0; i < MEMO_MIN_ENTRIES + 5; i++) files[`_memory_library/src/m${i}/notes.md`] = "-";
  await writeTree(base, files);
  settle(`${lib}/src`, `${lib}/src/api`, lib);
  return lib;
}

/**
 * Runs the inject hook for a Read of `src/api/handler.ts` in the project `proj`, in `session`, with
 * its home and log in `base`; returns the context sent and the hook's log line.
 */
async function readHandler(
  proj: string,
  base: string,
  session: string,
): Promise<{ context: string; line: string }> {
  const log = `${base}/librarian.log`;
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: session,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: `${proj}/src/api/handler.ts` },
      cwd: proj,
    }),
    home: `${base}/home`,
    cwd: proj,
    env: { LIBRARIAN_LOG: log },
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, string> | undefined;
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  return { context: specific?.additionalContext ?? "", line: lines.at(-1)! };
}

/** Writes `text` at `path`; returns the path, the stamp a read sees, and the text. */
async function writeStamped(
  path: string,
  text: string,
): Promise<{ path: string; stamp: FileStamp; text: string }> {
  await Deno.writeTextFile(path, text);
  const stamp = statStamp(path);
  assert.ok(!("error" in stamp));
  return { path, stamp, text };
}

function relPaths(lib: string, dir: string, memo?: ReturnType<typeof openWalkMemo>): string[] {
  return collectLibraryFiles(lib, dir, Deno.build.os, memo).map((file) => file.relPath);
}

/** A {@link wideLibrary} walked once through a memo, on a clock its changes had settled on. */
async function keptWideLibrary(base: string): Promise<{ lib: string; state: string }> {
  const lib = await wideLibrary(base);
  const state = `${base}/state`;
  const keep = openWalkMemo(state, apiWalk(lib), later);
  relPaths(lib, "src/api", keep);
  keep.flush();
  return { lib, state };
}

Deno.test("a big settled folder is listed once, then recalled while unchanged, as a walk lists it", async () => {
  await using dir = await tempDir();
  const lib = await wideLibrary(dir.path);
  const state = `${dir.path}/state`;
  const first = openWalkMemo(state, apiWalk(lib), later);
  const walked = relPaths(lib, "src/api", first);
  first.flush();
  assert.deepEqual(walked, ["src/api/edge.md", "src/patterns.md", "tech.md"]);
  if (Deno.build.os === "windows") {
    assert.equal(first.counts.kept, 0, "Windows keeps no folders");
    return;
  }
  assert.equal(first.counts.kept, 1, "src/ is big enough; the root and src/api are not");
  const second = openWalkMemo(state, apiWalk(lib), later);
  assert.deepEqual(relPaths(lib, "src/api", second), walked);
  assert.equal(second.counts.recalled, 1);
});

Deno.test("each walk keeps a memo of its own: a run reads what its own walk needs, however big the library", async () => {
  await using dir = await tempDir();
  const { lib, state } = await keptWideLibrary(dir.path);
  if (Deno.build.os === "windows") return; // no folders kept there
  const kept = await Deno.readTextFile(walkMemoPath(state, apiWalk(lib)));
  const other = { root: lib, folder: "src/m0" };
  const elsewhere = openWalkMemo(state, other, later);
  assert.deepEqual(
    collectLibraryFiles(lib, "src/m0", Deno.build.os, elsewhere).map((f) => f.relPath),
    ["src/m0/notes.md", "src/patterns.md", "tech.md"],
  );
  assert.equal(elsewhere.counts.recalled, 0, "src/api's memo is not read");
  elsewhere.flush();
  assert.equal(elsewhere.counts.kept, 1, "src/ again, in this walk's memo");
  assert.notEqual(walkMemoPath(state, other), walkMemoPath(state, apiWalk(lib)));
  assert.equal(await Deno.readTextFile(walkMemoPath(state, apiWalk(lib))), kept, "unchanged");
  assert.equal(JSON.parse(await Deno.readTextFile(walkMemoPath(state, other))).folder, "src/m0");
});

Deno.test("a file added to, removed from or renamed in a kept folder is walked as it is now", async () => {
  await using dir = await tempDir();
  const { lib, state } = await keptWideLibrary(dir.path);
  await Deno.writeTextFile(`${lib}/src/edge.md`, "- SRC-EDGE");
  const added = openWalkMemo(state, apiWalk(lib), later);
  assert.deepEqual(relPaths(lib, "src/api", added), [
    "src/api/edge.md",
    "src/edge.md",
    "src/patterns.md",
    "tech.md",
  ]);
  assert.equal(added.counts.recalled, 0);
  added.flush();
  settle(`${lib}/src`);
  const kept = openWalkMemo(state, apiWalk(lib), later);
  relPaths(lib, "src/api", kept);
  kept.flush();
  await Deno.rename(`${lib}/src/patterns.md`, `${lib}/src/tech.md`);
  await Deno.remove(`${lib}/src/edge.md`);
  assert.deepEqual(relPaths(lib, "src/api", openWalkMemo(state, apiWalk(lib), later)), [
    "src/api/edge.md",
    "src/tech.md",
    "tech.md",
  ]);
});

Deno.test("a folder changed within the last seconds is not kept: a later change could share its time", async () => {
  await using dir = await tempDir();
  const lib = await wideLibrary(dir.path);
  await Deno.writeTextFile(`${lib}/src/fresh.md`, "- FRESH");
  const memo = openWalkMemo(`${dir.path}/state`, apiWalk(lib));
  assert.ok(relPaths(lib, "src/api", memo).includes("src/fresh.md"));
  memo.flush();
  assert.equal(memo.counts.kept, 0);
  await assert.rejects(
    Deno.stat(walkMemoPath(`${dir.path}/state`, apiWalk(lib))),
    Deno.errors.NotFound,
  );
  settle(`${lib}/src`); // its old time put back just now (`touch -d`, `rsync -t`)
  const restored = openWalkMemo(`${dir.path}/state`, apiWalk(lib));
  relPaths(lib, "src/api", restored);
  assert.equal(restored.counts.kept, 0);
  const settled = openWalkMemo(`${dir.path}/state`, apiWalk(lib), later);
  relPaths(lib, "src/api", settled);
  const keeps = Deno.build.os === "windows" ? 0 : 1; // Windows keeps no folders
  assert.equal(settled.counts.kept, keeps, "the same folder, its changes settled");
});

Deno.test("a small folder is not kept, and a kept folder that became small is forgotten", async () => {
  await using dir = await tempDir();
  const { lib, state } = await keptWideLibrary(dir.path);
  if (Deno.build.os === "windows") return;
  for (let i = 0; i < 10; i++) await Deno.remove(`${lib}/src/m${i}`, { recursive: true });
  const shrunk = openWalkMemo(state, apiWalk(lib), later);
  assert.equal(relPaths(lib, "src/api", shrunk).length, 3);
  shrunk.flush();
  assert.equal(shrunk.counts.kept, 0);
  const text = await Deno.readTextFile(walkMemoPath(state, apiWalk(lib)));
  assert.deepEqual(Object.keys(JSON.parse(text).folders), [], "src/ forgotten");
});

Deno.test(
  "a folder holding a link is never kept: where a link leads can change without the folder",
  {
    ignore: skipOnWindows("needs symbolic links"),
  },
  async () => {
    await using dir = await tempDir();
    const lib = await wideLibrary(dir.path);
    await Deno.symlink(`${lib}/src/m0/notes.md`, `${lib}/src/linked.md`);
    settle(`${lib}/src`);
    const memo = openWalkMemo(`${dir.path}/state`, apiWalk(lib), later);
    assert.ok(relPaths(lib, "src/api", memo).includes("src/linked.md"));
    memo.flush();
    assert.equal(memo.counts.kept, 0);
  },
);

Deno.test("a big file's hash is recalled while it is unchanged, never once its content changed, old time put back or not", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/big.md`;
  await Deno.writeTextFile(file, "a".repeat(MEMO_MIN_BYTES));
  settle(file);
  const stampNow = () => {
    const stamp = statStamp(file);
    assert.ok(!("error" in stamp));
    return stamp;
  };
  const state = `${dir.path}/state`;
  const keep = openWalkMemo(state, { root: dir.path, folder: "" }, later);
  keep.offerHash(file, stampNow(), "hash-of-a");
  keep.flush();
  assert.equal(
    openWalkMemo(state, { root: dir.path, folder: "" }, later).recallHash(file, stampNow()),
    "hash-of-a",
  );
  const before = stampNow();
  await sleep(1_100); // a status-change time of another second (Deno gives whole seconds)
  await Deno.writeTextFile(file, "b".repeat(MEMO_MIN_BYTES));
  settle(file); // `touch -d`: the size and modification time it had
  const after = stampNow();
  assert.deepEqual([after.size, after.stamp], [before.size, before.stamp], "a read sees one stamp");
  const changed = openWalkMemo(state, { root: dir.path, folder: "" }, later);
  assert.equal(changed.recallHash(file, stampNow()), undefined);
  changed.flush();
  assert.equal(
    openWalkMemo(state, { root: dir.path, folder: "" }, later).recallHash(file, stampNow()),
    undefined,
    "forgotten",
  );
});

Deno.test("a small file, a file changed in the last seconds, or one changed since it was read has no hash kept", async () => {
  await using dir = await tempDir();
  const state = `${dir.path}/state`;
  const write = (name: string, text: string) => writeStamped(`${dir.path}/${name}`, text);
  const big = await write("big.md", "b".repeat(MEMO_MIN_BYTES));
  const small = await write("small.md", "small");
  const moved = await write("moved.md", "m".repeat(MEMO_MIN_BYTES));
  await Deno.writeTextFile(moved.path, "n".repeat(MEMO_MIN_BYTES + 1)); // written after it was read
  const settled = openWalkMemo(state, { root: dir.path, folder: "" }, later);
  for (const { path, stamp } of [small, moved]) settled.offerHash(path, stamp, "h");
  assert.equal(settled.counts.kept, 0);
  settled.offerHash(big.path, big.stamp, "h");
  assert.equal(settled.counts.kept, 1, "a big file read as it is, settled, is kept");
  const now = openWalkMemo(state, { root: dir.path, folder: "" });
  now.offerHash(big.path, big.stamp, "h");
  assert.equal(now.counts.kept, 0, "on the real clock, big.md was written just now");
  settle(big.path); // its old time put back just now (`touch -d`, `rsync -t`)
  const restored = statStamp(big.path);
  assert.ok(!("error" in restored));
  now.offerHash(big.path, restored, "h");
  assert.equal(now.counts.kept, 0, "its status changed just now");
});

Deno.test("a small file's text is recalled while it is unchanged, never once it changed, old time put back or not", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/tech.md`;
  await Deno.writeTextFile(file, "- OLD");
  const stampNow = () => {
    const stamp = statStamp(file);
    assert.ok(!("error" in stamp));
    return stamp;
  };
  const state = `${dir.path}/state`;
  const walk = { root: dir.path, folder: "" };
  const keep = openWalkMemo(state, walk, later);
  keep.offerText(file, stampNow(), "- OLD", () => "hash-of-old");
  assert.equal(keep.counts.kept, 1);
  keep.flush();
  const recalled = openWalkMemo(state, walk, later).recallText(file, stampNow());
  assert.deepEqual(recalled, { text: "- OLD", hash: "hash-of-old" });
  const before = await Deno.stat(file);
  await sleep(1_100); // a status-change time of another second (Deno gives whole seconds)
  await Deno.writeTextFile(file, "- NEW");
  await Deno.utime(file, before.atime!, before.mtime!); // its size and time, as they were
  assert.equal(stampNow().stamp, `5:${before.mtime!.getTime()}`, "a read sees the old stamp");
  const changed = openWalkMemo(state, walk, later);
  assert.equal(changed.recallText(file, stampNow()), undefined);
  changed.flush();
  assert.equal(openWalkMemo(state, walk, later).recallText(file, stampNow()), undefined);
});

Deno.test("a big file, a file changed in the last seconds, or one changed since it was read has no text kept", async () => {
  await using dir = await tempDir();
  const state = `${dir.path}/state`;
  const write = (name: string, text: string) => writeStamped(`${dir.path}/${name}`, text);
  const small = await write("small.md", "- small");
  const big = await write("big.md", "b".repeat(MEMO_MIN_BYTES));
  const moved = await write("moved.md", "- moved");
  await Deno.writeTextFile(moved.path, "- moved, and longer"); // written after it was read
  let hashed = 0;
  const hash = () => `h${++hashed}`;
  const settled = openWalkMemo(state, { root: dir.path, folder: "" }, later);
  for (const { path, stamp, text } of [big, moved]) settled.offerText(path, stamp, text, hash);
  assert.equal(settled.counts.kept, 0);
  assert.equal(hashed, 0, "nothing kept, nothing hashed");
  settled.offerText(small.path, small.stamp, small.text, hash);
  assert.equal(settled.counts.kept, 1, "a small file read as it is, settled, is kept");
  const now = openWalkMemo(state, { root: dir.path, folder: "" });
  now.offerText(small.path, small.stamp, small.text, hash);
  assert.equal(now.counts.kept, 0, "on the real clock, small.md was written just now");
});

Deno.test("the texts are kept in a file of their own, the user's alone; a damaged one reads as none and is replaced", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/tech.md`;
  await Deno.writeTextFile(file, "- TECH");
  const stamp = statStamp(file);
  assert.ok(!("error" in stamp));
  const state = `${dir.path}/state`;
  const walk = { root: dir.path, folder: "src" };
  const texts = walkMemoPath(state, walk).replace(/\.json$/, ".texts.json");
  await writeAt(texts, '{"version":1,"texts":');
  const damaged = openWalkMemo(state, walk, later);
  assert.equal(damaged.recallText(file, stamp), undefined);
  damaged.offerText(file, stamp, "- TECH", () => "h");
  damaged.flush();
  assert.equal(JSON.parse(await Deno.readTextFile(texts)).texts[file].text, "- TECH");
  await assert.rejects(Deno.stat(walkMemoPath(state, walk)), Deno.errors.NotFound, "no listing");
  if (Deno.build.os !== "windows") assert.equal((await Deno.stat(texts)).mode! & 0o777, 0o600);
  const other = openWalkMemo(state, { root: dir.path, folder: "docs" }, later);
  assert.equal(other.recallText(file, stamp), undefined, "another walk keeps its own");
});

Deno.test("a cut file's digest is kept by its key, and used only while the program cuts the same way (DIGEST_FORMAT)", async () => {
  await using dir = await tempDir();
  const state = `${dir.path}/state`;
  const walk = { root: dir.path, folder: "" };
  const keep = openWalkMemo(state, walk, later);
  assert.equal(keep.recallDigest("h:-w:900"), undefined);
  keep.offerDigest("h:-w:900", "- the digest");
  keep.offerDigest("h:-w:901", "x".repeat(MAX_DIGEST_CHARS + 1)); // too long to keep
  keep.flush();
  const again = openWalkMemo(state, walk, later);
  assert.equal(again.recallDigest("h:-w:900"), "- the digest");
  assert.equal(again.recallDigest("h:-w:901"), undefined);
  assert.equal(again.counts.recalled, 1);
  const path = walkMemoPath(state, walk).replace(/\.json$/, ".texts.json");
  const memo = JSON.parse(await Deno.readTextFile(path));
  await Deno.writeTextFile(path, JSON.stringify({ ...memo, cut: memo.cut + 1 }));
  assert.equal(openWalkMemo(state, walk, later).recallDigest("h:-w:900"), undefined);
});

Deno.test("the inject hook: a big root file cut to the budget is sent the same from its kept digest, and as it is now once it changed", async () => {
  await using dir = await tempDir();
  const proj = `${dir.path}/proj`;
  const learnings = (word: string) =>
    Array.from(
      { length: 600 },
      (_, i) => `- ${word} learning ${i}: retries are safe only when idempotent`,
    )
      .join("\n");
  await writeTree(proj, { "_memory_library/tech.md": learnings("OLD"), "src/api/handler.ts": "" });
  const touch = (session: string) => readHandler(proj, dir.path, session);
  const first = await touch("s-1");
  assert.match(first.context, /Not shown in full/, "cut to the budget");
  assert.match(first.context, /OLD learning/);
  assert.match(first.line, / memo_kept=1( |$)/, "its digest");
  const second = await touch("s-2");
  assert.equal(second.context, first.context);
  assert.match(second.line, / memo_recalled=1( |$)/, "its digest");
  await Deno.writeTextFile(`${proj}/_memory_library/tech.md`, learnings("NEW"));
  const third = await touch("s-3");
  assert.match(third.context, /NEW learning/);
  assert.doesNotMatch(third.context, /OLD learning/);
});

Deno.test("the inject hook: a walk whose first touch cuts more files than the old cap of 16 is kept once, then served from the memo without writing it again", async () => {
  await using dir = await tempDir();
  const proj = `${dir.path}/proj`;
  const files: Record<string, string> = { "src/api/handler.ts": "" };
  const learning = (where: string, i: number) =>
    Array.from({ length: 8 }, (_, k) => `- ${where} ${i}.${k}: keep it short and why-focused`)
      .join("\n");
  for (let i = 0; i < 20; i++) {
    files[`_memory_library/topic${i}.md`] = learning("root", i);
    files[`_memory_library/src/api/topic${i}.md`] = learning("api", i);
  }
  await writeTree(proj, files);
  await sleep(SETTLED_MS + 1_000); // the real clock: the files settle
  const first = await readHandler(proj, dir.path, "s-1");
  assert.match(first.context, /Not shown in full/, "cut to the budget");
  const kept = Number(/ memo_kept=(\d+)/.exec(first.line)?.[1]);
  assert.ok(kept > 16 + 20, `texts and more than 16 digests kept: ${first.line}`);
  const texts = walkMemoPath(`${dir.path}/home/.claude/librarian`, {
    root: `${proj}/_memory_library`,
    folder: "src/api",
  }).replace(/\.json$/, ".texts.json");
  const written = (await Deno.stat(texts)).mtime!.getTime();
  await sleep(20);
  const second = await readHandler(proj, dir.path, "s-2");
  assert.equal(second.context, first.context);
  assert.doesNotMatch(second.line, / memo_kept=/, "nothing new to keep");
  assert.match(second.line, / memo_recalled=\d+/);
  assert.equal((await Deno.stat(texts)).mtime!.getTime(), written, "the memo is not written again");
});

Deno.test("texts beyond MAX_KEPT_TEXTS never push out one the same run used: a walk that needs more keeps the first, and its memo is not written on every run", async () => {
  await using dir = await tempDir();
  const state = `${dir.path}/state`;
  const walk = { root: dir.path, folder: "" };
  const files = await Promise.all(
    Array.from(
      { length: MAX_KEPT_TEXTS + 6 },
      (_, i) => writeStamped(`${dir.path}/t${i}.md`, `- note ${i}`),
    ),
  );
  const offerAll = (memo: ReturnType<typeof openWalkMemo>, which: typeof files) => {
    for (const { path, stamp, text } of which) {
      if (memo.recallText(path, stamp) === undefined) memo.offerText(path, stamp, text, () => "h");
    }
  };
  const first = openWalkMemo(state, walk, later);
  offerAll(first, files);
  assert.equal(first.counts.kept, MAX_KEPT_TEXTS);
  first.flush();
  const memoPath = walkMemoPath(state, walk).replace(/\.json$/, ".texts.json");
  const written = await Deno.readTextFile(memoPath);
  const again = openWalkMemo(state, walk, later);
  offerAll(again, files);
  assert.deepEqual(again.counts, { recalled: MAX_KEPT_TEXTS, kept: 0 });
  again.flush();
  assert.equal(await Deno.readTextFile(memoPath), written, "not written again");
  const other = openWalkMemo(state, walk, later);
  offerAll(other, [...files.slice(0, 10), ...files.slice(-3)]);
  assert.deepEqual(other.counts, { recalled: 10, kept: 3 }, "room made from texts it did not use");
});

Deno.test("a damaged memo reads as empty and is replaced; one that cannot be written costs nothing", async () => {
  await using dir = await tempDir();
  const lib = await wideLibrary(dir.path);
  const state = `${dir.path}/state`;
  const path = walkMemoPath(state, apiWalk(lib));
  await writeAt(path, '{"version":1,"root":');
  const damaged = openWalkMemo(state, apiWalk(lib), later);
  assert.equal(relPaths(lib, "src/api", damaged).length, 3);
  damaged.flush();
  if (Deno.build.os !== "windows") {
    assert.equal(JSON.parse(await Deno.readTextFile(path)).root, lib);
  }
  const blocked = `${dir.path}/a-file`;
  await Deno.writeTextFile(blocked, "not a folder");
  const unwritable = openWalkMemo(blocked, apiWalk(lib));
  assert.equal(relPaths(lib, "src/api", unwritable).length, 3);
  unwritable.flush(); // never throws
  assert.equal(await Deno.readTextFile(blocked), "not a folder");
});

Deno.test("the inject hook: a learning added to a big, kept folder is sent, and a big file rewritten with its old time is known by its new text", async () => {
  await using dir = await tempDir();
  const proj = `${dir.path}/proj`;
  const lib = await wideLibrary(proj);
  const big = `${lib}/src/patterns.md`;
  await Deno.writeTextFile(big, `- OLD ${"o".repeat(MEMO_MIN_BYTES)}`);
  settle(big, `${lib}/src`);
  await sleep(SETTLED_MS + 1_000); // the real clock: the fixture's status changes settle
  const touch = (session: string) => readHandler(proj, dir.path, session);
  const first = await touch("s-1");
  assert.match(first.context, /- OLD o/);
  const keeps = Deno.build.os !== "windows";
  if (keeps) {
    assert.match(first.line, / memo_kept=4( |$)/, "src/, src/patterns.md's hash, 2 small texts");
  }
  await Deno.writeTextFile(`${lib}/src/edge.md`, "- NEW-SRC-EDGE");
  const second = await touch("s-2");
  assert.match(second.context, /- NEW-SRC-EDGE/);
  assert.match(second.context, /- ROOT-TECH[\s\S]*- API-EDGE|- API-EDGE[\s\S]*- ROOT-TECH/);
  if (keeps) {
    assert.match(second.line, / memo_recalled=3( |$)/, "the hash and the 2 texts; src/ changed");
  }
  await Deno.writeTextFile(big, `- NEW ${"o".repeat(MEMO_MIN_BYTES)}`);
  settle(big); // `touch -d`: the size and modification time it had
  const third = await touch("s-3");
  assert.match(third.context, /- NEW o/);
  // touched, not changed: not sent again, because the hash the window keeps is the new text's
  const touched = new Date(Date.now() + 60_000);
  await Deno.utime(big, touched, touched);
  assert.equal((await touch("s-3")).context, "");
  // a small file rewritten with its size and exact modification time put back: its kept text
  // is not the file's any more (its status-change time tells), so the new text is sent
  const tech = `${lib}/tech.md`;
  const before = await Deno.stat(tech);
  await Deno.writeTextFile(tech, "- ROOT-TEXT");
  await Deno.utime(tech, before.atime!, before.mtime!);
  const fourth = await touch("s-4");
  assert.match(fourth.context, /- ROOT-TEXT/);
  assert.doesNotMatch(fourth.context, /- ROOT-TECH/);
});

Deno.test("a memo not written for WALK_MEMO_MAX_AGE_MS is removed at a session start; a recent one and other files stay", async () => {
  await using dir = await tempDir();
  const home = `${dir.path}/home`;
  const state = `${home}/.claude/librarian`;
  const old = walkMemoPath(state, { root: "/gone/_memory_library", folder: "" });
  const oldTexts = old.replace(/\.json$/, ".texts.json");
  const recent = walkMemoPath(state, { root: "/here/_memory_library", folder: "src" });
  const other = `${state}/walk/notes.txt`;
  for (const [path, text] of [[old, "{}"], [oldTexts, "{}"], [recent, "{}"], [other, "kept"]]) {
    await writeAt(path!, text!);
  }
  const longAgo = new Date(Date.now() - WALK_MEMO_MAX_AGE_MS - 60_000);
  await Deno.utime(old, longAgo, longAgo);
  await Deno.utime(oldTexts, longAgo, longAgo);
  await Deno.utime(other, longAgo, longAgo);
  assert.equal(await pruneWalkMemos(state, Date.now() - 120_000), 0, "not yet that old then");
  await writeTree(dir.path, { "proj/_memory_library/tech.md": "- TECH" });
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: "s-1",
      hook_event_name: "SessionStart",
      source: "startup",
      cwd: `${dir.path}/proj`,
    }),
    home,
    cwd: `${dir.path}/proj`,
  });
  assert.equal(result.code, 0, result.stderr);
  await assert.rejects(Deno.stat(old), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(oldTexts), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(recent), "{}");
  assert.equal(await Deno.readTextFile(other), "kept", "only memos are removed");
});
