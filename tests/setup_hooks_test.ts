/**
 * `librarian setup-hooks`: the Librarian's hooks merged into `.claude/settings.local.json` for use
 * without the plugin system: everything else kept, reruns change nothing, Windows paths handled.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pluginHooks from "../hooks/hooks.json" with { type: "json" };
import { envFrom } from "../src/core/env.ts";
import {
  desiredHooks,
  FETCH_BINARY,
  isLibrarianHandler,
  setLibraryPath,
  SettingsShapeError,
} from "../src/setup/hook_settings.ts";
import { hookCommand, type HookProgram } from "../src/setup/hook_command.ts";
import { type Json } from "../src/setup/claude_json.ts";
import { mergeHooks } from "../src/setup/hook_merge.ts";
import { isPluginCachePath } from "../src/setup/hook_program.ts";
import { setupHooks } from "../src/setup/settings_update.ts";
import { normalizePath } from "../src/core/paths.ts";
import { LAUNCHER, launcherModes, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const PROGRAM = { kind: "launcher", path: "/opt/librarian/bin/librarian" } as const;

// ---------------------------------------------------------------------------------------------
// Pure: the entries, the commands, the merge

Deno.test("the settings entries are the plugin's hooks.json entries, calling the launcher by absolute path", () => {
  const desired = desiredHooks(PROGRAM, "sh");
  const fromPlugin = Object.entries(pluginHooks.hooks).flatMap(([event, groups]) =>
    groups.flatMap((g) =>
      g.hooks.map((h) => ({ event, matcher: "matcher" in g ? g.matcher : undefined, h }))
    )
  ).filter(({ h }) => !h.command.endsWith(` ${FETCH_BINARY}`));
  assert.equal(desired.length, fromPlugin.length);
  desired.forEach((d, i) => {
    const { event, matcher, h } = fromPlugin[i]!;
    assert.equal(d.event, event);
    assert.equal(d.matcher, matcher);
    assert.deepEqual(d.handler, {
      ...h,
      command: h.command.replace(
        /^sh "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/librarian"/,
        "sh '/opt/librarian/bin/librarian'",
      ),
    });
  });
  assert.deepEqual(
    desired.map((d) => d.event),
    [
      "PreToolUse",
      "PreToolUse",
      "PostToolUse",
      "PostToolUse",
      "UserPromptSubmit",
      "SessionStart",
      "SubagentStart",
      "SubagentStop",
      "InstructionsLoaded",
      "Stop",
    ],
  );
  // after a search only (a lone grep or rg that matched nothing): no process for any other command
  assert.deepEqual(
    desired.filter((d) => d.event === "PostToolUse").map((d) => [d.matcher, d.handler.if]),
    [["Bash", "Bash(grep *)"], ["Bash", "Bash(rg *)"]],
  );
  assert.equal(
    desired.find((d) => d.matcher === "Bash")?.handler.command,
    "sh '/opt/librarian/bin/librarian' inject --shell",
    "Bash events run the bundle that carries the shell-command reader",
  );
});

Deno.test("hook commands bring Windows paths to forward slashes and quote them for their shell", () => {
  const launcher: HookProgram = {
    kind: "launcher",
    path: "C:\\Users\\Ann O'Neil\\librarian\\bin\\librarian",
  };
  assert.equal(
    hookCommand(launcher, "inject", "sh", "windows"),
    `sh 'C:/Users/Ann O'\\''Neil/librarian/bin/librarian' inject`,
  );
  const exe: HookProgram = {
    kind: "binary",
    path: "c:\\Users\\Ann O'Neil\\librarian\\bin\\librarian-x86_64-pc-windows-msvc.exe",
  };
  assert.equal(
    hookCommand(exe, "stop", "powershell", "windows"),
    `& 'C:/Users/Ann O''Neil/librarian/bin/librarian-x86_64-pc-windows-msvc.exe' stop`,
  );
  assert.equal(
    hookCommand({ kind: "binary", path: "/c/tools/librarian-x.exe" }, "stop", "sh", "windows"),
    `'C:/tools/librarian-x.exe' stop`,
  );
  // PowerShell also ends a single-quoted string at a typographic quote: those are doubled too.
  assert.equal(
    hookCommand({ kind: "binary", path: "C:/Users/O\u2019Neil/l.exe" }, "inject", "powershell"),
    "& 'C:/Users/O\u2019\u2019Neil/l.exe' inject",
  );
  const ps = desiredHooks(exe, "powershell", "windows");
  assert.ok(ps.every((d) => d.handler.shell === "powershell"));
});

Deno.test("a sh-quoted hook command runs the path it names, spaces and quotes included", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const path = join(dir.path, `it's a "dir"`, "librarian");
  await writeTree(dir.path, { [`it's a "dir"/librarian`]: 'echo "ran $1"' });
  const command = hookCommand({ kind: "launcher", path }, "inject", "sh");
  const out = await new Deno.Command("sh", { args: ["-c", command], stdout: "piped" }).output();
  assert.equal(new TextDecoder().decode(out.stdout), "ran inject\n");
});

Deno.test("the Librarian's handlers are recognised in every form an install writes", () => {
  const ours = [
    `sh "\${CLAUDE_PLUGIN_ROOT}/bin/librarian" inject`,
    "sh '/opt/librarian/bin/librarian' stop",
    `sh "C:\\Users\\me\\librarian\\bin\\librarian" inject`,
    "& 'C:/tools/librarian-x86_64-pc-windows-msvc.exe' stop",
    "/usr/local/bin/librarian inject",
  ];
  for (const command of ours) assert.ok(isLibrarianHandler({ command }), command);
  assert.ok(isLibrarianHandler({ command: "C:\\t\\librarian.exe", args: ["stop"] }));
  const others = [
    "librarian read src/a.ts",
    "prettier --write",
    "my-librarian-helper inject",
    "sh ./hooks/format.sh stop",
  ];
  for (const command of others) assert.ok(!isLibrarianHandler({ command }), command);
});

const OTHER_TOOL = { type: "command", command: "prettier --check", timeout: 5 };

function settingsWithOthers(): Json {
  return {
    permissions: { allow: ["Bash(npm test)"] },
    env: { FOO: "bar" },
    hooks: {
      PreToolUse: [{ matcher: "Read|Edit|Write|MultiEdit|NotebookEdit", hooks: [OTHER_TOOL] }],
      PostToolUse: [{ matcher: "Write", hooks: [OTHER_TOOL] }],
    },
    model: "opus",
  };
}

Deno.test("the merge keeps every other key and every other tool's hook, in order", () => {
  const { settings, changes } = mergeHooks(settingsWithOthers(), desiredHooks(PROGRAM, "sh"));
  assert.deepEqual(Object.keys(settings), ["permissions", "env", "hooks", "model"]);
  assert.deepEqual((settings.permissions as Json).allow, ["Bash(npm test)"]);
  const hooks = settings.hooks as Record<string, Json[]>;
  assert.deepEqual(Object.keys(hooks), [
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "SessionStart",
    "SubagentStart",
    "SubagentStop",
    "InstructionsLoaded",
    "Stop",
  ]);
  assert.deepEqual(
    hooks.PreToolUse![0],
    { matcher: "Read|Edit|Write|MultiEdit|NotebookEdit", hooks: [OTHER_TOOL] },
  );
  assert.deepEqual(hooks.PostToolUse![0], { matcher: "Write", hooks: [OTHER_TOOL] });
  assert.equal(hooks.PreToolUse!.length, 3);
  assert.deepEqual(changes.map((c) => c.action), Array(10).fill("added"));
});

Deno.test("merging into its own output changes nothing", () => {
  const desired = desiredHooks(PROGRAM, "sh");
  const once = mergeHooks(settingsWithOthers(), desired).settings;
  const twice = mergeHooks(once, desired);
  assert.deepEqual(twice.settings, once);
  assert.ok(twice.changes.every((c) => c.action === "unchanged"));
});

/** The plugin's PreToolUse matchers (hooks/hooks.json): file tools, and Bash on its own. */
const FILE_TOOLS = "Read|Edit|Write|MultiEdit|NotebookEdit|Grep|Glob";
/** The single PreToolUse matcher of earlier versions, Bash included. */
const FILE_AND_SHELL_TOOLS = "Read|Edit|Write|MultiEdit|NotebookEdit|Bash|Grep|Glob";

