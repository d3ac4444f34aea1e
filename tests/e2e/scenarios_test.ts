/**
 * End-to-end scenarios: the real Claude Code CLI (pinned), this repository as its plugin
 * (`--plugin-dir`, hooks/hooks.json and bin/librarian in source mode), a scripted model on
 * loopback. Each scenario asserts on what the model was sent and on what is on disk.
 *
 * Runs only with `LIBRARIAN_E2E=1` (`deno task e2e`); `deno task test` lists the scenarios as
 * ignored. The CLI is installed on first use into `.cache/claude-code/<version>/`: the current
 * version, or the oldest supported with `LIBRARIAN_E2E_CLAUDE=oldest` (`deno task e2e:oldest`;
 * the versions are named in scripts/install_claude.ts). When it cannot be installed, the suite is
 * skipped with a warning, except in CI (`CI` set), where every scenario fails with the reason.
 * `LIBRARIAN_CLAUDE_DIR` names another parent folder for the installs;
 * `LIBRARIAN_E2E_PLUGIN_DIR` runs the scenarios against another plugin tree (e.g. a staged release).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { LogRecord } from "../../src/core/log.ts";
import type { ClaudeRun } from "./harness.ts";
import { CLAUDE_VERSION, clientDurations, hookRecords, scenario } from "./scenario.ts";
import { action, type ScriptedTurn, text, toolUse } from "./model_server.ts";
import {
  contextSections,
  type HookContext,
  hookContexts,
  stopFeedback,
  systemText,
  textsOf,
  toolSteps,
} from "./requests.ts";
import { hookDurations, systemMessages } from "./transcript.ts";

// ---------------------------------------------------------------------------------------------
// Fixture: a library that mirrors app/core/net/{http,ws}, four folders deep.

const HTTP_DIR = "app/core/net/http";
const WS_DIR = "app/core/net/ws";

const LIBRARY: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "_memory_library/.scratch.md": "SCRATCH-DRAFT: half-written notes, not a tagged block yet.\n",
  "_memory_library/app/patterns.md": "# patterns\n- APP-PATTERNS: handlers return results.\n",
  "_memory_library/app/core/edge.md": "# edge\n- CORE-EDGE: clocks may go backwards.\n",
  "_memory_library/app/core/net/tech.md": "# tech\n- NET-TECH: sockets time out after 30 s.\n",
  "_memory_library/app/core/net/http/patterns.md":
    "# patterns\n- HTTP-PATTERNS: retry only idempotent requests.\n",
  "_memory_library/app/core/net/ws/patterns.md": "# patterns\n- WS-PATTERNS: ping every 20 s.\n",
  "_memory_library/docs/patterns.md": "# patterns\n- DOCS-PATTERNS: an unrelated folder.\n",
  [`${HTTP_DIR}/client.ts`]: "export const CLIENT = 'http';\n",
};

/** What the deep file gets, most specific first (the root's files came at session start). */
const HTTP_LABELS = [
  "app/core/net/http/patterns.md",
  "app/core/net/tech.md",
  "app/core/edge.md",
  "app/patterns.md",
];

/** The library root's file: sent at session start, so never again with a first touch. */
const ROOT_LABEL = "tech.md (library root)";

/** The SessionStart contexts the model was sent in a run's last request. */
function startContexts(run: ClaudeRun): HookContext[] {
  return hookContexts(lastBody(run)).filter((c) => c.event === "SessionStart");
}

// ---------------------------------------------------------------------------------------------
// Reading a run.

function lastBody(run: ClaudeRun): Record<string, unknown> | null {
  const last = run.turns.at(-1);
  assert.ok(last, `the model was never called; stderr: ${run.stderr}`);
  return last.body;
}

function labelsOf(context: HookContext): string[] {
  return contextSections(context.text).map((s) => s.label);
}

