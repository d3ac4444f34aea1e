/**
 * Freshness where the model reads it: the stale record (made where git is asked: the Stop hook,
 * lint), its validity check, and the marks a touch puts on stale learnings (or leaves them out).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyStaleMarks } from "../src/format/stale_marks.ts";
import { formatStaleRecord, parseStaleRecord, staleRecordPath } from "../src/git/stale_record.ts";
import { refreshStaleRecord } from "../src/git/stale_refresh.ts";
import { readStaleRecord, staleRecordNeed } from "../src/git/stale_check.ts";
import { extendRecord, extendStaleRecord } from "../src/git/stale_extend.ts";
import { fileDigest } from "../src/core/file_digest.ts";
import { buildFileContext } from "../src/inject/file_context.ts";
import { staleView } from "../src/inject/stale_view.ts";
import { envFrom } from "../src/core/env.ts";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { SETTLED_MS } from "../src/inject/walk_memo_format.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a mark goes on the first line of each learning; hide empties them and says how many", () => {
  const text =
    "# edge\n\n<!-- librarian: 2026-11-30 a1b2c3d src/a.ts -->\n- Old rule\n  goes on.\n- Second.\n- Kept.\r\n";
  const mark = {
    lines: [[4, 5], [6, 6]] as [number, number][],
    reason: "src/a.ts deleted since a1b2c3d",
    cited: {},
  };
  const marked = applyStaleMarks(text, [mark], "mark").text.split("\n");
  assert.equal(marked[3], "- Old rule (stale: src/a.ts deleted since a1b2c3d)");
  assert.equal(marked[4], "  goes on.");
  assert.equal(marked[5], "- Second. (stale: src/a.ts deleted since a1b2c3d)");
  assert.equal(marked[6], "- Kept.\r");
  const hidden = applyStaleMarks(text, [mark], "hide");
  assert.equal(hidden.hidden, 2);
  assert.ok(!/Old rule|goes on|Second/.test(hidden.text));
  assert.equal(hidden.text.split("\n")[6], "- Kept.\r", "other lines keep their numbers");
  assert.match(hidden.text, /2 stale learnings left out/);
  assert.deepEqual(applyStaleMarks(text, [mark], "off"), { text, hidden: 0 });
  assert.equal(applyStaleMarks(text, [], "hide").text, text);
});

Deno.test("a damaged record or one of another version reads as none", () => {
  const good = { version: 1 as const, head: "", cited: {}, files: {} };
  assert.deepEqual(parseStaleRecord(formatStaleRecord(good)), good);
  for (
    const bad of [
      "",
      "[]",
      '{"version":1,"head":"","cited":{},"files":{"a.md":{"stamp":"1","hash":"h","stale":[{"lines":[[0,1]],"reason":"r","cited":{}}]}}}',
      '{"version":1,"head":"","cited":{"a":1},"files":{}}',
      '{"version":7,"head":"","cited":{},"files":{}}',
    ]
  ) assert.equal(parseStaleRecord(bad), null, bad);
});

const LEARNING =
  "<!-- librarian: 2026-11-30 COMMIT src/api/tax.ts -->\n- Tax is rounded per line.\n";

async function staleProject() {
  const dir = await tempDir();
  const root = join(dir.path, "proj");
  await writeTree(root, {
    "src/api/tax.ts": "export const tax = 1;\n",
    "src/api/handler.ts": "export const h = 1;\n",
    "_memory_library/src/api/edge.md": "# edge\n",
  });
  await gitInit(root);
  await commitAll(root, "start");
  const head = (await gitOk(root, "rev-parse", "--short=7", "HEAD")).trim();
  await Deno.writeTextFile(
    join(root, "_memory_library/src/api/edge.md"),
    "# edge\n\n## Learnings (2026-11-30)\n\n" + LEARNING.replace("COMMIT", head) +
      "\n<!-- librarian: 2026-11-30 " + head +
      " src/api/handler.ts -->\n- Handlers return early.\n",
  );
  await gitOk(root, "rm", "-q", "src/api/tax.ts");
  await commitAll(root, "tax goes");
  const state = join(dir.path, "state");
  const env = envFrom({ LIBRARIAN_STATE_DIR: state, HOME: join(dir.path, "home") });
  const library = {
    root: join(root, "_memory_library"),
    projectRoot: root,
    foundBy: "cwd" as const,
  };
  return { dir, root, head, env, library, state };
}

function touch(root: string, env: (name: string) => string | undefined): string {
  const context = buildFileContext(join(root, "src/api/handler.ts"), { env, budget: 9000 });
  assert.equal(context.kind, "context");
  return context.kind === "context" ? context.rendered.text : "";
}

Deno.test({
  name:
    "a learning about a deleted file is marked stale in what a touch sends, from the record alone",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    assert.doesNotMatch(touch(p.root, p.env), /stale/, "no record yet: no mark, no git");
    const made = await refreshStaleRecord(p.library, p.env);
    assert.equal(made.kind, "written");
    const text = touch(p.root, p.env);
    assert.match(
      text,
      new RegExp(
        `- Tax is rounded per line\\. \\(stale: src/api/tax\\.ts deleted since ${p.head}\\)`,
      ),
    );
    assert.match(
      text,
      /- Handlers return early\.(\n|$)/,
      "a learning whose file is there is not marked",
    );
    const hidden = touch(p.root, (n) => n === "LIBRARIAN_STALE" ? "hide" : p.env(n));
    assert.doesNotMatch(hidden, /Tax is rounded/);
    assert.match(hidden, /1 stale learning left out/);
    assert.match(hidden, /Handlers return early/);
    // nothing moved: the record holds and is not remade (no git)
    assert.equal(staleRecordNeed(p.library, p.env, false), null);
    assert.equal((await refreshStaleRecord(p.library, p.env)).kind, "fresh");
  },
});

Deno.test({
  name: "a mark is dropped (unknown, no git) once its cited file or its library file changed",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    await refreshStaleRecord(p.library, p.env);
    await Deno.writeTextFile(join(p.root, "src/api/tax.ts"), "export const tax = 2;\n");
    assert.doesNotMatch(
      touch(p.root, p.env),
      /stale/,
      "the cited file is back: the mark may be wrong",
    );
    assert.notEqual(staleRecordNeed(p.library, p.env, false), null, "the Stop hook remakes it");
    await Deno.remove(join(p.root, "src/api/tax.ts"));
    assert.match(touch(p.root, p.env), /stale: src\/api\/tax\.ts deleted/);
    const edge = join(p.library.root, "src/api/edge.md");
    await Deno.writeTextFile(edge, "- a new line first\n" + await Deno.readTextFile(edge));
    assert.doesNotMatch(touch(p.root, p.env), /stale/, "another version of the file: lines moved");
    await refreshStaleRecord(p.library, p.env);
    assert.match(touch(p.root, p.env), /- Tax is rounded per line\. \(stale:/);
  },
});

Deno.test({
  name: "a damaged record is never a reason to fail a touch",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    const path = staleRecordPath(p.state, p.library.root);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, '{"version":1,"files":');
    assert.match(touch(p.root, p.env), /Tax is rounded per line\.\n/);
  },
});

Deno.test({
  name:
    "a Stop that only appended learnings about code as the turn left it keeps the record without git",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    await refreshStaleRecord(p.library, p.env);
    const need = staleRecordNeed(p.library, p.env, true)!;
    await Deno.writeTextFile(join(p.root, "src/api/new.ts"), "export const n = 1;\n");
    const digest = fileDigest(join(p.root, "src/api/new.ts"))!;
    const edge = join(p.library.root, "src/api/edge.md");
    await Deno.writeTextFile(
      edge,
      `\n<!-- librarian: 2026-12-01 ${p.head} src/api/new.ts seen:${digest} -->\n- New is fresh.\n`,
      { append: true },
    );
    const next = extendRecord(readStaleRecord(need.path)!, p.library, need.head, [
      "src/api/edge.md",
    ]);
    assert.ok(next !== null);
    assert.equal(extendStaleRecord(p.library, need, ["src/api/edge.md"]), true);
    const text = touch(p.root, p.env);
    assert.match(
      text,
      /- Tax is rounded per line\. \(stale: src\/api\/tax\.ts deleted/,
      "old marks hold",
    );
    assert.match(text, /- New is fresh\.(\n|$)/);
    assert.equal(staleRecordNeed(p.library, p.env, false), null, "the record holds again");
    // a learning about code changed since the turn left it: git must be asked
    await Deno.writeTextFile(
      edge,
      `\n<!-- librarian: 2026-12-01 src/api/handler.ts seen:00000000 -->\n- Other.\n`,
      {
        append: true,
      },
    );
    assert.equal(extendStaleRecord(p.library, need, ["src/api/edge.md"]), false);
  },
});

Deno.test({
  name:
    "a learning about a file rewritten in its own turn is not stale while the file is as the turn left it",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    const big = (n: number) =>
      Array.from({ length: 60 }, (_, i) => `export const v${i} = ${i * n};`).join("\n") + "\n";
    await Deno.writeTextFile(join(p.root, "src/api/big.ts"), big(1));
    await commitAll(p.root, "big");
    const head = (await gitOk(p.root, "rev-parse", "--short=7", "HEAD")).trim();
    await Deno.writeTextFile(join(p.root, "src/api/big.ts"), big(2)); // the turn rewrites it all
    const digest = fileDigest(join(p.root, "src/api/big.ts"))!;
    const edge = join(p.library.root, "src/api/edge.md");
    await Deno.writeTextFile(
      edge,
      `\n<!-- librarian: 2026-12-01 ${head} src/api/big.ts seen:${digest} -->\n- Big is generated.\n` +
        `\n<!-- librarian: 2026-12-01 ${head} src/api/big.ts -->\n- Big, no digest.\n`,
      { append: true },
    );
    await refreshStaleRecord(p.library, p.env, { force: true });
    const text = touch(p.root, p.env);
    assert.match(text, /- Big is generated\.\n/, "as the turn left it: not stale");
    assert.match(
      text,
      /- Big, no digest\. \(stale: src\/api\/big\.ts rewritten \(1\d\d of 60 lines\)/,
    );
    // committed as the turn left it, then a line edited: judged from what the learning saw
    await commitAll(p.root, "the turn's rewrite");
    const path = join(p.root, "src/api/big.ts");
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("v1 = 2;", "v1 = 3;"));
    await commitAll(p.root, "one line");
    await refreshStaleRecord(p.library, p.env, { force: true });
    const later = touch(p.root, p.env);
    assert.match(later, /- Big is generated\.\n/, "two lines since what it saw: not stale");
    assert.match(later, /- Big, no digest\. \(stale: src\/api\/big\.ts rewritten/);
  },
});

/**
 * Runs the inject hook process on one event in project `root` (with `env` besides); its context
 * (or reason).
 */
