/** The inject ledger: one record per context window, validated, bounded, locked. */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  loadLedger,
  MAX_LEDGER_BYTES,
  mergeLedger,
  openLedger,
  pruneLedgers,
} from "../src/inject/ledger.ts";
import { type LedgerKey, ledgerPath } from "../src/inject/ledger_paths.ts";
import { safeId } from "../src/core/hash.ts";
import {
  LEDGER_FORMAT,
  MAX_EVENTS,
  MAX_HELD,
  MAX_HINTED,
  parseLedger,
} from "../src/inject/ledger_format.ts";
import { emptyLedger } from "../src/inject/ledger_format.ts";
import { tempDir } from "./helpers.ts";

function record(state: string, key: LedgerKey, files: Record<string, string>, reminded = false) {
  using open = openLedger(state, key, 1000)!;
  open.record({ files, reminded });
}

const filesOf = (state: string, key: LedgerKey) => loadLedger(state, key).ledger.files;
const FP = "12:1700000000000:0123456789abcdef";

Deno.test("safeId() keeps ids usable as file names", () => {
  assert.equal(safeId("abc-123_X"), "abc-123_X");
  for (const id of ["../../etc/passwd", "", "a/1", "x".repeat(300)]) {
    assert.match(safeId(id), /^[A-Za-z0-9_-]{1,100}\.[0-9a-f]{16}$/, id);
  }
  assert.ok(safeId("../../etc/passwd").startsWith("______etc_passwd."));
  // ids that clean up alike still get files of their own
  assert.notEqual(safeId("a/1"), safeId("a_1"));
  assert.notEqual(safeId("a/1"), safeId("a.1"));
  assert.notEqual(safeId(`${"x".repeat(120)}1`), safeId(`${"x".repeat(120)}2`));
});

Deno.test("a subagent has its own ledger, separate from the main context window", async () => {
  await using dir = await tempDir();
  record(dir.path, { sessionId: "s" }, { "/l/a.md": FP });
  record(dir.path, { sessionId: "s", agentId: "sub" }, { "/l/b.md": FP });
  assert.deepEqual(filesOf(dir.path, { sessionId: "s" }), { "/l/a.md": FP });
  assert.deepEqual(filesOf(dir.path, { sessionId: "s", agentId: "sub" }), { "/l/b.md": FP });
  assert.notEqual(
    ledgerPath(dir.path, { sessionId: "s" }),
    ledgerPath(dir.path, { sessionId: "s", agentId: "sub" }),
  );
});

Deno.test("recording merges with what is on disk and keeps the reminder flag", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  record(dir.path, key, { "/l/a.md": FP }, true);
  record(dir.path, key, { "/l/b.md": FP });
  record(dir.path, key, { "/l/a.md": "1:2:ff" });
  const { ledger } = loadLedger(dir.path, key);
  assert.deepEqual(ledger.files, { "/l/a.md": "1:2:ff", "/l/b.md": FP });
  assert.equal(ledger.reminded, true);
});

Deno.test("mergeLedger() keeps the newest events, at most the limit, each once", () => {
  let ledger = emptyLedger();
  for (let i = 0; i < MAX_EVENTS + 5; i++) ledger = mergeLedger(ledger, { event: `tool:${i}` });
  ledger = mergeLedger(ledger, { event: `tool:${MAX_EVENTS + 4}` });
  assert.equal(ledger.events.length, MAX_EVENTS);
  assert.equal(ledger.events[0], "tool:5");
  assert.equal(ledger.events.at(-1), `tool:${MAX_EVENTS + 4}`);
});

Deno.test("mergeLedger() keeps the newest hinted and held folders past the cap, so a hint or a hold given last is remembered", () => {
  let ledger = emptyLedger();
  for (let i = 0; i < MAX_HINTED + 10; i++) {
    ledger = mergeLedger(ledger, { hinted: [`src/f${i}`] });
  }
  assert.equal(ledger.hinted!.length, MAX_HINTED);
  assert.equal(ledger.hinted!.at(-1), `src/f${MAX_HINTED + 9}`, "the newest hint is kept");
  assert.ok(!ledger.hinted!.includes("src/f0"), "the oldest makes room");
  for (let i = 0; i < MAX_HELD + 10; i++) {
    ledger = mergeLedger(ledger, { held: [`/p/f${i}`] });
  }
  assert.equal(ledger.held!.length, MAX_HELD);
  assert.equal(ledger.held!.at(-1), `/p/f${MAX_HELD + 9}`, "the newest hold is kept");
  assert.equal(
    parseLedger(JSON.stringify({ version: LEDGER_FORMAT, ...ledger })).problem,
    undefined,
  );
});

