/**
 * The inject hook, run exactly as Claude Code runs it: `sh bin/librarian inject` with one hook
 * event as JSON on stdin.
 */
import assert from "node:assert/strict";
import {
  parseHookStdout,
  runLibrarian,
  tempDir,
  type TempProject,
  tempProject,
  writeTree,
} from "./helpers.ts";

type Project = TempProject;

const DEFAULT_TREE: Record<string, string | Uint8Array> = {
  "proj/_memory_library/patterns.md": "# Patterns\n- global pattern",
  "proj/_memory_library/tech.md": "# Tech\n- deno 2",
  "proj/_memory_library/.scratch.md": "## [TAG: global, type: patterns]\n- scratch secret",
  "proj/_memory_library/src/api/edge.md": "# Edge\n- api edge case",
  "proj/_memory_library/src/patterns.md": "# Src patterns\n- src pattern",
  "proj/_memory_library/docs/other.md": "# Sibling\n- not for src",
  "proj/src/api/handler.ts": "export {};",
};

function project(files: Record<string, string | Uint8Array> = {}): Promise<Project> {
  return tempProject({ ...DEFAULT_TREE, ...files });
}

function preToolUse(filePath: string, extra: Record<string, unknown> = {}, tool = "Read") {
  const key = tool === "NotebookEdit" ? "notebook_path" : "file_path";
  return JSON.stringify({
    session_id: "session-1",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: { [key]: filePath },
    ...extra,
  });
}

async function inject(p: Project, stdin: string, env: Record<string, string> = {}) {
  const result = await runLibrarian(["inject"], { stdin, home: p.home, env, cwd: p.root });
  assert.equal(result.code, 0, `exit code 0 always (stderr: ${result.stderr})`);
  return parseHookStdout(result.stdout);
}

/**
 * The library context of a PreToolUse answer: its `additionalContext`, or for a held first write
 * (a `deny`, the only decision the hook makes) the context its reason carries.
 */
function contextOf(output: Record<string, unknown> | null): string {
  assert.ok(output, "expected hook output");
  const specific = output.hookSpecificOutput as Record<string, unknown>;
  assert.equal(specific.hookEventName, "PreToolUse");
  assert.deepEqual(Object.keys(output), ["hookSpecificOutput"]);
  if (specific.permissionDecision !== undefined) {
    assert.deepEqual(Object.keys(specific).sort(), [
      "hookEventName",
      "permissionDecision",
      "permissionDecisionReason",
    ]);
    assert.equal(specific.permissionDecision, "deny");
    const reason = specific.permissionDecisionReason as string;
    assert.match(reason, /^\[Librarian\] Read the library notes for .* below, then make this /);
    return reason.slice(reason.indexOf("\n\n") + 2);
  }
  assert.deepEqual(Object.keys(specific).sort(), ["additionalContext", "hookEventName"]);
  return specific.additionalContext as string;
}

function sectionLabels(context: string): string[] {
  return [...context.matchAll(/^--- \[(.+)\] ---$/gm)].map((m) => m[1]!);
}

Deno.test("Read of a deep file gets its folder's files, then each ancestor's, global last", async () => {
  const p = await project();
  await using _ = p.dir;
  const context = contextOf(await inject(p, preToolUse(`${p.root}/src/api/handler.ts`)));
  assert.ok(context.startsWith("[Librarian] Memory library context for src/api/handler.ts:"));
  assert.deepEqual(sectionLabels(context), [
    "src/api/edge.md",
    "src/patterns.md",
    "patterns.md (library root)",
    "tech.md (library root)",
  ]);
  assert.ok(context.includes("- api edge case"));
  assert.ok(!context.includes("scratch secret"), ".scratch.md is never injected");
  assert.ok(!context.includes("not for src"), "sibling folders are not injected");
});

