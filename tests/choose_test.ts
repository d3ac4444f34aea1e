/**
 * What a context window is sent (`src/inject/choose.ts`), in process: each library file once per
 * window while it is unchanged, again when it changes, binary files named not sent, and links out
 * of the library named once and never read.
 */
import assert from "node:assert/strict";
import { chooseContext, type ChooseOptions, OUTSIDE_FINGERPRINT } from "../src/inject/choose.ts";
import type { LibraryFile } from "../src/core/walk.ts";
import { tempDir } from "./helpers.ts";
import { readLibraryText, type ReadMemo, statStamp } from "../src/core/read_text.ts";
import { makeFingerprint } from "../src/inject/ledger_format.ts";
import type { StaleView } from "../src/inject/stale_view.ts";

function fileIn(root: string, relPath: string): LibraryFile {
  return { relPath, label: relPath, absPath: `${root}/${relPath}` };
}

function options(alreadySent: Record<string, string> = {}): ChooseOptions {
  return { budget: 9000, alreadySent, header: (hits) => `[header hits=${hits}]` };
}

/** A reads memo that keeps nothing, but for the calls `parts` answers. */
function readsMemo(parts: Partial<ReadMemo>): ReadMemo {
  return {
    recallHash: () => undefined,
    offerHash: () => {},
    recallText: () => undefined,
    offerText: () => {},
    recallDigest: () => undefined,
    offerDigest: () => {},
    ...parts,
  };
}

Deno.test("files are sent most specific first, then not again while unchanged", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/edge.md`, "- specific");
  Deno.writeTextFileSync(`${dir.path}/tech.md`, "- global");
  const files = [fileIn(dir.path, "edge.md"), fileIn(dir.path, "tech.md")];
  const first = chooseContext(files, options());
  assert.ok(first.kind === "context");
  assert.ok(first.rendered.text.startsWith("[header hits=0]"));
  assert.ok(first.rendered.text.indexOf("- specific") < first.rendered.text.indexOf("- global"));
  assert.deepEqual(Object.keys(first.delivered).sort(), files.map((f) => f.absPath).sort());
  const again = chooseContext(files, options(first.delivered));
  assert.deepEqual(again, { kind: "none", hits: 2, refreshed: {} });
});

Deno.test("a changed file is sent again, the unchanged one counted as a hit", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/a.md`, "- a");
  Deno.writeTextFileSync(`${dir.path}/b.md`, "- b");
  const files = [fileIn(dir.path, "a.md"), fileIn(dir.path, "b.md")];
  const first = chooseContext(files, options());
  assert.ok(first.kind === "context");
  Deno.writeTextFileSync(`${dir.path}/a.md`, "- a, longer now");
  const next = chooseContext(files, options(first.delivered));
  assert.ok(next.kind === "context");
  assert.equal(next.hits, 1);
  assert.ok(next.rendered.text.includes("- a, longer now"));
  assert.ok(!next.rendered.text.includes("- b"));
});

Deno.test("a binary file is named as skipped, not sent", async () => {
  await using dir = await tempDir();
  Deno.writeFileSync(`${dir.path}/img.md`, new Uint8Array([0x89, 0x50, 0, 1]));
  const choice = chooseContext([fileIn(dir.path, "img.md")], options());
  assert.ok(choice.kind === "context");
  assert.deepEqual(choice.rendered.skipped, ["img.md"]);
  assert.ok(choice.rendered.text.includes("binary file, skipped"));
});

Deno.test("an entry leading outside the library is named once and never read", async () => {
  await using dir = await tempDir();
  const outside = { ...fileIn(dir.path, "link.md"), outside: "file" as const };
  const first = chooseContext([outside], options());
  assert.ok(first.kind === "context");
  assert.deepEqual(first.outside, [outside.absPath]);
  assert.equal(first.delivered[outside.absPath], OUTSIDE_FINGERPRINT);
  assert.deepEqual(chooseContext([outside], options(first.delivered)), {
    kind: "none",
    hits: 0,
    refreshed: {},
  });
});

