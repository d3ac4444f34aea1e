/**
 * Subprocess specification of the stop hook: `sh bin/librarian stop` with real hook JSON.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import {
  parseHookStdout,
  runLibrarian,
  type RunOptions,
  type RunResult,
  tempDir,
  writeTree,
} from "./helpers.ts";
import { listFiles, makeProject, type Project, stopEvent } from "./stop_fixtures.ts";
import { skipOnWindows } from "./platform.ts";

const TODAY = "2026-11-30";
const NOW = `${TODAY}T12:00:00`;

async function stop(
  p: Project,
  options: { env?: Record<string, string>; event?: Record<string, unknown> } & RunOptions = {},
): Promise<RunResult> {
  const { env, event, ...rest } = options;
  return await runLibrarian(["stop"], {
    stdin: stopEvent(p.root, event),
    home: p.home,
    cwd: p.root,
    ...rest,
    env: { LIBRARIAN_NOW: NOW, ...env },
  });
}

/** The one systemMessage of a run (asserting the output shape), or null for no output. */
function messageOf(result: RunResult): string | null {
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  if (out === null) return null;
  assert.deepEqual(Object.keys(out), ["systemMessage"], "only a systemMessage, never a decision");
  assert.equal(typeof out.systemMessage, "string");
  return out.systemMessage as string;
}

async function read(path: string): Promise<string> {
  return await Deno.readTextFile(path);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("tagged blocks are filed into <library>/<path>/<type>.md and the user is told", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": [
      "## [TAG: models/launch/btbi, type: patterns]",
      "- Legacy _fivetran_deleted filters are redundant",
      "- Always use LEFT JOINs when removing export_builders_seed",
      "",
      "## [TAG: global, type: tech]",
      "- datetime_timezone_trunc needs Databricks syntax",
      "",
    ].join("\n"),
  });
  const message = messageOf(await stop(p));
  assert.equal(
    message,
    "Librarian: 3 learnings → models/launch/btbi/patterns.md, tech.md",
  );
  assert.equal(
    await read(join(p.lib, "models/launch/btbi/patterns.md")),
    "# patterns\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n" +
      "- Legacy _fivetran_deleted filters are redundant\n" +
      "- Always use LEFT JOINs when removing export_builders_seed\n",
  );
  assert.equal(
    await read(join(p.lib, "tech.md")),
    "# tech\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- datetime_timezone_trunc needs Databricks syntax\n",
  );
  assert.equal(await read(p.scratch), "");
});

Deno.test("tag spelling variants all route", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": [
      "##[TAG:src/a,type:edge]",
      "- one",
      "##   [ TAG :  src/a ,  type :  edge ]  ",
      "- two",
      "## [tag: src/a, TYPE: edge]",
      "- three",
      "",
    ].join("\n"),
  });
  messageOf(await stop(p));
  assert.equal(
    await read(join(p.lib, "src/a/edge.md")),
    "# edge\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- one\n- two\n- three\n",
  );
});

Deno.test("no library anywhere: exit 0 and no output", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["stop"], { stdin: stopEvent(dir.path), cwd: dir.path });
  assert.equal(messageOf(result), null);
});

Deno.test("input that is not a hook event: exit 0 and no output", async () => {
  for (const stdin of ["", "not json", "[1,2]", '{"cwd": 3}']) {
    const result = await runLibrarian(["stop"], { stdin });
    assert.equal(messageOf(result), null, stdin);
  }
});

Deno.test("a turn with nothing to do prints nothing, writes nothing and takes no lock", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": "\n  \n" });
  const log = join(dir.path, "librarian.log");
  const result = await stop(p, { env: { LIBRARIAN_LOG: log } });
  assert.equal(messageOf(result), null);
  assert.equal(await read(p.scratch), "\n  \n");
  assert.equal(await exists(join(p.home, ".claude", "librarian", "locks")), false);
  assert.match(await read(log), /^\S+ stop result=nothing-to-do .*ms=[\d.]+\n$/);
});

