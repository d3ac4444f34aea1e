/**
 * End-to-end scenarios for when context arrives (issue 25): no write made blind (a first write
 * into a folder whose library files never reached the conversation is held once, its context the
 * reason), `LIBRARIAN_HOLD=off`, a Bash `sed -i` into an unseen folder, and compaction keeping the
 * thread. The real CLI (pinned) against the scripted model; runs with `LIBRARIAN_E2E=1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { LogRecord } from "../../src/core/log.ts";
import type { ClaudeRun } from "./harness.ts";
import { text, toolUse } from "./model_server.ts";
import {
  contextSections,
  deniedReason,
  hookContexts,
  occurrences,
  textsOf,
  toolSteps,
} from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  // Bash runs without asking, as a user who allowed it would have it
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "_memory_library/src/models/migration.md":
    "# migration\n- MODELS-MIGRATION: every new model gets a created_at column.\n",
  "_memory_library/src/api/billing/edge.md": "# edge\n- BILLING-EDGE: round half to even.\n",
  "src/models/user.ts": "export const USER = 1;\n",
  "src/api/billing/invoice.ts": "export const TOTAL = 'OLD';\n",
};

const ORDER = "src/models/order.ts";
/** The hold's reason opens with what to do (2.1.332 puts `PreToolUse:Write hook error: ` before it). */
const HELD =
  /^\[Librarian\] Read the library notes for \S+ below, then make this (Write|Bash command) again/;

/** A held call's result: on 2.1.332 `<Event>:<Tool> hook error: ` and the reason, else the reason. */
function assertHeld(result: string): void {
  assert.match(deniedReason(result), HELD);
  const prefix = result.slice(0, result.length - deniedReason(result).length);
  assert.ok(prefix === "" || /^PreToolUse:(Write|Bash) hook error: $/.test(prefix), prefix);
}

function lastBody(run: ClaudeRun): Record<string, unknown> | null {
  const last = run.turns.at(-1);
  assert.ok(last, `the model was never called; stderr: ${run.stderr}`);
  return last.body;
}

function injectLines(records: LogRecord[]): LogRecord[] {
  return records.filter((r) => r.command === "inject" && r.fields.event === "PreToolUse");
}

function assertDone(run: ClaudeRun): void {
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.result?.is_error, false, run.stdout);
  assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
}

scenario(
  "a Write of a new file in a folder with a library file is held once: its context is in the next request, the Write made again succeeds, a second Write there is not held",
  async (open) => {
    const project = await open(PROJECT);
    const write = (rel: string, content: string) =>
      toolUse("Write", { file_path: project.path(rel), content });
    const run = await project.run("Add an order model.", [
      [write(ORDER, "export const ORDER = 1;\n")],
      [write(ORDER, "export const ORDER = 1; // created_at\n")],
      [write("src/models/line.ts", "export const LINE = 1;\n")],
      [text("Done.")],
    ]);
    assertDone(run);

    // the request after the held Write carries the folder's notes as the Write's result
    const afterHold = toolSteps(run.turns[1]!.body);
    assert.equal(afterHold.length, 1);
    assert.equal(afterHold[0]!.isError, true, "the held Write did not run");
    assertHeld(afterHold[0]!.result);
    assert.match(afterHold[0]!.result, /MODELS-MIGRATION: every new model gets a created_at/);

    const steps = toolSteps(lastBody(run));
    assert.deepEqual(steps.map((s) => [s.name, s.isError]), [
      ["Write", true],
      ["Write", false],
      ["Write", false],
    ]);
    assert.doesNotMatch(
      deniedReason(steps[1]!.result) + deniedReason(steps[2]!.result),
      HELD,
      "held once only",
    );
    // the model received the hold, and the notes it brought, exactly once
    assert.equal(occurrences(lastBody(run), "It was held once, not refused"), 1);
    assert.equal(occurrences(lastBody(run), "MODELS-MIGRATION: every new model"), 1);
    assert.equal(await project.read(ORDER), "export const ORDER = 1; // created_at\n");
    assert.equal(await project.read("src/models/line.ts"), "export const LINE = 1;\n");
    const results = injectLines(await project.log()).map((r) => [r.fields.result, r.fields.held]);
    assert.deepEqual(results, [["held", "src/models"], ["all-sent", undefined], [
      "all-sent",
      undefined,
    ]]);
  },
);