Deno.test("the merge updates an older Librarian entry in place and removes stale copies", () => {
  const old = {
    type: "command",
    command: "sh '/old/place/bin/librarian' inject",
    timeout: 5,
  };
  const settings: Json = {
    hooks: {
      PreToolUse: [
        { matcher: "Edit|Write", hooks: [old] }, // stale matcher, only ours: group goes
        { matcher: FILE_AND_SHELL_TOOLS, hooks: [OTHER_TOOL, old, old] }, // an earlier version's
        { matcher: "Bash", hooks: [OTHER_TOOL, old] }, // ours is updated; the other tool stays
      ],
      Stop: [{ hooks: [{ ...old, command: "sh '/old/place/bin/librarian' stop" }] }],
    },
  };
  const desired = desiredHooks(PROGRAM, "sh");
  const { settings: merged, changes } = mergeHooks(settings, desired);
  const pre = (merged.hooks as Record<string, Json[]>).PreToolUse!;
  assert.deepEqual(pre.map((g) => g.matcher), [FILE_AND_SHELL_TOOLS, "Bash", FILE_TOOLS]);
  assert.deepEqual(pre[0]!.hooks, [OTHER_TOOL]);
  const wanted = (matcher: string) => desired.find((d) => d.matcher === matcher)!.handler;
  assert.deepEqual(pre[1]!.hooks, [OTHER_TOOL, wanted("Bash")]);
  assert.deepEqual(pre[2]!.hooks, [wanted(FILE_TOOLS)]);
  const count = (action: string) => changes.filter((c) => c.action === action).length;
  assert.equal(count("updated"), 2); // the Bash entry and Stop
  assert.equal(count("removed"), 3);
  // file tools, the two PostToolUse searches, UserPromptSubmit, SessionStart, SubagentStart,
  // SubagentStop, InstructionsLoaded
  assert.equal(count("added"), 8);
});

