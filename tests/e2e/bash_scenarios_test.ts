/**
 * End-to-end scenarios for Bash commands (Claude Code 2.1.197 offers no Grep or Glob tool: every
 * search and many edits go through Bash): the real CLI runs a scripted Bash tool call, the inject
 * hook finds the project paths the command names, and the next model request carries their
 * folders' library files. Runs with `LIBRARIAN_E2E=1` (`deno task e2e`).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { LogRecord } from "../../src/core/log.ts";
import type { ClaudeRun, E2EProject } from "./harness.ts";
import { text, toolUse } from "./model_server.ts";
import { contextSections, type HookContext, stopFeedback, toolSteps } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  // Bash runs without asking, as a user who allowed it would have it
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "_memory_library/src/api/patterns.md": "# patterns\n- API-PATTERNS: handlers return results.\n",
  "_memory_library/src/api/billing/edge.md": "# edge\n- BILLING-EDGE: round half to even.\n",
  "_memory_library/src/ui/patterns.md": "# patterns\n- UI-PATTERNS: no inline styles.\n",
  "src/api/x.ts": "export const X = 'api';\n",
  "src/api/billing/invoice.ts": "export const TOTAL = 'OLD';\n",
  "src/ui/modal.tsx": "export const foo = 'modal';\n",
  "README.md": "# demo\n",
};

/** The PreToolUse:Bash contexts delivered with the run's tool steps, in order. */
function bashContexts(run: ClaudeRun): HookContext[][] {
  const last = run.turns.at(-1);
  assert.ok(last, `the model was never called; stderr: ${run.stderr}`);
  return toolSteps(last.body).filter((s) => s.name === "Bash").map((s) =>
    s.contexts.filter((c) => c.event === "PreToolUse" && c.tool === "Bash")
  );
}

function labels(context: HookContext | undefined): string[] {
  return context ? contextSections(context.text).map((s) => s.label) : [];
}

function bashLines(records: LogRecord[]): LogRecord[] {
  return records.filter((r) =>
    r.command === "inject" && r.fields.event === "PreToolUse" && r.fields.tool === "Bash"
  );
}

async function runBash(
  project: E2EProject,
  command: string,
  env: Record<string, string> = {},
): Promise<ClaudeRun> {
  const run = await project.run("Work on the code.", [
    [toolUse("Bash", { command, description: "scripted command" })],
    [text("Done.")],
  ], { env });
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.result?.is_error, false, run.stdout);
  return run;
}

/** The labels must be these, most specific first; global files may already have been sent. */
function assertLabels(got: string[], specific: string[]): void {
  assert.deepEqual(got.filter((l) => !l.startsWith("global/")), specific);
}

scenario(
  "with LIBRARIAN_HOLD=off, a Bash `sed -i` on a file sends that folder's library files with the result (held once by default: hold_test.ts)",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runBash(project, "sed -i 's/OLD/NEW/' src/api/billing/invoice.ts", {
      LIBRARIAN_HOLD: "off",
    });
    assert.equal(await project.read("src/api/billing/invoice.ts"), "export const TOTAL = 'NEW';\n");
    const [contexts] = bashContexts(run);
    assert.equal(contexts?.length, 1, "one PreToolUse:Bash context");
    assert.match(
      contexts![0]!.text,
      /^\[Librarian\] Memory library context for src\/api\/billing\/invoice\.ts/,
    );
    assertLabels(labels(contexts![0]), ["src/api/billing/edge.md", "src/api/patterns.md"]);
    assert.match(contexts![0]!.text, /BILLING-EDGE/);
    const [line] = bashLines(await project.log());
    assert.equal(line?.fields.result, "injected");
  },
);

scenario("`cd src/api && cat x.ts` follows the working folder", async (open) => {
  const project = await open(PROJECT);
  const run = await runBash(project, "cd src/api && cat x.ts");
  const [contexts] = bashContexts(run);
  assert.equal(contexts?.length, 1);
  assertLabels(labels(contexts![0]), ["src/api/patterns.md"]);
  assert.doesNotMatch(contexts![0]!.text, /UI-PATTERNS|BILLING-EDGE/);
});

scenario("`grep -rn foo src/ui` sends the UI folder's files", async (open) => {
  const project = await open(PROJECT);
  const run = await runBash(project, "grep -rn foo src/ui");
  const [contexts] = bashContexts(run);
  assert.equal(contexts?.length, 1);
  assertLabels(labels(contexts![0]), ["src/ui/patterns.md"]);
  assert.match(contexts![0]!.text, /UI-PATTERNS/);
});

scenario(
  "`ls` at the project root sends nothing and never changes the command",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runBash(project, "ls");
    const [contexts] = bashContexts(run);
    assert.deepEqual(contexts, []);
    const step = toolSteps(run.turns.at(-1)!.body)[0]!;
    assert.match(step.result, /README\.md/, "ls ran as written");
    const [line] = bashLines(await project.log());
    assert.equal(line?.fields.result, "no-project-paths");
  },
);

scenario("a `cd` in one Bash call carries over to the next one's relative paths", async (open) => {
  const project = await open(PROJECT);
  const run = await project.run("Work on the code.", [
    [toolUse("Bash", { command: "cd src/ui", description: "go to the UI" })],
    [toolUse("Bash", { command: "cat modal.tsx", description: "read the modal" })],
    [text("Done.")],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [first, second] = bashContexts(run);
  assert.deepEqual(first, [], "a bare cd touches no file");
  assert.equal(second?.length, 1, "the next command resolved modal.tsx in src/ui");
  assertLabels(labels(second![0]), ["src/ui/patterns.md"]);
});

scenario(
  "a turn whose only change was a Bash `sed -i` is nudged once, with that folder's tag line",
  async (open) => {
    const project = await open(PROJECT);
    const run = await project.run("Fix the total.", [
      [toolUse("Bash", {
        command: "sed -i 's/OLD/NEW/' src/api/billing/invoice.ts",
        description: "scripted command",
      })],
      [text("Fixed.")],
      [text("Nothing worth recording this time.")],
    ], { env: { LIBRARIAN_NUDGE: "session", LIBRARIAN_HOLD: "off" } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
    assert.equal(await project.read("src/api/billing/invoice.ts"), "export const TOTAL = 'NEW';\n");
    const feedback = stopFeedback(run.turns.at(-1)!.body);
    assert.equal(feedback.length, 1, "the turn was not nudged");
    assert.match(feedback[0]!, /changed code in src\/api\/billing but recorded no learning/);
    assert.ok(feedback[0]!.includes("## [TAG: src/api/billing, type: edge]"), feedback[0]);
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.deepEqual(stops.map((r) => r.fields.nudge), ["sent", "stop-hook-active"]);
  },
);