Deno.test("the hook never approves or asks: a read gets context, a blind first write is held (deny) once, and LIBRARIAN_HOLD=off makes no decision at all", async () => {
  const p = await project();
  await using _ = p.dir;
  for (const hold of ["on", "off"]) {
    for (const tool of ["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"]) {
      const out = await inject(
        p,
        preToolUse(`${p.root}/src/api/handler.ts`, { session_id: `${tool}-${hold}` }, tool),
        { LIBRARIAN_HOLD: hold },
      );
      const text = JSON.stringify(out);
      assert.doesNotMatch(text, /"(allow|ask|defer)"|"decision"|updatedInput/, tool);
      const held = tool !== "Read" && hold === "on";
      assert.equal(text.includes('"permissionDecision":"deny"'), held, `${tool} hold=${hold}`);
      if (!held) assert.ok(!text.includes("permissionDecision"), tool);
      assert.equal(sectionLabels(contextOf(out))[0], "src/api/edge.md", tool);
    }
  }
});

Deno.test("Write of a new file in a new folder gets the nearest existing levels", async () => {
  const p = await project();
  await using _ = p.dir;
  const context = contextOf(
    await inject(p, preToolUse(`${p.root}/src/api/v3/new/file.ts`, {}, "Write")),
  );
  assert.ok(context.includes("context for src/api/v3/new/file.ts:"));
  assert.equal(sectionLabels(context)[0], "src/api/edge.md");
});

Deno.test("NotebookEdit is served through notebook_path", async () => {
  const p = await project({
    "proj/notebooks/a.ipynb": "{}",
    "proj/_memory_library/notebooks/nb.md": "- nb",
  });
  await using _ = p.dir;
  const context = contextOf(
    await inject(p, preToolUse(`${p.root}/notebooks/a.ipynb`, {}, "NotebookEdit")),
  );
  assert.equal(sectionLabels(context)[0], "notebooks/nb.md");
});

Deno.test("pretty-printed JSON with escaped unicode is read like compact JSON", async () => {
  const p = await project({ "proj/_memory_library/src/caf\u00e9/notes.md": "- accent folder" });
  await using _ = p.dir;
  // The path as JSON text, with the accent written as a \u escape.
  const escaped = `${JSON.stringify(`${p.root}/src/caf`).slice(1, -1)}\\u00e9/menu.ts`;
  const pretty =
    `{\n  "session_id" : "s-pretty",\n  "hook_event_name" : "PreToolUse",\n  "tool_name" : "Edit",\n  "tool_input" : {\n    "file_path" : "${escaped}"\n  }\n}\n`;
  const context = contextOf(await inject(p, pretty));
  assert.ok(context.includes("context for src/caf\u00e9/menu.ts:"));
  assert.equal(sectionLabels(context)[0], "src/caf\u00e9/notes.md");
});

Deno.test("Windows-style separators in the file path still find the library", async () => {
  const p = await project();
  await using _ = p.dir;
  const mixed = `${p.root}\\src\\api/handler.ts`;
  const context = contextOf(await inject(p, preToolUse(mixed)));
  assert.ok(context.includes("context for src/api/handler.ts:"));
});

Deno.test("a repeat in the same session sends nothing; a changed file is sent again alone", async () => {
  const p = await project();
  await using _ = p.dir;
  const event = preToolUse(`${p.root}/src/api/handler.ts`);
  assert.ok(await inject(p, event));
  assert.equal(await inject(p, event), null, "nothing new: no output at all");
  await Deno.writeTextFile(
    `${p.root}/_memory_library/src/patterns.md`,
    "# Src patterns\n- changed!",
  );
  const context = contextOf(await inject(p, event));
  assert.deepEqual(sectionLabels(context), ["src/patterns.md"]);
  assert.ok(context.includes("- changed!"));
  assert.match(context, /3 unchanged library files for this path already sent earlier/);
});

Deno.test("a sibling folder gets only its own files once the shared ancestors were sent", async () => {
  const p = await project();
  await using _ = p.dir;
  await inject(p, preToolUse(`${p.root}/src/api/handler.ts`));
  const context = contextOf(await inject(p, preToolUse(`${p.root}/docs/readme.md`)));
  assert.deepEqual(sectionLabels(context), ["docs/other.md"]);
});

