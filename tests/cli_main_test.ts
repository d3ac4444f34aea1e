/**
 * The program's own command line: usage, `--help`, `--version`, unknown commands, and `--help`
 * for every command.
 */
import assert from "node:assert/strict";
import denoConfig from "../deno.json" with { type: "json" };
import { runLibrarian } from "./helpers.ts";
import { wineSample } from "./platform.ts";

const HUMAN_COMMANDS = ["read", "status", "route", "init", "lint", "doctor", "import"];

Deno.test("librarian with no arguments prints usage on stderr and exits 2", async () => {
  const result = await runLibrarian([]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^Usage: librarian <command> \[options\]$/m);
});

Deno.test("librarian --help lists every command and exits 0", async () => {
  for (const flag of ["--help", "-h", "help"]) {
    const result = await runLibrarian([flag]);
    assert.equal(result.code, 0, flag);
    for (const name of [...HUMAN_COMMANDS, "inject"]) {
      assert.match(result.stdout, new RegExp(`^  ${name} +\\S`, "m"), `${flag} lists ${name}`);
    }
    assert.match(result.stdout, /Exit codes: 0 fine, 1 problems found, 2 usage error/);
    // the launcher's own commands (bin/librarian answers them before the program starts)
    assert.match(result.stdout, /^ {2}fetch-binary +\S/m, `${flag} lists fetch-binary`);
    assert.match(result.stdout, /^ {2}install-binary <file> +\S/m, `${flag} lists install-binary`);
  }
});

Deno.test("librarian --version prints the version from deno.json", async () => {
  for (const flag of ["--version", "-V"]) {
    const result = await runLibrarian([flag]);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `librarian ${denoConfig.version}\n`);
  }
});

Deno.test("an unknown command or option exits 2 with a usage line", async () => {
  const command = await runLibrarian(["frobnicate"]);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command 'frobnicate'/);
  assert.match(command.stderr, /^Usage: librarian <command> \[options\]$/m);
  const option = await runLibrarian(["--frobnicate"]);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /unknown option '--frobnicate'/);
});

Deno.test("every command answers --help with its usage line and exits 0", async () => {
  // the program's commands (the launcher's own, listed after them, are answered by bin/librarian)
  const listed = (await runLibrarian(["--help"])).stdout.split("The launcher's own")[0]!
    .split("\n")
    .map((line) => /^ {2}([a-z][\w-]*) {2,}/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  assert.ok(listed.length >= HUMAN_COMMANDS.length + 1, listed.join(" "));
  for (const name of wineSample(listed)) {
    const result = await runLibrarian([name, "--help"], { stdin: "" });
    assert.equal(result.code, 0, `${name} --help: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`^Usage: librarian ${name}\\b`, "m"), name);
  }
});

Deno.test("help <command> shows that command's help", async () => {
  const result = await runLibrarian(["help", "lint"]);
  assert.equal(result.code, 0);
  assert.match(
    result.stdout,
    /^Usage: librarian lint \[--json\] \[--fix\] \[--change-threshold <percent>\] \[--similarity <percent>\]$/m,
  );
});

Deno.test("a hook's --help does not wait for an event on stdin", async () => {
  const result = await runLibrarian(["inject", "--help"]);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^Usage: librarian inject < hook-event\.json$/m);
});

Deno.test("librarian help <unknown> is a usage error, not the general help", async () => {
  const result = await runLibrarian(["help", "bogus"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no help for unknown command 'bogus'/);
  assert.match(result.stderr, /Usage: librarian <command>/);
  const known = await runLibrarian(["help", "lint"]);
  assert.equal(known.code, 0);
  assert.match(known.stdout, /Usage: librarian lint/);
});
