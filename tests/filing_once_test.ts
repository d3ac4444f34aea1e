/**
 * Each learning once: a learning whose normalised text (case, whitespace, punctuation, list
 * markers, Unicode form) is already in the target file, or in a file sent along with it (the
 * other files of its folder, the folders above), is not filed again; the turn's message says
 * "already known" with the file and line, and scratch keeps nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { targetsToRead } from "../src/filing/classify.ts";
import type { VisibleFile } from "../src/filing/known.ts";
import { planRoute, type TargetState } from "../src/filing/route_plan.ts";
import { reportOf } from "../src/filing/route_report.ts";
import { summarize } from "../src/filing/stop_summary.ts";
import { parseScratch } from "../src/format/scratch.ts";
import { parseHookStdout, runLibrarian, tempDir } from "./helpers.ts";
import { makeProject, makeTaggedFolders, type Project, stopEvent } from "./stop_fixtures.ts";

const TODAY = "2026-11-30";

function plan(
  scratch: string,
  targets: Record<string, string> = {},
  visible: Record<string, VisibleFile[]> = {},
) {
  const doc = parseScratch(scratch);
  const states = new Map<string, TargetState>();
  for (const path of targetsToRead(doc)) {
    const text = targets[path];
    states.set(path, text === undefined ? { kind: "missing" } : { kind: "text", text });
  }
  const result = planRoute(doc, {
    today: TODAY,
    targets: states,
    visible: new Map(Object.entries(visible)),
  });
  const report = reportOf("routed", "/lib/.scratch.md", doc, result, result.decisions, new Map());
  return { result, report, message: summarize(report, undefined) };
}

const TECH = "# tech\n\n## Learnings (2026-11-01)\n\n- Money is integer cents; never floats.\n";

Deno.test("a learning restated with other case, punctuation, list marker or spacing is not filed again", () => {
  for (
    const restated of [
      "- money is integer cents, never floats",
      "* MONEY IS INTEGER CENTS — NEVER FLOATS!",
      "1. Money is   integer cents: never floats",
      "- Ｍｏｎｅｙ is integer cents; never floats.",
      "- Money is **integer** cents; never `floats`.",
    ]
  ) {
    const { result, report, message } = plan(`## [TAG: global, type: tech]\n${restated}\n`, {
      "tech.md": TECH,
    });
    assert.deepEqual(result.writes, [], restated);
    assert.equal(result.scratchText, "", "scratch keeps nothing");
    assert.deepEqual(report.known, [{ file: "tech.md", line: 5 }]);
    assert.equal(message, "Librarian: 1 learning already known (tech.md:5)");
  }
});

Deno.test("a learning already in a file above the target, or beside it, is not filed again", () => {
  const visible = {
    "src/api/billing/edge.md": [
      { relPath: "src/api/patterns.md", text: "# patterns\n\n- Retries need jitter (429s).\n" },
      { relPath: "tech.md", text: TECH },
    ],
  };
  const { result, message } = plan(
    "## [TAG: src/api/billing, type: edge]\n- retries need jitter 429s\n- money is integer cents; never floats\n- Rounding happens once.\n",
    {},
    visible,
  );
  assert.equal(
    result.writes[0]?.after,
    "# edge\n\n## Learnings (2026-11-30)\n\n- Rounding happens once.\n",
  );
  assert.equal(
    message,
    "Librarian: 1 learning → src/api/billing/edge.md; 2 learnings already known " +
      "(src/api/patterns.md:3, tech.md:5)",
  );
});

Deno.test("a learning filed below is still filed above: only files sent along with the target count", () => {
  const { result } = plan("## [TAG: global, type: tech]\n- Retries need jitter.\n", {}, {
    "tech.md": [], // a folder's files are never sent with the root's
  });
  assert.equal(result.writes.length, 1);
});

Deno.test("the same learning twice in one turn, in any spelling, is filed once; the message names its new line", () => {
  const { result, message } = plan(
    "## [TAG: src/api, type: edge]\n- Use the retry helper.\n## [TAG: src/api, type: edge]\n- use the retry helper\n",
  );
  assert.equal(
    result.writes[0]?.after,
    "# edge\n\n## Learnings (2026-11-30)\n\n- Use the retry helper.\n",
  );
  assert.equal(result.scratchText, "");
  assert.equal(
    message,
    "Librarian: 1 learning → src/api/edge.md; 1 learning already known (src/api/edge.md:5)",
  );
});

Deno.test("a learning filed this turn into a folder above counts as known below it", () => {
  const { result, message } = plan(
    "## [TAG: global, type: tech]\n- Deno 2.9 is the runtime.\n## [TAG: src/api, type: tech]\n- deno 2.9 is the runtime\n",
    {},
    { "tech.md": [], "src/api/tech.md": [] },
  );
  assert.deepEqual(result.writes.map((w) => w.relPath), ["tech.md"]);
  assert.match(message, /1 learning already known \(tech\.md:5\)/);
});

Deno.test("a paragraph learning is compared like a bullet; a short line shared by many learnings is not", () => {
  const before = "# patterns\n\nPrefer integration tests over mocks for the billing API.\n\n" +
    "**Why:**\n";
  const { result } = plan(
    "## [TAG: global, type: patterns]\nprefer integration tests over mocks for the billing api\n\n**Why:**\n\nmocks hid a broken migration\n",
    { "patterns.md": before },
  );
  assert.equal(
    result.writes[0]?.after,
    before + "\n## Learnings (2026-11-30)\n\n**Why:**\n\nmocks hid a broken migration\n",
  );
});

Deno.test("code blocks are never dropped as known: the same snippet may belong to two learnings", () => {
  const fence = "```";
  const before = `# tech\n\n- Run the suite:\n\n${fence}sh\ndeno task test\n${fence}\n`;
  const { result } = plan(
    `## [TAG: global, type: tech]\n- Run it before a release too:\n\n${fence}sh\ndeno task test\n${fence}\n`,
    { "tech.md": before },
  );
  assert.match(result.writes[0]?.after ?? "", /before a release too:\n\n```sh\ndeno task test/);
});

async function stop(p: Project): Promise<string | null> {
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root),
    cwd: p.root,
    home: p.home,
    env: { LIBRARIAN_NOW: "2026-11-30T12:00:00", LIBRARIAN_STATE_DIR: join(p.base, "state") },
  });
  assert.equal(result.code, 0, result.stderr);
  const output = parseHookStdout(result.stdout);
  return (output?.systemMessage as string | undefined) ?? null;
}

Deno.test("the Stop hook files nothing already known, across levels, and empties scratch", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/tech.md": TECH,
    "_memory_library/src/api/patterns.md": "# patterns\n\n- Always log the request id.\n",
  });
  await makeTaggedFolders(p.root, "[TAG: src/api/billing,");
  await Deno.writeTextFile(
    p.scratch,
    "## [TAG: src/api/billing, type: edge]\n- ALWAYS log the request-id!\n- money is integer cents, never floats\n",
  );
  assert.equal(
    await stop(p),
    "Librarian: 2 learnings already known (src/api/patterns.md:3, tech.md:5)",
  );
  assert.equal(await Deno.readTextFile(p.scratch), "");
  await assert.rejects(Deno.stat(join(p.lib, "src/api/billing/edge.md")), Deno.errors.NotFound);
});
