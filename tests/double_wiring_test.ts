/**
 * Hooks wired twice (the plugin installed and `librarian setup-hooks` run in the same project) is
 * a finding, not "ok": `librarian doctor` exits 1 and names the exact fix, and
 * `librarian setup-hooks --remove` takes out exactly the entries setup-hooks wrote.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const PLUGIN_INSTALLED = JSON.stringify({
  version: 2,
  plugins: {
    "librarian@team-tools": [{ scope: "user", installPath: REPO_ROOT, version: "0.1.0" }],
  },
});

/** A settings file holding another tool's hooks, other keys, and LIBRARIAN_PATH. */
const OTHER_SETTINGS = {
  model: "opus",
  env: { LIBRARIAN_PATH: "/somewhere/_memory_library", OTHER: "1" },
  permissions: { allow: ["Bash(ls:*)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit.sh" }] }],
    Stop: [{ hooks: [{ type: "command", command: "notify.sh", timeout: 5 }] }],
  },
};

async function project(dir: string) {
  await writeTree(dir, {
    "proj/_memory_library/.scratch.md": "",
    "proj/.claude/settings.local.json": JSON.stringify(OTHER_SETTINGS, null, 2) + "\n",
    "home/.claude/plugins/installed_plugins.json": PLUGIN_INSTALLED,
  });
  await Deno.mkdir(join(dir, "proj", ".git"));
  return { proj: `${dir}/proj`, home: `${dir}/home` };
}

Deno.test("doctor reports plugin plus settings hooks as a failure with the exact fix", async () => {
  await using dir = await tempDir();
  const { proj, home } = await project(dir.path);
  const setup = await runLibrarian(
    ["setup-hooks", "--launcher", join(REPO_ROOT, "bin/librarian")],
    {
      cwd: proj,
      home,
    },
  );
  assert.equal(setup.code, 0, setup.stderr);
  assert.match(setup.stdout, /installed too, so each hook would run twice/);
  const doctor = await runLibrarian(["doctor", "--json"], { cwd: proj, home });
  assert.equal(doctor.code, 1, doctor.stdout);
  const hooks = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === "hooks");
  assert.equal(hooks.status, "fail");
  assert.match(
    hooks.message,
    /^wired twice: plugin librarian@team-tools is installed; .*settings\.local\.json runs it/,
  );
  assert.match(hooks.fix, new RegExp(`librarian setup-hooks --remove --project '${proj}'`));
});

Deno.test("setup-hooks --remove takes out exactly what setup-hooks added, and doctor is content", async () => {
  await using dir = await tempDir();
  const { proj, home } = await project(dir.path);
  const settingsFile = join(proj, ".claude", "settings.local.json");
  const before = Deno.readTextFileSync(settingsFile);
  await runLibrarian(["setup-hooks", "--launcher", join(REPO_ROOT, "bin/librarian")], {
    cwd: proj,
    home,
  });
  assert.notEqual(Deno.readTextFileSync(settingsFile), before);
  const removed = await runLibrarian(["setup-hooks", "--remove", "--json"], { cwd: proj, home });
  assert.equal(removed.code, 0, removed.stderr);
  const report = JSON.parse(removed.stdout);
  assert.equal(typeof report.version, "string");
  assert.ok(report.hooks.length >= 4);
  assert.ok(report.hooks.every((h: { action: string }) => h.action === "removed"));
  assert.deepEqual(JSON.parse(Deno.readTextFileSync(settingsFile)), OTHER_SETTINGS);
  const doctor = await runLibrarian(["doctor", "--json"], { cwd: proj, home });
  const hooks = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === "hooks");
  assert.equal(hooks.status, "ok");
});

Deno.test("setup-hooks --remove run again changes nothing and does not rewrite the file", async () => {
  await using dir = await tempDir();
  const { proj, home } = await project(dir.path);
  const settingsFile = join(proj, ".claude", "settings.local.json");
  const mtime = Deno.statSync(settingsFile).mtime;
  const result = await runLibrarian(["setup-hooks", "--remove"], { cwd: proj, home });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Nothing to change in /);
  assert.deepEqual(Deno.statSync(settingsFile).mtime, mtime);
});

Deno.test("setup-hooks --remove with no settings file creates none", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, ".git"));
  const result = await runLibrarian(["setup-hooks", "--remove"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.throws(() => Deno.statSync(join(dir.path, ".claude")));
});

Deno.test("setup-hooks refuses a settings file Claude Code could not read, naming the problem", async () => {
  await using dir = await tempDir();
  const { proj, home } = await project(dir.path);
  const settingsFile = join(proj, ".claude", "settings.local.json");
  const broken = JSON.stringify({ hooks: { Stop: { hooks: [] } } });
  Deno.writeTextFileSync(settingsFile, broken);
  const result = await runLibrarian(["setup-hooks", "--remove", "--json"], { cwd: proj, home });
  assert.equal(result.code, 1);
  const error = JSON.parse(result.stdout);
  assert.match(error.error, /hooks\.Stop is an object, not a list/);
  assert.equal(Deno.readTextFileSync(settingsFile), broken);
});

Deno.test(
  "a --plugin-dir session whose hooks ran is not 'not wired'; doctor never recommends setup-hooks then, and flags settings hooks beside it (issue 22)",
  {
    ignore: skipOnWindows("matches a POSIX plugin path"),
  },
  async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { "proj/_memory_library/.scratch.md": "" });
    await Deno.mkdir(join(dir.path, "proj", ".git"));
    const proj = join(dir.path, "proj");
    const home = join(dir.path, "home");
    const log = join(dir.path, "librarian.log");
    // The hooks of a plugin loaded with --plugin-dir: CLAUDE_PLUGIN_ROOT is set, nothing installed.
    const stop = await runLibrarian(["stop"], {
      stdin: JSON.stringify({ session_id: "s1", cwd: proj, hook_event_name: "Stop" }),
      cwd: proj,
      home,
      env: { CLAUDE_PLUGIN_ROOT: REPO_ROOT, LIBRARIAN_LOG: log },
    });
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(await Deno.readTextFile(log), new RegExp(`plugin=${REPO_ROOT}`));

    const env = { LIBRARIAN_LOG: log };
    const doctor = await runLibrarian(["doctor", "--json"], { cwd: proj, home, env });
    const hooks = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === "hooks");
    assert.equal(hooks.status, "ok", hooks.message);
    assert.match(hooks.message, /from a plugin loaded with --plugin-dir/);
    assert.doesNotMatch(JSON.stringify(hooks), /run 'librarian setup-hooks'/);
    const status = await runLibrarian(["status"], { cwd: proj, home, env });
    assert.match(status.stdout, /wired by --plugin-dir: hooks ran .* from /);
    assert.doesNotMatch(status.stdout, /not wired/);

    // Settings hooks beside it would run every hook twice in such sessions: a failure.
    const setup = await runLibrarian(
      ["setup-hooks", "--launcher", join(REPO_ROOT, "bin/librarian")],
      { cwd: proj, home, env },
    );
    assert.equal(setup.code, 0, setup.stderr);
    const twice = await runLibrarian(["doctor", "--json"], { cwd: proj, home, env });
    assert.equal(twice.code, 1, twice.stdout);
    const double = JSON.parse(twice.stdout).checks.find((c: { id: string }) => c.id === "hooks");
    assert.equal(double.status, "fail");
    assert.match(double.message, /^wired twice in such sessions/);
    assert.match(double.fix, /setup-hooks --remove/);
  },
);
