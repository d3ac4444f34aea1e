/**
 * Where the context of a Bash, Grep or Glob call comes from (`src/inject/command_context.ts`),
 * in process: the library files of every folder it touches, merged, in the library of its first
 * touched path; other projects' paths left for their own events.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import {
  locateCommandContext,
  locateTouches,
  touchedNames,
} from "../src/inject/command_context.ts";
import { tempDir, writeTree } from "./helpers.ts";

Deno.test("the header names at most four touched paths, then counts", () => {
  assert.equal(touchedNames(["a.ts", "b/"]), "a.ts, b/");
  assert.equal(touchedNames(["1", "2", "3", "4", "5", "6"]), "1, 2, 3, 4 and 2 more");
});

Deno.test("a Bash command touching two folders gets both walk-ups merged, most specific first", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/tech.md": "- global",
    "_memory_library/src/api/edge.md": "- api",
    "_memory_library/lib/notes.md": "- lib",
    "src/api/a.ts": "",
    "lib/b.ts": "",
  });
  const located = locateCommandContext(
    "Bash",
    { command: "diff src/api/a.ts lib/b.ts" },
    dir.path,
    envFrom({}),
  );
  assert.ok(located.kind === "located");
  assert.equal(located.relPath, "src/api/a.ts, lib/b.ts");
  assert.deepEqual(located.files.map((f) => f.relPath), [
    "src/api/edge.md",
    "lib/notes.md",
    "tech.md",
  ]);
  assert.equal(located.elsewhere, 0);
});

Deno.test("Grep and Glob use their path; a folder is touched as a folder", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/src/notes.md": "- n", "src/a.ts": "" });
  const located = locateCommandContext(
    "Grep",
    { pattern: "x", path: "src" },
    dir.path,
    envFrom({}),
  );
  assert.ok(located.kind === "located");
  assert.deepEqual(located.touched, ["src/"]);
  assert.deepEqual(located.files.map((f) => f.relPath), ["src/notes.md"]);
});

Deno.test("the reasons for no context: no command, unparseable, no project paths, no files", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.keep": "", "src/a.ts": "" });
  const env = envFrom({});
  assert.deepEqual(locateCommandContext("Bash", { command: " " }, dir.path, env), {
    kind: "none",
    reason: "no-command",
  });
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ command: "" }, "no-command"],
    [{ command: "echo 'open" }, "unparseable"],
    [{ command: "ls /nowhere-at-all" }, "no-project-paths"],
    [{ command: "cat src/a.ts" }, "no-library-files"],
  ];
  for (const [input, reason] of cases) {
    const located = locateCommandContext("Bash", input, dir.path, env);
    assert.equal(
      located.kind === "none" ? located.reason : located.kind,
      reason,
      JSON.stringify(input),
    );
  }
  assert.deepEqual(locateTouches([], true), {
    kind: "none",
    reason: "no-project-paths",
    truncated: true,
  });
});