/** The one PreToolUse context delivered with tool step `index` (asserts there is exactly one). */
function onlyContext(run: ClaudeRun, index: number, tool: string): HookContext {
  const step = toolSteps(lastBody(run))[index];
  assert.ok(step, `tool step ${index} is missing`);
  assert.equal(step.name, tool);
  assert.equal(step.contexts.length, 1, `expected one hook context with step ${index}`);
  const context = step.contexts[0]!;
  assert.equal(context.event, "PreToolUse");
  assert.equal(context.tool, tool);
  return context;
}

/** Every string the model was sent in this run (system prompt and messages of every request). */
function everythingSent(run: ClaudeRun): string {
  return run.requests.map((r) => [systemText(r.body), ...textsOf(r.body)].join("\n")).join("\n");
}

/** The run ended normally, and no hook (Stop included) kept the model going. */
function assertCompleted(run: ClaudeRun): void {
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.ok(run.result, `no JSON result on stdout: ${run.stdout}`);
  assert.equal(run.result.subtype, "success");
  assert.equal(run.result.is_error, false);
  assert.deepEqual(stopFeedback(lastBody(run)), [], "a Stop hook blocked the end of the turn");
  assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
}

function injectLines(records: LogRecord[], event: string): LogRecord[] {
  return records.filter((r) => r.command === "inject" && r.fields.event === event);
}

const done: ScriptedTurn = [text("Done.")];

// ---------------------------------------------------------------------------------------------
// Scenarios.

scenario(
  "a Read four folders deep sends its folder's and every ancestor's library files, most specific first, global last, never scratch",
  async (open) => {
    const project = await open(LIBRARY);
    const run = await project.run("Look at the HTTP client.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      done,
    ]);

    const step = toolSteps(lastBody(run))[0]!;
    assert.match(step.result, /CLIENT = 'http'/, "the Read itself worked");
    const context = onlyContext(run, 0, "Read");
    assert.ok(
      context.text.startsWith(`[Librarian] Memory library context for ${HTTP_DIR}/client.ts`),
      context.text,
    );
    assert.deepEqual(labelsOf(context), HTTP_LABELS);
    const sections = contextSections(context.text);
    for (
      const [label, marker] of [
        ["app/core/net/http/patterns.md", "HTTP-PATTERNS"],
        ["app/core/net/tech.md", "NET-TECH"],
        ["app/core/edge.md", "CORE-EDGE"],
        ["app/patterns.md", "APP-PATTERNS"],
      ]
    ) {
      assert.match(sections.find((s) => s.label === label)!.body, new RegExp(marker!));
    }
    const starts = startContexts(run);
    assert.equal(starts.length, 1, "the root's files come once, at session start");
    assert.deepEqual(labelsOf(starts[0]!), [ROOT_LABEL]);
    assert.match(starts[0]!.text, /GLOBAL-TECH/);
    const sent = everythingSent(run);
    assert.doesNotMatch(sent, /SCRATCH-DRAFT/, "scratch content reached the model");
    assert.doesNotMatch(sent, /DOCS-PATTERNS|WS-PATTERNS/, "an unrelated folder reached the model");
    assert.equal(hookContexts(lastBody(run)).filter((c) => c.event === "PreToolUse").length, 1);

    const reads = injectLines(await project.log(), "PreToolUse");
    assert.equal(reads.length, 1);
    assert.equal(reads[0]!.fields.result, "injected");
    assert.equal(reads[0]!.fields.file, `${HTTP_DIR}/client.ts`);
    assert.equal(
      await project.read("_memory_library/app/core/edge.md"),
      LIBRARY["_memory_library/app/core/edge.md"],
    );
    assertCompleted(run);
  },
);

