/**
 * The inject hook under attack: hostile input, strange paths, strange file systems and a broken
 * environment. Whatever happens, the hook exits 0, prints one hook JSON object or nothing, never a
 * decision, never hangs, stays within the budget and names what it could not show.
 */
import assert from "node:assert/strict";
import { closingLine } from "../src/inject/context_budget.ts";
import { envFrom } from "../src/core/env.ts";
import { buildFileContext, contextHeader, MAX_HEADER_PATH } from "../src/inject/file_context.ts";
import { isLocalAbsolutePath, normalizePath, resolveLocalPath } from "../src/core/paths.ts";
import { matchSubfolder } from "../src/core/walk.ts";
import {
  runLibrarian,
  type RunOptions,
  tempDir,
  type TempProject,
  tempProject,
  writeTree,
} from "./helpers.ts";
import { skipOnWindows, UNDER_WINE, wineSample } from "./platform.ts";

const IS_LINUX = Deno.build.os === "linux";

type Project = TempProject;

const DEFAULT_TREE: Record<string, string | Uint8Array> = {
  "proj/_memory_library/tech.md": "- global tech",
  "proj/_memory_library/src/api/edge.md": "- api edge",
  "proj/src/api/handler.ts": "export {};",
};

function project(files: Record<string, string | Uint8Array> = {}): Promise<Project> {
  return tempProject({ ...DEFAULT_TREE, ...files });
}

function readEvent(filePath: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: crypto.randomUUID(),
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: filePath },
    ...extra,
  });
}

/**
 * Runs the hook, killing it if it takes longer than `deadlineMs` (a hang fails the test), and
 * checks the contract: exit 0, stdout empty or exactly one `hookSpecificOutput` object with only
 * `hookEventName` and `additionalContext`. Returns the additional context, or null for no output.
 */
async function hook(
  stdin: string,
  options: RunOptions = {},
  deadlineMs = 30_000,
): Promise<string | null> {
  const result = await runLibrarian(["inject"], { ...options, stdin, deadlineMs });
  assert.ok(!result.killed, `the hook hung (killed after ${deadlineMs} ms)`);
  assert.equal(result.code, 0, `exit code 0 always (stderr: ${result.stderr})`);
  if (result.stdout === "") return null;
  assert.ok(
    result.stdout.endsWith("\n") && result.stdout.indexOf("\n") === result.stdout.length - 1,
  );
  const value = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(value), ["hookSpecificOutput"], result.stdout);
  assert.deepEqual(Object.keys(value.hookSpecificOutput).sort(), [
    "additionalContext",
    "hookEventName",
  ]);
  assert.equal(typeof value.hookSpecificOutput.additionalContext, "string");
  assert.ok(!result.stdout.includes("permissionDecision"));
  return value.hookSpecificOutput.additionalContext;
}

function labels(context: string | null): string[] {
  return [...(context ?? "").matchAll(/^--- \[(.+)\] ---$/gm)].map((m) => m[1]!);
}

Deno.test("malformed input of any shape: exit 0 and nothing on stdout", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  const inputs = [
    "\x00\xff\xfe garbage",
    "[".repeat(200_000) + "]".repeat(200_000),
    `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":${'{"a":'.repeat(50_000)}1${
      "}".repeat(50_000)
    }}`,
    '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}',
    JSON.stringify({ hook_event_name: 7, tool_name: "Read", tool_input: { file_path: file } }),
    JSON.stringify({ hook_event_name: ["PreToolUse"], tool_input: { file_path: file } }),
    JSON.stringify({ hook_event_name: "PreToolUse", tool_name: ["Read"], tool_input: {} }),
    ...[null, 42, true, [file], { path: file }, "", "   "].map((bad) => readEvent(bad)),
    ...[null, "x", [file], 3].map((bad) =>
      JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Read", tool_input: bad })
    ),
    JSON.stringify({ hook_event_name: "SessionStart", source: { compact: true }, session_id: [] }),
    JSON.stringify({ hook_event_name: "UserPromptSubmit", cwd: 5, session_id: {} }),
  ];
  for (const input of wineSample(inputs)) {
    assert.equal(await hook(input, { home: p.home, cwd: p.root }), null, input.slice(0, 80));
  }
});

