/**
 * Getting the `librarian` command: `librarian install-cli` links the launcher into a bin folder
 * (idempotent, `--remove`), and the README's quick start works on a fresh HOME.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, LAUNCHER, REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

Deno.test("install-cli links ~/.local/bin/librarian to the launcher, and the link runs", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using home = await tempDir();
  const result = await runLibrarian(["install-cli"], { home: home.path });
  assert.equal(result.code, 0, result.stderr);
  const link = join(home.path, ".local", "bin", "librarian");
  assert.equal(Deno.readLinkSync(link), LAUNCHER);
  assert.match(result.stdout, /^Linked .*\.local\/bin\/librarian → .*bin\/librarian$/m);
  assert.match(result.stdout, /is not on your PATH/);
  const version = await runLibrarian(["--version"], { launcher: link, home: home.path });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^librarian \d/);
});

Deno.test("install-cli run twice changes nothing the second time", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using home = await tempDir();
  await runLibrarian(["install-cli"], { home: home.path });
  const again = await runLibrarian(["install-cli", "--json"], { home: home.path });
  assert.equal(again.code, 0, again.stderr);
  const report = JSON.parse(again.stdout);
  assert.equal(report.action, "unchanged");
  assert.equal(typeof report.version, "string");
});

Deno.test("install-cli --dir links into that folder and says nothing about PATH when it is on it", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const bin = join(dir.path, "mybin");
  const result = await runLibrarian(["install-cli", "--dir", bin], {
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(Deno.readLinkSync(join(bin, "librarian")), LAUNCHER);
  assert.doesNotMatch(result.stdout, /PATH/);
});

Deno.test("install-cli replaces a link to another Librarian launcher (an older plugin version)", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const old = join(dir.path, "old/plugin/1.0.0/bin/librarian");
  Deno.mkdirSync(join(dir.path, "old/plugin/1.0.0/bin"), { recursive: true });
  Deno.copyFileSync(LAUNCHER, old);
  Deno.symlinkSync(old, join(dir.path, "librarian"), { type: "file" });
  const result = await runLibrarian(["install-cli", "--dir", dir.path]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Updated /);
  assert.equal(Deno.readLinkSync(join(dir.path, "librarian")), LAUNCHER);
});

Deno.test(
  "install-cli replaces a link to a launcher the plugin cache no longer holds (a plugin update)",
  {
    ignore: skipOnWindows("needs symbolic links"),
  },
  async () => {
    await using dir = await tempDir();
    const gone = join(dir.path, "home/.claude/plugins/cache/tools/librarian/0.1.0/bin/librarian");
    Deno.symlinkSync(gone, join(dir.path, "librarian"), { type: "file" });
    const result = await runLibrarian(["install-cli", "--dir", dir.path]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(Deno.readLinkSync(join(dir.path, "librarian")), LAUNCHER);
  },
);

Deno.test("install-cli (and --remove) leave alone a link to another program's bin/librarian", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const theirs = join(dir.path, "opt/other/bin/librarian");
  Deno.mkdirSync(join(dir.path, "opt/other/bin"), { recursive: true });
  Deno.writeTextFileSync(theirs, "#!/bin/sh\necho 'the other librarian'\n");
  const link = join(dir.path, "bin/librarian");
  Deno.mkdirSync(join(dir.path, "bin"));
  Deno.symlinkSync(theirs, link, { type: "file" });
  const install = await runLibrarian(["install-cli", "--dir", join(dir.path, "bin")]);
  assert.equal(install.code, 1, install.stdout);
  assert.match(install.stderr, /not a link to a Librarian launcher/);
  assert.equal(Deno.readLinkSync(link), theirs);
  const removal = await runLibrarian(["install-cli", "--dir", join(dir.path, "bin"), "--remove"]);
  assert.equal(removal.code, 1, removal.stdout);
  assert.equal(Deno.readLinkSync(link), theirs);
  // A link to nothing outside the plugin cache may be anyone's: left alone too.
  Deno.removeSync(link);
  Deno.symlinkSync("/usr/local/other/bin/librarian", link, { type: "file" });
  const dangling = await runLibrarian(["install-cli", "--dir", join(dir.path, "bin"), "--remove"]);
  assert.equal(dangling.code, 1, dangling.stdout);
  assert.equal(Deno.readLinkSync(link), "/usr/local/other/bin/librarian");
});

Deno.test("install-cli leaves someone else's librarian file alone and says how to go on", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(join(dir.path, "librarian"), "mine\n");
  const result = await runLibrarian(["install-cli", "--dir", dir.path]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^librarian install-cli: .* is not a link to a Librarian launcher/);
  assert.match(result.stderr, /--dir <folder>/);
  assert.equal(Deno.readTextFileSync(join(dir.path, "librarian")), "mine\n");
  const removal = await runLibrarian(["install-cli", "--dir", dir.path, "--remove", "--json"]);
  assert.equal(removal.code, 1);
  assert.equal(JSON.parse(removal.stdout).exitCode, 1);
  assert.equal(Deno.readTextFileSync(join(dir.path, "librarian")), "mine\n");
});

Deno.test("install-cli --remove removes the link, and a second --remove is fine", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using home = await tempDir();
  await runLibrarian(["install-cli"], { home: home.path });
  const removed = await runLibrarian(["install-cli", "--remove"], { home: home.path });
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /^Removed /);
  assert.throws(() => Deno.lstatSync(join(home.path, ".local", "bin", "librarian")));
  const again = await runLibrarian(["install-cli", "--remove"], { home: home.path });
  assert.equal(again.code, 0);
  assert.match(again.stdout, /^Nothing to remove/);
});

/** The README's fenced block that follows a heading, as shell lines. */
function readmeBlockAfter(heading: string): string {
  const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));
  const at = readme.indexOf(heading);
  assert.ok(at >= 0, `README has no '${heading}'`);
  const block = readme.slice(at).match(/```sh\n([\s\S]*?)```/);
  assert.ok(block, `no sh block after '${heading}'`);
  return block[1]!;
}