Deno.test("parseLedger() validates every field and reads anything else as empty, saying why", () => {
  const good = { version: 2, files: { "/l/a.md": FP }, reminded: true, events: ["tool:x"] };
  assert.deepEqual(parseLedger(JSON.stringify(good)), {
    ledger: { files: { "/l/a.md": FP }, reminded: true, events: ["tool:x"] },
  });
  assert.deepEqual(parseLedger(""), { ledger: emptyLedger() }, "no file yet: no problem");
  const bad: [unknown, RegExp][] = [
    [{ files: { "/l/a.md": FP }, reminded: false }, /format version undefined/], // version 1
    [{ ...good, version: 3 }, /format version 3/],
    [[1, 2], /not a JSON object/],
    [{ ...good, files: { "a.md": FP } }, /not an absolute path/],
    [{ ...good, files: { "/l/a.md": 3 } }, /fingerprint/],
    [{ ...good, files: { "/l/a.md": "no-colons" } }, /fingerprint/],
    [{ ...good, reminded: "yes" }, /reminded/],
    [{ ...good, events: "tool:x" }, /events/],
    [{ ...good, events: [7] }, /event/],
    [{ ...good, extra: 1 }, /unknown key/],
  ];
  for (const [value, why] of bad) {
    const parsed = parseLedger(JSON.stringify(value));
    assert.deepEqual(parsed.ledger, emptyLedger(), JSON.stringify(value));
    assert.match(parsed.problem ?? "", why, JSON.stringify(value));
  }
  assert.match(parseLedger("{not json").problem ?? "", /not JSON/);
});

Deno.test("a ledger file over the size limit is discarded unread, and says so", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "big" };
  record(dir.path, key, { "/l/a.md": FP });
  const path = ledgerPath(dir.path, key);
  // 45 MB took 14 s to parse before the limit: now only its size is looked at
  Deno.writeTextFileSync(path, " ".repeat(MAX_LEDGER_BYTES + 1));
  const started = performance.now();
  const loaded = loadLedger(dir.path, key);
  assert.ok(performance.now() - started < 1000);
  assert.deepEqual(loaded.ledger, emptyLedger());
  assert.match(loaded.discarded ?? "", /over the 1000000-byte limit/);
});

Deno.test("openLedger() gives the lock to one holder at a time, and null after the timeout", async () => {
  await using dir = await tempDir();
  const key = { sessionId: "s" };
  const first = openLedger(dir.path, key, 100);
  assert.ok(first);
  const started = performance.now();
  assert.equal(openLedger(dir.path, key, 50), null, "held elsewhere: give up");
  assert.ok(performance.now() - started >= 45);
  first.release();
  const second = openLedger(dir.path, key, 50);
  assert.ok(second, "free again once released");
  second.release();
});

Deno.test("pruneLedgers() removes sessions not written for a week", async () => {
  await using dir = await tempDir();
  record(dir.path, { sessionId: "old" }, { "/l/a.md": FP });
  record(dir.path, { sessionId: "new" }, { "/l/a.md": FP });
  const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
  await Deno.utime(`${dir.path}/ledgers/old`, weekAgo, weekAgo);
  assert.equal(await pruneLedgers(dir.path), 1);
  assert.deepEqual(filesOf(dir.path, { sessionId: "old" }), {});
  assert.deepEqual(filesOf(dir.path, { sessionId: "new" }), { "/l/a.md": FP });
});

Deno.test("property: a fingerprint or an event is accepted exactly when it has the written shape (counted parts, no white space)", () => {
  // the shapes as they were first written, one regular expression each
  const fingerprintShape = /^[^:\s]{1,40}:[^:\s]{1,40}:\S{1,200}$/;
  const eventShape = /^[a-z]{1,20}:\S{1,300}$/;
  const part = (max: number) =>
    fc.string({
      unit: fc.constantFrom("a", "z", "0", "9", "-", ":", " ", "\t", "\u00a0", "\u2028", "é", "A"),
      minLength: 0,
      maxLength: max,
    });
  const ledgerWith = (fingerprint: string, event: string) =>
    JSON.stringify({
      version: LEDGER_FORMAT,
      files: { "/l/a.md": fingerprint },
      reminded: false,
      events: [event],
    });
  fc.assert(
    fc.property(
      fc.tuple(part(44), part(44), part(205)).map(([a, b, c]) => `${a}:${b}:${c}`),
      fc.tuple(
        fc.string({ unit: fc.constantFrom("a", "q", "z", "A", ":", " "), maxLength: 22 }),
        part(305),
      ).map(([a, b]) => `${a}:${b}`),
      (fingerprint, event) => {
        const both = parseLedger(ledgerWith(fingerprint, event)).problem;
        const fingerprintOnly = parseLedger(ledgerWith(fingerprint, "touch:x")).problem;
        const eventOnly = parseLedger(ledgerWith(FP, event)).problem;
        assert.equal(
          fingerprintOnly === undefined,
          fingerprintShape.test(fingerprint),
          fingerprint,
        );
        assert.equal(eventOnly === undefined, eventShape.test(event), event);
        assert.equal(
          both === undefined,
          fingerprintShape.test(fingerprint) && eventShape.test(event),
        );
      },
    ),
    { numRuns: 3000 },
  );
  for (const edge of ["1:2:3", `${"a".repeat(40)}:${"b".repeat(40)}:${"c".repeat(200)}`]) {
    assert.equal(parseLedger(ledgerWith(edge, "touch:x")).problem, undefined, edge);
  }
  for (const edge of [":2:3", "1::3", "1:2:", `${"a".repeat(41)}:2:3`, `1:2:${"c".repeat(201)}`]) {
    assert.equal(parseLedger(ledgerWith(edge, "touch:x")).problem, "a fingerprint is malformed");
  }
  assert.equal(
    parseLedger(ledgerWith(FP, `${"a".repeat(20)}:${"x".repeat(300)}`)).problem,
    undefined,
  );
  for (const edge of [`${"a".repeat(21)}:x`, `a:${"x".repeat(301)}`, ":x", "a:", "A:x", "a b:x"]) {
    assert.equal(parseLedger(ledgerWith(FP, edge)).problem, "an event is malformed", edge);
  }
});