scenario(
  "Writes in the same folder get nothing already sent; a sibling folder gets only its own files",
  async (open) => {
    const project = await open(LIBRARY);
    const run = await project.run("Add a retry helper and a socket.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      [toolUse("Write", {
        file_path: project.path(`${HTTP_DIR}/retry.ts`),
        content: "export const RETRY = 3;\n",
      })],
      [toolUse("Write", {
        file_path: project.path(`${WS_DIR}/socket.ts`),
        content: "export const WS = 1;\n",
      })],
      done,
      // the first Write into ws/ would be held for its notes (hold_test.ts covers that)
    ], { env: { LIBRARIAN_HOLD: "off" } });

    const steps = toolSteps(lastBody(run));
    assert.deepEqual(steps.map((s) => s.name), ["Read", "Write", "Write"]);
    assert.deepEqual(labelsOf(onlyContext(run, 0, "Read")), HTTP_LABELS);
    assert.deepEqual(steps[1]!.contexts, [], "unchanged files were sent again for the same folder");
    const sibling = onlyContext(run, 2, "Write");
    assert.deepEqual(labelsOf(sibling), ["app/core/net/ws/patterns.md"]);
    assert.match(
      sibling.text,
      /^\[Librarian\] Memory library context for app\/core\/net\/ws\/socket\.ts \(4 unchanged library files/,
    );
    assert.equal(hookContexts(lastBody(run)).filter((c) => c.event === "PreToolUse").length, 2);

    assert.equal(await project.read(`${HTTP_DIR}/retry.ts`), "export const RETRY = 3;\n");
    assert.equal(await project.read(`${WS_DIR}/socket.ts`), "export const WS = 1;\n");
    const writes = injectLines(await project.log(), "PreToolUse").filter((r) =>
      r.fields.tool === "Write"
    );
    assert.deepEqual(writes.map((r) => r.fields.result), ["all-sent", "injected"]);
    assertCompleted(run);
  },
);

scenario(
  "a library file edited between two tool calls is the only file sent again",
  async (open) => {
    const project = await open(LIBRARY);
    const edited = "# edge\n- CORE-EDGE-V2: clocks may go backwards; use monotonic time.\n";
    const run = await project.run("Read the client, then add a retry helper.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      [
        action(() => Deno.writeTextFile(project.path("_memory_library/app/core/edge.md"), edited)),
        toolUse("Write", {
          file_path: project.path(`${HTTP_DIR}/retry.ts`),
          content: "export const RETRY = 3;\n",
        }),
      ],
      done,
    ]);

    assert.deepEqual(labelsOf(onlyContext(run, 0, "Read")), HTTP_LABELS);
    const again = onlyContext(run, 1, "Write");
    assert.deepEqual(labelsOf(again), ["app/core/edge.md"]);
    assert.match(again.text, /CORE-EDGE-V2/);
    assert.doesNotMatch(again.text, /CORE-EDGE:/, "the old text was sent");
    assert.match(again.text, /\(4 unchanged library files/);
    assertCompleted(run);
  },
);