Deno.test("the log line carries counts and milliseconds", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- a\n## [TAG: x]\n- legacy\n",
  });
  const log = join(dir.path, "librarian.log");
  messageOf(await stop(p, { env: { LIBRARIAN_LOG: log } }));
  const line = await read(log);
  assert.match(line, / stop result=routed /);
  assert.match(line, / routed=1 learnings=1 files=1 /);
  assert.match(line, / kept=1 newly_kept=1 /);
  assert.match(line, / session=sess-123 /);
  assert.match(line, / ms=[\d.]+\n$/);
});

Deno.test("CRLF scratch with a BOM routes; the target gets LF lines", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md":
      "\uFEFF## [TAG: global, type: tech]\r\n- crlf one\r\n- crlf two\r\n## [TAG: old]\r\n- stays\r\n",
  });
  messageOf(await stop(p));
  assert.equal(
    await read(join(p.lib, "tech.md")),
    "# tech\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- crlf one\n- crlf two\n",
  );
  assert.equal(
    await read(p.scratch),
    "\uFEFF## [TAG: old]\r\n<!-- librarian: kept in scratch: tag has no type (legacy form); add ', type: <name>' to file it -->\r\n- stays\r\n",
  );
});

Deno.test("a tag inside a code fence is part of the learning, not a new block", async () => {
  await using dir = await tempDir();
  const body = [
    "- tag learnings like this:",
    "",
    "```markdown",
    "## [TAG: src/api, type: patterns]",
    "- example",
    "```",
  ].join("\n");
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": `## [TAG: global, type: howto]\n${body}\n`,
  });
  assert.equal(messageOf(await stop(p)), "Librarian: 2 learnings → howto.md");
  assert.equal(
    await read(join(p.lib, "howto.md")),
    `# howto\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n${body}\n`,
  );
  assert.equal(await exists(join(p.lib, "src")), false);
});

Deno.test("legacy blocks stay in scratch, marked; the user is told once", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: src/api]\n- legacy learning\n",
  });
  const first = messageOf(await stop(p));
  assert.match(first ?? "", /^Librarian: 1 kept in scratch \(tag has no type \(legacy form\)/);
  const marked = await read(p.scratch);
  assert.match(
    marked,
    /^## \[TAG: src\/api\]\n<!-- librarian: kept in scratch: .* -->\n- legacy learning\n$/,
  );
  assert.equal(messageOf(await stop(p)), null, "not repeated on every turn");
  assert.equal(await read(p.scratch), marked, "byte-identical");
  assert.deepEqual(await listFiles(p.lib), [".scratch.md"]);
});

Deno.test("every escape form stays in scratch and nothing is written outside the library", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const outside = join(dir.path, "outside");
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "victim.md"), "# victim\n");
  const tags = [
    "../../x, type: y",
    `${outside}, type: y`,
    "C:/Users/x, type: y",
    "c:relative, type: y",
    "src\\..\\..\\x, type: y",
    "src/../../x, type: y",
    "./src, type: y",
    "src//api, type: y",
    ".git, type: y",
    "src/.hidden, type: y",
    "global, type: ../../z",
    "global, type: a/b",
    "global, type: .hidden",
    "link, type: y",
    "global, type: victim",
  ];
  const scratch = tags.map((t, i) => `## [TAG: ${t}]\n- escape ${i}\n`).join("") +
    "## [TAG: global, type: ok]\n- fine\n";
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": scratch });
  await Deno.symlink(outside, join(p.lib, "link"), { type: "dir" });
  await Deno.symlink(join(outside, "victim.md"), join(p.lib, "victim.md"), { type: "file" });
  const message = messageOf(await stop(p));
  assert.match(message ?? "", /1 learning → ok\.md/);
  assert.match(message ?? "", new RegExp(`${tags.length} kept in scratch`));
  const after = await read(p.scratch);
  for (let i = 0; i < tags.length; i++) assert.ok(after.includes(`- escape ${i}\n`), `escape ${i}`);
  assert.equal((after.match(/<!-- librarian: kept in scratch:/g) ?? []).length, tags.length);
  assert.match(after, /link\/y\.md resolves outside the library \(symlink\)/);
  assert.match(after, /victim\.md resolves outside the library \(symlink\)/);
  assert.deepEqual(await listFiles(outside), ["victim.md"]);
  assert.equal(await read(join(outside, "victim.md")), "# victim\n");
  assert.deepEqual(
    await listFiles(dir.path + "/home").then((f) =>
      f.filter((x) => !x.includes("locks") && !x.includes("librarian/stale/"))
    ),
    [],
  );
  assert.deepEqual(
    (await listFiles(dir.path)).filter((f) => !f.startsWith("home/") && !f.startsWith("outside/")),
    [
      "proj/_memory_library/.scratch.md",
      "proj/_memory_library/link",
      "proj/_memory_library/ok.md",
      "proj/_memory_library/victim.md",
    ],
  );
  assert.ok((await Deno.lstat(join(p.lib, "victim.md"))).isSymlink, "the link was not replaced");
});

