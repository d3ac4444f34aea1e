/**
 * The touch's decision (src/inject/touch.ts) as pure functions: the hint it is due, the decision
 * its context makes, the hold of a blind first write, and their composer, on made-up contexts
 * (the hook's own behaviour: inject_hook_test.ts, inject_hint_test.ts, inject_hold_test.ts).
 */
import assert from "node:assert/strict";
import type { FileContext, FileLocation } from "./file_context.ts";
import { holdPreface } from "./hold.ts";
import { emptyLedger, type Ledger } from "./ledger_format.ts";
import {
  contextDecision,
  decideTouch,
  heldDecision,
  holdFor,
  type Touch,
  touchHint,
} from "./touch.ts";

const library = { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const };
const apiNotes = {
  relPath: "src/api/tech.md",
  label: "src/api/tech.md",
  absPath: "/p/_memory_library/src/api/tech.md",
};
const located: FileLocation = {
  kind: "located",
  relPath: "src/api/a.ts",
  files: [apiNotes],
  library,
};
const target = {
  folder: "src/api",
  tag: () => "src/api",
  scratchPath: "_memory_library/.scratch.md",
};

function ledgerWith(update: Partial<Ledger> = {}): Ledger {
  return { ...emptyLedger(), ...update };
}

/** A context of `text` that shows the API notes, or leaves them out (made up). */
function contextOf(text: string, shows: boolean): FileContext {
  return {
    kind: "context",
    library,
    relPath: "src/api/a.ts",
    hits: 0,
    files: [apiNotes],
    delivered: shows ? { [apiNotes.absPath]: "fp" } : {},
    rendered: {
      text,
      shown: shows ? [apiNotes.label] : [],
      cut: [],
      left: shows ? [] : [apiNotes.label],
      skipped: [],
      delivered: [],
    },
  };
}

/** A Write into src/api whose context fits the notes only within `room` characters. */
function writeTouch(room: number, asked: string[] = []): Touch {
  return {
    tool: "Write",
    location: located,
    target,
    written: ["src/api"],
    ledgerOn: true,
    contextFor(_sent, ending, reserved) {
      asked.push(`${ending === "" ? "no-hint" : "hint"}:${reserved}`);
      const text = `notes${ending}`;
      return contextOf(text, text.length + reserved <= room);
    },
  };
}

Deno.test("touchHint: a folder's first edit is hinted its tag once; a handled folder or tag is not", () => {
  const first = touchHint(target, undefined);
  assert.equal(first.tag, "src/api");
  assert.match(first.text ?? "", /\[TAG: src\/api, type: /);
  assert.deepEqual(first.hinted, ["src/api"]);
  let looked = 0;
  const counting = { ...target, folder: "src/api/v2", tag: () => (looked++, "src/api") };
  assert.deepEqual(touchHint(counting, ["src/api"]), { hinted: ["src/api/v2"] });
  assert.deepEqual(touchHint(counting, ["src/api/v2"]), {});
  assert.equal(looked, 1, "a handled folder's tag is not looked up");
});

Deno.test("contextDecision: injected with the hint, hinted alone, or nothing with the reason", () => {
  const hint = touchHint(target, []);
  const injected = contextDecision(contextOf("notes", true), hint, true, true);
  assert.equal(injected.outcome.result, "injected");
  assert.equal(injected.outcome.hint, "src/api");
  assert.equal(injected.outcome.sent, "src/api/tech.md");
  assert.equal(injected.outcome.ledger, "on");
  assert.deepEqual(injected.record, { files: { [apiNotes.absPath]: "fp" }, hinted: ["src/api"] });
  // the hint left out to make room for a hold is not recorded: the next touch gives it
  const without = contextDecision(contextOf("notes", true), hint, false, false);
  assert.equal(without.outcome.hint, undefined);
  assert.equal(without.outcome.ledger, "off");
  assert.deepEqual(without.record, { files: { [apiNotes.absPath]: "fp" } });
  const none: FileContext = { kind: "none", reason: "all-sent", hits: 1, refreshed: {} };
  assert.equal(contextDecision(none, hint, true, true).outcome.result, "hinted");
  assert.deepEqual(contextDecision(none, {}, true, true), {
    outcome: { result: "all-sent", hits: 1 },
  });
});

Deno.test("holdFor and heldDecision: a write into a folder whose notes never reached the window is denied once, with them", () => {
  assert.deepEqual(holdFor(located, ["src/api"], ledgerWith()), ["src/api"]);
  assert.deepEqual(holdFor(located, [], ledgerWith()), [], "no write");
  assert.deepEqual(holdFor(located, ["src/api"], ledgerWith({ held: ["/p/src/api"] })), []);
  const context = contextOf("notes", true);
  const unheld = contextDecision(context, {}, true, true);
  const held = heldDecision(unheld, context as FileContext & { kind: "context" }, "Held.", [
    "src/api",
  ], () => unheld);
  assert.equal(held.outcome.result, "held");
  assert.equal(held.outcome.held, "src/api");
  assert.deepEqual(held.output, { event: "PreToolUse", text: "Held.\n\nnotes", deny: true });
  assert.deepEqual(held.record?.held, ["/p/src/api"]);
  assert.equal(held.unheld?.(), unheld);
});

Deno.test("decideTouch: held when the context brings the notes, the hint making room when needed", () => {
  // room for the notes, the hint and the hold's words: held with the hint
  const roomy = decideTouch(writeTouch(10_000), ledgerWith(), true);
  assert.equal(roomy.outcome.result, "held");
  assert.equal(roomy.outcome.hint, "src/api");
  assert.ok(roomy.output?.deny);
  assert.equal(roomy.unheld?.().outcome.result, "injected");
  // room for the hold's words and the notes, not the hint too: held without the hint
  const reserved = holdPreface("Write", ["src/api"]).length + 2;
  const asked: string[] = [];
  const held = decideTouch(writeTouch(reserved + "notes".length, asked), ledgerWith(), true);
  assert.deepEqual(asked, [`hint:${reserved}`, `no-hint:${reserved}`]);
  // the decision without the hold is made only when it is taken
  assert.equal(held.unheld?.().outcome.result, "injected");
  assert.deepEqual(asked.slice(2), ["hint:0"]);
  const fitsWithoutHint = decideTouch(writeTouch(reserved + "notes".length), ledgerWith(), true);
  assert.equal(fitsWithoutHint.outcome.result, "held");
  assert.equal(fitsWithoutHint.outcome.hint, undefined);
  assert.equal(fitsWithoutHint.record?.hinted, undefined, "the hint comes with the next touch");
  // no room for the notes beside the hold's words: the call goes through with its context
  const through = decideTouch(writeTouch(reserved), ledgerWith(), true);
  assert.equal(through.outcome.result, "injected");
  assert.equal(through.output?.deny, undefined);
});

Deno.test("decideTouch: never held when the hold cannot be recorded first, or the notes were sent", () => {
  assert.equal(decideTouch(writeTouch(10_000), ledgerWith(), false).outcome.result, "injected");
  const sent = ledgerWith({ files: { [apiNotes.absPath]: "fp" } });
  assert.equal(decideTouch(writeTouch(10_000), sent, true).outcome.result, "injected");
});