scenario(
  "tagged learnings the model writes to scratch are filed; an escaping and a secret block stay in scratch and the user is told",
  async (open) => {
    const project = await open({ ...LIBRARY, "_memory_library/.scratch.md": "" });
    const before = (await project.files()).filter((f) => !f.startsWith("_memory_library/"));
    const secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    const scratch = [
      "## [TAG: app/core/net/http, type: gotchas]",
      "- VALID-LEARNING: the proxy replays POSTs, so retries must be idempotent.",
      "",
      "## [TAG: ../../outside, type: pwn]",
      "- ESCAPE-LEARNING: this must never leave the library.",
      "",
      "## [TAG: app, type: tech]",
      `- SECRET-LEARNING: the deploy token is ${secret}`,
      "",
    ].join("\n");
    const scratchPath = project.path("_memory_library/.scratch.md");
    const run = await project.run("Record what you learned.", [
      [toolUse("Read", { file_path: scratchPath })],
      [toolUse("Write", { file_path: scratchPath, content: scratch })],
      done,
    ]);

    const steps = toolSteps(lastBody(run));
    assert.deepEqual(steps.map((s) => [s.name, s.isError]), [["Read", false], ["Write", false]]);
    assert.deepEqual(steps.flatMap((s) => s.contexts), [], "scratch itself got library context");

    const target = await project.read("_memory_library/app/core/net/http/gotchas.md");
    assert.ok(target, "the valid learning's target file was not created");
    assert.match(target, /VALID-LEARNING/);
    const left = await project.read("_memory_library/.scratch.md") ?? "";
    assert.doesNotMatch(left, /VALID-LEARNING/, "a filed learning stayed in scratch too");
    assert.match(left, /ESCAPE-LEARNING/);
    assert.match(left, /SECRET-LEARNING/);

    const after = await project.files();
    assert.deepEqual(after.filter((f) => !f.startsWith("_memory_library/")), before);
    const outside = [];
    for await (const entry of Deno.readDir(join(project.root, ".."))) outside.push(entry.name);
    assert.deepEqual(outside.sort(), ["home", "librarian.log", "project", "tmp"]);
    for (
      const file of after.filter((f) =>
        f.startsWith("_memory_library/") && f !== "_memory_library/.scratch.md"
      )
    ) {
      const body = await project.read(file) ?? "";
      assert.ok(!body.includes(secret), `the secret reached ${file}`);
      assert.ok(!body.includes("ESCAPE-LEARNING"), `the escaping block reached ${file}`);
    }

    const told = systemMessages(await project.transcripts(), "Stop");
    assert.ok(
      told.some((m) => /scratch/i.test(m)),
      `no Stop systemMessage about scratch: ${JSON.stringify(told)}`,
    );
    assert.ok((await project.log()).some((r) => r.command === "stop"), "the stop hook did not log");
    assertCompleted(run);
  },
);

scenario(
  "an auto-memory entry under the temp HOME ends up in the library after the run",
  async (open) => {
    const project = await open(LIBRARY);
    const memory = project.autoMemoryDir();
    await Deno.mkdir(memory, { recursive: true });
    await Deno.writeTextFile(
      join(memory, "deploy-freeze.md"),
      [
        "---",
        "name: deploy-freeze",
        "description: AUTOMEM-MARKER deploys freeze on Fridays because on-call rotates then",
        "metadata:",
        "  type: project",
        "---",
        "",
        "AUTOMEM-MARKER deploys freeze on Fridays.",
        "",
      ].join("\n"),
    );
    await Deno.writeTextFile(
      join(memory, "my-editor.md"),
      "---\nname: my-editor\ndescription: PERSONAL-MARKER I use vim\ntype: user\n---\n\nPERSONAL-MARKER\n",
    );
    await Deno.writeTextFile(join(memory, "MEMORY.md"), "- [deploy-freeze](deploy-freeze.md)\n");
    const run = await project.run("Hello.", [done]);

    assert.ok(
      systemText(run.turns[0]!.body).includes(`${memory}/`),
      "the CLI uses a different auto-memory folder than the harness computed",
    );
    const product = await project.read("_memory_library/product.md");
    assert.ok(product, "the auto-memory entry did not reach _memory_library/product.md");
    assert.match(product, /deploy-freeze/);
    assert.match(product, /AUTOMEM-MARKER/);
    for (const file of await project.files()) {
      if (!file.startsWith("_memory_library/")) continue;
      assert.doesNotMatch(
        await project.read(file) ?? "",
        /PERSONAL-MARKER/,
        `a user entry reached ${file}`,
      );
    }
    assertCompleted(run);
  },
);

scenario(
  "in default permission mode a Write with library context is refused: the plugin never approves edits",
  async (open) => {
    const project = await open(LIBRARY);
    const target = project.path(`${HTTP_DIR}/retry.ts`);
    const run = await project.run("Add a retry helper.", [
      [toolUse("Write", { file_path: target, content: "export const RETRY = 3;\n" })],
      done,
      // a hold is a deny of its own (hold_test.ts); here the permission prompt is the subject
    ], { permissionMode: "default", env: { LIBRARIAN_HOLD: "off" } });

    assert.ok(run.result);
    const denials = run.result.permission_denials ?? [];
    assert.deepEqual(denials.map((d) => [d.tool_name, d.tool_input.file_path]), [[
      "Write",
      target,
    ]]);
    assert.equal(await project.read(`${HTTP_DIR}/retry.ts`), null, "the file was written");
    const step = toolSteps(lastBody(run))[0]!;
    assert.equal(step.isError, true);
    const writes = injectLines(await project.log(), "PreToolUse");
    assert.deepEqual(writes.map((r) => [r.fields.tool, r.fields.result]), [["Write", "injected"]]);
    assertCompleted(run);
  },
);

