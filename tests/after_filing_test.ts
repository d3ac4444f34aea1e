/**
 * Keeping exports current (`src/export/after_filing.ts`, `src/export/record.ts`), in process:
 * `init --export` records the formats and writes them; a filing pass re-exports only the folders
 * it filed into, and only when the library asks for exports.
 */
import assert from "node:assert/strict";
import { foldersOfTargets, reexportFiled } from "../src/export/after_filing.ts";
import { recordExportFormats } from "../src/export/record.ts";
import { tempDir, writeTree } from "./helpers.ts";

Deno.test("the folders of filed targets, each once, the root as ''", () => {
  assert.deepEqual(foldersOfTargets(["tech.md", "src/api/a.md", "src/api/b.md", "edge.md"]), [
    "",
    "src/api",
  ]);
  assert.deepEqual(foldersOfTargets([]), []);
});

Deno.test("recording formats writes the config once, then reports it unchanged", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/tech.md": "- use deno\n" });
  const first = await recordExportFormats(dir.path, ["agents-md"]);
  assert.deepEqual(first[0], { path: "_memory_library/.librarian.json", action: "created" });
  assert.ok(first.length > 1, "the export itself is written too");
  const again = await recordExportFormats(dir.path, ["agents-md"]);
  assert.deepEqual(again, [{ path: "_memory_library/.librarian.json", action: "unchanged" }]);
  const changed = await recordExportFormats(dir.path, ["agents-md", "cursor"]);
  assert.equal(changed[0]!.action, "updated");
});

Deno.test("a filing pass re-exports only when the library asks for it", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/src/notes.md": "- n\n", "src/a.ts": "" });
  const library = {
    root: `${dir.path}/_memory_library`,
    projectRoot: dir.path,
    foundBy: "cwd" as const,
  };
  assert.equal(await reexportFiled(library, ["src/notes.md"]), null, "no config: no export");
  await recordExportFormats(dir.path, ["agents-md"]);
  Deno.writeTextFileSync(`${library.root}/src/notes.md`, "- n\n- filed now\n");
  const outcome = await reexportFiled(library, ["src/notes.md"]);
  assert.deepEqual(outcome, { changed: 1 });
  assert.equal(await reexportFiled(library, []), null, "nothing filed: nothing to do");
});
