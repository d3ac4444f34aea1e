/**
 * A bundled hook run ends its process at once only when its bundle loaded from Deno's code cache
 * (`src/core/load_clock.ts`): a run that had to compile the bundle ends the normal way, so Deno
 * finishes writing the cache and the next runs load from it.
 *
 * What Deno keeps is read from its cache folder (Deno 2: `v8_code_cache_v2` and its write-ahead
 * log), not timed: a cache written whole holds some four times the bundle's bytes, one cut short
 * by an exit during its writing less than the bundle (measured: 226 KB against 45 KB for the
 * 55 KB stop bundle), however busy the machine.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseLogLine } from "../src/core/log.ts";
import { REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";
import { makeProject, stopEvent } from "./stop_fixtures.ts";

/** The bytes of V8 code cache in a Deno cache folder (its database and write-ahead log). */
async function codeCacheBytes(denoDir: string): Promise<number> {
  let bytes = 0;
  for await (const entry of Deno.readDir(denoDir)) {
    if (entry.name.startsWith("v8_code_cache") && !entry.name.endsWith("-shm")) {
      bytes += (await Deno.stat(join(denoDir, entry.name))).size;
    }
  }
  return bytes;
}

Deno.test("a bundled hook that compiled its bundle ends normally, so Deno keeps its whole code cache for the next runs", async () => {
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
    const bundle = (await Deno.stat(join(REPO_ROOT, "bundles", `${hook}.js`))).size;
    // a Deno cache of its own, empty: the first run compiles the bundle
    const denoDir = join(dir.path, `deno-${hook}`);
    const log = join(dir.path, `${hook}.log`);
    const cached: number[] = [];
    for (let run = 0; run < 3; run++) {
      const result = await runLibrarian([hook], {
        mode: "source",
        stdin: event,
        cwd: p.root,
        home: p.home,
        env: { DENO_DIR: denoDir, LIBRARIAN_LOG: log },
      });
      assert.equal(result.code, 0, result.stderr);
      cached.push(await codeCacheBytes(denoDir));
    }
    // whole after the compiling run, and still whole after the runs that loaded from it
    for (const [run, bytes] of cached.entries()) {
      assert.ok(bytes > 2 * bundle, `${hook}, run ${run + 1}: ${bytes} bytes of code cache`);
    }
    // each run logged how long Deno took to load it
    const lines = (await Deno.readTextFile(log)).trim().split("\n");
    assert.equal(lines.length, 3);
    for (const line of lines) assert.ok(Number(parseLogLine(line)?.fields.load_ms) > 0, line);
  }
});
