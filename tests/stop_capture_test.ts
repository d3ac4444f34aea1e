/**
 * The Stop hook's capture, as a process: the nudge (its one bounded continuation) and provenance
 * on filed blocks, with transcripts shaped like Claude Code 2.1.197's.
 */
import assert from "node:assert/strict";
import { fileDigest } from "../src/core/file_digest.ts";
import { join } from "node:path";
import { normalizePath } from "../src/core/paths.ts";
import { parseHookStdout, runLibrarian, type RunResult, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import {
  makeProject,
  nudgeOf,
  type Project,
  prompt,
  say,
  stopEvent,
  tool,
  writeTranscript,
  writeTurn,
} from "./stop_fixtures.ts";

const NOW = "2026-11-30T12:00:00";

async function stop(
  p: Project,
  transcript: string,
  event: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<RunResult> {
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root, {
      transcript_path: transcript,
      last_assistant_message: "Done.",
      ...event,
    }),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_NOW: NOW, ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

function output(result: RunResult): Record<string, unknown> {
  return parseHookStdout(result.stdout) ?? {};
}

Deno.test("a turn that changed code and tagged nothing is nudged once: folders, tag lines, scratch path", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const transcript = await writeTranscript(
    p,
    writeTurn(p, "src/api/billing/invoice.ts", "src/api/billing/tax.ts", "src/web/app.ts"),
  );
  const first = output(await stop(p, transcript));
  // delivered as the Stop's additional context, not `decision: "block"`: 2.1.332 sends a block's
  // reason to the model twice (a reminder and a system message), this once on every version
  assert.deepEqual(Object.keys(first), ["hookSpecificOutput"]);
  const reason = nudgeOf(first)!;
  assert.ok(reason);
  assert.match(reason, /changed code in src\/api\/billing, src\/web but recorded no learning/);
  assert.ok(
    reason.includes("## [TAG: src/api/billing, type: edge]\n## [TAG: src/web, type: edge]"),
  );
  assert.ok(reason.includes(normalizePath(p.scratch)), "the real scratch path");
  assert.match(reason, /nothing worth recording/);

  assert.deepEqual(
    output(await stop(p, transcript, { stop_hook_active: true })),
    {},
    "the continued turn's Stop",
  );
  assert.deepEqual(output(await stop(p, transcript)), {}, "once per session by default");
  assert.ok(nudgeOf(output(await stop(p, transcript, { session_id: "another" }))));
});

Deno.test("never nudged: only Reads, failed edits, a turn that tagged, LIBRARIAN_NUDGE=off, no transcript", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const cases: [string, string[], Record<string, string>][] = [
    ["reads only", [
      prompt("Look."),
      ...tool("Read", { file_path: join(p.root, "src/a.ts") }),
      say("Done."),
    ], {}],
    ["failed edit", [
      prompt("Fix."),
      ...tool("Edit", { file_path: join(p.root, "src/a.ts") }, true),
      say("Done."),
    ], {}],
    ["wrote scratch", [...writeTurn(p, "src/a.ts"), ...tool("Edit", { file_path: p.scratch })], {}],
    ["off", writeTurn(p, "src/a.ts"), { LIBRARIAN_NUDGE: "off" }],
  ];
  for (const [name, lines, env] of cases) {
    const transcript = await writeTranscript(p, [...lines, say("Done.")]);
    assert.deepEqual(
      output(await stop(p, transcript, { session_id: name.replace(" ", "-") }, env)),
      {},
      name,
    );
  }
  assert.deepEqual(output(await stop(p, join(p.base, "missing.jsonl"))), {});
  await Deno.writeTextFile(join(p.base, "garbage.jsonl"), "\u0000\u0001 not json\n{]\n");
  assert.deepEqual(output(await stop(p, join(p.base, "garbage.jsonl"))), {});
});

Deno.test("LIBRARIAN_NUDGE=turn nudges every such turn of a session", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const transcript = await writeTranscript(p, writeTurn(p, "lib/x.ts"));
  for (let i = 0; i < 2; i++) {
    const out = output(await stop(p, transcript, {}, { LIBRARIAN_NUDGE: "turn" }));
    assert.ok(nudgeOf(out));
    assert.match(nudgeOf(out)!, /## \[TAG: lib, type: edge\]/);
  }
});