Deno.test("fields of unexpected types around a good file path do not stop the context", async () => {
  const p = await project();
  await using _ = p.dir;
  const context = await hook(
    readEvent(`${p.root}/src/api/handler.ts`, {
      session_id: { id: 1 },
      agent_id: [1],
      cwd: 12,
      transcript_path: null,
      permission_mode: 3,
      tool_use_id: false,
    }),
    { home: p.home },
  );
  assert.deepEqual(labels(context), ["src/api/edge.md", "tech.md (library root)"]);
});

Deno.test("a 20 MB Write event is read whole and served", async () => {
  const p = await project();
  await using _ = p.dir;
  const event = JSON.stringify({
    session_id: "big",
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${p.root}/src/api/new.ts`, content: "x\n".repeat(10_000_000) },
  });
  // (the hold of a blind first write is the hold tests' business)
  const env = { LIBRARIAN_HOLD: "off" };
  assert.deepEqual(labels(await hook(event, { home: p.home, env })), [
    "src/api/edge.md",
    "tech.md (library root)",
  ]);
});

Deno.test("a directory, the project root, the library or / as file_path never breaks the hook", async () => {
  const p = await project();
  await using _ = p.dir;
  const run = (path: string) => hook(readEvent(path), { home: p.home });
  assert.deepEqual(labels(await run(`${p.root}/src/api`)), ["tech.md (library root)"]);
  assert.deepEqual(labels(await run(`${p.root}/src/api/`)), ["tech.md (library root)"]);
  for (const nothing of [p.root, `${p.root}/`, `${p.root}/_memory_library`, "/", "//", "."]) {
    assert.equal(await run(nothing), null, nothing);
  }
});

Deno.test("a path holding a NUL character is not served, and the log stays plain text", async () => {
  const p = await project();
  await using _ = p.dir;
  const log = `${p.dir.path}/hook.log`;
  const env = { LIBRARIAN_LOG: log };
  assert.equal(
    await hook(readEvent(`${p.root}/src/api/a\u0000.ts`), { home: p.home, env }),
    null,
  );
  assert.equal(await hook(readEvent(`${p.root}/src\u0000/api/a.ts`), { home: p.home, env }), null);
  const text = await Deno.readTextFile(log);
  assert.equal(text.trim().split("\n").length, 2);
  for (const line of text.trimEnd().split("\n")) {
    assert.doesNotMatch(line, /\p{Cc}/u, "no raw control characters in the log");
  }
  assert.match(text, /file="[^"]*\\u0000/);
});

Deno.test("a file path longer than any file system takes is not served (nor looked up)", async () => {
  const p = await project();
  await using _ = p.dir;
  const log = `${p.dir.path}/hook.log`;
  const env = { LIBRARIAN_PATH: `${p.root}/_memory_library`, LIBRARIAN_LOG: log };
  const path = `${p.root}/src/${"a/".repeat(20_000)}x.ts`;
  assert.equal(await hook(readEvent(path), { home: p.home, env }), null);
  assert.match(await Deno.readTextFile(log), /result=not-a-local-path/);
  assert.ok((await Deno.readTextFile(log)).length < 3000, "the log line stays short");
  const prompt = JSON.stringify({
    session_id: "long-cwd",
    hook_event_name: "UserPromptSubmit",
    cwd: `${p.root}/${"a".repeat(40_000)}`,
  });
  assert.equal(await hook(prompt, { home: p.home }), null);
});

Deno.test("'..' segments that climb out of the project are outside it", async () => {
  const p = await project({ "outside/x.ts": "" });
  await using _ = p.dir;
  const run = (path: string, extra = {}) => hook(readEvent(path, extra), { home: p.home });
  assert.equal(await run(`${p.root}/src/../../outside/x.ts`), null);
  assert.equal(await run(`${p.root}/../../../../../../../../etc/hosts`), null);
  assert.equal(await run("../outside/x.ts", { cwd: p.root }), null);
  assert.equal(await run("../../../../../../../../../etc/hosts", { cwd: `${p.root}/src` }), null);
  assert.deepEqual(labels(await run(`${p.root}/docs/../src/api/x.ts`)), [
    "src/api/edge.md",
    "tech.md (library root)",
  ]);
});

Deno.test("a relative path resolves against cwd, else the hook's working folder, with or without LIBRARIAN_PATH", async () => {
  const p = await project();
  await using _ = p.dir;
  const expected = ["src/api/edge.md", "tech.md (library root)"];
  const libraryPath = { LIBRARIAN_PATH: `${p.root}/_memory_library` };
  for (const env of [{}, libraryPath]) {
    const name = JSON.stringify(env);
    const withCwd = await hook(readEvent("api/x.ts", { cwd: `${p.root}/src` }), {
      home: p.home,
      env,
      cwd: p.dir.path,
    });
    assert.deepEqual(labels(withCwd), expected, `with cwd ${name}`);
    assert.ok(withCwd!.startsWith("[Librarian] Memory library context for src/api/x.ts:"));
    const withoutCwd = await hook(readEvent("src/api/x.ts"), { home: p.home, env, cwd: p.root });
    assert.deepEqual(labels(withoutCwd), expected, `without cwd ${name}`);
    const badCwd = await hook(readEvent("src/api/x.ts", { cwd: "not/absolute" }), {
      home: p.home,
      env,
      cwd: p.root,
    });
    assert.deepEqual(labels(badCwd), expected, `relative cwd ${name}`);
  }
});

Deno.test({
  name:
    "Windows drive and UNC paths on Linux or macOS never reach a library beside the working folder",
  ignore: skipOnWindows("checks how Linux and macOS treat Windows paths"),
  fn: async () => {
    const p = await project({ "C:/repo/_memory_library/x.md": "- a library under ./C:" });
    await using _ = p.dir;
    const options = { home: p.home, cwd: p.dir.path };
    for (const path of ["C:\\repo\\a.ts", "c:/repo/a.ts", "C:\\repo/sub\\a.ts"]) {
      assert.equal(await hook(readEvent(path), options), null, path);
      assert.equal(await hook(readEvent(path, { cwd: p.dir.path }), options), null, path);
    }
    const env = { LIBRARIAN_PATH: "C:\\repo\\_memory_library" };
    assert.equal(await hook(readEvent("C:\\repo\\a.ts"), { ...options, env }), null);
    assert.equal(await hook(readEvent("\\\\server\\share\\a.ts"), options), null);
    assert.equal(await hook(readEvent("/c/repo/a.ts"), options), null);
  },
});

Deno.test("mixed separators, Unicode and emoji paths find their library files", async () => {
  const p = await project({
    "proj/_memory_library/src/caf\u00e9/menu.md": "- nfc mirror",
    "proj/_memory_library/src/🚀 launch/pad.md": "- rocket",
  });
  await using _ = p.dir;
  const run = (path: string) => hook(readEvent(path), { home: p.home });
  assert.deepEqual(labels(await run(`${p.root}\\src/api\\\\handler.ts`))[0], "src/api/edge.md");
  assert.deepEqual(labels(await run(`${p.root}/src/caf\u00e9/a.ts`))[0], "src/caf\u00e9/menu.md");
  assert.deepEqual(labels(await run(`${p.root}/src/🚀 launch/a.ts`))[0], "src/🚀 launch/pad.md");
});

Deno.test({
  name: "NFC and NFD spellings of a folder name meet: NFD project folders and mirror folders work",
  ignore: Deno.build.os === "darwin", // APFS maps both spellings to one name
  fn: async () => {
    await using dir = await tempDir();
    const nfd = "cafe\u0301";
    const nfc = "caf\u00e9";
    await writeTree(dir.path, {
      [`${nfd}/_memory_library/src/a.md`]: "- in an NFD-named project",
      [`p2/_memory_library/${nfd}/m.md`]: "- NFD mirror folder",
      [`p2/${nfc}/x.ts`]: "",
    });
    const home = `${dir.path}/home`;
    const inNfdProject = await hook(readEvent(`${dir.path}/${nfd}/src/x.ts`), { home });
    assert.deepEqual(labels(inNfdProject), ["src/a.md"]);
    const nfcCode = await hook(readEvent(`${dir.path}/p2/${nfc}/x.ts`), { home });
    assert.deepEqual(labels(nfcCode), [`${nfd}/m.md`]);
  },
});

Deno.test({
  name: "library links that stay inside the library are served; links out of it are only named",
  ignore: skipOnWindows("needs symbolic links"),
  fn: async () => {
    const p = await project({
      "proj/_memory_library/shared/team.md": "- shared through a link",
      "outside/secret.md": "- SECRET from outside the library",
      "outside/notes/n.md": "- NOTES from outside the library",
      "real-lib/g.md": "- g",
    });
    await using _ = p.dir;
    const lib = `${p.root}/_memory_library`;
    await Deno.symlink(`${lib}/shared/team.md`, `${lib}/src/team.md`, { type: "file" });
    await Deno.symlink(`${p.dir.path}/outside/secret.md`, `${lib}/src/api/secret.md`, {
      type: "file",
    });
    await Deno.mkdir(`${p.root}/src3`);
    await Deno.symlink(`${p.dir.path}/outside/notes`, `${lib}/src3`, { type: "dir" });
    const event = readEvent(`${p.root}/src/api/handler.ts`);
    const context = await hook(event, { home: p.home });
    assert.deepEqual(labels(context), ["src/api/edge.md", "src/team.md", "tech.md (library root)"]);
    assert.ok(!context!.includes("SECRET"), "never read");
    assert.match(context!, /outside the library[^\n]*_memory_library\/src\/api\/secret\.md/);
    assert.ok(!/Read tool[^\n]*secret\.md/.test(context!), "never offered for reading");
    assert.equal(await hook(event, { home: p.home }), null, "named once per context window");
    const folder = await hook(readEvent(`${p.root}/src3/x.ts`), { home: p.home });
    assert.ok(!folder!.includes("NOTES"));
    assert.match(folder!, /outside the library[^\n]*_memory_library\/src3\//);
    // a library folder found by discovery that leads out of its project is not a library
    await Deno.mkdir(`${p.dir.path}/linked/src`, { recursive: true });
    await Deno.symlink(`${p.dir.path}/real-lib`, `${p.dir.path}/linked/_memory_library`, {
      type: "dir",
    });
    assert.equal(await hook(readEvent(`${p.dir.path}/linked/src/a.ts`), { home: p.home }), null);
    // ... unless the user names it with LIBRARIAN_PATH
    const env = { LIBRARIAN_PATH: `${p.dir.path}/linked/_memory_library/` };
    assert.deepEqual(
      labels(await hook(readEvent(`${p.dir.path}/linked/src/a.ts`), { home: p.home, env })),
      ["g.md (library root)"],
    );
  },
});

Deno.test({
  name: "FIFOs and devices in the library never hang the hook; unreadable files are named",
  ignore: skipOnWindows("needs FIFOs, /dev and /proc") || !IS_LINUX,
  fn: async () => {
    const p = await project();
    await using _ = p.dir;
    const lib = `${p.root}/_memory_library/src/api`;
    await new Deno.Command("mkfifo", { args: [`${lib}/fifo.md`, `${p.dir.path}/target-fifo`] })
      .output();
    await Deno.symlink(`${p.dir.path}/target-fifo`, `${lib}/link-to-fifo.md`, { type: "file" });
    await Deno.symlink("/dev/zero", `${lib}/zero.md`, { type: "file" });
    await Deno.symlink("/proc/self/environ", `${lib}/secret.md`, { type: "file" });
    await Deno.mkdir(`${lib}/folder.md`);
    // a name that is not UTF-8 cannot be opened by the name the listing gives
    await new Deno.Command("sh", { args: ["-c", `printf x > "${lib}/bad-$(printf '\\377').md"`] })
      .output();
    const event = readEvent(`${p.root}/src/api/handler.ts`);
    const context = await hook(event, { home: p.home }, 20_000);
    assert.deepEqual(labels(context), ["src/api/edge.md", "tech.md (library root)"]);
    assert.match(context!, /bad-\uFFFD\.md \(unreadable: \w+\)/);
    assert.match(context!, /outside the library[^\n]*\/secret\.md/, "a link into /proc");
    assert.equal(await hook(event, { home: p.home }, 20_000), null, "each named once");
  },
});

Deno.test({
  name: "a FIFO where the ledger or the log should be never hangs the hook",
  ignore: skipOnWindows("needs FIFOs") || !IS_LINUX,
  fn: async () => {
    const p = await project();
    await using _ = p.dir;
    const state = `${p.dir.path}/state`;
    await Deno.mkdir(`${state}/ledgers/s-fifo`, { recursive: true });
    const log = `${p.dir.path}/log-fifo`;
    await new Deno.Command("mkfifo", { args: [`${state}/ledgers/s-fifo/main.json`, log] })
      .output();
    const event = readEvent(`${p.root}/src/api/handler.ts`, { session_id: "s-fifo" });
    const env = { LIBRARIAN_STATE_DIR: state, LIBRARIAN_LOG: log };
    assert.deepEqual(labels(await hook(event, { home: p.home, env }, 20_000)), [
      "src/api/edge.md",
      "tech.md (library root)",
    ]);
  },
});

Deno.test("LIBRARIAN_PATH that is relative or a file is ignored; a trailing slash is fine", async () => {
  const p = await project({ "proj/notes.txt": "" });
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  const expected = ["src/api/edge.md", "tech.md (library root)"];
  for (const value of ["_memory_library", "./proj/_memory_library", `${p.root}/notes.txt`]) {
    const env = { LIBRARIAN_PATH: value };
    const context = await hook(readEvent(file), { home: p.home, env, cwd: p.dir.path });
    assert.deepEqual(labels(context), expected, `${value}: ignored, the walk-up finds the library`);
  }
  for (const value of [`${p.root}/_memory_library/`, `${p.root}/_memory_library//`]) {
    const context = await hook(readEvent(file), { home: p.home, env: { LIBRARIAN_PATH: value } });
    assert.deepEqual(labels(context), expected, value);
  }
});

Deno.test("no HOME, a relative HOME or state folder, or a state folder that is a file: context still comes, nothing is written in the project", async () => {
  const p = await project({ "a-file": "" });
  await using _ = p.dir;
  const event = readEvent(`${p.root}/src/api/handler.ts`, { session_id: "same" });
  const expected = ["src/api/edge.md", "tech.md (library root)"];
  for (const home of [".", "home", ""]) {
    for (let i = 0; i < 2; i++) {
      const env = { LIBRARIAN_LOG: "" };
      assert.deepEqual(labels(await hook(event, { home, env, cwd: p.root })), expected, home);
    }
  }
  for (const name of [".claude", "home", "librarian.log"]) {
    await assert.rejects(Deno.stat(`${p.root}/${name}`), Deno.errors.NotFound, name);
  }
  const relativeState = { CLAUDE_PLUGIN_DATA: "state", LIBRARIAN_STATE_DIR: "" };
  await hook(event, { home: "", env: relativeState, cwd: p.root });
  await assert.rejects(Deno.stat(`${p.root}/state`), Deno.errors.NotFound);
  const fileState = { LIBRARIAN_STATE_DIR: `${p.dir.path}/a-file` };
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(labels(await hook(event, { home: p.home, env: fileState })), expected);
  }
});

