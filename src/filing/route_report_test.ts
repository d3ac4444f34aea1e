/**
 * The report of a filing pass (`src/filing/route_report.ts`), in process: what was filed where, what
 * stayed and why, and that a target whose write failed is counted as a failure, not as filed.
 */
import assert from "node:assert/strict";
import { planRoute } from "./route_plan.ts";
import { emptyReport, reportOf } from "./route_report.ts";
import { parseScratch } from "../format/scratch.ts";

const SCRATCH = [
  "a note before any tag",
  "",
  "## [TAG: global, type: tech]",
  "- use deno",
  "- use deno",
  "## [TAG: src/api, type: patterns]",
  "- retry on 429",
  "## [TAG: ../outside, type: x]",
  "- kept",
  "## [TAG: global, type: empty]",
  "",
].join("\n");

function planned() {
  const doc = parseScratch(SCRATCH);
  const targets = new Map([
    ["tech.md", { kind: "text" as const, text: "# tech\n\n- use deno\n" }],
    ["src/api/patterns.md", { kind: "missing" as const }],
  ]);
  const plan = planRoute(doc, { today: "2026-11-30", targets });
  return { doc, plan };
}

Deno.test("a pass reports routed blocks, duplicates, kept blocks, empties and untagged lines", () => {
  const { doc, plan } = planned();
  const report = reportOf("routed", "/lib/.scratch.md", doc, plan, plan.decisions, new Map());
  assert.deepEqual(report.routed.map((r) => [r.line, r.target]), [[3, "tech.md"], [
    6,
    "src/api/patterns.md",
  ]]);
  assert.ok(report.duplicates >= 1, "the bullet already in tech.md is a duplicate");
  assert.deepEqual(report.kept.map((k) => [k.line, k.code, k.newly]), [[8, "bad-tag", true]]);
  assert.equal(report.emptyDropped, 1);
  assert.equal(report.untaggedLines, 1);
  assert.deepEqual(report.targets, [{ target: "src/api/patterns.md", added: 1, created: true }]);
  assert.equal(report.learnings, 1);
});

Deno.test("a failed write is a failure and its learnings are not counted as filed", () => {
  const { doc, plan } = planned();
  const failures = new Map([["src/api/patterns.md", "disk full"]]);
  const report = reportOf("routed", "/lib/.scratch.md", doc, plan, plan.decisions, failures);
  assert.deepEqual(report.failures, [{ target: "src/api/patterns.md", error: "disk full" }]);
  assert.deepEqual(report.targets, []);
  assert.equal(report.learnings, 0);
});

Deno.test("an empty report has every count at zero and keeps the reason it did not run", () => {
  const report = emptyReport("too-large", "/lib/.scratch.md", "scratch is 70.0 MB");
  assert.equal(report.status, "too-large");
  assert.equal(report.error, "scratch is 70.0 MB");
  for (
    const key of ["secretsHeld", "emptyDropped", "recovered", "deferred", "learnings"] as const
  ) {
    assert.equal(report[key], 0, key);
  }
  assert.equal("error" in emptyReport("empty", "/lib/.scratch.md"), false);
});
