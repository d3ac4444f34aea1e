/**
 * "Once means once" with the real client (issue 10): parallel tool calls, hooks wired twice,
 * subagents, forks, and a session that never touches a file. Each scenario counts, in what the
 * model was sent, how often each library file's section appears.
 *
 * @module
 */

import assert from "node:assert/strict";
import { REPO_ROOT } from "../helpers.ts";
import type { ClaudeRun, E2EProject } from "./harness.ts";
import { type ScriptedTurn, text, toolUse } from "./model_server.ts";
import { contextSections, hookContexts, stopFeedback, textsOf } from "./requests.ts";
import { scenario } from "./scenario.ts";

const SIBLINGS = ["a", "b", "c", "d", "e", "f"];

const LIBRARY: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- ROOT-TECH: builds run on Deno 2.\n",
  "_memory_library/patterns.md": "# patterns\n- ROOT-PATTERNS: results, not exceptions.\n",
  "_memory_library/.scratch.md": "",
  "_memory_library/pkg/shared.md": "# shared\n- PKG-SHARED: one lock per window.\n",
  ...Object.fromEntries(
    SIBLINGS.map((s) => [`_memory_library/pkg/${s}/own.md`, `# own\n- OWN-${s.toUpperCase()}\n`]),
  ),
  ...Object.fromEntries(SIBLINGS.map((s) => [`pkg/${s}/x.ts`, `export const X = "${s}";\n`])),
};

const ROOT_LABELS = ["patterns.md (library root)", "tech.md (library root)"];
const done: ScriptedTurn = [text("Done.")];

/** How often each library file's section appears among the hook contexts of a request body. */
function sectionCounts(body: Record<string, unknown> | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const context of hookContexts(body)) {
    for (const section of contextSections(context.text)) {
      counts.set(section.label, (counts.get(section.label) ?? 0) + 1);
    }
  }
  return counts;
}

function assertEachOnce(counts: Map<string, number>, expected: string[], what: string): void {
  assert.deepEqual([...counts.keys()].sort(), [...expected].sort(), `${what}: the files sent`);
  for (const [label, n] of counts) assert.equal(n, 1, `${what}: ${label} was sent ${n} times`);
}

function lastTurnBody(run: ClaudeRun): Record<string, unknown> | null {
  const last = run.turns.at(-1);
  assert.ok(last, `the model was never called; stderr: ${run.stderr}`);
  return last.body;
}

/** The first user message's text of a request (a subagent's starts with its task prompt). */
function firstUserText(body: Record<string, unknown> | null): string {
  const messages = Array.isArray(body?.messages) ? body.messages as Record<string, unknown>[] : [];
  const first = messages.find((m) => m.role === "user");
  return first ? textsOf({ messages: [first] }).join("\n") : "";
}

function assertOk(run: ClaudeRun): void {
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.result?.is_error, false, run.stdout);
}

const ALL_LABELS = [
  ...ROOT_LABELS,
  "pkg/shared.md",
  ...SIBLINGS.map((s) => `pkg/${s}/own.md`),
];

scenario(
  "six parallel Reads in sibling folders: every library file exactly once in the next request (three sessions)",
  async (open) => {
    const project = await open(LIBRARY);
    for (let round = 0; round < 3; round++) {
      const reads = SIBLINGS.map((s) =>
        toolUse("Read", { file_path: project.path(`pkg/${s}/x.ts`) })
      );
      const run = await project.run(`Read all six, round ${round}.`, [reads, done]);
      assertOk(run);
      assertEachOnce(sectionCounts(lastTurnBody(run)), ALL_LABELS, `round ${round}`);
    }
  },
);

/** Wires the hooks in the project's settings too, as `librarian setup-hooks` does. */
async function wireSettingsToo(project: E2EProject): Promise<void> {
  const hooksJson = await Deno.readTextFile(`${REPO_ROOT}/hooks/hooks.json`);
  const settings = JSON.parse(
    hooksJson.replaceAll(
      '\\"${CLAUDE_PLUGIN_ROOT}/bin/librarian\\"',
      `'${REPO_ROOT}/bin/librarian'`,
    ),
  );
  await project.write({
    ".claude/settings.local.json": JSON.stringify({ hooks: settings.hooks }),
  });
}

scenario(
  "plugin and settings hooks both wired: the reminder, the root files and each folder's files come once",
  async (open) => {
    const project = await open(LIBRARY);
    await wireSettingsToo(project);
    const reads = ["a", "b"].map((s) =>
      toolUse("Read", { file_path: project.path(`pkg/${s}/x.ts`) })
    );
    const run = await project.run("Read two.", [reads, done]);
    assertOk(run);
    const body = lastTurnBody(run);
    assertEachOnce(sectionCounts(body), [
      ...ROOT_LABELS,
      "pkg/shared.md",
      "pkg/a/own.md",
      "pkg/b/own.md",
    ], "wired twice");
    const reminders = hookContexts(body).filter((c) => c.event === "UserPromptSubmit");
    assert.equal(reminders.length, 1, "one tagging reminder");
    const log = (await project.log()).filter((r) => r.command === "inject");
    const pre = log.filter((r) => r.fields.event === "PreToolUse");
    assert.equal(pre.length, 4, "both wirings ran for both Reads");
    assert.equal(pre.filter((r) => r.fields.result === "injected").length, 2);
    assert.ok(
      pre.every((r) => ["injected", "duplicate-event"].includes(String(r.fields.result))),
      JSON.stringify(pre.map((r) => r.fields)),
    );
  },
);