Deno.test("a block with a likely secret is held in scratch and the user is told its kind", async () => {
  await using dir = await tempDir();
  const token = ["gh", "p_", "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3d"].join("");
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md":
      `## [TAG: global, type: tech]\n- CI uses ${token} for releases\n## [TAG: global, type: edge]\n- fine\n`,
  });
  const message = messageOf(await stop(p)) ?? "";
  assert.match(message, /1 block held in scratch \(likely GitHub token \(line 1\) under the tag/);
  assert.ok(!message.includes(token.slice(4)), "the secret is never echoed");
  assert.equal(await exists(join(p.lib, "tech.md")), false);
  assert.ok((await read(p.scratch)).includes(token), "it stays in scratch");
  assert.equal(messageOf(await stop(p)), null, "told once");
});

Deno.test("a target that cannot be written keeps its block in scratch, and the user is told", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/src": "a file where a folder should be\n",
    "_memory_library/edge.md/keep": "edge.md is a folder\n",
    "_memory_library/.scratch.md":
      "## [TAG: src/api, type: tech]\n- a\n## [TAG: global, type: edge]\n- b\n## [TAG: global, type: ok]\n- c\n",
  });
  const message = messageOf(await stop(p)) ?? "";
  assert.match(
    message,
    /^Librarian: 1 learning → ok\.md; 1 kept in scratch \(edge\.md is a folder\); could not write src\/api\/tech\.md: /,
  );
  const scratch = await read(p.scratch);
  assert.match(scratch, /could not write src\/api\/tech\.md/);
  assert.match(scratch, /- a\n/);
  assert.match(scratch, /edge\.md is a folder -->\n- b\n/);
  assert.ok(!scratch.includes("- c"));
  assert.equal(messageOf(await stop(p)), null, "told once");
  assert.equal(await read(p.scratch), scratch);
});

Deno.test("learnings already in the target are not appended again; the message says where; a rerun changes nothing", async () => {
  await using dir = await tempDir();
  const before = "# tech\n\n## Learnings (2026-11-01)\n\n- use deno\n";
  const p = await makeProject(dir.path, {
    "_memory_library/tech.md": before,
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n-   use deno  \n- new one\n",
  });
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 1 learning → tech.md; 1 learning already known (tech.md:5)",
  );
  const after = await read(join(p.lib, "tech.md"));
  assert.equal(
    after,
    before + "\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- new one\n",
  );
  assert.equal(messageOf(await stop(p)), null);
  assert.equal(await read(join(p.lib, "tech.md")), after);
  await Deno.writeTextFile(p.scratch, "## [TAG: global, type: tech]\n- New one.\n");
  assert.equal(messageOf(await stop(p)), "Librarian: 1 learning already known (tech.md:10)");
  assert.equal(await read(join(p.lib, "tech.md")), after);
  assert.equal(await read(p.scratch), "");
});

Deno.test("one dated heading per day: reused the same day, a new one the next day", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const file = join(p.lib, "tech.md");
  for (
    const [now, bullet] of [[NOW, "a"], [`${TODAY}T18:00:00`, "b"], ["2026-12-01T09:00:00", "c"]]
  ) {
    await Deno.writeTextFile(p.scratch, `## [TAG: global, type: tech]\n- ${bullet}\n`, {
      append: true,
    });
    messageOf(await stop(p, { env: { LIBRARIAN_NOW: now! } }));
  }
  assert.equal(
    await read(file),
    "# tech\n\n## Learnings (2026-11-30)\n\n<!-- librarian: 2026-11-30 -->\n- a\n- b\n\n" +
      "## Learnings (2026-12-01)\n\n<!-- librarian: 2026-12-01 -->\n- c\n",
  );
});

