/**
 * Every test skipped on Windows is listed in docs/windows.md, with the same reason, and the list
 * names no test that is not skipped: the document is the single account of what the Windows run
 * does not prove here, so it must not drift from the `ignore: skipOnWindows("...")` in the tests.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./helpers.ts";

/** One skipped test: where, which, and why. */
interface Skip {
  file: string;
  test: string;
  reason: string;
}

const key = (s: Skip) => `${s.file} | ${s.test} | ${s.reason}`;

const STRING = String.raw`(["'\x60])((?:\\.|(?!\1)[^\\])*)\1`;
const NAME_FIRST = new RegExp(String.raw`^Deno\.test\(\s*` + STRING);
const NAME_PROPERTY = new RegExp(String.raw`^Deno\.test\(\s*\{\s*name:\s*` + STRING);
const REASON = /^skipOnWindows\(\s*"([^"\\\n]+)",?\s*\)/;

/** The Windows (and Wine-only) skips in one test file's source; throws on a use it cannot read. */
function skipsInSource(file: string, source: string): Skip[] {
  const skips: Skip[] = [];
  for (const at of [...source.matchAll(/skip(OnWindows|UnderWine)\(/g)].map((m) => m.index!)) {
    const call = source.slice(at);
    const wine = call.startsWith("skipUnderWine(");
    const reason = REASON.exec(call.replace(/^skipUnderWine/, "skipOnWindows"))?.[1];
    const start = source.lastIndexOf("Deno.test(", at);
    const head = source.slice(start, at);
    const name = NAME_FIRST.exec(head)?.[2] ?? NAME_PROPERTY.exec(head)?.[2];
    const line = source.slice(0, at).split("\n").length;
    if (reason === undefined || start < 0 || name === undefined || !/ignore:[^,]*$/.test(head)) {
      throw new Error(
        `${file}:${line}: write skips as Deno.test("name", { ignore: skipOnWindows("reason") }, ...)` +
          ` or Deno.test({ name: "name", ignore: skipOnWindows("reason"), ... })`,
      );
    }
    skips.push({ file, test: name, reason: wine ? `under Wine only: ${reason}` : reason });
  }
  return skips;
}

async function skipsInTests(): Promise<Skip[]> {
  const skips: Skip[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        const file = relative(REPO_ROOT, path).replaceAll("\\", "/");
        if (file === "tests/platform.ts" || file === "tests/windows_skips_test.ts") continue;
        skips.push(...skipsInSource(file, await Deno.readTextFile(path)));
      }
    }
  };
  await walk(join(REPO_ROOT, "tests"));
  return skips;
}

/** The rows of docs/windows.md's skip table: `| tests/x_test.ts | test | reason | instead |`. */
function skipsInDoc(markdown: string): Skip[] {
  const skips: Skip[] = [];
  for (const line of markdown.split("\n")) {
    const cells = line.trim().replace(/^\||\|$/g, "").split(" | ").map((c) => c.trim());
    if (cells.length < 4 || !/^`tests\/.+\.ts`$/.test(cells[0]!)) continue;
    skips.push({
      file: cells[0]!.slice(1, -1),
      test: cells[1]!.replace(/^`|`$/g, ""),
      reason: cells[2]!,
    });
  }
  return skips;
}

Deno.test("docs/windows.md lists exactly the tests skipped on Windows, with their reasons", async () => {
  const inTests = (await skipsInTests()).map(key).sort();
  const inDoc = skipsInDoc(await Deno.readTextFile(join(REPO_ROOT, "docs", "windows.md")))
    .map(key).sort();
  const missing = inTests.filter((k) => !inDoc.includes(k));
  const stale = inDoc.filter((k) => !inTests.includes(k));
  assert.deepEqual(
    { missing, stale },
    { missing: [], stale: [] },
    "docs/windows.md, 'Tests skipped on Windows': add the missing rows, remove the stale ones",
  );
  assert.ok(inTests.length > 0, "no skipOnWindows found: is the check reading the tests?");
});

Deno.test("the skip check reads both ways of writing a skip and refuses any other", () => {
  const source = [
    `Deno.test("runs sh", { ignore: skipOnWindows("needs a POSIX shell") }, async () => {});`,
    `Deno.test({`,
    `  name: \`[\${mode}] a FIFO\`,`,
    `  ignore: skipOnWindows("needs FIFOs"),`,
    `  fn: () => {},`,
    `});`,
  ].join("\n");
  assert.deepEqual(skipsInSource("tests/x_test.ts", source), [
    { file: "tests/x_test.ts", test: "runs sh", reason: "needs a POSIX shell" },
    { file: "tests/x_test.ts", test: "[${mode}] a FIFO", reason: "needs FIFOs" },
  ]);
  assert.throws(
    () => skipsInSource("tests/y_test.ts", `const skip = skipOnWindows("why");`),
    /tests\/y_test\.ts:1: write skips as/,
  );
  assert.deepEqual(
    skipsInDoc("| `tests/x_test.ts` | `runs sh` | needs a POSIX shell | Linux CI |\n| a | b |"),
    [{ file: "tests/x_test.ts", test: "runs sh", reason: "needs a POSIX shell" }],
  );
});