scenario(
  "a broken library (2 MB file, binary file, non-UTF-8 file) still completes, under 10,000 characters, naming what was left out",
  async (open) => {
    const huge = "# huge\n" + "- HUGE-MARKER: a line of a very large notes file.\n".repeat(42_000);
    const binary = new Uint8Array(4096).map((_, i) => (i * 7) % 256);
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode("# caf"),
      0xe9,
      0x0a,
      0xff,
      0xfe,
      0x41,
    ]);
    // Names sort so that the binary and non-UTF-8 files are reached before the huge one spends
    // the budget (past that, files are named "left out" without being read).
    const project = await open({
      ...LIBRARY,
      "_memory_library/app/binary.md": binary,
      "_memory_library/app/latin1.md": latin1,
      "_memory_library/app/notes-huge.md": huge,
    });
    assert.ok(huge.length > 2_000_000);
    const run = await project.run("Look at the HTTP client.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      done,
    ]);

    const context = onlyContext(run, 0, "Read");
    assert.ok(context.text.length < 10_000, `context is ${context.text.length} characters`);
    const closing = /\[Librarian\] Not shown in full[^\n]*$/.exec(context.text)?.[0];
    assert.ok(closing, `no closing line naming what was left out:\n${context.text.slice(-600)}`);
    assert.match(closing, /app\/binary\.md \(binary file, skipped\)/);
    assert.match(closing, /app\/latin1\.md \(not UTF-8 text, skipped\)/);
    assert.match(closing, /app\/notes-huge\.md \((cut|left out)\)/);
    const shown = labelsOf(context);
    assert.ok(!shown.includes("app/binary.md") && !shown.includes("app/latin1.md"));
    for (const label of [...HTTP_LABELS, "app/notes-huge.md"]) {
      const file = label.replace(/^global\//, "");
      assert.ok(
        shown.includes(label) || closing.includes(`_memory_library/${file} (`),
        `${label} is neither shown nor named`,
      );
    }
    assert.ok(
      !/\uFFFD/.test(context.text) && !context.text.includes("\0"),
      "undecodable bytes reached the model",
    );
    assertCompleted(run);
  },
);

