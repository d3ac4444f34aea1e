/**
 * The environment the shipped program reads (src/core/env_vars.ts, docs/configuration.md): every
 * variable read anywhere in `src/` or `bin/librarian` is in the table; a location setting the
 * project's own settings name is not used, and the refusal is said; the test-only knobs are inert
 * in what the launcher runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ENV_VARS, envVar, namesOfKind } from "../src/core/env_vars.ts";
import { CONFIGURATION_PAGE, unpadded, withTables } from "../scripts/configuration_doc.ts";
import {
  LAUNCHER,
  parseHookStdout,
  REPO_ROOT,
  runLibrarian,
  tempDir,
  writeTree,
} from "./helpers.ts";

// ---------- the scan: which variables the code reads ----------

/** TypeScript text without its comments (block comments, and `//` not inside a URL or string). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[^]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/**
 * The environment variables a TypeScript module reads: every string literal shaped like one
 * (`"SOME_NAME"`), and the names passed to a reader (`env("HOME")`, `absolutePathFrom(env, "A",
 * "B")`, `Deno.env.get("X")`).
 */
function namesInTypeScript(text: string): Set<string> {
  const code = withoutComments(text);
  const names = new Set<string>();
  for (const m of code.matchAll(/["'`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)["'`]/g)) names.add(m[1]!);
  const call =
    /\b(?:env|Deno\.env\.get|absolutePathFrom|absoluteFrom|rawVariable)\(\s*(?:env\s*,\s*)?((?:["'][A-Za-z_]\w*["']\s*,?\s*)+)\)/g;
  for (const m of code.matchAll(call)) {
    for (const n of m[1]!.matchAll(/["']([A-Za-z_]\w*)["']/g)) names.add(n[1]!);
  }
  return names;
}

/** The environment variables a POSIX sh script reads: `$NAME`, `${NAME...}`, `$env:NAME`. */
function namesInShell(text: string): Set<string> {
  const code = text.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
  const names = new Set<string>();
  for (const m of code.matchAll(/\$(?:\{|env:)?([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]!);
  // the launcher's checked reads: `setting NAME KIND` reads $NAME through eval
  for (const m of code.matchAll(/\bsetting ([A-Z][A-Z0-9_]*) /g)) names.add(m[1]!);
  return names;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** Each variable `src/` reads, with the first file that reads it. */
async function programReads(): Promise<Map<string, string>> {
  const reads = new Map<string, string>();
  for (const file of await sourceFiles(join(REPO_ROOT, "src"))) {
    if (file.endsWith("env_vars.ts")) continue; // the table itself
    for (const name of namesInTypeScript(await Deno.readTextFile(file))) {
      if (!reads.has(name)) reads.set(name, file.slice(REPO_ROOT.length + 1).replaceAll("\\", "/"));
    }
  }
  return reads;
}

async function launcherReads(): Promise<Set<string>> {
  return namesInShell(await Deno.readTextFile(LAUNCHER));
}

Deno.test("the scan finds a variable however it is read, and not one in a comment", () => {
  const ts = [
    "/** `LIBRARIAN_IN_A_COMMENT` */",
    'const a = env("LIBRARIAN_NEW_KNOB"); // "LIBRARIAN_TRAILING_COMMENT"',
    'const b = absolutePathFrom(env, "HOME", "SHELL");',
    'for (const name of ["CLAUDE_SOMETHING"]) use(name);',
    'const u = "https://example.com"; const c = env("EDITOR");',
  ].join("\n");
  assert.deepEqual(
    [...namesInTypeScript(ts)].sort(),
    ["CLAUDE_SOMETHING", "EDITOR", "HOME", "LIBRARIAN_NEW_KNOB", "SHELL"],
  );
  const sh = '# ${LIBRARIAN_IN_A_COMMENT}\nx=${LIBRARIAN_NEW:-}\n[ -n "$TMPDIR" ] && y=$root\n' +
    "pwsh '\\$env:LIBRARIAN_PS'\nif setting LIBRARIAN_CHECKED dir; then :; fi";
  assert.deepEqual([...namesInShell(sh)].sort(), [
    "LIBRARIAN_CHECKED",
    "LIBRARIAN_NEW",
    "LIBRARIAN_PS",
    "TMPDIR",
  ]);
});

Deno.test("every environment variable src/ reads is in the table (core/env_vars.ts)", async () => {
  const reads = await programReads();
  assert.ok(reads.has("LIBRARIAN_BUDGET") && reads.has("HOME"), "the scan read src/");
  const missing = [...reads].filter(([name]) => envVar(name) === undefined)
    .map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(missing, [], "add each to src/core/env_vars.ts and docs/configuration.md");
});

Deno.test("every environment variable bin/librarian reads is in the table", async () => {
  const reads = await launcherReads();
  assert.ok(reads.has("LIBRARIAN_BINARY_URL"), "the scan read the launcher");
  assert.deepEqual([...reads].filter((name) => envVar(name) === undefined), []);
});

Deno.test("the table lists no variable nobody reads, and says who reads each", async () => {
  const program = await programReads();
  const launcher = await launcherReads();
  for (const v of ENV_VARS) {
    assert.equal(
      v.readBy.includes("program"),
      program.has(v.name),
      `${v.name}: read by the program is ${program.has(v.name)}`,
    );
    assert.equal(
      v.readBy.includes("launcher"),
      launcher.has(v.name),
      `${v.name}: read by the launcher is ${launcher.has(v.name)}`,
    );
  }
  assert.equal(new Set(ENV_VARS.map((v) => v.name)).size, ENV_VARS.length, "no name twice");
});

Deno.test("only src/core/env.ts touches Deno.env: every other read goes through the table", async () => {
  const touching: string[] = [];
  for (const file of await sourceFiles(join(REPO_ROOT, "src"))) {
    if (/\bDeno\.env\b|\bprocess\.env\b/.test(withoutComments(await Deno.readTextFile(file)))) {
      touching.push(file.slice(REPO_ROOT.length + 1).replaceAll("\\", "/"));
    }
  }
  assert.deepEqual(touching, ["src/core/env.ts"]);
});

Deno.test("no shipped module turns the test knobs on; only tests/knob_program.ts does", async () => {
  const callers: string[] = [];
  for (const file of await sourceFiles(join(REPO_ROOT, "src"))) {
    const code = withoutComments(await Deno.readTextFile(file));
    if (/\benableTestKnobs\(\)/.test(code.replace(/export function enableTestKnobs\(\)/, ""))) {
      callers.push(file);
    }
  }
  assert.deepEqual(callers, []);
  const knobProgram = await Deno.readTextFile(join(REPO_ROOT, "tests", "knob_program.ts"));
  assert.match(withoutComments(knobProgram), /^enableTestKnobs\(\);$/m);
  assert.deepEqual(namesOfKind("test"), [
    "LIBRARIAN_FAULT",
    "LIBRARIAN_NOW",
    "LIBRARIAN_LOCK_TIMEOUT_MS",
  ]);
});

Deno.test("docs/configuration.md is the table (scripts/configuration_doc.ts writes it)", async () => {
  const page = await Deno.readTextFile(join(REPO_ROOT, CONFIGURATION_PAGE));
  assert.equal(
    unpadded(page),
    unpadded(withTables(page)),
    "run: deno run --allow-read --allow-write scripts/configuration_doc.ts && deno fmt docs/",
  );
  for (const v of ENV_VARS) assert.ok(page.includes(`\`${v.name}\``), v.name);
});

// ---------- what the launcher runs ignores the test-only knobs ----------

const STOP_SCRATCH = "## [TAG: src, type: notes]\n- FILED-LEARNING\n";

/** A project whose scratch holds one tagged block; returns its paths. */
async function scratchProject(base: string) {
  const root = `${base}/proj`;
  await writeTree(base, {
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "proj/_memory_library/.scratch.md": STOP_SCRATCH,
    "proj/src/a.ts": "export {};\n",
  });
  return { root, home: `${base}/home`, lib: `${root}/_memory_library` };
}

function stopEventFor(cwd: string): string {
  return JSON.stringify({
    session_id: "sess-knobs",
    transcript_path: "/tmp/none.jsonl",
    cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
  });
}

/** Runs the stop hook through the launcher itself (never tests/knob_program.ts). */
async function launcherStop(
  p: { root: string; home: string },
  env: Record<string, string>,
) {
  const child = new Deno.Command("sh", {
    args: [LAUNCHER, "stop"],
    cwd: p.root,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: p.home,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/", ".cache", "deno"),
      LIBRARIAN_LOG: "off",
      LIBRARIAN_FORCE_SOURCE: "1",
      ...env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stopEventFor(p.root)));
  await writer.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

for (
  const [how, extra] of [
    ["the hook bundle", {}],
    ["the source entry (LIBRARIAN_UNBUNDLED=1)", { LIBRARIAN_UNBUNDLED: "1" }],
  ] as const
) {
  Deno.test(`${how} ignores LIBRARIAN_FAULT and LIBRARIAN_NOW; the test entry reads them`, async () => {
    if (how === "the hook bundle") {
      const bundle = join(REPO_ROOT, "bundles", "stop.js");
      assert.ok((await Deno.stat(bundle)).isFile, "run `deno task bundle` first");
    }
    await using dir = await tempDir();
    const knobs = { LIBRARIAN_FAULT: "route-throws", LIBRARIAN_NOW: "2001-02-03T12:00:00" };

    const shipped = await scratchProject(`${dir.path}/shipped`);
    const result = await launcherStop(shipped, { ...knobs, ...extra });
    assert.equal(result.code, 0);
    const message = String(parseHookStdout(result.stdout)?.systemMessage);
    assert.match(message, /1 learning → src\/notes\.md/, "filed: the fault point did not fire");
    const filed = await Deno.readTextFile(`${shipped.lib}/src/notes.md`);
    assert.ok(filed.includes("FILED-LEARNING"));
    assert.ok(!filed.includes("2001-02-03"), "dated today, not by LIBRARIAN_NOW");

    // The same knobs reach the program through tests/knob_program.ts (runLibrarian uses it).
    const tested = await scratchProject(`${dir.path}/tested`);
    const viaTest = await runLibrarian(["stop"], {
      stdin: stopEventFor(tested.root),
      cwd: tested.root,
      home: tested.home,
      env: knobs,
    });
    assert.equal(viaTest.code, 0);
    assert.match(String(parseHookStdout(viaTest.stdout)?.systemMessage), /route-throws|failed/i);
    assert.equal(await Deno.readTextFile(`${tested.lib}/.scratch.md`), STOP_SCRATCH, "kept");
  });
}

// ---------- a project's settings cannot choose a location ----------

/**
 * A cloned repository whose committed `.claude/settings.json` sets the state folder, the log and
 * the library to folders inside it; Claude Code passes those to the hooks, as the env here does.
 */
async function hostileProject(base: string, settingsEnv: boolean) {
  const root = `${base}/repo`;
  const env = {
    LIBRARIAN_STATE_DIR: `${root}/state`,
    LIBRARIAN_LOG: `${root}/hook.log`,
    LIBRARIAN_PATH: `${root}/decoy`,
  };
  await writeTree(base, {
    "repo/.git/HEAD": "ref: refs/heads/main\n",
    "repo/.claude/settings.json": JSON.stringify(
      settingsEnv ? { env: { ...env, LIBRARIAN_HINT: "off" } } : { env: { LIBRARIAN_HINT: "off" } },
    ),
    "repo/_memory_library/.scratch.md": "",
    "repo/_memory_library/src/notes.md": "- REAL-LIBRARY-NOTE\n",
    "repo/decoy/.scratch.md": "",
    "repo/decoy/src/notes.md": "- DECOY-NOTE\n",
    "repo/src/a.ts": "export {};\n",
    "home/.keep": "",
  });
  return { root, home: `${base}/home`, env: { ...env, CLAUDE_PROJECT_DIR: root } };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function injectRead(p: { root: string; home: string; env: Record<string, string> }) {
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: "sess-hostile",
      cwd: p.root,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: `${p.root}/src/a.ts` },
      tool_use_id: "toolu_hostile",
    }),
    cwd: p.root,
    home: p.home,
    env: p.env,
  });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  return String(
    (out?.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext,
  );
}

Deno.test("a committed settings env pointing LIBRARIAN_STATE_DIR, LIBRARIAN_LOG and LIBRARIAN_PATH into the repository: nothing is written there, and the refusal is named", async () => {
  await using dir = await tempDir();
  const p = await hostileProject(dir.path, true);

  const context = await injectRead(p);
  assert.match(context, /REAL-LIBRARY-NOTE/, "the project's own _memory_library/ is used");
  assert.doesNotMatch(context, /DECOY-NOTE/, "not the library LIBRARIAN_PATH names");
  const stop = await runLibrarian(["stop"], {
    stdin: stopEventFor(p.root),
    cwd: p.root,
    home: p.home,
    env: p.env,
  });
  assert.equal(stop.code, 0, stop.stderr);

  assert.equal(await exists(`${p.root}/state`), false, "no state folder in the repository");
  assert.equal(await exists(`${p.root}/hook.log`), false, "no log in the repository");
  assert.ok(await exists(`${p.home}/.claude/librarian`), "state in the default folder");

  const log = await Deno.readTextFile(`${p.home}/.claude/librarian.log`);
  const lines = log.trim().split("\n");
  assert.equal(lines.length, 2, "one line per run, in the default log");
  for (const line of lines) {
    assert.ok(
      line.includes(
        `refused_settings="LIBRARIAN_PATH, LIBRARIAN_STATE_DIR, LIBRARIAN_LOG are not used: ${p.root}/.claude/settings.json sets them`,
      ),
      line,
    );
  }

  const doctor = await runLibrarian(["doctor"], { cwd: p.root, home: p.home, env: p.env });
  assert.match(
    doctor.stdout,
    /LIBRARIAN_PATH, LIBRARIAN_STATE_DIR, LIBRARIAN_LOG are not used: .*\.claude\/settings\.json sets them/,
  );
  assert.match(doctor.stdout, /your own environment or ~\/\.claude\/settings\.json/);
});

Deno.test("the same locations in the user's own environment, not named by the project's settings, are used", async () => {
  await using dir = await tempDir();
  const p = await hostileProject(dir.path, false);
  const context = await injectRead(p);
  assert.match(context, /DECOY-NOTE/, "LIBRARIAN_PATH is honoured");
  assert.ok(await exists(`${p.root}/state`), "LIBRARIAN_STATE_DIR is honoured");
  assert.ok(await exists(`${p.root}/hook.log`), "LIBRARIAN_LOG is honoured");
  assert.doesNotMatch(await Deno.readTextFile(`${p.root}/hook.log`), /refused_settings=/);
});

Deno.test("a behaviour switch may come from the project's settings", async () => {
  await using dir = await tempDir();
  const p = await hostileProject(dir.path, true);
  await writeTree(p.root, {
    ".claude/settings.json": JSON.stringify({ env: { LIBRARIAN_BUDGET: "1000" } }),
  });
  await injectRead({ ...p, env: { ...p.env, LIBRARIAN_BUDGET: "1000" } });
  const log = await Deno.readTextFile(`${p.root}/hook.log`);
  assert.doesNotMatch(log, /refused_settings=/);
  assert.equal(envVar("LIBRARIAN_BUDGET")?.kind, "switch");
});

Deno.test("a committed settings.local.json counts too, and naming another CLAUDE_PROJECT_DIR does not hide it", async () => {
  await using dir = await tempDir();
  const p = await hostileProject(dir.path, false);
  const elsewhere = `${dir.path}/elsewhere`;
  await writeTree(dir.path, {
    "elsewhere/.keep": "",
    "repo/.claude/settings.local.json": JSON.stringify({
      env: { LIBRARIAN_STATE_DIR: `${p.root}/state`, CLAUDE_PROJECT_DIR: elsewhere },
    }),
  });
  const env = { LIBRARIAN_STATE_DIR: `${p.root}/state`, CLAUDE_PROJECT_DIR: elsewhere };
  await injectRead({ ...p, env: { ...env, LIBRARIAN_LOG: `${dir.path}/outside.log` } });
  assert.equal(await exists(`${p.root}/state`), false, "no state folder in the repository");
  const log = await Deno.readTextFile(`${dir.path}/outside.log`);
  assert.match(
    log,
    /refused_settings="LIBRARIAN_STATE_DIR, CLAUDE_PROJECT_DIR are not used: [^"]*settings\.local\.json sets them/,
  );
});

Deno.test("a HOME the project's settings set is not used: nothing lands in the repository", async () => {
  await using dir = await tempDir();
  const p = await hostileProject(dir.path, false);
  const fakeHome = `${p.root}/fakehome`;
  await writeTree(p.root, {
    ".claude/settings.json": JSON.stringify({ env: { HOME: fakeHome } }),
    "fakehome/.keep": "",
  });
  await injectRead({ ...p, home: fakeHome, env: { CLAUDE_PROJECT_DIR: p.root } });
  assert.deepEqual(
    [...Deno.readDirSync(fakeHome)].map((e) => e.name),
    [".keep"],
    "no .claude/ (state, log) under the repository's HOME",
  );
});