Deno.test("stop_hook_active: routes as usual and never continues the turn", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- a\n",
  });
  const result = await stop(p, { event: { stop_hook_active: true } });
  assert.equal(messageOf(result), "Librarian: 1 learning → tech.md");
});

Deno.test("LIBRARIAN_PATH wins over the event's cwd", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- a\n",
  });
  const elsewhere = join(dir.path, "elsewhere");
  await Deno.mkdir(join(elsewhere, "_memory_library"), { recursive: true });
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(elsewhere),
    home: p.home,
    cwd: elsewhere,
    env: { LIBRARIAN_PATH: p.lib, LIBRARIAN_NOW: NOW },
  });
  assert.equal(messageOf(result), "Librarian: 1 learning → tech.md");
  assert.equal(await exists(join(p.lib, "tech.md")), true);
});

// ---------------------------------------------------------------------------------------------
// Auto memory.

async function memoryDir(p: Project): Promise<string> {
  const dir = join(p.home, ".claude", "projects", encodeProjectDir(p.root), "memory");
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

Deno.test("auto memory: one whose front matter nests 50,000 '[' is named once; the good one is filed (issue 31)", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  const deep = 20_000; // within the size bound, past the depth bound
  await writeTree(mem, {
    "feedback_deep.md": `---\nname: deep\ntype: feedback\nx: ${"[".repeat(deep)}${
      "]".repeat(deep)
    }\n---\nbody\n`,
    "feedback_huge.md": `---\nname: huge\ntype: feedback\nx: ${"[".repeat(50_000)}${
      "]".repeat(50_000)
    }\n---\nbody\n`,
    "feedback_good.md": "---\nname: good\ndescription: Use pnpm\ntype: feedback\n---\n",
  });
  const log = join(dir.path, "log");
  const result = await stop(p, { env: { LIBRARIAN_LOG: log } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    messageOf(result),
    "Librarian: 1 auto memory synced; 2 auto memories not synced (front matter not read or file " +
      "too large): feedback_deep.md, feedback_huge.md; 1 learning → patterns.md",
  );
  assert.match(await read(join(p.lib, "patterns.md")), /- good: Use pnpm\n$/);
  assert.match(
    await read(log),
    /memory_skipped=feedback_deep\.md:malformed,feedback_huge\.md:malformed/,
  );
  assert.equal(messageOf(await stop(p)), null, "named once: not read again");
});

Deno.test("auto memory: both front-matter forms sync, 'user' and MEMORY.md never do", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  await writeTree(mem, {
    "MEMORY.md": "- [Testing](feedback_testing.md) — run dbt build\n",
    "feedback_testing.md":
      "---\nname: dbt-build\ndescription: Always run dbt build after creating models\ntype: feedback\n---\n\nBody.\n",
    "project_launch.md":
      "---\nname: launch-date\ndescription: Launch is in March\nmetadata:\n  type: project\n---\n",
    "reference_dash.md":
      "---\r\nname: dashboards\r\nmetadata: {type: reference}\r\n---\r\n# Dashboards\r\nGrafana lives at grafana.internal\r\n",
    "user_role.md":
      "---\nname: role\ndescription: The user is a data engineer who hates meetings\ntype: user\n---\n",
    "broken.md": "---\nname: [unclosed\ntype: feedback\n---\n",
  });
  const log = join(dir.path, "log");
  const message = messageOf(await stop(p, { env: { LIBRARIAN_LOG: log } }));
  assert.equal(
    message,
    "Librarian: 3 auto memories synced; auto memory broken.md not synced: its front matter is " +
      "not read (a flow collection never closed at line 1); 3 learnings → patterns.md, " +
      "product.md, tech.md",
  );
  assert.match(
    await read(join(p.lib, "patterns.md")),
    /- dbt-build: Always run dbt build after creating models\n {2}Body\.\n$/,
  );
  assert.match(await read(join(p.lib, "product.md")), /- launch-date: Launch is in March\n$/);
  assert.match(
    await read(join(p.lib, "tech.md")),
    /- dashboards: Grafana lives at grafana\.internal\n$/,
  );
  const all = (await Promise.all((await listFiles(p.lib)).map((f) => read(join(p.lib, f))))).join(
    "",
  );
  assert.ok(!all.includes("hates meetings"), "user memories are personal");
  assert.ok(!all.includes("run dbt build\n- ["), "MEMORY.md is not synced");
  assert.match(await read(log), /memory_skipped=.*broken\.md:malformed/);
  assert.match(await read(log), /user_role\.md:user/);

  assert.equal(messageOf(await stop(p)), null, "nothing is synced twice");

  // Claude Code stamps `modified` into front matter: same entry, no new sync.
  await Deno.writeTextFile(
    join(mem, "project_launch.md"),
    "---\nname: launch-date\ndescription: Launch is in March\nmodified: 2026-11-30T10:00:00Z\nmetadata:\n  type: project\n---\n",
  );
  assert.equal(messageOf(await stop(p)), null);

  // An edited entry syncs again.
  await Deno.writeTextFile(
    join(mem, "feedback_testing.md"),
    "---\nname: dbt-build\ndescription: Run dbt build and dbt test after creating models\ntype: feedback\n---\n",
  );
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 1 auto memory synced; 1 learning → patterns.md",
  );
  assert.match(await read(join(p.lib, "patterns.md")), /- dbt-build: Run dbt build and dbt test/);
});