Deno.test("a corrupted ledger only means the files are sent again", async () => {
  const p = await project();
  await using _ = p.dir;
  const ledgerDir = `${p.home}/.claude/librarian/ledgers/s-bad`;
  const event = readEvent(`${p.root}/src/api/handler.ts`, { session_id: "s-bad" });
  const junk = [
    "\x00\xff{{{",
    "[]",
    "null",
    '{"files":[1,2],"reminded":"yes"}',
    '{"files":{"src/api/edge.md":5,"tech.md":null,"__proto__":"x"}}',
    '{"files":{"src/api/edge.md":"1:2:3:4","tech.md":""}}',
  ];
  for (const text of wineSample(junk)) {
    await Deno.mkdir(ledgerDir, { recursive: true });
    await Deno.writeTextFile(`${ledgerDir}/main.json`, text);
    assert.equal(labels(await hook(event, { home: p.home })).length, 2, text);
    assert.equal(await hook(event, { home: p.home }), null, `${text}: the ledger was repaired`);
  }
  await Deno.remove(`${ledgerDir}/main.json`);
  await Deno.mkdir(`${ledgerDir}/main.json`);
  assert.equal(labels(await hook(event, { home: p.home })).length, 2, "a folder in its place");
});

Deno.test("LIBRARIAN_BUDGET garbage, negative or huge: within the budget used, every file not shown is named", async () => {
  const big = "- a long learning line that keeps going and going and going\n".repeat(300);
  const p = await project({
    "proj/_memory_library/src/api/huge.md": big,
    "proj/_memory_library/src/big.md": big,
    "proj/_memory_library/other.md": big,
  });
  await using _ = p.dir;
  const cases: Array<[string, number]> = [
    ["lots", 9000],
    ["-400", 1000],
    ["0", 1000],
    ["1e12", 9900],
    ["Infinity", 9000],
    ["NaN", 9000],
    ["12.5", 9000],
    ["", 9000],
  ];
  for (const [value, budget] of wineSample(cases)) {
    const context = await hook(readEvent(`${p.root}/src/api/handler.ts`), {
      home: p.home,
      env: { LIBRARIAN_BUDGET: value },
    });
    assert.ok(context!.length <= budget, `${value}: ${context!.length} <= ${budget}`);
    const shown = labels(context);
    for (const rel of ["src/api/huge.md", "src/api/edge.md", "src/big.md", "other.md", "tech.md"]) {
      const label = rel.includes("/") ? rel : `${rel} (library root)`;
      const whole = shown.includes(label) && !context!.includes(`${rel} (cut)`);
      assert.ok(
        whole || context!.includes(`${p.root}/_memory_library/${rel} (`),
        `${value}: ${rel}`,
      );
    }
  }
});