scenario(
  "LIBRARIAN_HOLD=off: the first Write runs and its folder's notes come with its result, as before",
  async (open) => {
    const project = await open(PROJECT);
    const run = await project.run("Add an order model.", [
      [toolUse("Write", { file_path: project.path(ORDER), content: "export const ORDER = 1;\n" })],
      [text("Done.")],
    ], { env: { LIBRARIAN_HOLD: "off" } });
    assertDone(run);
    const [step] = toolSteps(lastBody(run));
    assert.equal(step!.isError, false);
    assert.equal(await project.read(ORDER), "export const ORDER = 1;\n");
    const contexts = step!.contexts.filter((c) => c.event === "PreToolUse");
    assert.equal(contexts.length, 1);
    assert.match(contexts[0]!.text, /MODELS-MIGRATION/);
    const results = injectLines(await project.log()).map((r) => r.fields.result);
    assert.deepEqual(results, ["injected"]);
  },
);

scenario(
  "a Bash `sed -i` into a folder whose notes never reached the conversation is held once; made again, it runs",
  async (open) => {
    const project = await open(PROJECT);
    const sed = toolUse("Bash", {
      command: "sed -i 's/OLD/NEW/' src/api/billing/invoice.ts",
      description: "scripted command",
    });
    const run = await project.run("Fix the total.", [[sed], [sed], [text("Done.")]]);
    assertDone(run);
    const steps = toolSteps(lastBody(run));
    assert.deepEqual(steps.map((s) => [s.name, s.isError]), [["Bash", true], ["Bash", false]]);
    assertHeld(steps[0]!.result);
    assert.match(steps[0]!.result, /BILLING-EDGE: round half to even/);
    assert.equal(occurrences(lastBody(run), "It was held once, not refused"), 1);
    assert.equal(occurrences(lastBody(run), "BILLING-EDGE: round half to even"), 1);
    assert.equal(await project.read("src/api/billing/invoice.ts"), "export const TOTAL = 'NEW';\n");
    const results = injectLines(await project.log()).map((r) => r.fields.result);
    assert.deepEqual(results, ["held", "all-sent"]);
  },
);

scenario(
  "after a compact session start, the library files of the folder touched last are in the next request",
  async (open) => {
    const project = await open(PROJECT);
    const read = [toolUse("Read", { file_path: project.path("src/api/billing/invoice.ts") })];
    const before = await project.run("Look at the invoice.", [read, [text("Done.")]]);
    assertDone(before);

    const compact = await project.run(
      "/compact",
      [[text("<summary>Read the invoice.</summary>")]],
      {
        continueSession: true,
      },
    );
    assert.equal(compact.code, 0, compact.stderr);

    const after = await project.run("Go on.", [[text("Going on.")]], { continueSession: true });
    assertDone(after);
    const starts = hookContexts(lastBody(after)).filter((c) => c.event === "SessionStart");
    const sections = starts.flatMap((c) => contextSections(c.text).map((s) => s.label));
    assert.deepEqual(
      sections,
      ["src/api/billing/edge.md", "tech.md (library root)"],
      `${textsOf(lastBody(after)).join("\n---\n").slice(0, 3000)}`,
    );
    assert.match(starts.map((c) => c.text).join("\n"), /worked on before the compaction/);
    const start = (await project.log()).filter((r) =>
      r.command === "inject" && r.fields.event === "SessionStart" && r.fields.source === "compact"
    );
    assert.equal(start.at(-1)?.fields.recent, "1");
  },
);
