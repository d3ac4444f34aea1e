/**
 * The shell tokenizer: words, redirections and command boundaries as Bash sees them, and the
 * words it will not guess.
 */

import assert from "node:assert/strict";
import { parseShell } from "./shell_words.ts";
import type { SimpleCommand } from "./shell_scan.ts";
import { expandBraces, MAX_WORDS } from "./shell_scan.ts";
import { parseArgs } from "./shell_commands.ts";

const HOME = "/home/me";

function commands(src: string): SimpleCommand[] {
  const parsed = parseShell(src, { home: HOME });
  assert.ok(parsed.ok, `${src} should parse`);
  return parsed.steps.flatMap((s) => s.kind === "command" ? [s.command] : []);
}

function words(src: string): (string | null)[][] {
  return commands(src).map((c) => c.words.map((w) => w.value));
}

Deno.test("quotes and escapes are removed as Bash removes them", () => {
  assert.deepEqual(words(`cat 'a b' "c d" e\\ f "g"'h' "\\$x" '\\n'`), [
    ["cat", "a b", "c d", "e f", "gh", "$x", "\\n"],
  ]);
  assert.deepEqual(words(`echo $'a\\tb' $'it\\'s'`), [["echo", "a\tb", "it's"]]);
  assert.deepEqual(words("cat a\\\nb"), [["cat", "ab"]]);
});

Deno.test("~, $HOME and ${HOME} expand; $PWD only at a word's start; other variables are unknown", () => {
  assert.deepEqual(words(`cat ~ ~/x "$HOME/y" \${HOME}/z $PWD/w`), [
    ["cat", HOME, `${HOME}/x`, `${HOME}/y`, `${HOME}/z`, "./w"],
  ]);
  assert.deepEqual(words("cat ~other/x a/$PWD $X ${Y:-d} $1 a~"), [
    ["cat", null, null, null, null, null, "a~"],
  ]);
  assert.deepEqual(parseShell("cat ~/x", {}).ok && parseShell("cat ~/x", {}), {
    ok: true,
    truncated: false,
    steps: [{
      kind: "command",
      command: {
        words: [{ value: "cat" }, { value: null }],
        redirects: [],
        heredocs: [],
        nested: [],
        subshell: false,
      },
    }],
  });
});

Deno.test("operators split commands; quoted operators are text", () => {
  assert.deepEqual(words("a && b || c; d | e & f\ng"), [["a"], ["b"], ["c"], ["d"], ["e"], [
    "f",
  ], ["g"]]);
  assert.deepEqual(words(`echo "a && b" 'c; d' e\\;f`), [["echo", "a && b", "c; d", "e;f"]]);
});

Deno.test("pipeline parts and background commands run in subshells", () => {
  assert.deepEqual(commands("a | b; c & d").map((c) => c.subshell), [true, true, true, false]);
});

Deno.test("redirections: file targets kept, descriptor copies and here-strings dropped", () => {
  const [command] = commands(`cmd > out 2>>err <in &>both >& also 2>&1 >&- <<<"text" 3< fd`);
  assert.deepEqual(command!.words.map((w) => w.value), ["cmd"]);
  assert.deepEqual(command!.redirects.map((r) => [r.op, r.target.value]), [
    [">", "out"],
    [">>", "err"],
    ["<", "in"],
    ["&>", "both"],
    ["&>", "also"],
    ["<", "fd"],
  ]);
  assert.deepEqual(words("echo 2 > x"), [["echo", "2"]]);
});

Deno.test("here-documents are data: their lines are not commands", () => {
  const src = "cat > a.ts <<'EOF'\nrm -rf /\n$(touch x)\nEOF\ncat <<-END b\n\tline\n\tEND\nls";
  const [first, second, third] = commands(src);
  assert.deepEqual(first!.heredocs, ["rm -rf /\n$(touch x)"]);
  assert.deepEqual(first!.redirects.map((r) => r.target.value), ["a.ts"]);
  assert.deepEqual(second!.words.map((w) => w.value), ["cat", "b"]);
  assert.deepEqual(second!.heredocs, ["line"]);
  assert.deepEqual(third!.words.map((w) => w.value), ["ls"]);
  assert.equal(commands("cat <<EOF\nno end").at(0)!.heredocs[0], "no end");
});

Deno.test("substitutions make a word unknown and come back as nested scripts", () => {
  const [command] = commands('diff $(cat a) "`ls b`" <(sort c) x$((1+2))');
  assert.deepEqual(command!.words.map((w) => w.value), ["diff", null, null, null, null]);
  assert.deepEqual(command!.nested, ["cat a", "ls b", "sort c"]);
});

Deno.test("subshell parentheses are steps; comments are dropped", () => {
  const parsed = parseShell("(cd a && ls) # (not this)\nb");
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.steps.map((s) => s.kind), [
    "open",
    "command",
    "command",
    "close",
    "command",
  ]);
  assert.deepEqual(words("echo a#b # c"), [["echo", "a#b"]]);
});