Deno.test("another session, or a subagent inside this one, gets everything again", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  await inject(p, preToolUse(file));
  const sub = contextOf(
    await inject(p, preToolUse(file, { agent_id: "agent-7", agent_type: "Explore" })),
  );
  assert.equal(sectionLabels(sub).length, 4);
  assert.equal(await inject(p, preToolUse(file, { agent_id: "agent-7" })), null);
  const other = contextOf(await inject(p, preToolUse(file, { session_id: "session-2" })));
  assert.equal(sectionLabels(other).length, 4);
  assert.equal(await inject(p, preToolUse(file)), null, "the main window still has it");
});

Deno.test("SessionStart compact or clear makes the next touch send everything again", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  for (const source of ["compact", "clear"]) {
    await inject(p, preToolUse(file));
    assert.equal(await inject(p, preToolUse(file)), null);
    const start = JSON.stringify({
      session_id: "session-1",
      hook_event_name: "SessionStart",
      source,
    });
    assert.equal(await inject(p, start), null, "SessionStart prints nothing");
    assert.equal(sectionLabels(contextOf(await inject(p, preToolUse(file)))).length, 4, source);
  }
});

Deno.test("SessionStart startup or resume keeps what was sent", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  await inject(p, preToolUse(file));
  await inject(
    p,
    JSON.stringify({ session_id: "session-1", hook_event_name: "SessionStart", source: "resume" }),
  );
  assert.equal(await inject(p, preToolUse(file)), null);
});

Deno.test("an over-budget library stays under the budget and names what it left out", async () => {
  const big = "- a long learning line that keeps going and going\n".repeat(400);
  const p = await project({
    "proj/_memory_library/src/api/huge.md": big,
    "proj/_memory_library/src/more.md": big,
  });
  await using _ = p.dir;
  for (const budget of ["9000", "3000"]) {
    const context = contextOf(
      await inject(p, preToolUse(`${p.root}/src/api/handler.ts`, { session_id: budget }), {
        LIBRARIAN_BUDGET: budget,
      }),
    );
    assert.ok(context.length <= Number(budget), `${context.length} <= ${budget}`);
    assert.ok(context.includes(`${p.root}/_memory_library/src/more.md`));
    assert.match(context, /read these with the Read tool/);
  }
  const capped = contextOf(
    await inject(p, preToolUse(`${p.root}/src/api/handler.ts`, { session_id: "cap" }), {
      LIBRARIAN_BUDGET: "100000",
    }),
  );
  assert.ok(capped.length < 10_000, "never above Claude Code's cap");
});

Deno.test("binary, non-UTF-8 and 2 MB files never break the hook", async () => {
  const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]);
  const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
  const p = await project({
    "proj/_memory_library/src/api/image.md": binary,
    "proj/_memory_library/src/api/latin1.md": latin1,
    "proj/_memory_library/src/api/zz_huge.md": "- x\n".repeat(500_000),
  });
  await using _ = p.dir;
  const context = contextOf(await inject(p, preToolUse(`${p.root}/src/api/handler.ts`)));
  assert.ok(context.length <= 9000);
  assert.ok(context.includes("image.md (binary file, skipped)"));
  assert.ok(context.includes("latin1.md (not UTF-8 text, skipped)"));
  assert.ok(context.includes("zz_huge.md (cut)") || context.includes("zz_huge.md (left out)"));
});