Deno.test("a very long file path still leaves room to name the files not shown", async () => {
  const deep = Array.from({ length: 9 }, (_, i) => `${i}${"d".repeat(99)}`).join("/");
  const p = await project({
    [`proj/_memory_library/${deep}/notes.md`]: "- deep learning\n".repeat(200),
  });
  await using _ = p.dir;
  const context = await hook(readEvent(`${p.root}/${deep}/file.ts`), {
    home: p.home,
    env: { LIBRARIAN_BUDGET: "1000" },
  });
  assert.ok(context!.length <= 1000);
  assert.match(context!, /^\[Librarian\] Memory library context for .*\/file\.ts:/);
  assert.match(context!, /Not shown in full/);
  assert.match(context!, /(notes\.md \((cut|left out)\)|\d+ library files?\.$)/);
});

Deno.test("a folder of 10,000 files: within the budget, and the closing line says where the rest are", async () => {
  // under Wine a file costs some milliseconds to create: 2,000 make the same point there
  const count = UNDER_WINE ? 2_000 : 10_000;
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`proj/_memory_library/src/f${String(i).padStart(5, "0")}.md`] = `- learning ${i}\n`;
  }
  const p = await project(files);
  await using _ = p.dir;
  const context = await hook(readEvent(`${p.root}/src/x.ts`), { home: p.home });
  assert.ok(context!.length <= 9000);
  assert.equal(labels(context)[0], "src/f00000.md");
  const more = /\(the others are in ([^)]+)\): .*; and (\d+) more\.$/.exec(context!);
  assert.ok(more, context!.slice(-300));
  assert.ok(more[1]!.includes(`${p.root}/_memory_library/src/`), more[1]);
  const named = (context!.match(/ \((left out|cut)\)/g) ?? []).length;
  assert.equal(labels(context).length + named + Number(more[2]), count + 1);
});

