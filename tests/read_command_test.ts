/**
 * `librarian read --command` (`src/commands/read/command.ts`), in process: what a Bash call
 * would be sent, or in words why nothing.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { commandReadContext, NO_COMMAND_CONTEXT } from "../src/commands/read/command.ts";
import { tempDir, writeTree } from "./helpers.ts";

Deno.test("a command touching a folder with library files gets them, most specific first", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/tech.md": "- global\n",
    "_memory_library/src/api/edge.md": "- api\n",
    "src/api/a.ts": "",
  });
  const context = commandReadContext("grep retry src/api/a.ts", {
    env: envFrom({}),
    budget: 9000,
    cwd: dir.path,
  });
  assert.equal(context.kind, "context");
  const text = JSON.stringify(context);
  assert.ok(text.indexOf("- api") < text.indexOf("- global"));
});

Deno.test("each reason for sending nothing is reported", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.keep": "", "src/a.ts": "" });
  const options = { env: envFrom({}), budget: 9000, cwd: dir.path };
  assert.deepEqual(commandReadContext("", options), { kind: "none", reason: "no-command" });
  assert.deepEqual(commandReadContext("echo 'unclosed", options), {
    kind: "none",
    reason: "unparseable",
  });
  assert.deepEqual(commandReadContext("cat /nowhere/x", options), {
    kind: "none",
    reason: "no-project-paths",
  });
  const none = commandReadContext("cat src/a.ts", options);
  assert.equal(none.kind === "none" && none.reason, "no-library-files");
  for (const words of Object.values(NO_COMMAND_CONTEXT)) assert.ok(words.length > 10);
});
