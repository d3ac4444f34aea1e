/**
 * Export keeps inside the repository (issue 22): a symbolic link in a generated file's way that
 * leads outside is refused, never written through; a nested project's own generated files are
 * never deleted; a failed write is reported as failed, never as done; a disk that fills up leaves
 * no temp file; and exports converge after a Stop killed half-way through its re-export.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Library } from "../src/core/discover.ts";
import { generatedText } from "../src/export/export_formats.ts";
import { runExport } from "../src/export/export_run.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { CAN_MOUNT_TINY_DISK, fillDisk, mountTinyDisk } from "./full_disk.ts";

function libraryAt(projectRoot: string): Library {
  return { root: join(projectRoot, "_memory_library"), projectRoot, foundBy: "cwd" };
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch {
    // nothing there
  }
  return names.sort();
}

/** Every file name under `dir` (recursively, links not followed). */
async function walkNames(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory) out.push(...await walkNames(path));
  }
  return out;
}

const LIBRARY = {
  "proj/_memory_library/tech.md": "- root learning\n",
  "proj/_memory_library/src/api/patterns.md": "- api learning\n",
  "proj/src/api/handler.ts": "",
};

/** Export in `format` with its rule folder `folder` a link out of the repository. */
async function refusesLinkedRuleFolder(format: "claude-rules" | "cursor", folder: string) {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const outside = join(dir.path, "home-config");
  await Deno.mkdir(join(outside, "rules"), { recursive: true });
  await Deno.symlink(outside, join(dir.path, "proj", folder));
  const report = await runExport(libraryAt(join(dir.path, "proj")), { formats: [format] });
  assert.deepEqual(await entries(join(outside, "rules")), []);
  assert.ok(report.failures.length > 0, JSON.stringify(report));
  assert.match(report.failures[0]!.error, /leads outside the repository/);
}

Deno.test("claude-rules: a .claude that links outside the repository is never written through", {
  ignore: skipOnWindows("needs symbolic links"),
}, () => refusesLinkedRuleFolder("claude-rules", ".claude"));

Deno.test("cursor: a .cursor that links outside the repository is never written through", {
  ignore: skipOnWindows("needs symbolic links"),
}, () => refusesLinkedRuleFolder("cursor", ".cursor"));

Deno.test(
  "claude-rules: earlier generated files beyond a link that leaves are never deleted",
  { ignore: skipOnWindows("needs symbolic links") },
  async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, LIBRARY);
    const outside = join(dir.path, "home-config");
    const theirs = generatedText("claude-rules", "_memory_library", "lib", "- another project\n");
    await writeTree(outside, { "rules/librarian-lib.md": theirs });
    await Deno.symlink(outside, join(dir.path, "proj/.claude"));
    await runExport(libraryAt(join(dir.path, "proj")), { formats: ["claude-rules"] });
    assert.equal(await Deno.readTextFile(join(outside, "rules/librarian-lib.md")), theirs);
  },
);

Deno.test(
  "agents-md: a code folder that links to a sibling repository gets no AGENTS.md",
  { ignore: skipOnWindows("needs symbolic links") },
  async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      "proj/_memory_library/vendor/lib/patterns.md": "- vendored learning\n",
      "sibling/index.ts": "",
    });
    await Deno.mkdir(join(dir.path, "proj/vendor"), { recursive: true });
    await Deno.symlink(join(dir.path, "sibling"), join(dir.path, "proj/vendor/lib"));
    const report = await runExport(libraryAt(join(dir.path, "proj")), { formats: ["agents-md"] });
    assert.deepEqual(await entries(join(dir.path, "sibling")), ["index.ts"]);
    const skip = report.skipped.find((s) => s.folder === "vendor/lib");
    assert.ok(skip, JSON.stringify(report));
    assert.match(skip.reason, /outside the repository/);
  },
);

Deno.test("agents-md: exporting an outer project never deletes (or writes) a nested project's own AGENTS.md", async () => {
  await using dir = await tempDir();
  const inner = generatedText("agents-md", "_memory_library", "src", "- inner learning\n");
  await writeTree(dir.path, {
    "proj/_memory_library/tech.md": "- outer\n",
    "proj/_memory_library/packages/inner/src/patterns.md": "- outer's view of inner\n",
    "proj/packages/inner/_memory_library/src/patterns.md": "- inner learning\n",
    "proj/packages/inner/src/AGENTS.md": inner,
    "proj/packages/git-inner/.git/HEAD": "ref: refs/heads/main\n",
    "proj/packages/git-inner/lib/AGENTS.md": inner,
  });
  const report = await runExport(libraryAt(join(dir.path, "proj")), { formats: ["agents-md"] });
  assert.equal(await Deno.readTextFile(join(dir.path, "proj/packages/inner/src/AGENTS.md")), inner);
  assert.equal(
    await Deno.readTextFile(join(dir.path, "proj/packages/git-inner/lib/AGENTS.md")),
    inner,
  );
  assert.ok(
    !report.actions.some((a) => a.path.startsWith("packages/")),
    JSON.stringify(report.actions),
  );
});

