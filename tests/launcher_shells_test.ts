/**
 * The launcher reached through symlinks (a link in ~/.local/bin, a chain of links, a relative
 * link), under every POSIX shell it meets: dash (Debian's sh), bash, busybox sh and zsh in sh
 * mode (macOS /bin/sh is bash or zsh in sh mode). A shell that is not installed is skipped here;
 * `.ci/run` installs all four.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { binaryFileName } from "../scripts/build_plan.ts";
import { LAUNCHER, REPO_ROOT, tempDir } from "./helpers.ts";
import { copyLauncher, writeScript } from "./launcher_fixtures.ts";
import { skipOnWindows } from "./platform.ts";

const HOST_FILE = binaryFileName(Deno.build.target);

function installed(name: string): boolean {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    try {
      if (Deno.statSync(join(dir, name)).isFile) return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** Each shell as a command prefix that runs a script file in POSIX sh mode. */
const SHELLS: Record<string, string[]> = {
  dash: ["dash"],
  bash: ["bash", "--posix"],
  "busybox sh": ["busybox", "sh"],
  "zsh (sh mode)": ["zsh", "--emulate", "sh"],
};

async function runShell(shell: string[], script: string, args: string[], cwd: string) {
  const out = await new Deno.Command(shell[0]!, {
    args: [...shell.slice(1), script, ...args],
    cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: cwd, LIBRARIAN_LOG: "off" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A plugin copy whose fake host binary prints its launcher path and arguments. */
async function pluginWithFakeBinary(root: string): Promise<string> {
  const plugin = await copyLauncher(root);
  await writeScript(join(plugin, "bin", HOST_FILE), `echo "ran $LIBRARIAN_LAUNCHER $*"`);
  return Deno.realPathSync(plugin);
}

for (const [name, shell] of Object.entries(SHELLS)) {
  Deno.test({
    name: `under ${name}, a launcher reached through a chain of relative symlinks runs its plugin`,
    ignore: skipOnWindows("runs a POSIX shell script") || !installed(shell[0]!),
    fn: async () => {
      await using dir = await tempDir();
      const plugin = await pluginWithFakeBinary(dir.path);
      await Deno.mkdir(join(dir.path, "a"));
      await Deno.mkdir(join(dir.path, "b"));
      await Deno.symlink("../plugin/bin/librarian", join(dir.path, "a", "librarian"), {
        type: "file",
      });
      await Deno.symlink("../a/librarian", join(dir.path, "b", "lib"), { type: "file" });
      const result = await runShell(shell, join(dir.path, "b", "lib"), ["--version"], dir.path);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), `ran ${plugin}/bin/librarian --version`);
    },
  });

  Deno.test({
    name: `under ${name}, a bare relative symlink name started from its own folder works`,
    ignore: skipOnWindows("runs a POSIX shell script") || !installed(shell[0]!),
    fn: async () => {
      await using dir = await tempDir();
      const plugin = await pluginWithFakeBinary(dir.path);
      await Deno.mkdir(join(dir.path, "bin"));
      await Deno.symlink(`${plugin}/bin/librarian`, join(dir.path, "bin", "librarian"), {
        type: "file",
      });
      const result = await runShell(shell, "librarian", ["status"], join(dir.path, "bin"));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), `ran ${plugin}/bin/librarian status`);
    },
  });

  Deno.test({
    name: `under ${name}, the real launcher through a symlink runs from source`,
    ignore: skipOnWindows("runs a POSIX shell script") || !installed(shell[0]!) ||
      !installed("deno"),
    fn: async () => {
      await using dir = await tempDir();
      await Deno.symlink(LAUNCHER, join(dir.path, "librarian"), { type: "file" });
      const result = await runShell(shell, join(dir.path, "librarian"), ["--version"], dir.path);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^librarian \d+\.\d+\.\d+/);
    },
  });
}

for (const [name, shell] of Object.entries(SHELLS)) {
  for (const spec of ["launcher_test.ts", "binary_fetch_test.ts"]) {
    Deno.test({
      name: `the whole launcher spec (tests/${spec}) passes under ${name}`,
      ignore: !installed(shell[0]!),
      fn: async () => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["test", "--allow-all", "--no-check", join(REPO_ROOT, "tests", spec)],
          env: { LIBRARIAN_TEST_SHELL: shell.join(" "), NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
        assert.equal(out.code, 0, text);
        assert.match(text, /^ok \| \d+ passed \| 0 failed/m);
      },
    });
  }
}

Deno.test({
  name: "shellcheck -s sh finds nothing in the launcher",
  ignore: skipOnWindows("runs a POSIX shell script") || !installed("shellcheck"),
  fn: async () => {
    const out = await new Deno.Command("shellcheck", { args: ["-s", "sh", LAUNCHER] }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stdout));
  },
});