Deno.test("auto memory: an old entry is synced even if the session was long (no time window)", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  const file = join(mem, "feedback_old.md");
  await Deno.writeTextFile(
    file,
    "---\nname: old\ndescription: still matters\ntype: feedback\n---\n",
  );
  const dayAgo = new Date(Date.now() - 48 * 3600_000);
  await Deno.utime(file, dayAgo, dayAgo);
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 1 auto memory synced; 1 learning → patterns.md",
  );
});

Deno.test("auto memory: a UTF-16 scratch is left alone and the user is told, every turn", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  await Deno.writeTextFile(
    join(mem, "feedback_pnpm.md"),
    "---\nname: pnpm\ndescription: use pnpm\ntype: feedback\n---\nAlways use pnpm, never npm.\n",
  );
  const scratch = join(p.lib, ".scratch.md");
  const utf16 = new Uint8Array([
    0xff,
    0xfe,
    ...[..."# notes\n"].flatMap((c) => [c.charCodeAt(0), 0]),
  ]);
  await Deno.writeFile(scratch, utf16);
  for (let turn = 0; turn < 2; turn++) {
    const message = messageOf(await stop(p)) ?? "";
    assert.match(message, /auto memory not synced: scratch is saved as UTF-16.*save it as UTF-8/);
    assert.deepEqual(await Deno.readFile(scratch), utf16, "never appended to");
  }
  await Deno.writeTextFile(scratch, "# notes\n");
  assert.equal(
    messageOf(await stop(p)),
    "Librarian: 1 auto memory synced; 1 learning → patterns.md",
    "synced once scratch is UTF-8 again",
  );
  assert.match(
    await read(join(p.lib, "patterns.md")),
    /- pnpm: use pnpm\n {2}Always use pnpm, never npm\.\n/,
  );
});

Deno.test("auto memory: LIBRARIAN_AUTOMEMORY=review keeps entries in scratch, told once", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  await Deno.writeTextFile(
    join(mem, "feedback_pnpm.md"),
    "---\nname: pnpm\ndescription: use pnpm\ntype: feedback\n---\nAlways use pnpm, never npm.\n",
  );
  const env = { LIBRARIAN_AUTOMEMORY: "review" };
  assert.equal(
    messageOf(await stop(p, { env })),
    "Librarian: 1 auto memory awaits review in scratch (edit, then `librarian route --accept`)",
  );
  const scratch = await read(join(p.lib, ".scratch.md"));
  assert.match(
    scratch,
    /awaiting review[\s\S]*- pnpm: use pnpm\n {2}Always use pnpm, never npm\.\n/,
  );
  assert.equal(await exists(join(p.lib, "patterns.md")), false, "nothing filed before review");
  assert.equal(messageOf(await stop(p, { env })), null, "not repeated every turn");
  assert.equal(await read(join(p.lib, ".scratch.md")), scratch, "left as it is");
});