Deno.test("reading stops once the budget is spent, even when the files are empty or binary", async () => {
  await using dir = await tempDir();
  const files: Record<string, string | Uint8Array> = { "proj/src/a.ts": "" };
  const each = UNDER_WINE ? 1000 : 3000; // under Wine a file costs some milliseconds to create
  for (let i = 0; i < each; i++) files[`proj/_memory_library/src/e${i}.md`] = "";
  for (let i = 0; i < each; i++) {
    files[`proj/_memory_library/src/z${i}.md`] = new Uint8Array([0, 1, 2]);
  }
  await writeTree(dir.path, files);
  const context = buildFileContext(`${dir.path}/proj/src/a.ts`, { env: envFrom({}), budget: 9000 });
  assert.equal(context.kind, "context");
  if (context.kind !== "context") return;
  const { shown, left, skipped } = context.rendered;
  assert.ok(shown.length > 0 && shown.length < each, `${shown.length} empty files shown`);
  assert.deepEqual(skipped, [], "binary files past the budget are not even read");
  assert.equal(shown.length + left.length, 2 * each);
});

Deno.test("files left out for lack of room are sent on later touches; a changed file is sent again", async () => {
  const body = (n: number) => `- learning ${n} ${"x".repeat(1500)}\n`;
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`proj/_memory_library/src/api/f${i}.md`] = body(i);
  const p = await project(files);
  await using _ = p.dir;
  const event = readEvent(`${p.root}/src/api/handler.ts`, { session_id: "paging" });
  const seen = new Set<string>();
  for (let touch = 0; touch < 6; touch++) {
    const context = await hook(event, { home: p.home });
    if (context === null) break;
    for (const label of labels(context)) seen.add(label);
  }
  assert.equal(seen.size, 14, [...seen].join(","));
  assert.equal(await hook(event, { home: p.home }), null, "then nothing is new");
  await Deno.writeTextFile(`${p.root}/_memory_library/src/api/f3.md`, body(33));
  assert.deepEqual(labels(await hook(event, { home: p.home })), ["src/api/f3.md"]);
});