Deno.test({
  name:
    "a filed block carries provenance: day, HEAD, the turn's files under its tag folder; no nudge",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path, {
      "src/api/billing/invoice.ts": "export {};\n",
      "_memory_library/.scratch.md": "",
    });
    await gitInit(p.root);
    await commitAll(p.root, "first");
    const head = (await gitOk(p.root, "rev-parse", "--short=7", "HEAD")).trim();
    await Deno.writeTextFile(
      p.scratch,
      "## [TAG: src/api/billing, type: edge]\n- Rounding happens once, at invoice total.\n\n" +
        "## [TAG: global, type: tech]\n- Money is integer cents.\n",
    );
    const transcript = await writeTranscript(p, [
      ...writeTurn(p, "src/api/billing/invoice.ts", "src/web/app.ts"),
      ...tool("Write", { file_path: p.scratch }),
      say("Done."),
    ]);
    const result = await stop(p, transcript);
    assert.deepEqual(Object.keys(output(result)), ["systemMessage"], "filed, so not nudged");
    // each file as the turn left it, so "changed since" compares with what the model saw
    const seen = fileDigest(join(p.root, "src/api/billing/invoice.ts"));
    assert.match(seen ?? "", /^[0-9a-f]{8}$/);
    assert.equal(
      await Deno.readTextFile(join(p.lib, "src/api/billing/edge.md")),
      "# edge\n\n## Learnings (2026-11-30)\n\n" +
        `<!-- librarian: 2026-11-30 ${head} src/api/billing/invoice.ts seen:${seen} -->\n` +
        "- Rounding happens once, at invoice total.\n",
    );
    assert.equal(
      await Deno.readTextFile(join(p.lib, "tech.md")),
      "# tech\n\n## Learnings (2026-11-30)\n\n" +
        // app.ts is not on disk: its digest is unknown
        `<!-- librarian: 2026-11-30 ${head} src/api/billing/invoice.ts src/web/app.ts seen:${seen}, -->\n` +
        "- Money is integer cents.\n",
    );
  },
});

Deno.test("outside git the commit is left out; without a transcript the files are", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: src, type: edge]\n- A learning.\n",
  });
  await stop(p, join(p.base, "missing.jsonl"));
  assert.equal(
    await Deno.readTextFile(join(p.lib, "src/edge.md")),
    "# edge\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- A learning.\n",
  );
});

Deno.test("a transcript Claude Code has not written yet when the Stop fires is waited for: the turn is still nudged", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const path = join(p.base, "late.jsonl");
  // Claude Code drains its transcript queue every 100 ms: a session's first Stop can come first.
  const late = setTimeout(() => {
    Deno.writeTextFileSync(path, writeTurn(p, "src/api/billing/invoice.ts").join("\n") + "\n");
  }, 120);
  const result = await stop(p, path);
  clearTimeout(late);
  assert.ok(nudgeOf(output(result)));
});

Deno.test("a session whose transcript never appears (--no-session-persistence) waits for it once, not at every Stop", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const log = join(dir.path, "librarian.log");
  const missing = join(p.base, "never.jsonl");
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(output(await stop(p, missing, {}, { LIBRARIAN_LOG: log })), {});
  }
  const [first, second] = (await Deno.readTextFile(log)).trim().split("\n");
  assert.match(first!, / transcript=missing transcript_wait_ms=\d{3,} /);
  assert.match(second!, / transcript=missing /);
  assert.doesNotMatch(second!, /transcript_wait_ms/, "the second Stop did not wait again");
  const another = output(await stop(p, missing, { session_id: "another" }, { LIBRARIAN_LOG: log }));
  assert.deepEqual(another, {});
  assert.match((await Deno.readTextFile(log)).trim().split("\n")[2]!, /transcript_wait_ms=\d{3,} /);
});