scenario(
  "plugin and settings hooks both wired: the Stop nudge reaches the model once, and each Stop is handled once",
  async (open) => {
    const project = await open(LIBRARY);
    await wireSettingsToo(project);
    const run = await project.run("Change a.", [
      [toolUse("Write", { file_path: project.path("pkg/a/new.ts"), content: "export {};\n" })],
      done,
      [text("Nothing worth recording this time.")],
      // (the first Write would be held for its folder's notes: hold_test.ts)
    ], { env: { LIBRARIAN_NUDGE: "session", LIBRARIAN_HOLD: "off" } });
    assertOk(run);
    const nudges = stopFeedback(lastTurnBody(run)).join("\n")
      .match(/\[Librarian\] This turn changed code/g) ?? [];
    assert.equal(nudges.length, 1, `the model was nudged ${nudges.length} times`);
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.equal(stops.length, 4, "both wirings ran for both Stops");
    assert.deepEqual(
      stops.map((r) => r.fields.result === "duplicate-event").sort(),
      [false, false, true, true],
      JSON.stringify(stops.map((r) => r.fields)),
    );
    assert.equal(stops.filter((r) => r.fields.nudge === "sent").length, 1);
  },
);

scenario(
  "a subagent started with the Agent tool gets the tagging reminder, the root files and its folder's files",
  async (open) => {
    const project = await open(LIBRARY);
    const marker = "SUBAGENT-TASK-7f3: read pkg/c/x.ts";
    const run = await project.run("Delegate.", [
      [toolUse("Agent", {
        description: "read c",
        prompt: marker,
        subagent_type: "general-purpose",
        // in the foreground, as 2.1.197 always ran it (2.1.332 runs it in the background by
        // default: background_test.ts)
        run_in_background: false,
      })],
      [toolUse("Read", { file_path: project.path("pkg/c/x.ts") })],
      [text("Subagent done.")],
      done,
    ]);
    assertOk(run);
    const sub = run.turns.filter((t) => firstUserText(t.body).includes(marker));
    assert.ok(sub.length >= 2, `no subagent requests found among ${run.turns.length} turns`);
    const body = sub.at(-1)!.body;
    const starts = hookContexts(body).filter((c) => c.event === "SubagentStart");
    assert.equal(starts.length, 1, "one SubagentStart context");
    assert.match(starts[0]!.text, /## \[TAG: /);
    assert.ok(starts[0]!.text.includes(project.path("_memory_library/.scratch.md")));
    assertEachOnce(
      sectionCounts(body),
      [...ROOT_LABELS, "pkg/c/own.md", "pkg/shared.md"],
      "subagent",
    );
    const subLog = (await project.log()).filter((r) => r.fields.event === "SubagentStart");
    assert.equal(subLog.length, 1);
    assert.equal(subLog[0]!.fields.result, "injected");
  },
);

scenario(
  "a fork subagent is not re-sent what its parent had",
  async (open) => {
    const project = await open(LIBRARY);
    const marker = "FORK-TASK-91c: read pkg/a/x.ts again and pkg/d/x.ts";
    // the fork's requests carry its task as text (the parent's carry it only as tool input)
    const isFork = (body: Record<string, unknown> | null) =>
      textsOf(body).some((t) => t.includes(marker));
    project.server.route(isFork, [
      [toolUse("Read", { file_path: project.path("pkg/a/y.ts") })],
      [toolUse("Read", { file_path: project.path("pkg/d/x.ts") })],
      [text("Fork done.")],
    ]);
    const run = await project.run("Read a, then fork.", [
      [toolUse("Read", { file_path: project.path("pkg/a/x.ts") })],
      [toolUse("Agent", { description: "fork", prompt: marker, subagent_type: "fork" })],
      done,
      done,
    ], { env: { CLAUDE_CODE_FORK_SUBAGENT: "1" } });
    assertOk(run);
    const log = (await project.log()).filter((r) => r.command === "inject");
    const start = log.filter((r) => r.fields.event === "SubagentStart");
    assert.equal(start.length, 1, JSON.stringify(start.map((r) => r.fields)));
    assert.equal(start[0]!.fields.agent_type, "fork");
    assert.equal(start[0]!.fields.result, "all-sent", "no reminder, no root files: it has them");
    const agent = start[0]!.fields.agent;
    const forkReads = log.filter((r) =>
      r.fields.event === "PreToolUse" && r.fields.agent === agent
    );
    assert.deepEqual(
      forkReads.map((r) => [r.fields.file, r.fields.result, r.fields.sent]),
      [["pkg/a/y.ts", "all-sent", undefined], ["pkg/d/x.ts", "injected", "pkg/d/own.md"]],
    );
    const forkTurns = run.turns.filter((t) => isFork(t.body));
    assert.ok(forkTurns.length >= 3, `fork requests: ${forkTurns.length}`);
    assertEachOnce(
      sectionCounts(forkTurns.at(-1)!.body),
      [...ROOT_LABELS, "pkg/shared.md", "pkg/a/own.md", "pkg/d/own.md"],
      "the fork's last request",
    );
  },
);

scenario(
  "a session whose only tool call is a Bash ls still got the library root's files, once",
  async (open) => {
    const project = await open(LIBRARY);
    const run = await project.run("What is in here?", [
      [toolUse("Bash", { command: "ls", description: "list files" })],
      done,
    ]);
    assertOk(run);
    const body = lastTurnBody(run);
    const starts = hookContexts(body).filter((c) => c.event === "SessionStart");
    assert.equal(starts.length, 1);
    assertEachOnce(sectionCounts(body), ROOT_LABELS, "root at start");
    assert.match(starts[0]!.text, /ROOT-TECH/);
  },
);