scenario(
  "the first prompt of a session gets the tagging reminder; a continued prompt does not; a new session does",
  async (open) => {
    const project = await open(LIBRARY);
    const reminders = (run: ClaudeRun) =>
      hookContexts(lastBody(run)).filter((c) => c.event === "UserPromptSubmit");

    const first = await project.run("First prompt.", [[text("First answer.")]]);
    const firstReminders = reminders(first);
    assert.equal(firstReminders.length, 1);
    assert.match(firstReminders[0]!.text, /## \[TAG:/);
    assert.ok(firstReminders[0]!.text.includes(project.path("_memory_library/.scratch.md")));
    assertCompleted(first);

    const second = await project.run("Second prompt.", [[text("Second answer.")]], {
      continueSession: true,
    });
    assertCompleted(second);
    assert.equal(
      second.result!.session_id,
      first.result!.session_id,
      "--continue started a new session",
    );
    const body = lastBody(second);
    assert.ok(textsOf(body).some((t) => t.includes("Second prompt.")));
    assert.ok(
      textsOf(body).some((t) => t.includes("First answer.")),
      "the first prompt was not continued",
    );
    assert.equal(reminders(second).length, 1, "the continued prompt got a second reminder");

    const fresh = await project.run("A new session.", [[text("Fresh answer.")]]);
    assertCompleted(fresh);
    assert.notEqual(fresh.result!.session_id, first.result!.session_id);
    assert.equal(reminders(fresh).length, 1, "a new session got no reminder");

    const prompts = injectLines(await project.log(), "UserPromptSubmit").map((r) =>
      r.fields.result
    );
    assert.deepEqual(prompts, ["reminded", "already-reminded", "reminded"]);
  },
);

scenario(
  "after /compact the session is sent its root files, the files of the folder it touched last and the tagging reminder again",
  async (open) => {
    const project = await open(LIBRARY);
    const read = [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })];
    const before = await project.run("Look at the HTTP client.", [read, done]);
    assertCompleted(before);
    assert.deepEqual(labelsOf(onlyContext(before, 0, "Read")), HTTP_LABELS);

    const compact = await project.run("/compact", [[text("<summary>Read the client.</summary>")]], {
      continueSession: true,
    });
    assert.equal(compact.code, 0, compact.stderr);
    const starts = injectLines(await project.log(), "SessionStart");
    assert.ok(
      starts.some((r) => r.fields.source === "compact" && r.fields.ledger === "reset"),
      `no compact SessionStart cleared the ledger: ${JSON.stringify(starts)}`,
    );

    const after = await project.run("Look at it again.", [read, done], { continueSession: true });
    assertCompleted(after);
    assert.equal(after.result!.session_id, before.result!.session_id);
    // the folder touched last came back with the compaction's root files: the Read needs none
    const compacted = startContexts(after).flatMap(labelsOf);
    assert.deepEqual(compacted.slice(-HTTP_LABELS.length - 1), [...HTTP_LABELS, ROOT_LABEL]);
    const [again] = toolSteps(lastBody(after)).slice(-1);
    assert.deepEqual(again!.contexts, [], "the Read after compaction was sent the files again");
    const reminders = hookContexts(lastBody(after)).filter((c) => c.event === "UserPromptSubmit");
    assert.equal(reminders.length, 1, "no tagging reminder after compaction");
    const prompts = injectLines(await project.log(), "UserPromptSubmit").map((r) =>
      r.fields.result
    );
    assert.deepEqual(prompts, ["reminded", "reminded"]);
  },
);

scenario(
  "the stop nudge: a turn that writes code and tags nothing is continued once with its folder's tag line; the tag it then writes is filed with provenance naming the written file; the session is not nudged again",
  async (open) => {
    const { "_memory_library/.scratch.md": _draft, ...library } = LIBRARY;
    const project = await open(library);
    const scratch = project.path("_memory_library/.scratch.md");
    // (a first Write would be held for its folder's notes: hold_test.ts; the nudge is the subject)
    const nudgeOn = {
      env: { LIBRARIAN_NUDGE: "session", LIBRARIAN_HINT: "on", LIBRARIAN_HOLD: "off" },
    };
    const learning = "- RETRY-LEARNING: the proxy replays POSTs, so only idempotent calls retry.";
    const run = await project.run("Add a retry helper.", [
      [toolUse("Write", {
        file_path: project.path(`${HTTP_DIR}/retry.ts`),
        content: "export const RETRY = 3;\n",
      })],
      [text("Added the helper.")],
      [toolUse("Write", {
        file_path: scratch,
        content: `## [TAG: ${HTTP_DIR}, type: edge]\n${learning}\n`,
      })],
      [text("Recorded the learning.")],
    ], nudgeOn);

    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
    const write = onlyContext(run, 0, "Write");
    assert.ok(
      write.text.endsWith(
        `Add to ${scratch}:\n## [TAG: ${HTTP_DIR}, type: edge]`,
      ),
      `the first edit's context does not end with the folder's tag: ${write.text.slice(-300)}`,
    );
    const nudged = run.turns.findIndex((t) => stopFeedback(t.body).length > 0);
    assert.equal(nudged, 2, "the nudge reached the model in the request after the turn ended");
    const feedback = stopFeedback(run.turns[nudged]!.body);
    assert.equal(feedback.length, 1);
    assert.match(feedback[0]!, new RegExp(`changed code in ${HTTP_DIR} but recorded no learning`));
    assert.ok(feedback[0]!.includes(`## [TAG: ${HTTP_DIR}, type: edge]`), feedback[0]);
    assert.ok(feedback[0]!.includes(scratch), "the nudge names the real scratch path");

    const filed = await project.read(`_memory_library/${HTTP_DIR}/edge.md`);
    assert.ok(filed, "the learning written after the nudge was not filed");
    assert.match(
      filed,
      new RegExp(
        // the written file, with its digest as the turn left it (seen:)
        `\\n<!-- librarian: \\d{4}-\\d\\d-\\d\\d ${HTTP_DIR}/retry\\.ts seen:[0-9a-f]{8} -->\\n${learning}\\n`,
      ),
    );
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.deepEqual(stops.map((r) => r.fields.nudge), ["sent", "stop-hook-active"]);

    const later = await project.run("Add a socket.", [
      [toolUse("Write", {
        file_path: project.path(`${WS_DIR}/socket.ts`),
        content: "export const WS = 1;\n",
      })],
      done,
    ], { ...nudgeOn, continueSession: true });
    assert.equal(later.code, 0, later.stderr);
    assert.equal(later.unscripted, 0, "the second turn was continued");
    assert.equal(
      stopFeedback(lastBody(later)).length,
      1,
      "only the first turn's nudge is in history",
    );
    const last = (await project.log()).filter((r) => r.command === "stop").at(-1)!;
    assert.equal(last.fields.nudge, "already-nudged");
  },
);

