/**
 * `librarian doctor`: one line per check, a fix for each problem, exit 1 when a check fails.
 */
import assert from "node:assert/strict";
import { formatLogLine } from "../src/core/log.ts";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import { launcherModes, REPO_ROOT, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

interface Check {
  id: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

async function doctor(cwd: string, home: string, env: Record<string, string> = {}) {
  const result = await runLibrarian(["doctor", "--json"], {
    cwd,
    home,
    env: { LIBRARIAN_LOG: `${home}/.claude/librarian.log`, ...env },
  });
  const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  const byId = (id: string) => {
    const check = report.checks.find((c) => c.id === id);
    assert.ok(check, `no check '${id}' in ${result.stdout}`);
    return check;
  };
  return { code: result.code, report, byId };
}

function installedPlugins(installPath: string): string {
  return JSON.stringify({
    version: 2,
    plugins: {
      "librarian@team-tools": [{ scope: "user", installPath, version: "0.1.0" }],
    },
  });
}

const RECENT_INJECT = (project: string) =>
  formatLogLine(new Date(), "inject", {
    event: "PreToolUse",
    tool: "Read",
    file: "src/a.ts",
    result: "injected",
    chars: 145,
    ms: 71.3,
    project,
  }) + "\n";

Deno.test("doctor passes for an initialised project with the plugin installed and recent runs", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "home/.claude/plugins/installed_plugins.json": installedPlugins(REPO_ROOT),
    "home/.claude/librarian.log": RECENT_INJECT(`${dir.path}/proj`),
  });
  const { code, report, byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
  assert.equal(code, 0, JSON.stringify(report, null, 2));
  assert.equal(report.ok, true);
  assert.ok(report.checks.every((c) => c.status !== "fail"));
  assert.match(byId("runtime").message, /Deno \d+\.\d+\.\d+/);
  assert.equal(byId("launcher").status, "ok");
  assert.match(byId("library").message, new RegExp(`${dir.path}/proj/_memory_library`));
  assert.match(byId("hooks").message, /plugin librarian@team-tools is installed/);
  assert.match(byId("log").message, /last run \d+ s ago: inject PreToolUse injected, 71\.3 ms/);
  assert.equal(byId("budget").status, "ok");
});

Deno.test("doctor with no library and no hooks fails both, each with a fix", async () => {
  await using dir = await tempDir();
  const { code, report, byId } = await doctor(dir.path, `${dir.path}/home`);
  assert.equal(code, 1);
  assert.equal(report.ok, false);
  assert.equal(byId("library").status, "fail");
  assert.match(byId("library").fix!, /librarian init/);
  assert.equal(byId("hooks").status, "fail");
  assert.match(byId("hooks").fix!, /\/plugin install/);
  assert.equal(byId("log").status, "warn");
  assert.match(byId("log").message, /no hook has run in this project yet/);
});

Deno.test("doctor prints one line per check and a fix line under each problem", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["doctor"], { cwd: dir.path, home: `${dir.path}/home` });
  assert.equal(result.code, 1);
  const lines = result.stdout.split("\n");
  const failLine = lines.findIndex((l) => /^FAIL {2}library: /.test(l));
  assert.ok(failLine >= 0, result.stdout);
  assert.match(lines[failLine + 1]!, /^ +fix: run 'librarian init'/);
  assert.match(result.stdout, /^ok {4}runtime: /m);
  assert.match(result.stdout, /\d+ failed, \d+ warnings, \d+ ok$/m);
  assert.ok(!result.stdout.includes("\x1b["), "no colour codes");
});

Deno.test("doctor says the plugin is disabled when project settings turn it off", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "proj/.claude/settings.json": JSON.stringify({
      enabledPlugins: { "librarian@team-tools": false },
    }),
    "home/.claude/plugins/installed_plugins.json": installedPlugins(REPO_ROOT),
    "home/.claude/settings.json": JSON.stringify({
      enabledPlugins: { "librarian@team-tools": true },
    }),
  });
  const { code, byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
  assert.equal(code, 1);
  assert.match(byId("hooks").message, /installed but disabled in .*proj\/\.claude\/settings\.json/);
  assert.match(byId("hooks").fix!, /\/plugin enable librarian@team-tools/);
});

