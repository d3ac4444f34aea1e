import assert from "node:assert/strict";
import { appendLearnings, localDay } from "./append.ts";
import { type BlockDecision, targetsToRead } from "./classify.ts";
import { splitItems } from "./items.ts";
import { type PlanOptions, planRoute, rawHash, type TargetState } from "./route_plan.ts";
import { withFailedTargets } from "./write_failures.ts";
import { applyScratchEdits, isNewlyKept, scratchEditsOf } from "./scratch_edits.ts";
import { parseScratch } from "../format/scratch.ts";

const TODAY = "2026-11-30";

function plan(scratch: string, targets: Record<string, TargetState> = {}, extra = {}) {
  const doc = parseScratch(scratch);
  const map = new Map<string, TargetState>();
  for (const path of targetsToRead(doc)) map.set(path, targets[path] ?? { kind: "missing" });
  const options: PlanOptions = { today: TODAY, targets: map, ...extra };
  return planRoute(doc, options);
}

function afterOf(result: ReturnType<typeof plan>, relPath: string): string | undefined {
  return result.writes.find((w) => w.relPath === relPath)?.after;
}

function kept(result: ReturnType<typeof plan>): Extract<BlockDecision, { kind: "keep" }>[] {
  return result.decisions.filter((d): d is Extract<BlockDecision, { kind: "keep" }> =>
    d.kind === "keep"
  );
}

Deno.test("a block for a new file creates it with a name heading and a dated section", () => {
  const result = plan("## [TAG: src/api, type: patterns]\n- retry on 429\n- log the request id\n");
  assert.equal(
    afterOf(result, "src/api/patterns.md"),
    "# patterns\n\n## Learnings (2026-11-30)\n\n- retry on 429\n- log the request id\n",
  );
  assert.equal(result.scratchText, "");
});

Deno.test("'global' files into the library root", () => {
  const result = plan("## [TAG: global, type: tech]\n- deno 2.9\n");
  assert.deepEqual(result.writes.map((w) => w.relPath), ["tech.md"]);
});

Deno.test("today's heading is reused when it is the file's last section", () => {
  const before = "# tech\n\n## Learnings (2026-11-30)\n\n- first\n";
  const result = plan("## [TAG: global, type: tech]\n- second\n", {
    "tech.md": { kind: "text", text: before },
  });
  assert.equal(afterOf(result, "tech.md"), before + "- second\n");
});

Deno.test("a new dated heading is added after an older day's section", () => {
  const before = "# tech\n\n## Learnings (2026-11-29)\n\n- old\n\n\n";
  const result = plan("## [TAG: global, type: tech]\n- new\n", {
    "tech.md": { kind: "text", text: before },
  });
  assert.equal(
    afterOf(result, "tech.md"),
    "# tech\n\n## Learnings (2026-11-29)\n\n- old\n\n## Learnings (2026-11-30)\n\n- new\n",
  );
});

Deno.test("today's heading is not reused when another section follows it", () => {
  const before = "# tech\n\n## Learnings (2026-11-30)\n\n- a\n\n## Setup\n\nrun it\n";
  const after = afterOf(
    plan("## [TAG: global, type: tech]\n- b\n", { "tech.md": { kind: "text", text: before } }),
    "tech.md",
  );
  assert.equal(after, before + "\n## Learnings (2026-11-30)\n\n- b\n");
});

Deno.test("a level-3 heading inside today's section does not end it", () => {
  const before = "## Learnings (2026-11-30)\n\n### Caching\n\n- a\n";
  const after = afterOf(
    plan("## [TAG: global, type: tech]\n- b\n", { "tech.md": { kind: "text", text: before } }),
    "tech.md",
  );
  assert.equal(after, before + "- b\n");
});

Deno.test("the bash plugin's 'Session Learnings' heading of today is reused too", () => {
  const before = "# edge\n\n## Session Learnings (2026-11-30)\n- a\n";
  const after = afterOf(
    plan("## [TAG: global, type: edge]\n- b\n", { "edge.md": { kind: "text", text: before } }),
    "edge.md",
  );
  assert.equal(after, before + "- b\n");
});

Deno.test("a bullet already in the target (same text after trimming) is not appended", () => {
  const before = "# tech\n\n## Learnings (2026-11-01)\n\n  *   use deno   \n- keep\n";
  const result = plan("## [TAG: global, type: tech]\n- use deno\n", {
    "tech.md": { kind: "text", text: before },
  });
  assert.equal(result.writes.length, 0, "nothing new to write");
  assert.equal(result.scratchText, "", "the block leaves scratch: its learning is filed");
  const decision = result.decisions[0];
  assert.equal(decision?.kind === "route" && decision.duplicates, 1);
});