Deno.test("chooseContext: every fingerprint recorded is the file's stamp and content hash, also when files read to fill the budget are left out", async () => {
  await using dir = await tempDir();
  const files: LibraryFile[] = [];
  for (let i = 0; i < 12; i++) {
    const absPath = `${dir.path}/f${i}.md`;
    await Deno.writeTextFile(
      absPath,
      `# f${i}\n` + `- learning ${i}: ${"x".repeat(400)}\n`.repeat(4),
    );
    files.push({ relPath: `f${i}.md`, label: `f${i}.md (library root)`, absPath });
  }
  const choice = chooseContext(files, { budget: 3000, alreadySent: {}, header: () => "[h]" });
  assert.ok(choice.kind === "context");
  const recorded = Object.entries(choice.delivered);
  assert.ok(recorded.length > 0 && recorded.length < files.length, "some files left out");
  for (const [path, fingerprint] of recorded) {
    const stat = statStamp(path);
    const text = readLibraryText(path, "error" in stat ? 0 : stat.size, 256 * 1024);
    assert.ok(!("error" in stat) && text.kind === "text");
    assert.equal(fingerprint, makeFingerprint(stat.stamp, text.hash), path);
  }
});

Deno.test("a file whose text the reads memo kept is not read, and its kept hash is recorded; a whole text read is offered to it", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/kept.md`, "- on disk");
  Deno.writeTextFileSync(`${dir.path}/read.md`, "- read now");
  const files = [fileIn(dir.path, "kept.md"), fileIn(dir.path, "read.md")];
  const offered: string[] = [];
  const reads = readsMemo({
    recallText: (path) =>
      path.endsWith("kept.md") ? { text: "- as kept", hash: "kept-hash" } : undefined,
    offerText: (path, _stamp, text, hash) => void offered.push(`${path}|${text}|${hash()}`),
  });
  const choice = chooseContext(files, { ...options(), reads });
  assert.ok(choice.kind === "context");
  assert.ok(
    choice.rendered.text.includes("- as kept") && !choice.rendered.text.includes("- on disk"),
  );
  assert.ok(choice.rendered.text.includes("- read now"));
  const kept = statStamp(`${dir.path}/kept.md`);
  assert.ok(!("error" in kept));
  assert.equal(choice.delivered[`${dir.path}/kept.md`], makeFingerprint(kept.stamp, "kept-hash"));
  const read = readLibraryText(`${dir.path}/read.md`, 10, 1000);
  assert.ok(read.kind === "text");
  assert.deepEqual(offered, [`${dir.path}/read.md|- read now|${read.hash}`]);
});

Deno.test("a later touch in the window, which reads files a first touch left out, neither asks nor offers the reads memo's texts", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/sent.md`, "- sent");
  Deno.writeTextFileSync(`${dir.path}/new.md`, "- new");
  const files = [fileIn(dir.path, "sent.md"), fileIn(dir.path, "new.md")];
  const asked: string[] = [];
  const reads = readsMemo({
    recallText: (path) => void asked.push(`recall ${path}`),
    offerText: (path) => void asked.push(`offer ${path}`),
    recallDigest: (key) => void asked.push(`recall digest ${key}`),
    offerDigest: (key) => void asked.push(`offer digest ${key}`),
  });
  const first = chooseContext([files[0]!], options());
  assert.ok(first.kind === "context");
  const later = chooseContext(files, { ...options(first.delivered), reads });
  assert.ok(later.kind === "context" && later.rendered.text.includes("- new"));
  assert.deepEqual(asked, []);
  chooseContext(files, { ...options(), reads });
  assert.equal(asked.length, 4, "a first touch asks for and offers both");
});