Deno.test("two nested libraries in one session: each library's files are sent once, not in turns", async () => {
  const p = await project({
    "proj/pkg/_memory_library/tech.md": "- the package's own tech notes",
    "proj/pkg/src/b.ts": "",
  });
  await using _ = p.dir;
  const touch = (path: string) =>
    hook(readEvent(path, { session_id: "nested" }), { home: p.home }).then(labels);
  const root = `${p.root}/src/api/handler.ts`;
  const pkg = `${p.root}/pkg/src/b.ts`;
  assert.deepEqual(await touch(root), ["src/api/edge.md", "tech.md (library root)"]);
  assert.deepEqual(
    await touch(pkg),
    ["tech.md (library root)"],
    "the package library's own tech.md",
  );
  assert.deepEqual(await touch(root), [], "the root library's files are still in the window");
  assert.deepEqual(await touch(pkg), []);
});

Deno.test("ids that differ only in characters unsafe in file names keep separate ledgers", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  const send = (extra: Record<string, unknown>) =>
    hook(readEvent(file, extra), { home: p.home }).then(labels);
  assert.equal((await send({ session_id: "s/1" })).length, 2);
  assert.equal((await send({ session_id: "s_1" })).length, 2, "another session");
  assert.equal((await send({ session_id: "s/1", agent_id: "a.1" })).length, 2);
  assert.equal((await send({ session_id: "s/1", agent_id: "a_1" })).length, 2, "another agent");
  const long = "x".repeat(200);
  assert.equal((await send({ session_id: `${long}1` })).length, 2);
  assert.equal((await send({ session_id: `${long}2` })).length, 2, "ids past 120 characters");
  assert.deepEqual(await send({ session_id: "s/1", agent_id: "a.1" }), [], "each is remembered");
});

