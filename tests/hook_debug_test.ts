/**
 * `librarian explain --event` (`src/commands/explain/explain_event.ts`), in process: what each
 * event would do, read from the same files the hooks read, with nothing written.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { terminalHint } from "../src/commands/explain/example_event.ts";
import { explainInject, explainStop } from "../src/commands/explain/explain_event.ts";
import { tempDir, writeTree } from "./helpers.ts";

Deno.test("stop: each scratch block is explained as filed, kept with its reason, or dropped", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": [
      "## [TAG: src/api, type: patterns]",
      "- retry on 429",
      "## [TAG: ../up, type: x]",
      "- kept",
      "## [TAG: global, type: empty]",
      "",
    ].join("\n"),
  });
  const before = Deno.readTextFileSync(`${dir.path}/_memory_library/.scratch.md`);
  const lines = explainStop(
    JSON.stringify({ hook_event_name: "Stop", cwd: dir.path }),
    envFrom({}),
  );
  assert.equal(lines[0], `library: ${dir.path}/_memory_library`);
  assert.equal(
    lines[1],
    "  line 1 ## [TAG: src/api, type: patterns]: filed into src/api/patterns.md",
  );
  assert.match(lines[2]!, /^ {2}line 3 ## \[TAG: \.\.\/up, type: x\]: kept in scratch: /);
  assert.equal(lines[3], "  line 5 ## [TAG: global, type: empty]: empty: dropped");
  assert.equal(
    Deno.readTextFileSync(`${dir.path}/_memory_library/.scratch.md`),
    before,
    "nothing written",
  );
});

Deno.test("stop: no library, no scratch, bad input each say so", async () => {
  await using dir = await tempDir();
  const env = envFrom({});
  assert.deepEqual(explainStop(JSON.stringify({ hook_event_name: "Stop", cwd: dir.path }), env), [
    "library: none found from the session's folder: nothing is filed",
  ]);
  Deno.mkdirSync(`${dir.path}/_memory_library`);
  assert.ok(
    explainStop(JSON.stringify({ hook_event_name: "Stop", cwd: dir.path }), env).includes(
      "scratch: none",
    ),
  );
  assert.match(explainStop("{", env)[0]!, /^bad input: input is not JSON/);
});

Deno.test("inject: a prompt without a session gets no ledger and the reminder", async () => {
  await using dir = await tempDir();
  Deno.mkdirSync(`${dir.path}/_memory_library`);
  const event = { hook_event_name: "UserPromptSubmit", cwd: dir.path };
  const lines = explainInject(JSON.stringify(event), envFrom({}));
  assert.equal(lines[0], "event: UserPromptSubmit");
  assert.match(lines[1]!, /^ledger: none/);
  assert.ok(lines.includes("reminder: given now"));
  assert.equal(lines.at(-1), "stdout shows exactly what this event sends");
});

Deno.test("inject: a Read of a file explains where its library files come from", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/src/notes.md": "- n\n", "src/a.ts": "" });
  const event = {
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: `${dir.path}/src/a.ts` },
    cwd: dir.path,
  };
  const lines = explainInject(JSON.stringify(event), envFrom({}));
  assert.equal(lines[0], "event: PreToolUse (Read)");
  assert.ok(lines.some((l) => l.startsWith(`library: ${dir.path}/_memory_library`)));
  assert.ok(lines.some((l) => l.includes("src/notes.md")));
});

Deno.test("the terminal hint shows how to pipe an example event in, in the new form", () => {
  assert.equal(
    terminalHint("inject"),
    "librarian inject: reading one hook event (JSON) from stdin; paste it and press Ctrl-D, or " +
      "pipe one in: librarian explain --example | librarian inject " +
      "(why it does what it does: librarian explain --help)",
  );
  assert.match(terminalHint("stop"), /librarian explain --example Stop \| librarian stop /);
});
