/**
 * The one line the stop hook shows the user (`src/filing/stop_summary.ts`): it says what was filed
 * and what needs the user, tells a kept block only once, and never floods the screen.
 */
import assert from "node:assert/strict";
import { emptyReport, type RouteReport } from "./route_report.ts";
import {
  failedMessage,
  MAX_MESSAGE_CHARS,
  nothingFiledMessage,
  routeFields,
  summarize,
} from "./stop_summary.ts";

function report(changes: Partial<RouteReport>): RouteReport {
  return { ...emptyReport("routed", "/lib/.scratch.md"), ...changes };
}

Deno.test("nothing filed, nothing kept anew: no message at all", () => {
  assert.equal(summarize(report({}), undefined), "");
  assert.equal(summarize(undefined, undefined), "");
});

Deno.test("learnings name up to three files, then count them", () => {
  const targets = (names: string[]) =>
    names.map((target) => ({ target, added: 1, created: false }));
  assert.equal(
    summarize(report({ learnings: 2, targets: targets(["tech.md", "src/api.md"]) }), undefined),
    "Librarian: 2 learnings → tech.md, src/api.md",
  );
  assert.equal(
    summarize(
      report({ learnings: 4, targets: targets(["a.md", "b.md", "c.md", "d.md"]) }),
      undefined,
    ),
    "Librarian: 4 learnings → 4 files",
  );
});

Deno.test("a block kept back is told the turn it is kept, not again", () => {
  const kept = { line: 1, tag: "## [TAG: ../x, type: y]", code: "bad-tag" as const, reason: "why" };
  assert.equal(
    summarize(report({ kept: [{ ...kept, newly: true }] }), undefined),
    "Librarian: 1 kept in scratch (why)",
  );
  assert.equal(summarize(report({ kept: [{ ...kept, newly: false }] }), undefined), "");
});

Deno.test("a likely secret is held, with its reason, never its value", () => {
  const secret = {
    line: 1,
    tag: "## [TAG: global, type: x]",
    code: "secret" as const,
    reason: "likely GitHub token (line 2)",
    newly: true,
  };
  assert.equal(
    summarize(report({ kept: [secret], secretsHeld: 1 }), undefined),
    "Librarian: 1 block held in scratch (likely GitHub token (line 2))",
  );
});

Deno.test("a pass that could not run says so and what to fix", () => {
  const failed = { ...emptyReport("failed", "/lib/.scratch.md", "no folder can hold the lock") };
  assert.equal(
    summarize(failed, undefined),
    "Librarian: nothing filed: no folder can hold the lock",
  );
  assert.equal(
    nothingFiledMessage("set HOME"),
    "Librarian: nothing filed: set HOME",
  );
  assert.match(failedMessage("boom"), /stays in scratch for the next turn$/);
});

Deno.test("synced auto memories come first in the line", () => {
  const sync = {
    synced: [{ file: "a.md", name: "a", type: "user", mapped: "global" }],
    skipped: [],
    unchanged: 0,
  };
  assert.equal(
    summarize(
      report({ learnings: 1, targets: [{ target: "tech.md", added: 1, created: true }] }),
      sync,
    ),
    "Librarian: 1 auto memory synced; 1 learning → tech.md",
  );
});

Deno.test("the message is capped with an ellipsis", () => {
  const long = summarize(report({ notices: ["x".repeat(2 * MAX_MESSAGE_CHARS)] }), undefined);
  assert.equal(long.length, MAX_MESSAGE_CHARS);
  assert.ok(long.endsWith("…"));
  assert.equal(nothingFiledMessage("y".repeat(2000)).length, MAX_MESSAGE_CHARS);
});

Deno.test("log fields leave out what is zero, so log lines stay short", () => {
  const fields = routeFields(report({ learnings: 2, duplicates: 0, deferred: 1 }));
  assert.equal(fields.learnings, 2);
  assert.equal(fields.routed, 0);
  assert.equal(fields.dup, undefined);
  assert.equal(fields.deferred, 1);
});