Deno.test(
  "a turn whose only change was a Bash sed -i (or >, tee) is nudged for that folder; a Bash that only read, or failed, is not",
  {
    ignore: skipOnWindows("Bash paths in POSIX form"),
  },
  async () => {
    await using dir = await tempDir();
    const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
    const bash = (command: string, failed = false) => [
      prompt("Fix it."),
      ...tool("Bash", { command, description: "scripted" }, failed),
      say("Done."),
    ];
    const sed = await writeTranscript(p, bash("sed -i 's/a/b/' src/api/billing/invoice.ts"));
    const nudged = output(await stop(p, sed, { session_id: "sed" }));
    assert.ok(nudgeOf(nudged));
    assert.match(nudgeOf(nudged)!, /changed code in src\/api\/billing but recorded no/);
    const tee = await writeTranscript(p, bash("echo 1 | tee src/web/a.ts > /dev/null"));
    assert.match(nudgeOf(output(await stop(p, tee, { session_id: "tee" })))!, /src\/web/);
    for (
      const [name, lines] of [
        ["read", bash("grep -rn TOTAL src/api && cat src/api/x.ts > /tmp/copy.txt")],
        ["failed", bash("sed -i 's/a/b/' src/api/x.ts", true)],
        ["scratch", bash(`cat >> ${p.scratch} <<'EOF'\n## [TAG: src, type: edge]\n- x\nEOF`)],
      ] as const
    ) {
      const transcript = await writeTranscript(p, [...lines]);
      assert.deepEqual(output(await stop(p, transcript, { session_id: name })), {}, name);
    }
  },
);

Deno.test("the nudge's tag lines are at the level the edit hint suggests: the nearest folder with library files, else the package root", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "",
    "_memory_library/services/billing/edge.md": "# edge\n- cents only\n",
    "services/core-service/package.json": "{}",
  });
  const transcript = await writeTranscript(
    p,
    writeTurn(
      p,
      "services/core-service/src/controllers/user.ts",
      "services/billing/internal/tax/rate.go",
      "tools/gen/main.ts",
    ),
  );
  const reason = nudgeOf(output(await stop(p, transcript)))!;
  assert.ok(
    reason.includes(
      "## [TAG: services/billing, type: edge]\n## [TAG: services/core-service, type: edge]\n" +
        "## [TAG: tools/gen, type: edge]",
    ),
    reason,
  );
});

Deno.test("a turn that edited code and only read scratch in Bash is still nudged (issue 22)", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  const transcript = await writeTranscript(p, [
    ...writeTurn(p, "src/a.ts"),
    ...tool("Bash", { command: "cat _memory_library/.scratch.md" }),
    say("Done."),
  ]);
  assert.ok(nudgeOf(output(await stop(p, transcript))));
});

Deno.test("a subagent's writes count once for its session's next Stop: noted at SubagentStop from its own transcript, taken by the Stop (issue 32)", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "" });
  // the subagent's own transcript: every entry isSidechain
  const sidechain = (line: string) => JSON.stringify({ ...JSON.parse(line), isSidechain: true });
  const agentTranscript = join(p.base, "agent-a1.jsonl");
  await Deno.writeTextFile(
    agentTranscript,
    [
      prompt("Add the tax helper."),
      ...tool("Write", { file_path: join(p.root, "src/api/billing/tax.ts"), content: "x\n" }),
      say("Sub done."),
    ].map(sidechain).join("\n") + "\n",
  );
  const subagentStop = await stop(p, "", {
    hook_event_name: "SubagentStop",
    agent_id: "a1",
    agent_type: "general-purpose",
    agent_transcript_path: agentTranscript,
    last_assistant_message: "Sub done.",
  });
  assert.deepEqual(output(subagentStop), {}, "a subagent is never nudged itself");
  // the parent's turn (a task notification on 2.1.332) changed nothing itself
  const parent = await writeTranscript(p, [prompt("<task-notification>…"), say("Done.")]);
  const nudge = nudgeOf(output(await stop(p, parent)));
  assert.ok(nudge, "the subagent's write was counted");
  assert.match(nudge, /changed code in src\/api\/billing but recorded no learning/);
  assert.equal(
    nudgeOf(output(await stop(p, parent, { session_id: "another", prompt_id: "p9" }))),
    undefined,
    "another session has no subagent's writes",
  );
});