Deno.test("garbage, empty or unexpected input: exit 0, no output, one log line", async () => {
  const p = await project();
  await using _ = p.dir;
  const log = `${p.dir.path}/hook.log`;
  const inputs = [
    "",
    "garbage",
    "[]",
    "{}",
    '{"hook_event_name":"PreToolUse","tool_name":"Read"}',
    '{"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"x"}}',
    '{"hook_event_name":"Notification"}',
    '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":42}}',
  ];
  for (const input of inputs) {
    assert.equal(await inject(p, input, { LIBRARIAN_LOG: log }), null, input);
  }
  const lines = (await Deno.readTextFile(log)).trim().split("\n");
  assert.equal(lines.length, inputs.length);
  assert.match(lines[0]!, /inject event=unknown result=bad-input detail="empty input/);
  assert.match(lines[5]!, /result=tool-not-served/);
});

Deno.test("no library, or a file outside the project: no output", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "bare/src/a.ts": "", "lib-proj/_memory_library/a.md": "- x" });
  const p = { dir, root: `${dir.path}/bare`, home: `${dir.path}/home` };
  assert.equal(await inject(p, preToolUse(`${dir.path}/bare/src/a.ts`)), null);
  const env = { LIBRARIAN_PATH: `${dir.path}/lib-proj/_memory_library` };
  assert.equal(await inject(p, preToolUse(`${dir.path}/bare/src/a.ts`), env), null);
  assert.equal(await inject(p, preToolUse("/etc/hosts")), null);
});

Deno.test("LIBRARIAN_PATH serves a library kept under another name and place", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "repo/docs-memory/src/notes.md": "- from LIBRARIAN_PATH",
    "repo/src/a.ts": "",
    "repo/src/_memory_library/ignored.md": "- would be found by walking",
  });
  const p = { dir, root: `${dir.path}/repo`, home: `${dir.path}/home` };
  const env = { LIBRARIAN_PATH: `${dir.path}/repo/docs-memory` };
  const context = contextOf(await inject(p, preToolUse(`${dir.path}/repo/src/a.ts`), env));
  assert.deepEqual(sectionLabels(context), ["src/notes.md"]);
});

Deno.test("touching a file inside the library injects nothing", async () => {
  const p = await project();
  await using _ = p.dir;
  assert.equal(
    await inject(p, preToolUse(`${p.root}/_memory_library/src/patterns.md`, {}, "Edit")),
    null,
  );
  assert.equal(
    await inject(p, preToolUse(`${p.root}/_memory_library/.scratch.md`, {}, "Write")),
    null,
  );
});

Deno.test("UserPromptSubmit gives the tagging reminder once, and again after compaction", async () => {
  const p = await project();
  await using _ = p.dir;
  const prompt = JSON.stringify({
    session_id: "session-1",
    hook_event_name: "UserPromptSubmit",
    cwd: p.root,
    prompt: "hi",
  });
  const first = await inject(p, prompt);
  const specific = first?.hookSpecificOutput as Record<string, string>;
  assert.equal(specific.hookEventName, "UserPromptSubmit");
  assert.ok(specific.additionalContext!.includes(`${p.root}/_memory_library/.scratch.md`));
  assert.ok(specific.additionalContext!.includes("## [TAG: "));
  assert.match(specific.additionalContext!, /why, not what/);
  assert.ok(specific.additionalContext!.includes(`${p.root}/_memory_library/<folder>/<type>.md`));
  assert.equal(await inject(p, prompt), null);
  await inject(
    p,
    JSON.stringify({ session_id: "session-1", hook_event_name: "SessionStart", source: "compact" }),
  );
  assert.ok(await inject(p, prompt));
});

Deno.test("UserPromptSubmit outside any library says nothing", async () => {
  await using dir = await tempDir();
  const p = { dir, root: dir.path, home: `${dir.path}/home` };
  const prompt = JSON.stringify({
    session_id: "s",
    hook_event_name: "UserPromptSubmit",
    cwd: dir.path,
  });
  assert.equal(await inject(p, prompt), null);
});

Deno.test("UserPromptSubmit finds the library through CLAUDE_PROJECT_DIR", async () => {
  const p = await project();
  await using _ = p.dir;
  const prompt = JSON.stringify({ session_id: "s", hook_event_name: "UserPromptSubmit", cwd: "/" });
  assert.ok(await inject(p, prompt, { CLAUDE_PROJECT_DIR: p.root }));
});

