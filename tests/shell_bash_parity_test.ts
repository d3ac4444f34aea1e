/**
 * The tokenizer against Bash itself: each word below is given to the real `bash` (`printf` of its
 * words) and to `parseShell`; wherever the tokenizer claims to know a word's value, it must be
 * exactly what Bash produced, and a glob must expand to the same paths. Skipped where no `bash`
 * is installed.
 */

import assert from "node:assert/strict";
import { expandGlob } from "../src/inject/bash_paths.ts";
import { parseShell } from "../src/shell/shell_words.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const HOME = "/home/parity";

/** Words as a model writes them: quoting, escapes, expansions, braces, globs. */
const WORDS = [
  `plain`,
  `'single quoted $HOME'`,
  `"double $HOME/x"`,
  `"a\\"b\\\\c\\$d\\e"`,
  `back\\ slash\\;semi`,
  `$'tab\\there\\nnewline\\\\\\'q'`,
  `~`,
  `~/notes.md`,
  `a~b`,
  `"~"/x`,
  `$HOME/y`,
  `\${HOME}z`,
  `src/{api,ui}/x.ts`,
  `{a,b{c,d}}e`,
  `{x}`,
  `'{a,b}'`,
  `pre"mid"'post'`,
  `""`,
  `''`,
  `"$"`,
  `a=b`,
  `x#y`,
  `src/*.md`,
  `src/ui/*`,
  `src/?i/*.tsx`,
  `src/[au]*/x.ts`,
  `"src/*.md"`,
  `src/\\*.md`,
  `*.none`,
  `.h*`,
  `src/ui/.*`,
  `'a'\\''b'`,
  `"$HOME"'/x'`,
  `\\~`,
  `{a,b}.{c,d}`,
  `src/{a,b}.md`,
  `src/*/{x,m}.ts*`,
];

/** Words only known at run time: the tokenizer must say so (and a caller skips them). */
const UNKNOWN = [`$X`, `"$X"`, `$(pwd)`, `"\`pwd\`"`, `~root`, `a$1`, `$((1+2))`, `\${X:-a}`];

const FILES = {
  "src/a.md": "",
  "src/b.md": "",
  "src/api/x.ts": "",
  "src/ui/x.ts": "",
  "src/ui/m.tsx": "",
  "src/ui/.hidden": "",
  ".hrc": "",
};

async function bashWords(cwd: string, word: string): Promise<string[]> {
  const out = await new Deno.Command("bash", {
    args: ["--noprofile", "--norc", "-c", `printf '%s\\0' ${word}`],
    cwd,
    env: { HOME, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", LC_ALL: "C" },
    clearEnv: true,
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return text.split("\0").slice(0, -1);
}

let hasBash = false;
try {
  hasBash = (await new Deno.Command("bash", { args: ["-c", "true"] }).output()).success;
} catch {
  hasBash = false;
}

Deno.test({
  name: "tokenizer parity with bash: every value it claims to know is the one Bash produces",
  ignore: !hasBash || skipOnWindows("runs a POSIX bash"),
  async fn(t) {
    await using dir = await tempDir("librarian-parity-");
    const root = dir.path; // already the real, normal-form path
    await writeTree(root, FILES);
    for (const word of WORDS) {
      await t.step(word, async () => {
        const expected = await bashWords(root, word);
        const parsed = parseShell(`printf '%s\\0' ${word}`, { home: HOME });
        assert.ok(parsed.ok);
        const step = parsed.steps[0]!;
        assert.ok(step.kind === "command");
        const got: string[] = [];
        for (const w of step.command.words.slice(2)) {
          assert.notEqual(w.value, null, "these words are all knowable");
          if (w.glob === undefined) got.push(w.value!);
          else {
            const matches = expandGlob(`${root.replace(/[*?[\]{},\\]/g, "\\$&")}/${w.glob}`);
            got.push(
              ...(matches.length > 0 ? matches.map((m) => m.slice(root.length + 1)) : [w.value!]),
            );
          }
        }
        assert.deepEqual(got, expected);
      });
    }
  },
});

Deno.test("tokenizer: words only known at run time are unknown, never guessed", () => {
  for (const word of UNKNOWN) {
    const parsed = parseShell(`cat ${word}`, { home: HOME });
    assert.ok(parsed.ok, word);
    const step = parsed.steps[0]!;
    assert.ok(step.kind === "command");
    assert.deepEqual(step.command.words.slice(1), [{ value: null }], word);
  }
});
