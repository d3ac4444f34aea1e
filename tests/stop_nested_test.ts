/**
 * Issue 22: in a monorepo with a nested library (`packages/a/_memory_library/`), an edit's hint
 * says to add to that library's scratch; the Stop hook files it there, as told.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseHookStdout, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { makeProject, prompt, say, stopEvent, tool, writeTranscript } from "./stop_fixtures.ts";

Deno.test("a nested library's scratch, written as the hint told, is filed by the session's Stop", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const nested = join(p.root, "packages/a/_memory_library");
  await writeTree(p.root, {
    "packages/a/_memory_library/.scratch.md": "",
    "packages/a/src/x.ts": "export const x = 1;\n",
  });
  const block = "## [TAG: src, type: edge]\n- NESTED-MARKER: x is 1-based\n";
  const transcript = await writeTranscript(p, [
    prompt("Fix x."),
    ...tool("Edit", { file_path: join(p.root, "packages/a/src/x.ts") }),
    ...tool("Write", { file_path: join(nested, ".scratch.md"), content: block }),
    say("Done."),
  ]);
  await Deno.writeTextFile(join(nested, ".scratch.md"), block);
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root, { transcript_path: transcript, last_assistant_message: "Done." }),
    cwd: p.root,
    home: p.home,
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout) ?? {};
  assert.equal(out.hookSpecificOutput, undefined, "the turn tagged: no nudge");
  assert.equal(out.decision, undefined, "the turn tagged: no nudge");
  assert.equal(
    out.systemMessage,
    "Librarian (packages/a/_memory_library): 1 learning → src/edge.md",
  );
  assert.match(await Deno.readTextFile(join(nested, "src/edge.md")), /NESTED-MARKER/);
  assert.equal((await Deno.readTextFile(join(nested, ".scratch.md"))).trim(), "");
  await assert.rejects(Deno.lstat(join(p.lib, "src")), "nothing went to the session library");
});

Deno.test("status never says nothing waiting while a nested library's scratch holds blocks", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  await writeTree(p.root, {
    "packages/a/_memory_library/.scratch.md": "## [TAG: src, type: edge]\n- waiting\n",
    "packages/b/_memory_library/.scratch.md": "\n",
  });
  const result = await runLibrarian(["status"], { cwd: p.root, home: p.home });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /nothing waiting/);
  assert.match(result.stdout, /waiting in packages\/a\/_memory_library\/\.scratch\.md/);
  assert.doesNotMatch(result.stdout, /packages\/b/, "an empty scratch is nothing waiting");
  const json = JSON.parse(
    (await runLibrarian(["status", "--json"], { cwd: p.root, home: p.home })).stdout,
  );
  assert.deepEqual(json.scratch.nested.paths, ["packages/a/_memory_library/.scratch.md"]);
});
