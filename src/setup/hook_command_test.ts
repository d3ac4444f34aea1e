/**
 * The command lines written into Claude Code settings (`src/setup/hook_command.ts`): a path
 * with any character in it must reach the launcher as one word, in sh and in PowerShell.
 */
import assert from "node:assert/strict";
import { hookCommand, powershellQuote, shSingleQuote } from "./hook_command.ts";

Deno.test("sh quoting keeps spaces, dollars and backquotes literal, and ends quotes around a quote", () => {
  assert.equal(shSingleQuote("/my repo"), "'/my repo'");
  assert.equal(shSingleQuote("$HOME/`x`"), "'$HOME/`x`'");
  assert.equal(shSingleQuote("it's"), "'it'\\''s'");
  assert.equal(shSingleQuote(""), "''");
});

Deno.test("PowerShell quoting doubles every kind of single quote", () => {
  assert.equal(powershellQuote("C:/it's"), "'C:/it''s'");
  assert.equal(powershellQuote("a\u2019b"), "'a\u2019\u2019b'");
  assert.equal(powershellQuote("$env:X"), "'$env:X'");
});

Deno.test("the launcher is run through sh, a binary directly, PowerShell with &", () => {
  const launcher = { kind: "launcher" as const, path: "/opt/my tools/bin/librarian" };
  const binary = { kind: "binary" as const, path: "/opt/bin/librarian-x86_64-unknown-linux-gnu" };
  assert.equal(
    hookCommand(launcher, "stop", "sh", "linux"),
    "sh '/opt/my tools/bin/librarian' stop",
  );
  assert.equal(
    hookCommand(binary, "inject", "sh", "linux"),
    "'/opt/bin/librarian-x86_64-unknown-linux-gnu' inject",
  );
  assert.equal(
    hookCommand(
      { kind: "binary", path: "C:\\T\\librarian.exe" },
      "inject",
      "powershell",
      "windows",
    ),
    "& 'C:/T/librarian.exe' inject",
  );
});