async function injectEvent(
  root: string,
  state: string,
  event: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<string> {
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({ session_id: "fresh-clone", cwd: root, ...event }),
    cwd: root,
    env: {
      LIBRARIAN_STATE_DIR: state,
      LIBRARIAN_HINT: "off",
      LIBRARIAN_SESSION_START: "on",
      ...env,
    },
  });
  assert.equal(result.code, 0, result.stderr);
  if (result.stdout.trim() === "") return "";
  const specific = JSON.parse(result.stdout).hookSpecificOutput;
  return specific.additionalContext ?? specific.permissionDecisionReason ?? "";
}

Deno.test({
  name:
    "a fresh state folder (a teammate's clone, a new machine) marks stale learnings from the first touch: the session start makes the record",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    const fresh = join(p.dir.path, "fresh-state");
    assert.equal(readStaleRecord(staleRecordPath(fresh, p.library.root)), null, "no record yet");
    await injectEvent(p.root, fresh, { hook_event_name: "SessionStart", source: "startup" });
    assert.notEqual(readStaleRecord(staleRecordPath(fresh, p.library.root)), null);
    const first = await injectEvent(p.root, fresh, {
      hook_event_name: "PreToolUse",
      tool_use_id: "toolu_1",
      tool_name: "Read",
      tool_input: { file_path: join(p.root, "src/api/handler.ts") },
    });
    assert.match(first, /- Tax is rounded per line\. \(stale: src\/api\/tax\.ts deleted since/);
    assert.match(first, /- Handlers return early\.(\n|$)/);
    // HEAD moved (a pull): the next session start remakes the record
    await Deno.remove(join(p.root, "src/api/handler.ts"));
    await commitAll(p.root, "handler goes");
    const before = Deno.readTextFileSync(staleRecordPath(fresh, p.library.root));
    await injectEvent(p.root, fresh, { hook_event_name: "SessionStart", source: "startup" });
    const after = readStaleRecord(staleRecordPath(fresh, p.library.root))!;
    assert.notEqual(JSON.stringify(after), before.trim());
    assert.match(JSON.stringify(after), /handler\.ts deleted/);
  },
});