Deno.test("SessionStart compact empties the main window's ledger only; odd SessionStart events are harmless", async () => {
  const p = await project();
  await using _ = p.dir;
  const file = `${p.root}/src/api/handler.ts`;
  const sub = { session_id: "s-c", agent_id: "agent-1" };
  assert.equal(labels(await hook(readEvent(file, sub), { home: p.home })).length, 2);
  assert.equal(await hook(readEvent(file, sub), { home: p.home }), null);
  for (
    const odd of [
      { hook_event_name: "SessionStart" },
      { hook_event_name: "SessionStart", session_id: "s-c", source: "resume" },
      { hook_event_name: "SessionStart", session_id: "../..", source: "clear" },
      { hook_event_name: "SessionStart", session_id: "", source: "compact" },
    ]
  ) {
    assert.equal(await hook(JSON.stringify(odd), { home: p.home }), null);
  }
  assert.equal(await hook(readEvent(file, sub), { home: p.home }), null, "still remembered");
  // each compaction grows the transcript: that tells a second compaction from a second run of one
  const transcript_path = `${p.dir.path}/transcript.jsonl`;
  await Deno.writeTextFile(transcript_path, "{}\n");
  const compact = {
    hook_event_name: "SessionStart",
    session_id: "s-c",
    source: "compact",
    transcript_path,
  };
  assert.equal(await hook(JSON.stringify(compact), { home: p.home }), null);
  assert.equal(
    await hook(readEvent(file, sub), { home: p.home }),
    null,
    "the main conversation's compaction leaves a subagent's window as it was",
  );
  const main = { session_id: "s-c" };
  assert.equal(labels(await hook(readEvent(file, main), { home: p.home })).length, 2);
  assert.equal(await hook(readEvent(file, main), { home: p.home }), null);
  await Deno.writeTextFile(transcript_path, "{}\n", { append: true });
  assert.equal(await hook(JSON.stringify(compact), { home: p.home }), null);
  assert.equal(labels(await hook(readEvent(file, main), { home: p.home })).length, 2);
});