Deno.test("a settings file whose hooks are not the shape Claude Code reads is refused", () => {
  const desired = desiredHooks(PROGRAM, "sh");
  assert.throws(() => mergeHooks({ hooks: [] }, desired), SettingsShapeError);
  assert.throws(() => mergeHooks({ hooks: { Stop: {} } }, desired), /hooks\.Stop/);
  assert.throws(() => setLibraryPath({ env: "x" }, "/p/_memory_library"), SettingsShapeError);
});

Deno.test("LIBRARIAN_PATH is added, updated, or left alone, with the other env values kept", () => {
  const added = setLibraryPath({ env: { A: "1" } }, "/p/_memory_library");
  assert.equal(added.action, "added");
  assert.deepEqual(added.settings.env, { A: "1", LIBRARIAN_PATH: "/p/_memory_library" });
  assert.equal(setLibraryPath(added.settings, "/p/_memory_library").action, "unchanged");
  assert.equal(setLibraryPath(added.settings, "/q/_memory_library").action, "updated");
});

Deno.test("paths in Claude Code's plugin cache are recognised, also in Windows form", () => {
  assert.ok(isPluginCachePath("/home/a/.claude/plugins/cache/m/librarian/0.1.0/bin/librarian"));
  assert.ok(
    isPluginCachePath("C:\\Users\\a\\.claude\\plugins\\cache\\m\\librarian\\bin\\librarian"),
  );
  assert.ok(!isPluginCachePath("/opt/librarian/bin/librarian"));
});