Deno.test({
  name:
    "a mark on a learning citing several files is dropped once one of them is restored (unknown, no git)",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    await writeTree(p.root, { "src/api/rate.ts": "export const rate = 1;\n" });
    await commitAll(p.root, "rate");
    const head = (await gitOk(p.root, "rev-parse", "--short=7", "HEAD")).trim();
    const edge = join(p.library.root, "src/api/edge.md");
    await Deno.writeTextFile(
      edge,
      `\n<!-- librarian: 2026-12-01 ${head} src/api/rate.ts src/api/handler.ts -->\n- Rate and handler agree.\n`,
      { append: true },
    );
    await gitOk(p.root, "rm", "-q", "src/api/rate.ts", "src/api/handler.ts");
    await commitAll(p.root, "both go");
    await refreshStaleRecord(p.library, p.env);
    const read = () => {
      const context = buildFileContext(join(p.root, "src/api/other.ts"), {
        env: p.env,
        budget: 9000,
      });
      return context.kind === "context" ? context.rendered.text : "";
    };
    await writeTree(p.root, { "src/api/other.ts": "export {};\n" });
    assert.match(
      read(),
      /- Rate and handler agree\. \(stale: src\/api\/rate\.ts deleted; src\/api\/handler\.ts deleted/,
    );
    await Deno.writeTextFile(join(p.root, "src/api/rate.ts"), "export const rate = 1;\n");
    assert.match(read(), /- Rate and handler agree\.(\n|$)/, "one is back: the mark may be wrong");
  },
});

