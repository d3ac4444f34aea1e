/**
 * The command rules behind the Bash hook (`src/shell/shell_rules.ts`, with the tables in
 * `shell_files.ts` and `shell_runners.ts`), in process through `touchesOfCommand`: which words of
 * a command line are paths, and whether the command reads or writes them.
 */
import assert from "node:assert/strict";
import { touchesOfCommand } from "./bash_touches.ts";

function touches(command: string): Array<[string, string]> {
  const result = touchesOfCommand(command, { cwd: "/proj", home: "/h" });
  assert.ok(result.ok, `${command}: ${JSON.stringify(result)}`);
  return result.touches.map((t) => [t.role, t.path]);
}

Deno.test("readers read every operand; options and their values are not paths", () => {
  assert.deepEqual(touches("cat a.txt b.txt"), [["read", "/proj/a.txt"], ["read", "/proj/b.txt"]]);
  assert.deepEqual(touches("head -n 5 README.md"), [["read", "/proj/README.md"]]);
  assert.deepEqual(touches("sed -n 1,5p x.md"), [["read", "/proj/x.md"]]);
});

Deno.test("copies and moves read their sources and write their destination", () => {
  assert.deepEqual(touches("cp src/a.ts lib/"), [["read", "/proj/src/a.ts"], [
    "write",
    "/proj/lib",
  ]]);
  assert.deepEqual(touches("mv a b"), [["read", "/proj/a"], ["write", "/proj/b"]]);
  assert.deepEqual(touches("tee out.log"), [["write", "/proj/out.log"]]);
  assert.deepEqual(touches("echo hi > out.txt"), [["write", "/proj/out.txt"]]);
});

Deno.test("searches skip the pattern and read where they search", () => {
  assert.deepEqual(touches("grep -r retry src/api"), [["read", "/proj/src/api"]]);
  assert.deepEqual(touches("find src -name '*.ts'"), [["read", "/proj/src"]]);
  assert.deepEqual(touches("ls -la docs"), [["read", "/proj/docs"]]);
});

Deno.test("runners: a test file named is read; a bare project runner reads the project folder", () => {
  assert.deepEqual(touches("deno test tests/a_test.ts"), [["read", "/proj/tests/a_test.ts"]]);
  assert.deepEqual(touches("npm test"), [["read", "/proj"]]);
});