Deno.test("auto memory: LIBRARIAN_AUTOMEMORY=off leaves auto memory alone", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = await memoryDir(p);
  await Deno.writeTextFile(
    join(mem, "feedback_pnpm.md"),
    "---\nname: pnpm\ndescription: use pnpm\ntype: feedback\n---\n",
  );
  assert.equal(messageOf(await stop(p, { env: { LIBRARIAN_AUTOMEMORY: "off" } })), null);
  assert.equal(await exists(join(p.lib, ".scratch.md")), false);
});

// ---------------------------------------------------------------------------------------------
// Concurrency and crashes.

/** Blocks with unique bullets (and a paragraph every 7th block) over `files` targets. */
function manyBlocks(count: number, files: number, tag = "b"): { text: string; expected: string[] } {
  const expected: string[] = [];
  let text = "";
  for (let i = 0; i < count; i++) {
    const folder = i % files === 0 ? "global" : `area${i % files}/sub`;
    const lines = [`- ${tag}${i} first learning`, `- ${tag}${i} second learning`];
    if (i % 7 === 0) lines.push("", `Paragraph ${tag}${i}: why it matters.`);
    expected.push(...lines.filter((l) => l !== ""));
    text += `## [TAG: ${folder}, type: t${i % 3}]\n${lines.join("\n")}\n\n`;
  }
  return { text, expected };
}

/** How often each expected line occurs across every library file (scratch included). */
async function occurrences(lib: string, expected: string[]): Promise<Map<string, number>> {
  const counts = new Map(expected.map((e) => [e, 0]));
  for (const rel of await listFiles(lib)) {
    if (!rel.endsWith(".md")) continue;
    for (const line of (await read(join(lib, rel))).split("\n")) {
      if (counts.has(line)) counts.set(line, counts.get(line)! + 1);
    }
  }
  return counts;
}

function assertExactlyOnce(counts: Map<string, number>): void {
  const wrong = [...counts].filter(([, n]) => n !== 1);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lines not exactly once`);
}

Deno.test("concurrent runs on one scratch: every learning exactly once", async () => {
  await using dir = await tempDir();
  const first = manyBlocks(300, 25, "a");
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": first.text });
  const late = manyBlocks(60, 25, "late");
  const runs = Array.from({ length: 5 }, () => stop(p));
  // Meanwhile the model keeps appending to scratch.
  for (const chunk of late.text.split(/(?=## \[TAG)/)) {
    await Deno.writeTextFile(p.scratch, chunk, { append: true });
    await new Promise((r) => setTimeout(r, 2));
  }
  for (const result of await Promise.all(runs)) assert.equal(result.code, 0, result.stderr);
  messageOf(await stop(p)); // a clean run afterwards files what arrived last
  const expected = [...first.expected, ...late.expected];
  assertExactlyOnce(await occurrences(p.lib, expected));
  assert.equal((await read(p.scratch)).trim(), "");
  assert.equal((await listFiles(p.lib)).some((f) => f.includes(".tmp-")), false);
});

Deno.test("runs ended at each named fault point in turn, then a clean run: every learning exactly once", async () => {
  await using dir = await tempDir();
  const { text, expected } = manyBlocks(600, 60, "k");
  const p = await makeProject(dir.path, { "_memory_library/.scratch.md": text });
  const points = [
    "after-journal-write",
    "after-target-write:7",
    "after-targets",
    "before-scratch-rename",
    "after-scratch-rename",
  ];
  for (const point of points) {
    const result = await stop(p, { env: { LIBRARIAN_FAULT: point } });
    assert.equal(result.code, 86, `the run did not stop at ${point}`);
    // More work for the next run whenever a crashed run had already emptied scratch.
    if ((await read(p.scratch)).trim() === "") {
      const more = manyBlocks(200, 60, `k-${point}-`);
      expected.push(...more.expected);
      await Deno.writeTextFile(p.scratch, more.text, { append: true });
    }
  }
  messageOf(await stop(p));
  assertExactlyOnce(await occurrences(p.lib, expected));
  assert.equal((await read(p.scratch)).trim(), "");
  assert.deepEqual((await listFiles(p.lib)).filter((f) => f.includes(".tmp-")), []);
});