Deno.test("a full disk: export reports the write as failed (never 'created'), exits 1, leaves no temp file", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const cwd = join(dir.path, "proj");
  const result = await runLibrarian(["export", "--format", "agents-md"], {
    cwd,
    home: join(dir.path, "home"),
    env: { LIBRARIAN_FAULT: "write-disk-full" },
  });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  const failedLine = result.stdout.split("\n").find((l) => /failed/.test(l));
  assert.ok(failedLine && /the disk is full/.test(failedLine), result.stdout);
  const failedPath = /failed\s+(\S+):/.exec(failedLine)![1]!;
  assert.ok(
    !result.stdout.split("\n").some((l) =>
      l.trim().split(/\s+/).slice(0, 2).join(" ") === `created ${failedPath}`
    ),
    result.stdout,
  );
  assert.match(result.stdout, /Changed 1 file/);
  const temps = (await walkNames(cwd)).filter((p) => /\.tmp-/.test(p));
  assert.deepEqual(temps, []);
});

/** A Stop event for `cwd`. */
function stopEvent(dirPath: string, cwd: string, session: string): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: join(dirPath, "none.jsonl"),
    cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
  });
}

Deno.test(
  "a cloned repository's .claude link to ~/.claude plus claude-rules: the Stop writes nothing into ~/.claude",
  { ignore: skipOnWindows("needs symbolic links") },
  async () => {
    await using dir = await tempDir();
    const home = join(dir.path, "home");
    await writeTree(dir.path, {
      ...LIBRARY,
      "proj/_memory_library/.librarian.json": '{"version": 1, "export": ["claude-rules"]}\n',
      "proj/_memory_library/.scratch.md": "## [TAG: src/api, type: edge]\n- filed by the Stop\n",
      "home/.claude/settings.json": "{}\n",
    });
    await Deno.symlink("../home/.claude", join(dir.path, "proj/.claude"));
    const cwd = join(dir.path, "proj");
    const stop = await runLibrarian(["stop"], { cwd, home, stdin: stopEvent(dir.path, cwd, "s1") });
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(
      await Deno.readTextFile(join(cwd, "_memory_library/src/api/edge.md")),
      /filed by the Stop/,
    );
    assert.deepEqual(await entries(join(home, ".claude")), ["librarian", "settings.json"]);
    assert.deepEqual(await entries(join(home, ".claude/rules")), []);
    assert.match(stop.stdout, /outside the repository/);
  },
);

/**
 * A project under `root` exporting `agents-md`, code folders `src/<name>` for each of `folders`,
 * whose Stop filed learnings for src/a and src/b and was killed after its first export write.
 */
async function killedDuringReexport(root: string, folders: readonly string[]) {
  const home = join(root, "home");
  const cwd = join(root, "proj");
  await writeTree(root, {
    ...LIBRARY,
    ...Object.fromEntries(folders.map((name) => [`proj/src/${name}/x.ts`, ""])),
  });
  const init = await runLibrarian(["init", "--export", "agents-md"], { cwd, home });
  assert.equal(init.code, 0, init.stderr + init.stdout);
  await Deno.writeTextFile(
    join(cwd, "_memory_library/.scratch.md"),
    "## [TAG: src/a, type: edge]\n- a learning\n\n## [TAG: src/b, type: edge]\n- b learning\n",
  );
  const killed = await runLibrarian(["stop"], {
    cwd,
    home,
    stdin: stopEvent(root, cwd, "s1"),
    env: { LIBRARIAN_FAULT: "after-export-write:1" },
  });
  assert.equal(killed.code, 86, killed.stderr + killed.stdout);
  return { home, cwd };
}

