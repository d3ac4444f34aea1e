/**
 * The watched run behind quiet repeats (`src/inject/observed_run.ts`): it records every read the
 * hook makes of the world with what it was, marks every other effect, puts the Deno namespace
 * back however the run ends, and knows every Deno function `src/` uses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  EFFECTS,
  NOT_OBSERVED,
  observationHolds,
  observeRun,
  RECORDED_READS,
} from "../src/inject/observed_run.ts";
import { REPO_ROOT, tempDir } from "./helpers.ts";

const noEnv = () => undefined;

Deno.test("every Deno function src/ uses is recorded, marked as an effect, or known to need neither", async () => {
  const known = new Set([
    ...RECORDED_READS,
    ...EFFECTS,
    ...NOT_OBSERVED,
    "env",
    "stdout",
    "stderr",
  ]);
  const unknown = new Set<string>();
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        const text = await Deno.readTextFile(path);
        for (const match of text.matchAll(/\bDeno\.([A-Za-z]+)/g)) {
          if (!known.has(match[1]!)) {
            unknown.add(`${match[1]} (${path.slice(REPO_ROOT.length + 1)})`);
          }
        }
      }
    }
  };
  await walk(join(REPO_ROOT, "src"));
  assert.deepEqual([...unknown], []);
  for (const name of [...RECORDED_READS, ...EFFECTS]) {
    assert.equal(typeof (Deno as unknown as Record<string, unknown>)[name], "function", name);
  }
});

Deno.test("a run's reads are recorded with the stamp or value each had, and still hold after", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "a.md");
  await Deno.writeTextFile(file, "- A");
  const watched = await observeRun(
    (name) => name === "LIBRARIAN_BUDGET" ? "900" : undefined,
    (env) => {
      env("LIBRARIAN_BUDGET");
      Deno.statSync(file);
      [...Deno.readDirSync(dir.path)];
      Deno.readTextFileSync(file);
      assert.throws(() => Deno.lstatSync(join(dir.path, "missing")));
      Deno.cwd();
      return Promise.resolve("done");
    },
  );
  assert.equal(watched.value, "done");
  assert.equal(watched.effect, undefined);
  assert.deepEqual(
    watched.observations.map((o) => [o.kind, o.subject]),
    [
      ["env", "LIBRARIAN_BUDGET"],
      ["stat", file],
      ["list", dir.path],
      ["read", file],
      ["lstat", join(dir.path, "missing")],
      ["cwd", ""],
    ],
  );
  assert.equal(watched.observations[4]!.seen, "!NotFound");
  assert.ok(watched.newestChangeMs >= Deno.statSync(file).mtime!.getTime());
  const env = (name: string) => name === "LIBRARIAN_BUDGET" ? "900" : undefined;
  for (const observation of watched.observations) assert.ok(observationHolds(observation, env));
  // what changes, no longer holds
  await Deno.writeTextFile(file, "- A, longer");
  const [, stat, list, read] = watched.observations;
  assert.ok(!observationHolds(stat!, env));
  assert.ok(!observationHolds(read!, env));
  assert.ok(observationHolds(list!, env), "the folder's entries did not change");
  await Deno.writeTextFile(join(dir.path, "b.md"), "- B");
  assert.ok(!observationHolds(list!, env), "a new entry changes the folder");
  assert.ok(!observationHolds(watched.observations[0]!, () => "901"));
});

Deno.test("whatever a run does beyond reading marks it: a write, a program, stdout, a variable set", async () => {
  await using dir = await tempDir();
  const cases: [string, () => unknown][] = [
    ["writeTextFileSync", () => Deno.writeTextFileSync(join(dir.path, "x"), "x")],
    ["openSync", () => Deno.openSync(join(dir.path, "x"), { read: true }).close()],
    ["mkdirSync", () => Deno.mkdirSync(join(dir.path, "d"), { recursive: true })],
    ["Command", () => new Deno.Command("true")],
    ["stdout", () => Deno.stdout.writeSync(new Uint8Array())],
    ["env.set", () => Deno.env.set("LIBRARIAN_OBSERVED_TEST", "1")],
    ["readTextFile", () => Deno.readTextFile(join(dir.path, "x"))],
  ];
  for (const [name, effect] of cases) {
    const watched = await observeRun(noEnv, async () => {
      await effect();
      Deno.writeTextFileSync(join(dir.path, "later"), "second effect");
      return 0;
    });
    assert.equal(watched.effect, name, `the first effect is named: ${name}`);
  }
  Deno.env.delete("LIBRARIAN_OBSERVED_TEST");
});

Deno.test("the Deno namespace is put back after a run, also one that throws", async () => {
  const before = [...RECORDED_READS, ...EFFECTS].map((name) =>
    (Deno as unknown as Record<string, unknown>)[name]
  );
  const envGet = Deno.env.get;
  const write = Deno.stdout.writeSync;
  await assert.rejects(observeRun(noEnv, () => Promise.reject(new Error("boom"))), /boom/);
  await observeRun(noEnv, () => Promise.resolve(1));
  const after = [...RECORDED_READS, ...EFFECTS].map((name) =>
    (Deno as unknown as Record<string, unknown>)[name]
  );
  assert.deepEqual(after, before);
  assert.equal(Deno.env.get, envGet);
  assert.equal(Deno.stdout.writeSync, write);
  assert.ok(!Object.hasOwn(Deno.stdout, "writeSync"), "an inherited method stays inherited");
});