Deno.test("the same bullet in two blocks for one file is appended once", () => {
  const result = plan(
    "## [TAG: global, type: tech]\n- a\n- b\n## [TAG: global, type: tech]\n- b\n- c\n",
  );
  assert.equal(
    afterOf(result, "tech.md"),
    "# tech\n\n## Learnings (2026-11-30)\n\n- a\n- b\n- c\n",
  );
});

Deno.test("a bullet inside a code fence of the target does not count as present", () => {
  const before = "# tech\n\n```\n- a\n```\n";
  const after = afterOf(
    plan("## [TAG: global, type: tech]\n- a\n", { "tech.md": { kind: "text", text: before } }),
    "tech.md",
  );
  assert.equal(after, before + "\n## Learnings (2026-11-30)\n\n- a\n");
});

Deno.test("paragraphs, sub-bullets and code blocks are carried over intact", () => {
  const body = [
    "- parent",
    "  - child detail",
    "",
    "Why: the API rate-limits bursts.",
    "",
    "```ts",
    "- not a bullet",
    "",
    "await retry(fn);",
    "```",
  ].join("\n");
  const after = afterOf(plan(`## [TAG: global, type: tech]\n${body}\n`), "tech.md");
  assert.equal(after, `# tech\n\n## Learnings (2026-11-30)\n\n${body}\n`);
});

Deno.test("marker comments are not filed", () => {
  const scratch =
    "## [TAG: global, type: tech]\n<!-- librarian: kept in scratch: old reason -->\n- a\n";
  assert.equal(
    afterOf(plan(scratch), "tech.md"),
    "# tech\n\n## Learnings (2026-11-30)\n\n- a\n",
  );
});

Deno.test("a CRLF target keeps CRLF, its BOM and every existing byte", () => {
  const before = "\uFEFF# tech\r\n\r\n## Learnings (2026-11-29)\r\n\r\n- old\r\n";
  const after = afterOf(
    plan("## [TAG: global, type: tech]\r\n- new\r\n", {
      "tech.md": { kind: "text", text: before },
    }),
    "tech.md",
  );
  assert.equal(after, before + "\r\n## Learnings (2026-11-30)\r\n\r\n- new\r\n");
});

Deno.test("a target without a final newline is completed before appending", () => {
  const after = afterOf(
    plan("## [TAG: global, type: tech]\n- b\n", {
      "tech.md": { kind: "text", text: "## Learnings (2026-11-30)\n- a" },
    }),
    "tech.md",
  );
  assert.equal(after, "## Learnings (2026-11-30)\n- a\n- b\n");
});

Deno.test("an existing empty file gets the name heading", () => {
  const after = afterOf(
    plan("## [TAG: global, type: tech]\n- a\n", { "tech.md": { kind: "text", text: "\n" } }),
    "tech.md",
  );
  assert.equal(after, "# tech\n\n## Learnings (2026-11-30)\n\n- a\n");
});

Deno.test("legacy, malformed and unsafe blocks stay in scratch, marked with a reason", () => {
  const scratch = [
    "## [TAG: src/api]",
    "- legacy",
    "## [TAG: a, type: b] extra",
    "- malformed",
    "## [TAG: ../../x, type: y]",
    "- escape",
    "## [TAG: global, type: ../../z]",
    "- escape by type",
    "## [TAG: global, type: tech]",
    "- filed",
    "",
  ].join("\n");
  const result = plan(scratch);
  const reasons = kept(result).map((d) => [d.code, d.reason]);
  assert.deepEqual(reasons.map(([code]) => code), ["legacy", "malformed", "bad-tag", "bad-tag"]);
  assert.match(reasons[2]![1]!, /'\.\.' segment/);
  assert.match(reasons[3]![1]!, /not a plain file name/);
  assert.deepEqual(result.writes.map((w) => w.relPath), ["tech.md"]);
  assert.equal(
    result.scratchText,
    [
      "## [TAG: src/api]",
      "<!-- librarian: kept in scratch: tag has no type (legacy form); add ', type: <name>' to file it -->",
      "- legacy",
      "## [TAG: a, type: b] extra",
      "<!-- librarian: kept in scratch: malformed tag: text after the closing ']' (put it on " +
      "the next line); write '## [TAG: a, type: b]' -->",
      "- malformed",
      "## [TAG: ../../x, type: y]",
      "<!-- librarian: kept in scratch: path '../../x' has a '..' segment -->",
      "- escape",
      "## [TAG: global, type: ../../z]",
      "<!-- librarian: kept in scratch: type '../../z' is not a plain file name (letters, digits, '-', '_') -->",
      "- escape by type",
      "",
    ].join("\n"),
  );
});