scenario(
  "never nudged: a turn with only Reads, and a turn that writes code with LIBRARIAN_NUDGE=off",
  async (open) => {
    const project = await open(LIBRARY);
    const reads = await project.run("Look at the client.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      done,
    ], { env: { LIBRARIAN_NUDGE: "session" } });
    assertCompleted(reads);
    const off = await project.run("Add a retry helper.", [
      [toolUse("Write", {
        file_path: project.path(`${HTTP_DIR}/retry.ts`),
        content: "export const RETRY = 3;\n",
      })],
      done,
    ], { env: { LIBRARIAN_NUDGE: "off" } });
    assertCompleted(off);
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.deepEqual(stops.map((r) => r.fields.nudge), ["no-code-changed", "off"]);
  },
);

scenario(
  "a run without session persistence writes no transcript: the Stop waits for it once, does not nudge, and the turn ends",
  async (open) => {
    const project = await open(LIBRARY);
    const run = await project.run("Add a retry helper.", [
      [toolUse("Write", {
        file_path: project.path(`${HTTP_DIR}/retry.ts`),
        content: "export const RETRY = 3;\n",
      })],
      done,
    ], { noSessionPersistence: true, env: { LIBRARIAN_NUDGE: "session" } });
    assertCompleted(run);
    assert.equal(await project.transcripts(), "", "Claude Code wrote no transcript");
    const stops = (await project.log()).filter((r) => r.command === "stop");
    assert.equal(stops.length, 1);
    assert.equal(stops[0]!.fields.transcript, "missing");
    assert.equal(stops[0]!.fields.nudge, "no-transcript");
    assert.ok(Number(stops[0]!.fields.transcript_wait_ms) >= 400, "it waited the bound once");
  },
);

/** Lines `  <key> n=.. median=.. max=..`, one per key, sorted by key. */
function groupBy<T>(items: T[], key: (item: T) => string, ms: (item: T) => number): string[] {
  const groups = new Map<string, number[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), ms(item)]);
  return [...groups.entries()].sort().map(([k, values]) =>
    `    ${k.padEnd(24)} ${summarize(values)}`
  );
}

function summarize(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return `n=${sorted.length} median=${median.toFixed(1)} ms max=${sorted.at(-1)!.toFixed(1)} ms`;
}

