/**
 * The command rules behind the Bash hook (`src/inject/shell_rules.ts`, with the tables in
 * `shell_files.ts` and `shell_runners.ts`), in process through `touchesOfCommand`: which words of
 * a command line are paths, and whether the command reads or writes them.
 */
import assert from "node:assert/strict";
import { touchesOfCommand } from "../src/inject/bash_touches.ts";

function touches(command: string): Array<[string, string]> {
  const result = touchesOfCommand(command, { cwd: "/p", home: "/h" });
  assert.ok(result.ok, `${command}: ${JSON.stringify(result)}`);
  return result.touches.map((t) => [t.role, t.path]);
}

Deno.test("readers read every operand; options and their values are not paths", () => {
  assert.deepEqual(touches("cat a.txt b.txt"), [["read", "/p/a.txt"], ["read", "/p/b.txt"]]);
  assert.deepEqual(touches("head -n 5 README.md"), [["read", "/p/README.md"]]);
  assert.deepEqual(touches("sed -n 1,5p x.md"), [["read", "/p/x.md"]]);
});

Deno.test("copies and moves read their sources and write their destination", () => {
  assert.deepEqual(touches("cp src/a.ts lib/"), [["read", "/p/src/a.ts"], ["write", "/p/lib"]]);
  assert.deepEqual(touches("mv a b"), [["read", "/p/a"], ["write", "/p/b"]]);
  assert.deepEqual(touches("tee out.log"), [["write", "/p/out.log"]]);
  assert.deepEqual(touches("echo hi > out.txt"), [["write", "/p/out.txt"]]);
});

Deno.test("searches skip the pattern and read where they search", () => {
  assert.deepEqual(touches("grep -r retry src/api"), [["read", "/p/src/api"]]);
  assert.deepEqual(touches("find src -name '*.ts'"), [["read", "/p/src"]]);
  assert.deepEqual(touches("ls -la docs"), [["read", "/p/docs"]]);
});

Deno.test("runners: a test file named is read; a bare project runner reads the project folder", () => {
  assert.deepEqual(touches("deno test tests/a_test.ts"), [["read", "/p/tests/a_test.ts"]]);
  assert.deepEqual(touches("npm test"), [["read", "/p"]]);
});