Deno.test("doctor accepts hooks written into the project's local settings", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "proj/.claude/settings.local.json": JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "Read|Edit",
          hooks: [{ type: "command", command: "sh /opt/librarian/bin/librarian inject" }],
        }],
        Stop: [{ hooks: [{ type: "command", command: "sh /opt/librarian/bin/librarian stop" }] }],
      },
    }),
  });
  const { byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
  assert.equal(byId("hooks").status, "ok");
  assert.match(byId("hooks").message, /settings\.local\.json runs it on PreToolUse, Stop/);
});

Deno.test("doctor fails when the installed plugin copy has lost its launcher", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "home/.claude/plugins/installed_plugins.json": installedPlugins(`${dir.path}/broken`),
    "broken/hooks/hooks.json": "{}",
  });
  const { code, byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
  assert.equal(code, 1);
  assert.equal(byId("installed-copy").status, "fail");
  assert.match(byId("installed-copy").message, /broken: bin\/librarian is missing/);
  assert.match(byId("installed-copy").fix!, /reinstall/);
});

Deno.test("doctor flags a LIBRARIAN_PATH that does not exist", async () => {
  await using dir = await tempDir();
  const { byId } = await doctor(dir.path, `${dir.path}/home`, {
    LIBRARIAN_PATH: `${dir.path}/nope`,
  });
  assert.equal(byId("LIBRARIAN_PATH").status, "fail");
  assert.match(byId("LIBRARIAN_PATH").message, /does not exist/);
});