Deno.test({
  name:
    "a session start whose git does not answer in time sends the root files and writes no record (the next Stop makes it)",
  ignore: skipOnWindows("a POSIX stand-in for git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    const fresh = join(p.dir.path, "fresh-state");
    await Deno.writeTextFile(join(p.library.root, "patterns.md"), "# patterns\n- Use UTC.\n");
    // a git that never answers: `exec` so that the kill reaches the sleeping process itself
    const bin = join(p.dir.path, "slow-bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(join(bin, "git"), "#!/bin/sh\nexec sleep 60\n");
    await Deno.chmod(join(bin, "git"), 0o755);
    const started = performance.now();
    const result = await runLibrarian(["inject"], {
      stdin: JSON.stringify({
        session_id: "slow-git",
        cwd: p.root,
        hook_event_name: "SessionStart",
        source: "startup",
      }),
      cwd: p.root,
      env: {
        LIBRARIAN_STATE_DIR: fresh,
        LIBRARIAN_HINT: "off",
        PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      },
    });
    const seconds = (performance.now() - started) / 1000;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(seconds < 14, `the start waited ${seconds.toFixed(1)} s for git (its hook has 10 s)`);
    const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(context, /- Use UTC\./, "the root files are still sent");
    assert.equal(
      readStaleRecord(staleRecordPath(fresh, p.library.root)),
      null,
      "a record made without git's answers would hold no marks until HEAD moves",
    );
  },
});

Deno.test({
  name:
    "the inject hook: a cut file with stale marks goes marked from what the walk memo kept of it, on a later session's first touch",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    const p = await staleProject();
    await using _ = p.dir;
    const edge = join(p.library.root, "src/api/edge.md");
    const filler = Array.from(
      { length: 400 },
      (_, i) => `- filler ${i}: retries are safe only when idempotent`,
    ).join("\n");
    const learnings = (await Deno.readTextFile(edge)).replace("# edge\n", "");
    await Deno.writeTextFile(edge, `# edge\n\n${filler}\n${learnings}`);
    assert.equal((await refreshStaleRecord(p.library, p.env)).kind, "written");
    await sleep(SETTLED_MS + 1_000); // the real clock: the files settle, so the memo keeps them
    const first = await touchHook(p, "s-1");
    assert.match(first.context, /Not shown in full/, "cut to the budget");
    assert.match(first.context, /- Tax is rounded per line\. \(stale: src\/api\/tax\.ts deleted/);
    assert.match(first.line, / memo_kept=2( |$)/, "its text and what the marked text came to");
    const second = await touchHook(p, "s-2");
    assert.equal(second.context, first.context);
    assert.match(second.line, / memo_recalled=2( |$)/, "its text and its marked digest");
  },
});

/** The inject hook's answer to a Read of `src/api/handler.ts` in session `session`, and its log line. */
async function touchHook(
  p: Awaited<ReturnType<typeof staleProject>>,
  session: string,
): Promise<{ context: string; line: string }> {
  const log = join(p.dir.path, "librarian.log");
  const context = await injectEvent(p.root, p.state, {
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(p.root, "src/api/handler.ts") },
  }, { LIBRARIAN_LOG: log });
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  return { context, line: lines.at(-1)! };
}