Deno.test("a kept block already marked with the same reason is left byte-identical", () => {
  const first = plan("## [TAG: src/api]\r\n- legacy\r\n");
  const second = plan(first.scratchText);
  assert.equal(second.scratchText, first.scratchText);
  assert.deepEqual(second.edits, { remove: [], replace: [] });
  assert.equal(second.decisions.some(isNewlyKept), false);
  assert.ok(first.scratchText.includes("-->\r\n"), "the marker uses the block's line ending");
});

Deno.test("a block with a likely credential is held, naming the kind and its line", () => {
  const key = ["AKIA", "IOSFODNN7EXAMPLQ"].join("");
  const result = plan(`notes\n## [TAG: global, type: tech]\n- ok\n- CI key ${key}\n`);
  const [decision] = kept(result);
  assert.equal(decision?.code, "secret");
  assert.match(decision?.reason ?? "", /likely AWS access key \(line 2\) under the tag/);
  assert.ok(!decision?.reason.includes(key));
  assert.equal(result.writes.length, 0);
  assert.ok(result.scratchText.includes(key), "the block stays in scratch");
});

Deno.test("a 'not-a-secret' comment lets a false alarm be filed, with the comment for lint", () => {
  const key = ["AKIA", "IOSFODNN7EXAMPLQ"].join("");
  const vouched = `## [TAG: global, type: tech]\n<!-- librarian: not-a-secret -->\n- docs ${key}\n`;
  const result = plan(`${vouched}${vouched.replace("docs", "again")}`);
  assert.equal(
    afterOf(result, "tech.md"),
    `# tech\n\n## Learnings (2026-11-30)\n\n<!-- librarian: not-a-secret -->\n\n- docs ${key}\n` +
      `- again ${key}\n`,
  );
  assert.equal(result.writes[0]?.added, 2, "the comment is not counted as a learning");
  const plain = plan("## [TAG: global, type: tech]\n<!-- librarian: not-a-secret -->\n- plain\n");
  assert.doesNotMatch(
    afterOf(plain, "tech.md") ?? "",
    /not-a-secret/,
    "only where it vouches for one",
  );
});

Deno.test("a block whose code fence is never closed stays in scratch", () => {
  const result = plan("notes\n## [TAG: global, type: tech]\n- a\n```\ncode\n");
  assert.equal(kept(result)[0]?.code, "unclosed-fence");
  assert.equal(
    kept(result)[0]?.reason,
    "code fence opened on line 2 under the tag is never closed",
  );
  assert.equal(plan(result.scratchText).decisions.some(isNewlyKept), false, "stable reason");
  assert.equal(result.writes.length, 0);
});

Deno.test("a blocked target keeps its blocks in scratch with the caller's reason", () => {
  const result = plan("## [TAG: link, type: tech]\n- a\n", {
    "link/tech.md": { kind: "blocked", reason: "resolves outside the library (symlink)" },
  });
  assert.equal(kept(result)[0]?.reason, "resolves outside the library (symlink)");
});

Deno.test("an empty tagged block leaves scratch without writing anything", () => {
  const result = plan("## [TAG: global, type: tech]\n\n  \n## [TAG: global, type: edge]\n- e\n");
  assert.equal(result.decisions[0]?.kind, "drop");
  assert.deepEqual(result.writes.map((w) => w.relPath), ["edge.md"]);
  assert.equal(result.scratchText, "");
});

Deno.test("untagged text stays in scratch byte-identical", () => {
  const result = plan("# My notes\r\nremember X\r\n\r\n## [TAG: global, type: tech]\n- a\n");
  assert.equal(result.scratchText, "# My notes\r\nremember X\r\n\r\n");
});