Deno.test("each event writes one log line with file, files sent, characters, hits and ms", async () => {
  const p = await project();
  await using _ = p.dir;
  const event = preToolUse(`${p.root}/src/api/handler.ts`);
  await inject(p, event, { LIBRARIAN_LOG: "" });
  await inject(p, event, { LIBRARIAN_LOG: "" });
  const lines = (await Deno.readTextFile(`${p.home}/.claude/librarian.log`)).trim().split("\n");
  assert.equal(lines.length, 2);
  assert.match(
    lines[0]!,
    /inject event=PreToolUse tool=Read file=src\/api\/handler.ts result=injected sent=src\/api\/edge.md,src\/patterns.md,patterns.md,tech.md chars=\d+ hits=0/,
  );
  assert.match(lines[1]!, /result=all-sent hits=4 .*ms=\d/);
});

Deno.test("ledgers stay in ~/.claude/librarian with CLAUDE_PLUGIN_DATA set, so plugin and settings hooks share them", async () => {
  const p = await project();
  await using _ = p.dir;
  const data = `${p.dir.path}/plugin-data`;
  const event = preToolUse(`${p.root}/src/api/handler.ts`);
  assert.ok(await inject(p, event, { CLAUDE_PLUGIN_DATA: data }), "the plugin's hook sends");
  assert.equal(await inject(p, event), null, "the settings hook (no CLAUDE_PLUGIN_DATA) knows it");
  const path = `${p.home}/.claude/librarian/ledgers/session-1/main.json`;
  assert.equal(Object.keys(JSON.parse(await Deno.readTextFile(path)).files).length, 4);
  await assert.rejects(Deno.stat(`${data}/ledgers`), Deno.errors.NotFound);
});

Deno.test("concurrent hook runs in one session never leave a damaged ledger", async () => {
  const p = await project({
    "proj/_memory_library/a/x.md": "- a",
    "proj/_memory_library/b/x.md": "- b",
    "proj/_memory_library/c/x.md": "- c",
    "proj/_memory_library/d/x.md": "- d",
  });
  await using _ = p.dir;
  const folders = ["a", "b", "c", "d", "src/api", "docs"];
  await Promise.all(folders.map((f) => inject(p, preToolUse(`${p.root}/${f}/file.ts`))));
  const ledgerDir = `${p.home}/.claude/librarian/ledgers/session-1`;
  const ledger = JSON.parse(await Deno.readTextFile(`${ledgerDir}/main.json`));
  assert.ok(Object.keys(ledger.files).length >= 1, "the ledger parses and records files");
  const leftovers = [...Deno.readDirSync(ledgerDir)].filter((e) => e.name.includes(".tmp-"));
  assert.deepEqual(leftovers, [], "no temp files left behind");
});

Deno.test("a library file touched but not changed is not sent again", async () => {
  const p = await project();
  await using _ = p.dir;
  const event = preToolUse(`${p.root}/src/api/handler.ts`);
  assert.ok(await inject(p, event));
  const later = new Date(Date.now() + 60_000);
  await Deno.utime(`${p.root}/_memory_library/src/patterns.md`, later, later);
  assert.equal(await inject(p, event), null);
});

Deno.test("a hook command given bad arguments still exits 0 (exit 2 would block the tool)", async () => {
  const p = await project();
  await using _ = p.dir;
  for (const args of [["inject", "--no-such-flag"], ["stop", "--no-such-flag"]]) {
    const result = await runLibrarian(args, { stdin: "{}", home: p.home, cwd: p.root });
    assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stdout.trim() === "" || result.stdout.trim().startsWith("{"), true);
  }
  const { processExitCode } = await import("../src/main.ts");
  assert.equal(processExitCode("stop", 2), 0, "a hook never exits 2, even for a usage error");
  assert.equal(processExitCode("inject", 1), 0);
  assert.equal(processExitCode("lint", 2), 2, "commands for people keep their exit codes");
});