Deno.test("setup refuses the plugin's own copy, whose path changes with every update", async () => {
  await using dir = await tempDir();
  const env = envFrom({
    HOME: dir.path,
    LIBRARIAN_LAUNCHER: `${dir.path}/.claude/plugins/cache/m/librarian/0.1.0/bin/librarian`,
  });
  const request = {
    project: dir.path,
    user: false,
    libraryPath: undefined,
    envOnly: false,
    shell: "sh" as const,
    launcher: undefined,
    dryRun: false,
  };
  await assert.rejects(() => setupHooks(request, env, dir.path), /--env-only/);
  await assert.rejects(() => Deno.stat(join(dir.path, ".claude", "settings.local.json")));
});

// ---------------------------------------------------------------------------------------------
// The command, through the launcher

async function readSettings(project: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(join(project, ".claude", "settings.local.json")));
}

for (const mode of launcherModes()) {
  Deno.test(`[${mode}] setup-hooks merges into an existing settings.local.json; a rerun changes nothing`, async () => {
    await using dir = await tempDir();
    const file = join(dir.path, ".claude", "settings.local.json");
    await writeTree(dir.path, {
      ".claude/settings.local.json": JSON.stringify(settingsWithOthers(), null, 2),
    });
    const first = await runLibrarian(["setup-hooks"], { cwd: dir.path, mode });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Updated .*settings\.local\.json/);
    const settings = await readSettings(dir.path);
    assert.deepEqual(
      settings,
      mergeHooks(
        settingsWithOthers(),
        desiredHooks(
          { kind: "launcher", path: LAUNCHER },
          "sh",
        ),
      ).settings,
    );
    const before = await Deno.readTextFile(file);
    const mtime = (await Deno.stat(file)).mtime;
    const second = await runLibrarian(["setup-hooks"], { cwd: dir.path, mode });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^Nothing to change in /);
    assert.equal(await Deno.readTextFile(file), before);
    assert.deepEqual((await Deno.stat(file)).mtime, mtime);
  });
}

Deno.test("the hooks setup-hooks writes run the Librarian", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/src/notes.md": "- marker-41d: src note" });
  await runLibrarian(["setup-hooks"], { cwd: dir.path });
  const hooks = (await readSettings(dir.path)).hooks as Record<string, Json[]>;
  const command = (hooks.PreToolUse![0]!.hooks as Json[])[0]!.command as string;
  const out = await new Deno.Command("sh", {
    args: ["-c", command],
    cwd: dir.path,
    stdin: "piped",
    stdout: "piped",
    env: { LIBRARIAN_LOG: "off", HOME: dir.path },
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "s1",
    cwd: dir.path,
    tool_name: "Read",
    tool_input: { file_path: join(dir.path, "src", "a.ts") },
  })));
  await writer.close();
  const result = await out.output();
  assert.match(new TextDecoder().decode(result.stdout), /marker-41d/);
});

Deno.test("setup-hooks creates the settings file in a new project and keeps it out of git", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, ".git", "info"), { recursive: true });
  await Deno.mkdir(join(dir.path, "src", "deep"), { recursive: true });
  const result = await runLibrarian(["setup-hooks", "--json"], {
    cwd: join(dir.path, "src", "deep"),
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.settingsFile, `${dir.path}/.claude/settings.local.json`);
  assert.equal(report.created, true);
  assert.equal(report.written, true);
  assert.equal(report.excludedFromGit, true);
  assert.deepEqual(report.program, { kind: "launcher", path: normalizePath(LAUNCHER) });
  assert.deepEqual(
    report.hooks.map((h: Json) => `${h.event}:${h.action}`),
    [
      "PreToolUse:added",
      "PreToolUse:added",
      "PostToolUse:added",
      "PostToolUse:added",
      "UserPromptSubmit:added",
      "SessionStart:added",
      "SubagentStart:added",
      "SubagentStop:added",
      "InstructionsLoaded:added",
      "Stop:added",
    ],
  );
  const exclude = await Deno.readTextFile(join(dir.path, ".git", "info", "exclude"));
  assert.match(exclude, /^\.claude\/settings\.local\.json$/m);
});