Deno.test("on a first touch, what a cut file comes to is taken from the reads memo by its content's hash, or made and offered to it", async () => {
  await using dir = await tempDir();
  const text = Array.from({ length: 300 }, (_, i) => `- learning ${i}: keep it short`).join("\n");
  Deno.writeTextFileSync(`${dir.path}/big.md`, text);
  const files = [fileIn(dir.path, "big.md")];
  const small = { ...options(), budget: 2000 };
  const plain = chooseContext(files, small);
  assert.ok(plain.kind === "context" && plain.rendered.cut.length === 1);
  const offered = new Map<string, string>();
  const memo = (kept: Map<string, string>) =>
    readsMemo({
      recallDigest: (key) => kept.get(key),
      offerDigest: (key, digest) => void offered.set(key, digest),
    });
  const made = chooseContext(files, { ...small, reads: memo(new Map()) });
  assert.ok(made.kind === "context");
  assert.equal(made.rendered.text, plain.rendered.text, "the same text, made here");
  const hash = readLibraryText(`${dir.path}/big.md`, text.length, 256 * 1024);
  assert.ok(hash.kind === "text");
  const [key, digest] = [...offered][0]!;
  assert.match(key, new RegExp(`^${hash.hash}:-w:\\d+$`));
  assert.ok(plain.rendered.text.includes(digest));
  const recalled = chooseContext(files, {
    ...small,
    reads: memo(new Map([[key, "- AS KEPT"]])),
  });
  assert.ok(recalled.kind === "context" && recalled.rendered.text.includes("- AS KEPT"));
  assert.ok(!recalled.rendered.text.includes("- learning 0"));
});

Deno.test("a cut file with stale marks on it: what it comes to is kept too, by its content's hash and the marks, so a next first touch does not cut it again", async () => {
  await using dir = await tempDir();
  const text = Array.from({ length: 300 }, (_, i) => `- learning ${i}: keep it short`).join("\n");
  Deno.writeTextFileSync(`${dir.path}/big.md`, text);
  const files = [fileIn(dir.path, "big.md")];
  const marking = (reason: string): StaleView => ({
    apply: (_relPath, text) => ({
      text: text.replace("- learning 0: keep it short", `$& (stale: ${reason})`),
      marks: `m:${reason}`,
    }),
  });
  const kept = new Map<string, string>();
  const offered: string[] = [];
  const memo = readsMemo({
    recallDigest: (key) => kept.get(key),
    offerDigest: (key, digest) => {
      offered.push(key);
      kept.set(key, digest);
    },
  });
  const small = { ...options(), budget: 2000, reads: memo };
  const made = chooseContext(files, { ...small, stale: marking("a.ts deleted") });
  assert.ok(made.kind === "context" && made.rendered.cut.length === 1);
  assert.match(made.rendered.text, /learning 0: keep it short \(stale: a\.ts deleted\)/);
  assert.equal(offered.length, 1, "the marked text's digest is offered");
  const hash = readLibraryText(`${dir.path}/big.md`, text.length, 256 * 1024);
  assert.ok(hash.kind === "text");
  assert.ok(offered[0]!.startsWith(`${hash.hash}:-w:m:a.ts deleted:`), offered[0]);
  const again = chooseContext(files, { ...small, stale: marking("a.ts deleted") });
  assert.ok(again.kind === "context");
  assert.equal(again.rendered.text, made.rendered.text, "the same text, from the memo");
  assert.equal(offered.length, 1, "nothing made again");
  const other = chooseContext(files, { ...small, stale: marking("b.ts deleted") });
  assert.ok(other.kind === "context");
  assert.match(other.rendered.text, /\(stale: b\.ts deleted\)/, "other marks: not the kept digest");
  assert.equal(offered.length, 2);
  const unmarked = chooseContext(files, small);
  assert.ok(unmarked.kind === "context");
  assert.doesNotMatch(unmarked.rendered.text, /stale/, "no marks: not a marked digest");
});
