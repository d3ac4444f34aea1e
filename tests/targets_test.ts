/**
 * Reading the target files a filing pass appends to (`src/filing/targets.ts`): text kept byte for
 * byte, and every target that cannot safely be appended to is blocked with a reason.
 */
import assert from "node:assert/strict";
import { readTextFile, resolveTarget } from "../src/filing/targets.ts";
import { tempDir } from "./helpers.ts";

Deno.test("a target's BOM and CRLF line endings are kept as they are", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/tech.md`, "\uFEFF# tech\r\n- a\r\n");
  assert.deepEqual(readTextFile(`${dir.path}/tech.md`), {
    kind: "text",
    text: "\uFEFF# tech\r\n- a\r\n",
  });
});

Deno.test("a target that is not UTF-8, too large or a folder is an error, never text", async () => {
  await using dir = await tempDir();
  Deno.writeFileSync(`${dir.path}/latin1.md`, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  assert.equal(readTextFile(`${dir.path}/latin1.md`).kind, "error");
  Deno.writeTextFileSync(`${dir.path}/big.md`, "x".repeat(3_000_000));
  assert.deepEqual(readTextFile(`${dir.path}/big.md`, 2_000_000), {
    kind: "error",
    reason: "is larger than 2 MB",
  });
  assert.deepEqual(readTextFile(dir.path), { kind: "error", reason: "is not a regular file" });
  assert.deepEqual(readTextFile(`${dir.path}/none.md`), { kind: "missing" });
});

Deno.test("resolving a target: text, missing (with where to write), or blocked with why", async () => {
  await using dir = await tempDir();
  const root = dir.path;
  const library = { root, projectRoot: "/", foundBy: "cwd" as const };
  Deno.mkdirSync(`${root}/src/api.md`, { recursive: true });
  Deno.writeTextFileSync(`${root}/tech.md`, "# tech\n");
  assert.deepEqual(resolveTarget(library, root, "tech.md"), {
    state: { kind: "text", text: "# tech\n" },
    realPath: `${root}/tech.md`,
  });
  assert.deepEqual(resolveTarget(library, root, "new/notes.md"), {
    state: { kind: "missing" },
    realPath: `${root}/new/notes.md`,
  });
  assert.deepEqual(resolveTarget(library, root, "src/api.md").state, {
    kind: "blocked",
    reason: "src/api.md is a folder",
  });
});
