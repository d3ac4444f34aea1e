/**
 * The file-system probes every module shares (`src/core/fs_probe.ts`, `src/core/read_text.ts`):
 * never throw for a missing file, never read past a limit, never take a folder for a file.
 */
import assert from "node:assert/strict";
import {
  isDirectory,
  isFile,
  readFileBounded,
  readTextBounded,
  readTextIfExists,
} from "../src/core/fs_probe.ts";
import { decodeLibraryBytes, readLibraryText, statStamp } from "../src/core/read_text.ts";
import { tempDir } from "./helpers.ts";

Deno.test("probes answer false or null for what is missing or of the other kind", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/a.md`, "x");
  assert.ok(isDirectory(dir.path) && !isDirectory(`${dir.path}/a.md`));
  assert.ok(isFile(`${dir.path}/a.md`) && !isFile(dir.path) && !isFile(`${dir.path}/no`));
  assert.equal(readTextIfExists(`${dir.path}/no`), null);
  assert.equal(readTextIfExists(`${dir.path}/a.md`), "x");
});

Deno.test("a bounded read stops at the limit and says how large the file is", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/a.md`;
  Deno.writeTextFileSync(path, "0123456789");
  assert.deepEqual(readFileBounded(path, 10), {
    kind: "bytes",
    bytes: new TextEncoder().encode("0123456789"),
  });
  assert.deepEqual(readFileBounded(path, 9), { kind: "too-large", size: 10 });
  assert.deepEqual(readFileBounded(dir.path, 9), { kind: "not-a-file" });
  assert.deepEqual(readFileBounded(`${dir.path}/none`, 9), { kind: "missing" });
});

Deno.test("the one bounded strict read: text with its byte-order mark, not-UTF-8 never replaced", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/a.md`;
  Deno.writeTextFileSync(path, "\uFEFF0123456789");
  const read = readTextBounded(path, 100);
  assert.ok(read.kind === "text");
  assert.equal(read.text, "\uFEFF0123456789");
  assert.deepEqual(read.bytes, Deno.readFileSync(path));
  Deno.writeFileSync(path, new Uint8Array([0xc3, 0x28]));
  assert.deepEqual(readTextBounded(path, 100), {
    kind: "not-utf8",
    bytes: new Uint8Array([0xc3, 0x28]),
  });
  assert.deepEqual(readTextBounded(path, 1), { kind: "too-large", size: 2 });
  assert.deepEqual(readTextBounded(dir.path, 9), { kind: "not-a-file" });
  assert.deepEqual(readTextBounded(`${dir.path}/none`, 9), { kind: "missing" });
});

Deno.test("library text: BOM and CRLF normalised, binary and not-UTF-8 recognised, big files cut", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/a.md`;
  Deno.writeTextFileSync(path, "\uFEFFé\r\nb\r\n");
  const size = Deno.statSync(path).size;
  assert.deepEqual(decodeLibraryBytes(Deno.readFileSync(path), false), {
    kind: "text",
    text: "é\nb\n",
  });
  const cut = readLibraryText(path, size, 4); // BOM (3 bytes) + half of "é"
  assert.ok(cut.kind === "text" && cut.partial && cut.text === "");
  assert.ok(
    cut.kind === "text" && cut.hash.endsWith(`+${size}`),
    "a partial read's hash names the size",
  );
  const whole = readLibraryText(path, size, 1000);
  assert.ok(whole.kind === "text" && whole.text === "é\nb\n" && !whole.partial);
  assert.equal(readLibraryText(`${dir.path}/none`, 0, 10).kind, "unreadable");
  const stamp = statStamp(path);
  assert.ok("stamp" in stamp && stamp.stamp.startsWith(`${size}:`));
});