Deno.test("resolveLocalPath() gives a path this OS can open, or null", () => {
  assert.equal(resolveLocalPath("../lib/a.ts", "/repo/src", "linux"), "/repo/lib/a.ts");
  assert.equal(resolveLocalPath("/repo/./a.ts", undefined, "linux"), "/repo/a.ts");
  assert.equal(resolveLocalPath("a.ts", undefined, "linux"), null, "relative, no base");
  assert.equal(resolveLocalPath("a.ts", "rel/base", "linux"), null, "relative base");
  assert.equal(resolveLocalPath("/repo/a\0.ts", undefined, "linux"), null, "NUL");
  assert.equal(resolveLocalPath("C:\\repo\\a.ts", "/home/me", "linux"), null);
  assert.equal(resolveLocalPath("c:/repo/a.ts", "/home/me", "darwin"), null);
  assert.equal(resolveLocalPath("C:\\repo\\a.ts", undefined, "windows"), "C:/repo/a.ts");
  assert.equal(resolveLocalPath("src\\a.ts", "c:\\repo", "windows"), "C:/repo/src/a.ts");
  assert.equal(resolveLocalPath("/c/repo/a.ts", undefined, "windows"), "C:/repo/a.ts");
  assert.ok(isLocalAbsolutePath("C:/x", "windows") && !isLocalAbsolutePath("C:/x", "linux"));
});

Deno.test("normalizePath() changes the Unicode spelling only on macOS, where both name one file", () => {
  const nfd = "/repo/cafe\u0301/a.ts";
  assert.equal(normalizePath(nfd, "linux"), nfd);
  assert.equal(normalizePath(nfd, "windows"), nfd);
  assert.equal(normalizePath(nfd, "darwin"), "/repo/caf\u00e9/a.ts");
});

Deno.test("matchSubfolder() meets the NFC and NFD spellings of a name, exact name first", () => {
  const nfc = "caf\u00e9";
  const nfd = "cafe\u0301";
  assert.equal(matchSubfolder([nfd], nfc, false), nfd);
  assert.equal(matchSubfolder([nfc], nfd, false), nfc);
  assert.equal(matchSubfolder([nfd, nfc], nfc, false), nfc);
  assert.equal(matchSubfolder(["CAFE\u0301"], nfc, true), "CAFE\u0301");
  assert.equal(matchSubfolder(["Src"], "src", false), undefined, "case counts on Linux");
});

Deno.test("closingLine() says in which folders the files it does not name are", () => {
  const pending = Array.from({ length: 30 }, (_, i) => ({
    readPath: i < 20 ? `/lib/src/${i}.md` : `/lib/${i}.md`,
    note: "left out",
  }));
  const line = closingLine(pending, 9000);
  assert.match(line, /\(the others are in \/lib\/src\/ and \/lib\/\): /);
  assert.match(line, /; and 18 more\.$/);
  const tight = closingLine(pending, 9000, 160);
  assert.ok(tight.length <= 160, tight);
  assert.ok(tight.endsWith("(in /lib/src/ and /lib/): 30 library files."), tight);
  const tighter = closingLine(pending, 9000, 140);
  assert.ok(tighter.endsWith("matter: 30 library files."), tighter);
  assert.equal(closingLine(pending.slice(0, 2), 9000).includes("others"), false);
});

Deno.test("contextHeader() shows at most the end of a very long path", () => {
  const long = `${"a/".repeat(400)}file.ts`;
  const header = contextHeader(long, 0);
  assert.ok(header.length < MAX_HEADER_PATH + 60, `${header.length}`);
  assert.ok(header.endsWith("a/a/file.ts:") && header.includes("…"));
  const emoji = contextHeader("😀".repeat(300), 0);
  assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(emoji));
});
