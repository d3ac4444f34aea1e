/**
 * filing/known: where a learning is already known to a target. The lookup of keys filed in this
 * pass reads an index by key; it must answer as a scan of every target filed into would.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type KnownAt, KnownLearnings } from "./known.ts";

/** The specification: every target filed into, in first-filed order, scanned for the key. */
class ScanningReference {
  #filed = new Map<string, Set<string>>();
  find(target: string, key: string): KnownAt | undefined {
    if (this.#filed.get(target)?.has(key)) return { file: target, line: 0 };
    const folder = target.slice(0, Math.max(0, target.lastIndexOf("/")));
    for (const [other, keys] of this.#filed) {
      const at = other.slice(0, Math.max(0, other.lastIndexOf("/")));
      const above = at === "" || at === folder || folder.startsWith(`${at}/`);
      if (other !== target && keys.has(key) && above) return { file: other, line: 0 };
    }
    return undefined;
  }
  remember(target: string, key: string): void {
    const keys = this.#filed.get(target);
    if (keys) keys.add(key);
    else this.#filed.set(target, new Set([key]));
  }
}

const TARGETS = ["a.md", "src/a.md", "src/b.md", "src/api/a.md", "src/api/b.md", "lib/a.md"];
const KEYS = ["use deno", "cents", "retry with jitter"];

Deno.test("KnownLearnings finds a key filed in this pass where a scan of every target would", () => {
  const step = fc.record({
    remember: fc.boolean(),
    target: fc.constantFrom(...TARGETS),
    key: fc.constantFrom(...KEYS),
  });
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const known = new KnownLearnings();
      const reference = new ScanningReference();
      for (const target of TARGETS) known.addTarget(target, null, []);
      for (const { remember, target, key } of steps) {
        if (remember) {
          known.remember(target, key);
          reference.remember(target, key);
        }
        for (const t of TARGETS) assert.deepEqual(known.find(t, key), reference.find(t, key));
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("KnownLearnings answers with the target first filed into, when several hold the key", () => {
  const known = new KnownLearnings();
  for (const target of TARGETS) known.addTarget(target, null, []);
  known.remember("src/b.md", "other");
  known.remember("a.md", "cents");
  known.remember("src/b.md", "cents");
  // src/b.md was filed into first: a scan of the pass meets it before a.md
  assert.deepEqual(known.find("src/api/a.md", "cents"), { file: "src/b.md", line: 0 });
  assert.deepEqual(known.find("lib/a.md", "cents"), { file: "a.md", line: 0 });
  assert.equal(known.find("lib/a.md", "use deno"), undefined);
});