Deno.test("setup-hooks --dry-run shows the changes and writes nothing", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["setup-hooks", "--dry-run"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Would update .* \(dry run\)/);
  assert.match(result.stdout, /added +Stop: sh '.*\/bin\/librarian' stop/);
  await assert.rejects(() => Deno.stat(join(dir.path, ".claude")));
});

Deno.test("setup-hooks --library-path saves LIBRARIAN_PATH; --env-only writes no hooks", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "_memory_library"));
  const result = await runLibrarian(
    ["setup-hooks", "--library-path", "_memory_library", "--env-only", "--json"],
    { cwd: dir.path },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout).libraryPath, {
    value: `${dir.path}/_memory_library`,
    action: "added",
  });
  assert.deepEqual(await readSettings(dir.path), {
    env: { LIBRARIAN_PATH: `${dir.path}/_memory_library` },
  });
});

Deno.test("setup-hooks refuses a library folder that does not exist", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["setup-hooks", "--library-path", "nope"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /nope does not exist; create it with 'librarian init'/);
});

Deno.test("setup-hooks leaves a settings file that is not JSON untouched and says so", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ".claude/settings.local.json": '{ "env": { ,, }' });
  const result = await runLibrarian(["setup-hooks"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /settings\.local\.json is not valid JSON .*fix it, then run this again/,
  );
  assert.equal(
    await Deno.readTextFile(join(dir.path, ".claude", "settings.local.json")),
    '{ "env": { ,, }',
  );
});

Deno.test("setup-hooks usage errors exit 2 with the usage line", async () => {
  for (
    const args of [
      ["--shell", "fish"],
      ["--env-only"],
      ["--user", "--project", "."],
      ["--bogus"],
    ]
  ) {
    const result = await runLibrarian(["setup-hooks", ...args]);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /Usage: librarian setup-hooks/);
  }
});

Deno.test("setup-hooks --shell powershell writes exactly these settings: the .exe, run by PowerShell 5.1 or 7", async () => {
  await using dir = await tempDir();
  const folder = "Ann O\u2019Neil's tools";
  const exe = `${dir.path}/${folder}/librarian-x86_64-pc-windows-msvc.exe`;
  await writeTree(dir.path, { [`${folder}/librarian-x86_64-pc-windows-msvc.exe`]: "MZ" });
  const result = await runLibrarian(
    ["setup-hooks", "--shell", "powershell", "--launcher", exe],
    { cwd: dir.path },
  );
  assert.equal(result.code, 0, result.stderr);
  // The call operator and a single-quoted path, each quote PowerShell knows doubled: valid in
  // Windows PowerShell 5.1, which Claude Code starts for "powershell" when pwsh is not installed.
  const quoted =
    `'${dir.path}/Ann O\u2019\u2019Neil''s tools/librarian-x86_64-pc-windows-msvc.exe'`;
  // Every event, matcher, timeout and status message of hooks/hooks.json, in its order.
  const expected = {
    hooks: Object.fromEntries(
      Object.entries(pluginHooks.hooks).map(([event, groups]) => [
        event,
        (groups as { matcher?: string; hooks: { command: string }[] }[]).map((group) => ({
          ...group,
          hooks: group.hooks.filter((h) => !h.command.endsWith(` ${FETCH_BINARY}`)).map((h) => ({
            ...h,
            command: `& ${quoted} ${h.command.replace(/^.*bin\/librarian" /, "")}`,
            shell: "powershell",
          })),
        })),
      ]),
    ),
  };
  assert.equal(
    await Deno.readTextFile(`${dir.path}/.claude/settings.local.json`),
    `${JSON.stringify(expected, null, 2)}\n`,
  );
});

