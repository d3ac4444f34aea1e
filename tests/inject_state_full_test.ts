/**
 * Issue 22: with the state folder's file system full, the inject hook cannot remember what it
 * sent. It sends nothing (never every library file at every touch) and says so once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseHookStdout, runLibrarian, tempProject } from "./helpers.ts";
import { mountTinyDisk } from "./full_disk.ts";

Deno.test("a full state folder: nothing is sent, the user is told once, and the log says why", async (t) => {
  await using disk = await mountTinyDisk(64);
  if (disk === null) {
    t.step({ name: "needs a tmpfs (Linux, root)", ignore: true, fn: () => {} });
    return;
  }
  const p = await tempProject({
    "proj/_memory_library/tech.md": "- ROOT-TECH-MARKER\n",
    "proj/_memory_library/.scratch.md": "",
    "proj/src/a.ts": "",
    "proj/src/b.ts": "",
  });
  await using _dir = p.dir;
  const state = join(disk.path, "state");
  await Deno.mkdir(join(state, "ledgers"), { recursive: true });
  // Fill the disk: every data block taken.
  const filler = await Deno.open(join(disk.path, "filler"), { write: true, create: true });
  try {
    for (;;) await filler.write(new Uint8Array(4096));
  } catch {
    // full
  } finally {
    filler.close();
  }
  const log = join(p.dir.path, "librarian.log");
  const touch = async (file: string) => {
    const result = await runLibrarian(["inject"], {
      stdin: JSON.stringify({
        session_id: "full-1",
        cwd: p.root,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(p.root, file) },
      }),
      home: p.home,
      cwd: p.root,
      env: { LIBRARIAN_STATE_DIR: state, LIBRARIAN_LOG: log },
    });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  const first = await touch("src/a.ts");
  assert.ok(!first.includes("ROOT-TECH-MARKER"), "nothing is sent that cannot be remembered");
  assert.match(String(parseHookStdout(first)?.systemMessage), /state folder .* is full/);
  for (const file of ["src/a.ts", "src/b.ts"]) {
    assert.equal((await touch(file)).trim(), "", "told once, and still nothing sent");
  }
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  assert.equal(lines.length, 3);
  assert.ok(lines.every((line) => /result=state-full/.test(line)), lines.join("\n"));
});