Deno.test("the README's install step and first library in three steps work on a fresh HOME", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using home = await tempDir();
  const repo = join(home.path, "work", "repo");
  await Deno.mkdir(join(repo, "src", "api"), { recursive: true });
  const git = await new Deno.Command("git", { args: ["init", "-q", repo] }).output();
  assert.equal(git.code, 0);
  // Install step, as written: the plugin as Claude Code caches it (here: this repository).
  const cache = join(home.path, ".claude/plugins/cache/librarian/librarian");
  await Deno.mkdir(cache, { recursive: true });
  await Deno.symlink(REPO_ROOT, join(cache, "0.1.0"), { type: "dir" });
  const bin = join(home.path, ".local", "bin");
  const env = {
    HOME: home.path,
    PATH: `${bin}:${Deno.env.get("PATH")}`,
    LIBRARIAN_LOG: "off",
    DENO_DIR: await denoDir(),
  };
  const install = await new Deno.Command("sh", {
    args: ["-euc", readmeBlockAfter("## Install")],
    cwd: home.path,
    env,
    clearEnv: true,
  }).output();
  assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
  assert.match(
    Deno.readLinkSync(join(bin, "librarian")),
    /plugins\/cache\/librarian\/librarian\/0\.1\.0\/bin\/librarian$/,
  );
  const steps = readmeBlockAfter("## Your first library in three steps");
  const out = await new Deno.Command("sh", {
    args: ["-euc", steps],
    cwd: repo,
    env,
    clearEnv: true,
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.ok(Deno.statSync(join(repo, "_memory_library", ".scratch.md")).isFile);
  assert.match(stdout, /Money is integer cents/);
});

Deno.test("doctor warns when the librarian link leads to a launcher that is gone", {
  ignore: skipOnWindows("needs symbolic links"),
}, async () => {
  await using home = await tempDir();
  await Deno.mkdir(join(home.path, ".local", "bin"), { recursive: true });
  Deno.symlinkSync(
    join(home.path, "plugins/cache/m/librarian/0.0.1/bin/librarian"),
    join(home.path, ".local", "bin", "librarian"),
    { type: "file" },
  );
  const result = await runLibrarian(["doctor", "--json"], { home: home.path, cwd: home.path });
  const cli = JSON.parse(result.stdout).checks.find((c: { id: string }) => c.id === "cli");
  assert.equal(cli.status, "warn");
  assert.match(cli.message, /which is gone/);
  assert.match(cli.fix, /librarian install-cli/);
});

Deno.test("the launcher carries the marker install-cli recognises its own links by", async () => {
  const { LAUNCHER_MARKER, isOwnLink } = await import("../src/setup/install_cli.ts");
  const head = Deno.readTextFileSync(LAUNCHER).split("\n").slice(0, 8);
  assert.ok(head.some((line) => line.startsWith(LAUNCHER_MARKER)), head.join("\n"));
  assert.ok(isOwnLink("/anywhere/librarian", LAUNCHER));
});
