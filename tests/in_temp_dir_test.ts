/**
 * `scripts/in_temp_dir.ts`, which `deno task test:doc` runs through: the command gets a temporary
 * folder of its own, what it leaves there is removed, and its exit status is the script's.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./helpers.ts";

const SCRIPT = join(REPO_ROOT, "scripts", "in_temp_dir.ts");

/** Runs the script on `deno eval <code>`, with `parent` as the machine's temporary folder. */
async function runScript(parent: string, code: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SCRIPT, "deno", "eval", code],
    env: { TMPDIR: parent, TMP: parent, TEMP: parent },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout).trim() };
}

Deno.test("a command run in a temporary folder of its own leaves nothing in the machine's, and its exit status passes through", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const made = "const d = Deno.makeTempDirSync(); Deno.writeTextFileSync(d + '/left.md', 'x');" +
      "console.log(Deno.env.get('TMPDIR')); Deno.exit(3)";
    const run = await runScript(parent, made);
    assert.equal(run.code, 3, "the command's status is the script's");
    assert.ok(
      run.stdout.startsWith(parent),
      `the command's TMPDIR (${run.stdout}) is inside ${parent}`,
    );
    assert.notEqual(run.stdout, parent, "a folder of its own, not the machine's");
    assert.deepEqual([...Deno.readDirSync(parent)], [], "what the command left is removed");
    assert.equal((await runScript(parent, "Deno.exit(0)")).code, 0);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