Deno.test("the marks a touch applies are named for the walk memo: in full when short, by their hash when long, and never alike for other marks", async () => {
  await using dir = await tempDir();
  const state = join(dir.path, "state");
  const library = {
    root: join(dir.path, "p/_memory_library"),
    projectRoot: join(dir.path, "p"),
    foundBy: "cwd" as const,
  };
  const text = "# edge\n- Old rule.\n- Kept.\n";
  const marksFor = async (reason: string) => {
    const path = staleRecordPath(state, library.root);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const mark = { lines: [[2, 2]] as [number, number][], reason, cited: {} };
    await Deno.writeTextFile(
      path,
      formatStaleRecord({
        version: 1,
        head: "a1b2c3d",
        cited: {},
        files: { "edge.md": { stamp: "s", hash: "h", stale: [mark] } },
      }),
    );
    return staleView(library, envFrom({ LIBRARIAN_STATE_DIR: state }))!.apply("edge.md", text, "h");
  };
  const short = await marksFor("src/a.ts deleted since a1b2c3d");
  assert.match(short.text, /- Old rule\. \(stale: src\/a\.ts deleted since a1b2c3d\)/);
  assert.equal(short.marks, 'mark:[[[[2,2]],"src/a.ts deleted since a1b2c3d"]]');
  const long = await marksFor(`${"x".repeat(3000)} deleted`);
  const longer = await marksFor(`${"x".repeat(3001)} deleted`);
  assert.match(long.marks, /^mark:#[0-9a-f]+$/);
  assert.notEqual(long.marks, longer.marks);
  assert.deepEqual(
    staleView(library, envFrom({ LIBRARIAN_STATE_DIR: state }))!.apply("other.md", text, "h"),
    { text, marks: "" },
    "no marks: the file's own text, named by nothing",
  );
});