Deno.test("a block filed before whose items are all in the target is not appended again", () => {
  const scratch = "## [TAG: global, type: tech]\nA paragraph, not a bullet.\n- and a bullet\n";
  const block = parseScratch(scratch).blocks[0]!;
  const filedBefore = new Set([rawHash(block.raw)]);
  const filed =
    "# tech\n\n## Learnings (2026-11-30)\n\nA paragraph, not a bullet.\n- and a bullet\n";
  const again = plan(scratch, { "tech.md": { kind: "text", text: filed } }, { filedBefore });
  assert.equal(again.writes.length, 0);
  assert.equal(again.decisions[0]?.kind === "drop" && again.decisions[0].why, "already-filed");
  assert.equal(again.scratchText, "");
  // Filed before, but its text is no longer in the target (the write failed, or someone removed
  // it): it is filed again.
  const gone = plan(scratch, { "tech.md": { kind: "text", text: "# tech\n" } }, { filedBefore });
  assert.equal(gone.writes.length, 1);
  assert.match(gone.writes[0]!.after, /A paragraph, not a bullet\.\n\n- and a bullet\n$/);
});

Deno.test("an identical block twice in one scratch is filed once", () => {
  const block = "## [TAG: global, type: tech]\nWhy: bursts.\n- retry\n";
  const result = plan(block + block);
  assert.equal(
    afterOf(result, "tech.md"),
    "# tech\n\n## Learnings (2026-11-30)\n\nWhy: bursts.\n\n- retry\n",
  );
  assert.equal(result.scratchText, "");
});

Deno.test("paragraphs are not deduplicated in ordinary routing", () => {
  const result = plan("## [TAG: global, type: tech]\nSee above.\n", {
    "tech.md": { kind: "text", text: "# tech\n\nSee above.\n" },
  });
  assert.match(
    afterOf(result, "tech.md") ?? "",
    /See above\.\n\n## Learnings \(2026-11-30\)\n\nSee above\.\n$/,
  );
});

Deno.test("scratch edits keep text appended after planning and blocks edited meanwhile", () => {
  const original = "## [TAG: global, type: tech]\n- a\n## [TAG: x, type: y]\n- b\n";
  const result = plan(original);
  const grown = original.replace("- b\n", "- b\n- b2\n") + "## [TAG: global, type: tech]\n- c\n";
  assert.equal(
    applyScratchEdits(grown, result.edits),
    "## [TAG: x, type: y]\n- b\n- b2\n## [TAG: global, type: tech]\n- c\n",
  );
});

Deno.test("blocks whose target could not be written turn into kept blocks", () => {
  const result = plan("## [TAG: global, type: tech]\n- a\n## [TAG: global, type: edge]\n- b\n");
  const decisions = withFailedTargets(result.decisions, new Map([["tech.md", "disk full"]]));
  assert.equal(
    decisions[0]?.kind === "keep" && decisions[0].reason,
    "could not write tech.md: disk full",
  );
  assert.equal(decisions[1]?.kind, "route");
  const text = applyScratchEdits(
    "## [TAG: global, type: tech]\n- a\n## [TAG: global, type: edge]\n- b\n",
    scratchEditsOf(decisions),
  );
  assert.equal(
    text,
    "## [TAG: global, type: tech]\n<!-- librarian: kept in scratch: could not write tech.md: disk full -->\n- a\n",
  );
});

Deno.test("with case folding, two spellings of one path are one file", () => {
  const doc = parseScratch("## [TAG: Src, type: tech]\n- a\n## [TAG: src, type: tech]\n- b\n");
  const paths = targetsToRead(doc, true);
  assert.deepEqual(paths, ["Src/tech.md"]);
  const result = planRoute(doc, {
    today: TODAY,
    targets: new Map([["Src/tech.md", { kind: "missing" }]]),
    foldCase: true,
  });
  assert.equal(result.writes.length, 1);
  assert.match(result.writes[0]!.after, /- a\n- b\n$/);
});

Deno.test("items: a bullet keeps its indented continuation; a blank line ends it", () => {
  const items = splitItems(["- a", "  more", "- b", "", "para", "- c"]);
  assert.deepEqual(items.map((i) => [i.bullet, i.lines]), [
    [true, ["- a", "  more"]],
    [true, ["- b"]],
    [false, ["para"]],
    [true, ["- c"]],
  ]);
});

Deno.test("appendLearnings separates a paragraph from the list before it", () => {
  const after = appendLearnings("## Learnings (2026-11-30)\n\n- a\n", "tech", TODAY, [
    { lines: ["Some context."], bullet: false, gapBefore: false },
  ]);
  assert.equal(after, "## Learnings (2026-11-30)\n\n- a\n\nSome context.\n");
});

Deno.test("localDay formats the local calendar day", () => {
  assert.equal(localDay(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
});
