/**
 * The one error type commands end with and the one way to put any thrown value into words
 * (`src/core/errors.ts`, `src/core/json.ts`, `src/core/words.ts`).
 */
import assert from "node:assert/strict";
import { LibrarianError, messageOf } from "../src/core/errors.ts";
import { isObject } from "../src/core/json.ts";
import { plural } from "../src/core/words.ts";
import { join } from "node:path";
import { REPO_ROOT } from "./helpers.ts";
import { classHeritage, readImportGraph } from "./import_graph.ts";

Deno.test("any thrown value becomes a message", () => {
  assert.equal(messageOf(new Error("disk full")), "disk full");
  assert.equal(messageOf("plain text"), "plain text");
  assert.equal(messageOf(42), "42");
  assert.equal(messageOf(undefined), "undefined");
});

Deno.test("a LibrarianError carries its exit status, its cause and its JSON details", () => {
  const cause = new Deno.errors.PermissionDenied("no access");
  const error = new LibrarianError("cannot write", { exitCode: 3, cause, details: { file: "a" } });
  assert.equal(error.exitCode, 3);
  assert.equal(error.cause, cause);
  assert.deepEqual(error.details, { file: "a" });
  assert.equal(error.name, "LibrarianError");
  const plain = new LibrarianError("x");
  assert.equal(plain.exitCode, 1);
  assert.equal("cause" in plain, false, "no cause property when none is given");
  assert.deepEqual(plain.details, {});
});

Deno.test("only plain objects are JSON objects", () => {
  assert.ok(isObject({ a: 1 }));
  assert.ok(!isObject([]));
  assert.ok(!isObject(null));
  assert.ok(!isObject("{}"));
});

Deno.test("counts read naturally, with an irregular plural when given", () => {
  assert.equal(plural(0, "file"), "0 files");
  assert.equal(plural(1, "file"), "1 file");
  assert.equal(plural(2, "auto memory", "auto memories"), "2 auto memories");
});

Deno.test("every error class in src/ is a LibrarianError, so every error crossing a module is one", async () => {
  const src = join(REPO_ROOT, "src");
  const parents = new Map<string, string | null>();
  for (const module of (await readImportGraph(src)).modules) {
    for (
      const [name, parent] of classHeritage(module, await Deno.readTextFile(join(src, module)))
    ) {
      parents.set(name, parent);
    }
  }
  const builtIn = /^(Error|[A-Z][a-z]+Error)$/; // Error, SyntaxError, TypeError, RangeError, ...
  const errors = [...parents.keys()].filter((name) => {
    for (let at: string | null | undefined = name; at; at = parents.get(at)) {
      if (!parents.has(at)) return builtIn.test(at);
    }
    return false;
  });
  assert.ok(
    errors.includes("LockTimeoutError") && errors.includes("HookInputError"),
    errors.join(),
  );
  const outside = errors.filter((name) => {
    let at: string | null | undefined = name;
    while (at && at !== "LibrarianError") at = parents.get(at);
    return at !== "LibrarianError" && name !== "LibrarianError";
  });
  assert.deepEqual(outside, []);
});
