/**
 * Appending auto memories to scratch (`src/automemory/scratch_append.ts`): only to plain UTF-8
 * scratch, in its own line-ending style, never glued to a last line without a newline.
 */
import assert from "node:assert/strict";
import {
  appendStyle,
  appendToScratch,
  scratchBytesProblem,
  scratchTarget,
} from "../src/automemory/scratch_append.ts";
import { tempDir } from "./helpers.ts";

Deno.test("UTF-16, NUL bytes and invalid UTF-8 are refused with the fix to make", () => {
  assert.equal(scratchBytesProblem(new TextEncoder().encode("## ok\n")), null);
  assert.match(scratchBytesProblem(new Uint8Array([0xff, 0xfe, 0x23, 0]))!, /UTF-16/);
  assert.match(scratchBytesProblem(new Uint8Array([0x61, 0, 0x62]))!, /NUL/);
  assert.equal(
    scratchBytesProblem(new Uint8Array([0xc3, 0x28])),
    "scratch is not UTF-8 text: save it as UTF-8",
  );
});

Deno.test("the append keeps CRLF files CRLF and starts on a line of its own", () => {
  assert.deepEqual(appendStyle(""), { eol: "\n", prefix: "" });
  assert.deepEqual(appendStyle("a\n"), { eol: "\n", prefix: "" });
  assert.deepEqual(appendStyle("a"), { eol: "\n", prefix: "\n" });
  assert.deepEqual(appendStyle("a\r\nb"), { eol: "\r\n", prefix: "\r\n" });
});

Deno.test("a missing scratch is appended to from scratch; a folder is not scratch", async () => {
  await using dir = await tempDir();
  assert.deepEqual(scratchTarget(`${dir.path}/.scratch.md`), { ok: true, eol: "\n", prefix: "" });
  Deno.mkdirSync(`${dir.path}/folder`);
  assert.deepEqual(scratchTarget(`${dir.path}/folder`), {
    ok: false,
    problem: "scratch is a folder",
  });
});

Deno.test("appending after a last line without newline starts a new line", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/.scratch.md`;
  Deno.writeTextFileSync(path, "## [TAG: global, type: tech]\r\n- a");
  const target = scratchTarget(path);
  assert.ok(target.ok);
  appendToScratch(path, target, "## [TAG: global, type: user]\r\n- b\r\n");
  assert.equal(
    Deno.readTextFileSync(path),
    "## [TAG: global, type: tech]\r\n- a\r\n## [TAG: global, type: user]\r\n- b\r\n",
  );
});
