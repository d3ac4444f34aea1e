/**
 * One voice for every command: the same wording for a usage error, `--json` output that always
 * has a top-level `version` (errors included), and numbers as JSON numbers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listedCommands } from "../src/command_table.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

/** The commands people run (old names, which point to their new form first, aside). */
const PEOPLE_COMMANDS = listedCommands().map(([name]) => name).filter((name) =>
  name !== "inject" && name !== "stop"
);

Deno.test("every command says 'unknown option' the same way, with its usage line, exit 2", async () => {
  await using dir = await tempDir();
  for (const name of PEOPLE_COMMANDS) {
    const result = await runLibrarian([name, "--bogus"], { cwd: dir.path, home: dir.path });
    assert.equal(result.code, 2, name);
    assert.match(
      result.stderr,
      new RegExp(`^librarian ${name}: unknown option '--bogus'\\n`),
      name,
    );
    assert.match(result.stderr, new RegExp(`^Usage: librarian ${name}`, "m"), name);
  }
});

/** Paths in a JSON value whose string holds only a number (a count or a time written as text). */
function numbersAsStrings(value: unknown, at = ""): string[] {
  if (typeof value === "string") return /^-?\d+(\.\d+)?$/.test(value) ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersAsStrings(v, `${at}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => numbersAsStrings(v, `${at}.${k}`));
  }
  return [];
}

Deno.test("every --json output, success or error, has a top-level version", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "proj/_memory_library/tech.md": "- Deno\n",
    "proj/src/a.ts": "",
    "run.log":
      `2026-11-30T06:22:54.206Z inject event=PreToolUse result=injected chars=145 ms=7.5 ` +
      `project=${join(dir.path, "proj")}\n`,
  });
  const cwd = join(dir.path, "proj");
  for (const name of PEOPLE_COMMANDS) {
    const result = await runLibrarian([name, "--json"], {
      cwd,
      home: join(dir.path, "home"),
      env: {
        LIBRARIAN_STATE_DIR: join(dir.path, "state"),
        LIBRARIAN_LOG: join(dir.path, "run.log"),
      },
    });
    let report;
    try {
      report = JSON.parse(result.stdout);
    } catch {
      assert.fail(`${name} --json printed no JSON: ${result.stdout}${result.stderr}`);
    }
    assert.equal(typeof report.version, "string", `${name}: ${result.stdout}`);
    assert.deepEqual(numbersAsStrings(report), [], `${name}: numbers written as strings`);
  }
});

Deno.test("a mistyped command gets a suggestion", async () => {
  // ('stauts' is now as close to `stats` as to `status`)
  const result = await runLibrarian(["statuss"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^librarian: unknown command 'statuss'; did you mean `status`\?/);
});