Deno.test("setup-hooks --shell powershell without a compiled binary says where it looked", async () => {
  await using dir = await tempDir();
  // A launcher with no binary next to it.
  await writeTree(dir.path, { "plugin/bin/librarian": await Deno.readTextFile(LAUNCHER) });
  const result = await runLibrarian(
    ["setup-hooks", "--shell", "powershell", "--launcher", join(dir.path, "plugin/bin/librarian")],
    { cwd: dir.path },
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /PowerShell hooks run the compiled binary, and there is none at /);
});

Deno.test("setup-hooks --user writes the user's settings and notes an installed plugin", async () => {
  await using dir = await tempDir();
  const home = `${dir.path}/home`;
  await writeTree(home, {
    ".claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { "librarian@librarian": [{ installPath: "/x", version: "0.1.0" }] },
    }),
  });
  const result = await runLibrarian(["setup-hooks", "--user", "--json"], { cwd: dir.path, home });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.settingsFile, `${home}/.claude/settings.json`);
  assert.match(report.notes.join(" "), /librarian@librarian is installed too/);
  const settings = JSON.parse(await Deno.readTextFile(join(home, ".claude", "settings.json")));
  assert.deepEqual(Object.keys(settings.hooks), [
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "SessionStart",
    "SubagentStart",
    "SubagentStop",
    "InstructionsLoaded",
    "Stop",
  ]);
});

Deno.test(
  "setup-hooks writes through a symlinked settings.local.json inside the project, and keeps the link",
  {
    ignore: skipOnWindows("needs symbolic links"),
  },
  async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { "config/claude-local.json": '{"permissions": {"allow": []}}\n' });
    await Deno.mkdir(join(dir.path, ".claude"));
    const link = join(dir.path, ".claude", "settings.local.json");
    await Deno.symlink("../config/claude-local.json", link);
    const result = await runLibrarian(["setup-hooks"], { cwd: dir.path });
    assert.equal(result.code, 0, result.stderr);
    assert.ok((await Deno.lstat(link)).isSymlink, "the link is still a link");
    const written = JSON.parse(await Deno.readTextFile(join(dir.path, "config/claude-local.json")));
    assert.ok(written.hooks?.PreToolUse, JSON.stringify(written));
    assert.deepEqual(written.permissions, { allow: [] });
  },
);

Deno.test(
  "setup-hooks refuses a settings.local.json that links outside the project, leaving it as it was",
  {
    ignore: skipOnWindows("needs symbolic links"),
  },
  async () => {
    await using dir = await tempDir();
    const outside = join(dir.path, "elsewhere.json");
    await Deno.writeTextFile(outside, "{}\n");
    await Deno.mkdir(join(dir.path, "proj/.claude"), { recursive: true });
    const link = join(dir.path, "proj/.claude/settings.local.json");
    await Deno.symlink(outside, link);
    const result = await runLibrarian(["setup-hooks"], { cwd: join(dir.path, "proj") });
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /outside the project/);
    assert.equal(await Deno.readTextFile(outside), "{}\n");
    assert.ok((await Deno.lstat(link)).isSymlink);
  },
);

Deno.test("setup-hooks keeps every digit of a number JavaScript cannot hold", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ".claude/settings.local.json":
      '{\n  "feedbackSurveyState": {"lastShownTime": 12345678901234567890},\n  "ratio": 0.1\n}\n',
  });
  const result = await runLibrarian(["setup-hooks"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const text = await Deno.readTextFile(join(dir.path, ".claude/settings.local.json"));
  assert.match(text, /"lastShownTime": 12345678901234567890\b/);
  assert.match(text, /"ratio": 0\.1\b/);
  assert.match(text, /"PreToolUse"/);
});