Deno.test("doctor warns about recent failed hook runs, invalid settings and a bad budget", async () => {
  await using dir = await tempDir();
  const failed = formatLogLine(new Date(), "inject", {
    event: "unknown",
    result: "bad-input",
    detail: "hook input is not JSON",
    ms: 30,
    project: `${dir.path}/proj`,
  });
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "proj/.claude/settings.json": "{ not json",
    "home/.claude/librarian.log": RECENT_INJECT(`${dir.path}/proj`) + failed + "\n",
  });
  const { byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`, {
    LIBRARIAN_BUDGET: "lots",
  });
  assert.equal(byId("log").status, "warn");
  assert.match(byId("log").message, /failed: hook input is not JSON/);
  assert.equal(byId("settings").status, "warn");
  assert.match(byId("settings").message, /settings\.json is not valid JSON/);
  assert.equal(byId("budget").status, "warn");
});

Deno.test("doctor reports when logging is off", async () => {
  await using dir = await tempDir();
  const { byId } = await doctor(dir.path, `${dir.path}/home`, { LIBRARIAN_LOG: "off" });
  assert.match(byId("log").message, /logging is off/);
});

Deno.test("doctor with bad arguments exits 2 with a usage line", async () => {
  for (const args of [["doctor", "extra"], ["doctor", "--fix"]]) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /^Usage: librarian doctor \[--json\]$/m);
  }
});

Deno.test("doctor looks only at this project's hook runs, and shows log text safely", async () => {
  await using dir = await tempDir();
  const other = formatLogLine(new Date(), "inject", {
    event: "PreToolUse",
    result: "bad-input",
    detail: "broken \x1b[31m elsewhere",
    project: `${dir.path}/other`,
  });
  await writeTree(dir.path, {
    "proj/_memory_library/.scratch.md": "",
    "home/.claude/librarian.log": other + "\n",
  });
  const { byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
  assert.match(byId("log").message, /no hook has run in this project yet/);
  const mine = formatLogLine(new Date(), "inject", {
    event: "Pre\x1b[2JToolUse",
    result: "injected",
    project: `${dir.path}/proj`,
  });
  Deno.writeTextFileSync(`${dir.path}/home/.claude/librarian.log`, mine + "\n", { append: true });
  const text = await runLibrarian(["doctor"], {
    cwd: `${dir.path}/proj`,
    home: `${dir.path}/home`,
    env: { LIBRARIAN_LOG: `${dir.path}/home/.claude/librarian.log` },
  });
  assert.match(text.stdout, /inject Pre\\u001b\[2JToolUse injected/);
  assert.ok(!text.stdout.includes("\x1b"), "no raw control character reaches the terminal");
});

Deno.test({
  name: "doctor fails the links check when a library entry leads outside the library",
  ignore: skipOnWindows("needs symbolic links"),
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      "proj/_memory_library/.scratch.md": "",
      "proj/_memory_library/tech.md": "- t\n",
      "secret.md": "- outside\n",
    });
    const { byId: clean } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
    assert.equal(clean("links").status, "ok");
    await Deno.symlink(`${dir.path}/secret.md`, `${dir.path}/proj/_memory_library/patterns.md`, {
      type: "file",
    });
    const { code, byId } = await doctor(`${dir.path}/proj`, `${dir.path}/home`);
    assert.equal(code, 1);
    assert.equal(byId("links").status, "fail");
    assert.match(byId("links").message, /patterns\.md/);
  },
});

Deno.test("doctor shows the auto-memory mode and folder, and warns about a bad LIBRARIAN_AUTOMEMORY", async () => {
  await using dir = await tempDir();
  const memory = `${dir.path}/home/.claude/projects/${encodeProjectDir(`${dir.path}/proj`)}/memory`;
  await writeTree(dir.path, { "proj/_memory_library/.scratch.md": "" });
  await Deno.mkdir(memory, { recursive: true });
  const fine = await doctor(`${dir.path}/proj`, `${dir.path}/home`, {
    LIBRARIAN_AUTOMEMORY: "review",
  });
  assert.equal(fine.byId("auto-memory").status, "ok");
  assert.equal(
    fine.byId("auto-memory").message,
    `review: entries wait in scratch; reads ${memory}`,
  );
  const bad = await doctor(`${dir.path}/proj`, `${dir.path}/home`, { LIBRARIAN_AUTOMEMORY: "yes" });
  assert.equal(bad.byId("auto-memory").status, "warn");
  assert.match(
    bad.byId("auto-memory").message,
    /LIBRARIAN_AUTOMEMORY="yes" is not sync, review or off/,
  );
});

Deno.test("doctor says when the release's binary is not fetched yet, and how to fetch it", async () => {
  await using dir = await tempDir();
  const plugin = `${dir.path}/plugin`;
  await writeTree(plugin, {
    "bin/librarian": await Deno.readTextFile(`${REPO_ROOT}/bin/librarian`),
    "bin/release-binaries.txt": "version 0.1.0\n",
    "hooks/hooks.json": await Deno.readTextFile(`${REPO_ROOT}/hooks/hooks.json`),
    "src/main.ts": "",
  });
  const { byId } = await doctor(dir.path, `${dir.path}/home`, {
    CLAUDE_PLUGIN_ROOT: plugin,
    LIBRARIAN_FORCE_SOURCE: "1",
  });
  const binary = byId("binary");
  assert.equal(binary.status, "warn");
  assert.match(binary.message, /^the binary for this version \(librarian-\S+\) is not fetched yet/);
  assert.match(binary.fix!, /'librarian fetch-binary'.*'librarian install-binary <file>'/);
});

if (launcherModes().includes("binary")) {
  Deno.test("[binary] doctor names the binary that runs, its SHA-256 and how it got there", async () => {
    await using dir = await tempDir();
    const result = await runLibrarian(["doctor", "--json"], {
      mode: "binary",
      cwd: dir.path,
      home: `${dir.path}/home`,
    });
    const report = JSON.parse(result.stdout) as { checks: Check[] };
    const binary = report.checks.find((c) => c.id === "binary")!;
    assert.equal(binary.status, "ok");
    assert.match(binary.message, / runs the hooks \(sha256 [0-9a-f]{64}\), shipped in .*\/bin /);
  });
}