Deno.test("brace lists expand; globs keep their pattern with quoted parts escaped", () => {
  assert.deepEqual(expandBraces("src/{a,b/{c,d}}.ts"), ["src/a.ts", "src/b/c.ts", "src/b/d.ts"]);
  assert.deepEqual(expandBraces("{x}{}"), ["{x}{}"]);
  const [command] = commands(`ls src/*.ts "lit*"/x? '{a,b}'`);
  assert.deepEqual(command!.words.slice(1), [
    { value: "src/*.ts", glob: "src/*.ts" },
    { value: "lit*/x?", glob: "lit\\*/x?" },
    { value: "{a,b}" },
  ]);
});

Deno.test("leading NAME=value words are assignments, even when their value is unknown", () => {
  const [command] = commands("A=1 B=$X cmd C=2");
  assert.deepEqual(command!.words.map((w) => [w.value, w.assignment ?? false]), [
    ["A=1", true],
    [null, true],
    ["cmd", false],
    ["C=2", false],
  ]);
});

Deno.test("what Bash would reject is reported, not guessed", () => {
  for (
    const [src, reason] of [
      ["echo 'a", "unterminated single quote"],
      ['echo "a', "unterminated double quote"],
      ['echo "\\', "unterminated double quote"],
      ["echo $(a", "unterminated $( or <("],
      ["echo `a", "unterminated backquote"],
      ["echo ${a", "unterminated ${"],
      ["cat >", "nothing after >"],
    ]
  ) {
    assert.deepEqual(parseShell(src!), { ok: false, reason });
  }
});

Deno.test("a huge command line is read only up to the word limit", () => {
  const parsed = parseShell("echo " + "w ".repeat(MAX_WORDS * 3));
  assert.ok(parsed.ok);
  assert.equal(parsed.truncated, true);
  const count = parsed.steps.reduce(
    (n, s) => n + (s.kind === "command" ? s.command.words.length : 0),
    0,
  );
  assert.equal(count, MAX_WORDS);
});

Deno.test("parseArgs() reads options as getopt does", () => {
  const w = (...values: string[]) => values.map((value) => ({ value }));
  const parsed = parseArgs(
    w("-rnA3", "pat", "--include", "*.ts", "--color=auto", "dir", "--", "-x"),
    {
      short: "A",
      long: "include",
    },
  );
  assert.deepEqual(parsed.positionals.map((p) => p.value), ["pat", "dir", "-x"]);
  assert.deepEqual(parsed.values.get("A"), [{ value: "3" }]);
  assert.deepEqual(parsed.values.get("include"), [{ value: "*.ts" }]);
  assert.deepEqual(parsed.values.get("color"), [{ value: "auto" }]);
  assert.ok(parsed.flags.has("r") && parsed.flags.has("n"));
});

Deno.test("hostile command lines stay cheap: deep nesting, brace bombs, endless parentheses", () => {
  assert.deepEqual(parseShell("echo " + '"$('.repeat(50_000)), {
    ok: false,
    reason: "nested too deeply",
  });
  const bomb = commands("cat " + "{a,b}".repeat(2000));
  assert.deepEqual(bomb[0]!.words.map((w) => w.value), ["cat", null], "not expanded, not guessed");
  const parens = parseShell("(".repeat(100_000) + "cat x" + ")".repeat(100_000));
  assert.ok(parens.ok && parens.truncated);
  assert.ok(parens.steps.length <= MAX_WORDS);
  const ticks = parseShell("echo " + "`a`".repeat(1000));
  assert.ok(ticks.ok);
  const first = ticks.steps[0]!;
  assert.ok(first.kind === "command" && first.command.nested.length === 16);
});

Deno.test("property: any command line parses or is reported, never throws, and names no path with NUL", async () => {
  const fc = (await import("fast-check")).default;
  const { touchesOfCommand } = await import("./bash_touches.ts");
  const piece = fc.constantFrom(
    " ",
    "\t",
    "\n",
    "'",
    '"',
    "\\",
    "$",
    "(",
    ")",
    "`",
    "{",
    "}",
    ",",
    "*",
    "?",
    "[",
    "]",
    "~",
    "<",
    ">",
    "|",
    "&",
    ";",
    "#",
    "=",
    "-",
    "-i",
    "cd",
    "cat",
    "sed",
    "git",
    "rm",
    "<<EOF\n",
    "\nEOF\n",
    "$(",
    "${",
    "$'",
    "src/",
    "a.ts",
    "..",
    "/",
    "\0",
    "\ud800",
    "é",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
      const command = pieces.join("");
      const parsed = parseShell(command, { home: HOME });
      if (!parsed.ok) assert.ok(parsed.reason.length > 0);
      const found = touchesOfCommand(command, { cwd: "/repo", home: HOME });
      if (found.ok) { for (const touch of found.touches) assert.ok(!touch.path.includes("\0")); }
    }),
    { numRuns: 2000 },
  );
});
