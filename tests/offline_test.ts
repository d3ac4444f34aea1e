/**
 * Source mode works offline: a fresh checkout (no bundles, an empty Deno cache) whose npm registry
 * cannot be reached runs both hooks, an auto memory's first sync included, and `librarian import`
 * of a rule with front matter, and Deno fetches no npm package (neither the suite's `yaml` nor its
 * `fast-check`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import { parseHookStdout, REPO_ROOT, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { stopEvent } from "./stop_fixtures.ts";
import { skipOnWindows } from "./platform.ts";

/** The checkout as a fresh clone has it: every file git tracks or would (no bundles/). */
async function freshClone(into: string): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  const files = new TextDecoder().decode(out.stdout).split("\0").filter((f) => f !== "");
  assert.ok(files.includes("bin/librarian"), "the checkout's files are listed");
  for (const file of files) {
    try {
      await Deno.mkdir(join(into, file, ".."), { recursive: true });
      await Deno.copyFile(join(REPO_ROOT, file), join(into, file));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // deleted in the working tree
    }
  }
  return join(into, "bin", "librarian");
}

/** Every folder name under `dir` (none when it does not exist). */
async function folderNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory) continue;
      names.push(entry.name, ...await folderNames(join(dir, entry.name)));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

Deno.test({
  name: "offline: a fresh clone with an empty Deno cache syncs an auto memory and injects",
  ignore: skipOnWindows("needs git"),
  // each run transpiles the hooks' modules into the empty cache: a few seconds on a busy machine
  sanitizeResources: false,
  fn: async () => {
    await using dir = await tempDir();
    const launcher = await freshClone(join(dir.path, "clone"));
    const cache = join(dir.path, "deno-cache");
    await Deno.mkdir(cache);
    const root = join(dir.path, "proj");
    const home = join(dir.path, "home");
    const memory = join(home, ".claude", "projects", encodeProjectDir(root), "memory");
    await writeTree(dir.path, {
      "proj/src/app.ts": "export {};\n",
      "proj/_memory_library/src/tech.md": "# Src\n- the app starts in app.ts\n",
    });
    await writeTree(memory, {
      "feedback_pnpm.md":
        "---\nname: pnpm\ndescription: 'use pnpm: never npm'\nmetadata:\n  type: feedback\n---\nThe lockfile is pnpm's.\n",
    });
    const env = {
      DENO_DIR: cache,
      // no registry: a connection to it is refused at once
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      DENO_NO_UPDATE_CHECK: "1",
    };
    const run = (args: string[], stdin: string) =>
      runLibrarian(args, { launcher, mode: "source", home, cwd: root, stdin, env });

    const stop = await run(["stop"], stopEvent(root));
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stderr, "");
    assert.deepEqual(parseHookStdout(stop.stdout), {
      systemMessage: "Librarian: 1 auto memory synced; 1 learning → patterns.md",
    });
    assert.match(
      await Deno.readTextFile(join(root, "_memory_library", "patterns.md")),
      /- pnpm: use pnpm: never npm\n {2}The lockfile is pnpm's\.\n$/,
    );

    const inject = await run(
      ["inject"],
      JSON.stringify({
        session_id: "sess-offline",
        transcript_path: join(dir.path, "none.jsonl"),
        cwd: root,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(root, "src", "app.ts") },
      }),
    );
    assert.equal(inject.code, 0, inject.stderr);
    assert.match(JSON.stringify(parseHookStdout(inject.stdout)), /the app starts in app\.ts/);

    const fetched = await folderNames(join(cache, "npm"));
    assert.ok(!fetched.includes("yaml") && !fetched.includes("fast-check"), fetched.join(" "));
  },
});

Deno.test({
  name:
    "offline: a fresh clone with an empty Deno cache imports a Cursor rule, its front matter read",
  ignore: skipOnWindows("needs git"),
  sanitizeResources: false,
  fn: async () => {
    // issue 31: import read a rule's front matter with the npm `yaml` package, a download
    await using dir = await tempDir();
    const launcher = await freshClone(join(dir.path, "clone"));
    const cache = join(dir.path, "deno-cache");
    await Deno.mkdir(cache);
    const root = join(dir.path, "proj");
    await writeTree(root, {
      "_memory_library/.scratch.md": "",
      "src/api/handler.ts": "",
      ".cursor/rules/api-style.mdc":
        "---\ndescription: API style\nglobs: src/api/**/*.ts\nalwaysApply: false\n---\n- return problem+json errors\n",
    });
    const env = {
      DENO_DIR: cache,
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      DENO_NO_UPDATE_CHECK: "1",
    };
    // a Cursor rule is read where it lies unless its export takes it over
    const result = await runLibrarian(["import", ".", "--yes", "--json", "--export", "cursor"], {
      launcher,
      mode: "source",
      home: join(dir.path, "home"),
      cwd: root,
      env,
    });
    assert.equal(result.code, 0, result.stderr);
    const targets = JSON.parse(result.stdout).entries.map((e: { target: string }) => e.target);
    assert.deepEqual(targets, ["src/api/api-style.md"]);
    assert.match(
      await Deno.readTextFile(join(root, "_memory_library", "src", "api", "api-style.md")),
      /Cursor rule; description: API style; globs: src\/api\/\*\*\/\*\.ts/,
    );
    const fetched = await folderNames(join(cache, "npm"));
    assert.ok(!fetched.includes("yaml") && !fetched.includes("fast-check"), fetched.join(" "));
  },
});
