/**
 * Which Bash commands Claude Code 2.1.3xx takes for a read of a file (and so loads the file's
 * nested memory itself): its own test, read from the 2.1.332 bundle, mirrored. Where unsure the
 * answer is "not a read" (the Librarian then sends the memory).
 */
import assert from "node:assert/strict";
import { clientReadsOfCommand } from "./client_bash_reads.ts";

Deno.test("the client's reads: cat, nl, bat, head, tail, sed -n with a line range, and a lone grep or rg", () => {
  const reads: [string, string[]][] = [
    ["cat -n a.ts", ["a.ts"]],
    ["nl a.ts", ["a.ts"]],
    ["batcat --plain a.ts", ["a.ts"]],
    ["head -n 20 a.ts", ["a.ts"]],
    ["head --lines=5 a.ts", ["a.ts"]],
    ["tail -20 a.ts", ["a.ts"]],
    ["sed -n '10,40p' a.ts", ["a.ts"]],
    ["sed --quiet 7p a.ts", ["a.ts"]],
    ["grep -n -C 2 TODO a.ts", ["a.ts"]],
    ["rg --smart-case -A3 TODO a.ts", ["a.ts"]],
    ["cat 'a b.ts'", ["a b.ts"]],
    ["echo start; cat a.ts && head -3 b.ts", ["a.ts", "b.ts"]],
  ];
  for (const [command, files] of reads) {
    assert.deepEqual(clientReadsOfCommand(command), files, command);
  }
});

Deno.test("not the client's reads: a pipe or redirection anywhere, an edit, several files, a glob, options it does not know, a grep beside another command, any other command in the list", () => {
  const none = [
    "cat a.ts 2>/dev/null",
    "cat a.ts > b.ts",
    "sed -n 1p a.ts | head",
    "sed -ni 1p a.ts",
    "sed -n -e 1p a.ts",
    "sed -n 's/a/b/p' a.ts",
    "cat a.ts b.ts",
    "cat *.ts",
    "cat -",
    "head -c 10 a.ts",
    "head -n 0 a.ts",
    "grep -r TODO src",
    "grep -e TODO a.ts",
    "grep TODO 'src/*.ts'",
    "grep TODO a.ts && echo found",
    "cd src && cat a.ts",
    "X=1 cat a.ts",
    "cat $(echo a.ts)",
    "(cat a.ts)",
    "ls src",
    "wc -l a.ts",
    "cat 'unterminated",
  ];
  for (const command of none) assert.deepEqual(clientReadsOfCommand(command), [], command);
});