scenario(
  "a near-miss tag the model writes is not swallowed into the block above: it stays in scratch with its fix, and the user is told",
  async (open) => {
    const project = await open({ ...LIBRARY, "_memory_library/.scratch.md": "" });
    const scratch = [
      "## [TAG: app, type: tech]",
      "- GOOD-LEARNING: the build cache lives in .cache/.",
      "### [TAG: app/core, type: edge]",
      "- NEAR-MISS-LEARNING: timers drift after sleep.",
      "",
    ].join("\n");
    const scratchPath = project.path("_memory_library/.scratch.md");
    const run = await project.run("Record what you learned.", [
      [toolUse("Read", { file_path: scratchPath })],
      [toolUse("Write", { file_path: scratchPath, content: scratch })],
      done,
    ]);
    assertCompleted(run);

    const tech = await project.read("_memory_library/app/tech.md") ?? "";
    assert.match(tech, /GOOD-LEARNING/);
    assert.doesNotMatch(tech, /NEAR-MISS|TAG/, "the near miss was swallowed into the block above");
    assert.doesNotMatch(await project.read("_memory_library/app/core/edge.md") ?? "", /NEAR-MISS/);
    const fix = "3 '#' instead of 2; write '## [TAG: app/core, type: edge]'";
    const left = await project.read("_memory_library/.scratch.md") ?? "";
    assert.ok(left.includes(`kept in scratch: malformed tag: ${fix}`), left);
    assert.match(left, /NEAR-MISS-LEARNING/);
    const told = systemMessages(await project.transcripts(), "Stop");
    assert.ok(told.some((m) => m.includes(fix)), `the user was not told: ${JSON.stringify(told)}`);
  },
);

scenario(
  "hook timings from the real client: every hook run is logged with its cost, none failed",
  async (open) => {
    const project = await open(LIBRARY);
    const run = await project.run("Touch a few files.", [
      [toolUse("Read", { file_path: project.path(`${HTTP_DIR}/client.ts`) })],
      [toolUse("Write", {
        file_path: project.path(`${HTTP_DIR}/retry.ts`),
        content: "export const R = 1;\n",
      })],
      [toolUse("Write", {
        file_path: project.path(`${WS_DIR}/socket.ts`),
        content: "export const W = 1;\n",
      })],
      [toolUse("Read", { file_path: project.path("_memory_library/app/patterns.md") })],
      done,
    ]);
    assertCompleted(run);
    const own = await project.log();
    const all = [...hookRecords, ...own];
    for (const event of ["SessionStart", "UserPromptSubmit", "PreToolUse"]) {
      assert.ok(injectLines(own, event).length > 0, `no inject ${event} line in the log`);
    }
    const failed = all.filter((r) =>
      r.fields.result === "error" || r.fields.result === "bad-input"
    );
    assert.deepEqual(failed, [], "a hook failed on input from the real client");
    for (const record of all) {
      assert.ok(Number.isFinite(Number(record.fields.ms)), `no ms= in ${JSON.stringify(record)}`);
    }

    const ownDurations = hookDurations(await project.transcripts());
    assert.equal(
      ownDurations.filter((d) => d.event === "PreToolUse").length,
      injectLines(own, "PreToolUse").filter((r) => r.fields.result === "injected").length,
      "the client did not record one PreToolUse hook run per injection",
    );
    assert.ok(own.some((r) => r.command === "stop"), "the stop hook did not log");

    const plugin = groupBy(
      all,
      (r) => r.command === "inject" ? `inject ${r.fields.event}` : r.command,
      (r) => Number(r.fields.ms),
    );
    const client = groupBy([...clientDurations, ...ownDurations], (d) => d.event, (d) => d.ms);
    console.log(
      [
        `hook timings, Claude Code ${CLAUDE_VERSION}, ${all.length} hook runs:`,
        "  as the plugin logged them (ms=, process start to log line):",
        ...plugin,
        "  as the client timed them (transcript durationMs, spawn to exit, sh + deno included):",
        ...client,
      ].join("\n"),
    );
  },
);
