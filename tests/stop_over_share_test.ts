/**
 * Files that stay small: the Stop that files a library file past its fair share of the budget
 * says so once, with the fix (`librarian tidy`, `/librarian-curate`); the next Stop that files
 * into it, still over, says nothing more.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseHookStdout, runLibrarian } from "./helpers.ts";
import { makeProject, type Project, stopEvent } from "./stop_fixtures.ts";
import { tempDir } from "./helpers.ts";

async function fileOne(p: Project, text: string): Promise<string> {
  await Deno.writeTextFile(p.scratch, `## [TAG: src/api, type: patterns]\n- ${text}\n`);
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_BUDGET: "1000", LIBRARIAN_NUDGE: "off" },
  });
  assert.equal(result.code, 0, result.stderr);
  return String(parseHookStdout(result.stdout)?.systemMessage ?? "");
}

Deno.test("the Stop says once, as a file crosses its fair share, how to make it small again", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/tech.md": "- " + "root knowledge ".repeat(30) + "\n",
    "src/api/a.ts": "",
  });
  const first = await fileOne(p, "a short rule about handlers");
  assert.doesNotMatch(first, /fair share/, first);
  const crossing = await fileOne(p, "a long learning ".repeat(40));
  assert.match(
    crossing,
    /src\/api\/patterns\.md is now over its fair share of the context \(\d+ characters; a first touch of src\/api shows \d+ whole\): run 'librarian tidy'.*'\/librarian-curate src\/api'/,
  );
  const again = await fileOne(p, "one more learning about the api");
  assert.match(again, /1 learning → src\/api\/patterns\.md/);
  assert.doesNotMatch(again, /fair share/, "told once, when it crossed");
  assert.ok((await Deno.readTextFile(join(p.lib, "src/api/patterns.md"))).includes("one more"));
});
