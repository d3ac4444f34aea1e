/**
 * A bundled hook run ends its process at once only when its bundle loaded from Deno's code cache
 * (`src/core/load_clock.ts`): a run that had to compile the bundle ends the normal way, so Deno
 * finishes writing the cache and the next run loads from it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseLogLine } from "../src/core/log.ts";
import { runLibrarian, tempDir } from "./helpers.ts";
import { makeProject, stopEvent } from "./stop_fixtures.ts";

/** The `load_ms` of each line of a hook log. */
async function loadTimes(log: string): Promise<number[]> {
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  return lines.map((line) => Number(parseLogLine(line)?.fields.load_ms));
}

Deno.test("a bundled hook that compiled its bundle ends normally, so the next runs load it from Deno's code cache", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/src/patterns.md": "- use X\n" });
  const read = JSON.stringify({
    session_id: "exit-1",
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(p.root, "src", "app.ts") },
    cwd: p.root,
  });
  for (const [hook, event] of [["inject", read], ["stop", stopEvent(p.root)]] as const) {
    // a Deno cache of its own, empty: the first run compiles the bundle
    const denoDir = join(dir.path, `deno-${hook}`);
    const log = join(dir.path, `${hook}.log`);
    for (let run = 0; run < 3; run++) {
      const result = await runLibrarian([hook], {
        mode: "source",
        stdin: event,
        cwd: p.root,
        home: p.home,
        env: { DENO_DIR: denoDir, LIBRARIAN_LOG: log },
      });
      assert.equal(result.code, 0, result.stderr);
    }
    const [compiled, second, third] = await loadTimes(log);
    // loaded from a complete cache, a bundle takes a tenth of its compile or less; from one whose
    // writing a quick exit cut short, about half (measured: docs/benchmarks.md)
    assert.ok(second! * 3 < compiled!, `${hook}: loads ${compiled} ms, then ${second} ms`);
    assert.ok(third! * 3 < compiled!, `${hook}: loads ${compiled} ms, then ${third} ms`);
  }
});