Deno.test("exports converge: a Stop killed during its re-export leaves nothing stale after the next Stop", async () => {
  await using dir = await tempDir();
  const { home, cwd } = await killedDuringReexport(dir.path, ["a", "b", "c"]);
  const stale = await runLibrarian(["export", "--check"], { cwd, home });
  assert.equal(stale.code, 1, stale.stdout);
  assert.match(stale.stdout, /src\/(a|b)\/AGENTS\.md/, "--check names the stale file");
  // What a kill in the middle of a write leaves: a temp file beside the export.
  await Deno.writeTextFile(join(cwd, "src/b/AGENTS.md.tmp-4242-1-abc123"), "half");
  await Deno.writeTextFile(
    join(cwd, "_memory_library/.scratch.md"),
    "## [TAG: src/c, type: edge]\n- c learning\n",
  );
  const next = await runLibrarian(["stop"], { cwd, home, stdin: stopEvent(dir.path, cwd, "s2") });
  assert.equal(next.code, 0, next.stderr);
  const check = await runLibrarian(["export", "--check"], { cwd, home });
  assert.equal(check.code, 0, check.stdout);
  for (const folder of ["a", "b", "c"]) {
    assert.match(await Deno.readTextFile(join(cwd, `src/${folder}/AGENTS.md`)), /learning/);
  }
  const temps = (await walkNames(cwd)).filter((p) => /\.tmp-/.test(p));
  assert.deepEqual(temps, []);
});

Deno.test(
  "a real full disk: a Stop that files and re-exports leaves no temp file in the library or in code folders",
  {
    ignore: !CAN_MOUNT_TINY_DISK,
  },
  async () => {
    await using disk = (await mountTinyDisk(256))!;
    await using home = await tempDir();
    const cwd = join(disk.path, "proj");
    await writeTree(disk.path, LIBRARY);
    const init = await runLibrarian(["init", "--export", "agents-md"], { cwd, home: home.path });
    assert.equal(init.code, 0, init.stderr + init.stdout);
    await Deno.writeTextFile(
      join(cwd, "_memory_library/.scratch.md"),
      `## [TAG: src/api, type: edge]\n- ${"a long learning about the api ".repeat(400)}\n`,
    );
    fillDisk(disk.path);
    const stop = await runLibrarian(["stop"], {
      cwd,
      home: home.path,
      stdin: stopEvent(home.path, cwd, "s-full"),
    });
    assert.equal(stop.code, 0, stop.stderr);
    const temps = (await walkNames(cwd)).filter((p) => /\.tmp-/.test(p));
    assert.deepEqual(temps, []);
    assert.match(
      await Deno.readTextFile(join(cwd, "_memory_library/.scratch.md")),
      /a long learning about the api/,
      "the learning waits in scratch for a disk with room",
    );
  },
);

Deno.test("exports converge even when the next Stop has nothing to file: the re-export left due is finished, its temp files swept", async () => {
  await using dir = await tempDir();
  const { home, cwd } = await killedDuringReexport(dir.path, ["a", "b"]);
  // What a kill in the middle of a write leaves: a temp file beside the export.
  await Deno.writeTextFile(join(cwd, "src/b/AGENTS.md.tmp-4242-1-abc123"), "half");
  assert.equal((await runLibrarian(["export", "--check"], { cwd, home })).code, 1);
  // The next turn tags nothing: scratch is empty, yet the Stop finishes the export left due.
  const idle = await runLibrarian(["stop"], { cwd, home, stdin: stopEvent(dir.path, cwd, "s2") });
  assert.equal(idle.code, 0, idle.stderr);
  const check = await runLibrarian(["export", "--check"], { cwd, home });
  assert.equal(check.code, 0, check.stdout);
  for (const folder of ["a", "b"]) {
    assert.match(await Deno.readTextFile(join(cwd, `src/${folder}/AGENTS.md`)), /learning/);
  }
  const temps = (await walkNames(cwd)).filter((p) => /\.tmp-/.test(p));
  assert.deepEqual(temps, []);
  // Done is done: a later idle Stop exports nothing again.
  const later = await runLibrarian(["stop"], { cwd, home, stdin: stopEvent(dir.path, cwd, "s3") });
  assert.equal(later.code, 0, later.stderr);
  assert.doesNotMatch(later.stdout, /export/);
});

Deno.test("librarian export clears the temp files a killed export left beside its files", async () => {
  await using dir = await tempDir();
  const home = join(dir.path, "home");
  const cwd = join(dir.path, "proj");
  await writeTree(dir.path, LIBRARY);
  const first = await runLibrarian(["export", "--format", "agents-md"], { cwd, home });
  assert.equal(first.code, 0, first.stderr + first.stdout);
  // What a kill in the middle of a write leaves: a temp file beside the export.
  await Deno.writeTextFile(join(cwd, "src/api/AGENTS.md.tmp-4242-1-abc123"), "half");
  const next = await runLibrarian(["export", "--format", "agents-md"], { cwd, home });
  assert.equal(next.code, 0, next.stderr + next.stdout);
  assert.deepEqual((await walkNames(cwd)).filter((p) => /\.tmp-/.test(p)), []);
});
