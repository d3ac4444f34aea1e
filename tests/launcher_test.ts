/**
 * `bin/librarian`, the POSIX sh launcher every hook runs: which program it starts on which system,
 * and what it says when it can start none. Each test runs a copy of the launcher in a temp folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { binaryFileName } from "../scripts/build_plan.ts";
import { freshnessFile, freshnessScript, HOOK_BUNDLES } from "../scripts/bundle_hooks.ts";
import {
  hookContextOf,
  parseHookStdout,
  preToolUseEvent,
  REPO_ROOT,
  runLibrarian,
  tempDir,
  writeTree,
} from "./helpers.ts";
import { copyLauncher, FAKE_DENO, fakeUname, toolsDir, writeScript } from "./launcher_fixtures.ts";
import { skipOnWindows } from "./platform.ts";

const HOST_FILE = binaryFileName(Deno.build.target);
const ECHO_BINARY = `echo "binary \${0##*/} $*"`;

Deno.test("the launcher runs bin/librarian-<host target> when present, with the arguments", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await writeScript(join(plugin, "bin", HOST_FILE), ECHO_BINARY);
  // The real PATH has deno on it: the binary still wins.
  const result = await runLibrarian(["status", "--json"], {
    launcher: join(plugin, "bin", "librarian"),
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), `binary ${HOST_FILE} status --json`);
});

Deno.test("the launcher restores a binary's lost execute bit and runs it", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  const binary = join(plugin, "bin", HOST_FILE);
  await writeScript(binary, ECHO_BINARY, 0o644);
  const result = await runLibrarian(["inject"], { launcher: join(plugin, "bin", "librarian") });
  assert.equal(result.stdout.trim(), `binary ${HOST_FILE} inject`);
  assert.equal((await Deno.stat(binary)).mode! & 0o111, 0o111);
});

Deno.test(
  "the launcher tells the program its own absolute path, even when started by a relative one",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    await writeScript(join(plugin, "bin", HOST_FILE), `echo "$LIBRARIAN_LAUNCHER"`);
    const result = await runLibrarian(["setup-hooks"], { launcher: "bin/librarian", cwd: plugin });
    assert.equal(result.stdout.trim(), `${plugin}/bin/librarian`);
  },
);

Deno.test("LIBRARIAN_FORCE_SOURCE=1 makes the launcher run deno even when a binary is present", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await Deno.mkdir(join(plugin, "src"));
  await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
  await writeScript(join(plugin, "bin", HOST_FILE), ECHO_BINARY);
  const tools = await toolsDir(dir.path, { deno: FAKE_DENO });
  const result = await runLibrarian(["inject"], {
    launcher: join(plugin, "bin", "librarian"),
    mode: "source",
    env: { PATH: tools },
  });
  assert.equal(result.stdout.split("\n")[0], "FAKE-DENO");
});

Deno.test("without a binary the launcher runs src/main.ts of its own plugin folder with deno", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await Deno.mkdir(join(plugin, "src"));
  await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
  const tools = await toolsDir(dir.path, { deno: FAKE_DENO });
  const result = await runLibrarian(["stop"], {
    launcher: join(plugin, "bin", "librarian"),
    env: { PATH: tools },
  });
  const args = result.stdout.trim().split("\n");
  assert.equal(args[0], "FAKE-DENO");
  assert.equal(args[1], "run");
  assert.ok(args.includes(`--config=${plugin}/deno.json`), args.join(" "));
  assert.deepEqual(args.slice(-2), [`${plugin}/src/main.ts`, "stop"]);
});

Deno.test(
  "the program never runs with V8 flags from the environment (a project's settings could set them)",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    await Deno.mkdir(join(plugin, "src"));
    await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
    const tools = await toolsDir(dir.path, { deno: 'echo "V8=${DENO_V8_FLAGS-unset}"' });
    for (const command of [["inject"], ["status"]]) {
      const result = await runLibrarian(command, {
        launcher: join(plugin, "bin", "librarian"),
        env: { PATH: tools, DENO_V8_FLAGS: "--prof,--logfile=/tmp/x.log" },
      });
      assert.equal(result.stdout.trim(), "V8=unset", command.join(" "));
    }
  },
);

Deno.test("without deno on PATH the launcher uses ~/.deno/bin/deno", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await Deno.mkdir(join(plugin, "src"));
  await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
  const home = join(dir.path, "home");
  await Deno.mkdir(join(home, ".deno", "bin"), { recursive: true });
  await writeScript(join(home, ".deno", "bin", "deno"), FAKE_DENO);
  const result = await runLibrarian(["--version"], {
    launcher: join(plugin, "bin", "librarian"),
    env: { PATH: await toolsDir(dir.path) },
    home,
  });
  assert.equal(result.stdout.split("\n")[0], "FAKE-DENO");
});

Deno.test({
  name: "source mode is immune to a ~/.npmrc Deno cannot parse, and the program still sees HOME",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using dir = await tempDir();
    const home = join(dir.path, "home");
    // npm tolerates a scoped registry without a scheme; Deno used to exit 1 on it at start
    await Deno.mkdir(home);
    await Deno.writeTextFile(join(home, ".npmrc"), "@acme:registry=npm.acme.corp\n");
    await Deno.mkdir(join(dir.path, "proj", "_memory_library"), { recursive: true });
    await Deno.writeTextFile(join(dir.path, "proj", "_memory_library", "tech.md"), "- t\n");
    const stdin = JSON.stringify({
      session_id: "npmrc",
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(dir.path, "proj", "a.ts") },
    });
    const result = await runLibrarian(["inject"], { mode: "source", home, stdin });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.ok(parseHookStdout(result.stdout), "the context came");
    const ledger = join(home, ".claude", "librarian", "ledgers", "npmrc", "main.json");
    assert.ok((await Deno.stat(ledger)).isFile, "state went to the real HOME");
    const version = await runLibrarian(["--version"], { mode: "source", home });
    assert.equal(version.code, 0, version.stderr);
  },
});

Deno.test("the real source mode runs the program with the repository's deno", async () => {
  const result = await runLibrarian(["--version"], { mode: "source" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^librarian \d+\.\d+\.\d+/);
});

for (const command of ["inject", "stop"]) {
  Deno.test(`with no binary and no deno, '${command}' prints one JSON systemMessage and exits 0`, {
    ignore: skipOnWindows("runs a POSIX shell script"),
  }, async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    const result = await runLibrarian([command], {
      launcher: join(plugin, "bin", "librarian"),
      env: { PATH: await toolsDir(dir.path) },
      stdin: JSON.stringify({ hook_event_name: "Stop" }),
    });
    assert.equal(result.code, 0);
    assert.equal(result.stderr, "");
    const output = parseHookStdout(result.stdout)!;
    assert.deepEqual(Object.keys(output), ["systemMessage"]);
    const message = output.systemMessage as string;
    assert.match(message, new RegExp(`librarian-${Deno.build.target} is missing`));
    assert.match(message, /install Deno/);
  });
}

Deno.test("with no binary and no deno, a person's command exits 1 and says how to fix it", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  const result = await runLibrarian(["status"], {
    launcher: join(plugin, "bin", "librarian"),
    env: { PATH: await toolsDir(dir.path) },
  });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^librarian: .*Reinstall the plugin, or install Deno/);
});

Deno.test("the fallback message stays valid JSON when the plugin path has quotes and backslashes", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path, `we"ird\\name`);
  const result = await runLibrarian(["inject"], {
    launcher: join(plugin, "bin", "librarian"),
    env: { PATH: await toolsDir(dir.path) },
  });
  assert.equal(result.code, 0);
  const message = parseHookStdout(result.stdout)!.systemMessage as string;
  assert.ok(message.includes(`we'ird/name/bin`), message);
});

Deno.test("LIBRARIAN_FORCE_BINARY=1 never falls back to deno", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await Deno.mkdir(join(plugin, "src"));
  await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
  const result = await runLibrarian(["inject"], {
    launcher: join(plugin, "bin", "librarian"),
    mode: "binary",
    env: { PATH: await toolsDir(dir.path, { deno: FAKE_DENO }) },
  });
  assert.equal(result.code, 0);
  const message = parseHookStdout(result.stdout)!.systemMessage as string;
  assert.match(message, /LIBRARIAN_FORCE_BINARY=1 forbids running from source/);
});

Deno.test(
  "a switch a repository's .claude/settings.json names (LIBRARIAN_FORCE_SOURCE, _BINARY) is ignored, and said",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    await Deno.mkdir(join(plugin, "src"));
    await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
    await writeScript(join(plugin, "bin", HOST_FILE), ECHO_BINARY);
    const repo = join(dir.path, "cloned-repo");
    await Deno.mkdir(join(repo, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(repo, ".claude", "settings.json"),
      JSON.stringify({ env: { LIBRARIAN_FORCE_SOURCE: "1", LIBRARIAN_FORCE_BINARY: "1" } }),
    );
    const tools = await toolsDir(dir.path, { deno: FAKE_DENO });
    const launcher = join(plugin, "bin", "librarian");
    const forced = await runLibrarian(["status"], {
      launcher,
      cwd: repo,
      env: { PATH: tools, LIBRARIAN_FORCE_SOURCE: "1" },
    });
    assert.equal(forced.stdout.trim(), `binary ${HOST_FILE} status`);
    assert.match(
      forced.stderr,
      /^librarian: LIBRARIAN_FORCE_SOURCE is ignored \(the project's \.claude\/settings\.json sets it\)\.$/m,
    );
    // a hook's stdout stays its program's answer
    const hook = await runLibrarian(["inject"], {
      launcher,
      cwd: repo,
      env: { PATH: tools, LIBRARIAN_FORCE_SOURCE: "1" },
    });
    assert.equal(hook.stdout.trim(), `binary ${HOST_FILE} inject`);
    // the user's own switch, set where no repository names it, still works
    const own = await runLibrarian(["inject"], {
      launcher,
      cwd: dir.path,
      env: { PATH: tools, LIBRARIAN_FORCE_SOURCE: "1" },
    });
    assert.equal(own.stdout.split("\n")[0], "FAKE-DENO");
    await Deno.remove(join(plugin, "bin", HOST_FILE));
    const binary = await runLibrarian(["inject"], {
      launcher,
      cwd: repo,
      env: { PATH: tools, LIBRARIAN_FORCE_BINARY: "1" },
    });
    assert.equal(binary.stdout.split("\n")[0], "FAKE-DENO", "deno runs: the switch was ignored");
  },
);

Deno.test(
  "source mode: a Deno cache folder a repository's settings choose (DENO_DIR, XDG_CACHE_HOME) is not used",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    await Deno.mkdir(join(plugin, "src"));
    await Deno.writeTextFile(join(plugin, "src", "main.ts"), "");
    const repo = join(dir.path, "cloned-repo");
    await Deno.mkdir(join(repo, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(repo, ".claude", "settings.json"),
      JSON.stringify({ env: { DENO_DIR: `${dir.path}/planted-deno` } }),
    );
    const tools = await toolsDir(dir.path, { deno: `echo "DENO_DIR=$DENO_DIR"` });
    const home = join(dir.path, "home");
    await Deno.mkdir(home);
    const run = (env: Record<string, string>, cwd = repo) =>
      runLibrarian(["status"], {
        launcher: join(plugin, "bin", "librarian"),
        cwd,
        home,
        env: { PATH: tools, ...env },
      });
    const named = await run({ DENO_DIR: `${dir.path}/planted-deno` });
    assert.equal(named.stdout.trim(), `DENO_DIR=${home}/.cache/deno`);
    assert.match(
      named.stderr,
      /DENO_DIR is ignored \(the project's \.claude\/settings\.json sets it\)/,
    );
    const inside = await run({ DENO_DIR: "", XDG_CACHE_HOME: `${repo}/cache` });
    assert.equal(inside.stdout.trim(), `DENO_DIR=${home}/.cache/deno`);
    assert.match(inside.stderr, /XDG_CACHE_HOME is ignored \(inside the project/);
    // the user's own, in a project that does not name it
    const own = await run({ DENO_DIR: `${dir.path}/deno-cache` }, home);
    assert.equal(own.stdout.trim(), `DENO_DIR=${dir.path}/deno-cache`);
    assert.equal(own.stderr, "");
  },
);

/** `uname -sm` output → the binary the launcher must pick. */
const UNAME_TARGETS: ReadonlyArray<[string, string]> = [
  ["Linux x86_64", "librarian-x86_64-unknown-linux-gnu"],
  ["Linux aarch64", "librarian-aarch64-unknown-linux-gnu"],
  ["Linux arm64", "librarian-aarch64-unknown-linux-gnu"],
  ["Darwin x86_64", "librarian-x86_64-apple-darwin"],
  ["Darwin arm64", "librarian-aarch64-apple-darwin"],
  ["MINGW64_NT-10.0-19045 x86_64", "librarian-x86_64-pc-windows-msvc.exe"],
  ["MSYS_NT-10.0-22631 x86_64", "librarian-x86_64-pc-windows-msvc.exe"],
  ["CYGWIN_NT-10.0-19045 x86_64", "librarian-x86_64-pc-windows-msvc.exe"],
  ["MINGW64_NT-10.0-26100 aarch64", "librarian-aarch64-pc-windows-msvc.exe"],
  ["MSYS_NT-10.0-26100 arm64", "librarian-aarch64-pc-windows-msvc.exe"],
];

for (const [uname, file] of UNAME_TARGETS) {
  Deno.test(`on '${uname}' the launcher runs ${file}`, {
    ignore: skipOnWindows("runs a POSIX shell script"),
  }, async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    // Every candidate is present; only the right one may run.
    for (const [, candidate] of UNAME_TARGETS) {
      await writeScript(join(plugin, "bin", candidate), ECHO_BINARY);
    }
    const result = await runLibrarian(["inject"], {
      launcher: join(plugin, "bin", "librarian"),
      env: { PATH: await toolsDir(dir.path, { uname: fakeUname(uname) }) },
    });
    assert.equal(result.stdout.trim(), `binary ${file} inject`);
  });
}

Deno.test("on a system with no binary target the launcher says which system it is", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  const result = await runLibrarian(["inject"], {
    launcher: join(plugin, "bin", "librarian"),
    env: { PATH: await toolsDir(dir.path, { uname: fakeUname("FreeBSD amd64") }) },
  });
  assert.equal(result.code, 0);
  assert.match(
    parseHookStdout(result.stdout)!.systemMessage as string,
    /no Librarian binary for this system \(FreeBSD amd64\)/,
  );
});

Deno.test("the launcher finds its folder when called by a backslash path, as on Windows", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  await writeScript(join(plugin, "bin", HOST_FILE), ECHO_BINARY);
  // On Linux a backslash is part of a file name: "bin\librarian" stands in for C:\...\bin\librarian.
  await Deno.copyFile(join(plugin, "bin", "librarian"), join(plugin, "bin\\librarian"));
  const result = await runLibrarian(["inject"], { launcher: join(plugin, "bin\\librarian") });
  assert.equal(result.stdout.trim(), `binary ${HOST_FILE} inject`);
});

/** What the launcher runs for `command` in a plugin tree at `plugin` (its last argument). */
async function launched(plugin: string, command: string[], tools: string): Promise<string> {
  const result = await runLibrarian(command, {
    launcher: join(plugin, "bin", "librarian"),
    mode: "source",
    env: { PATH: tools },
  });
  const lines = result.stdout.trim().split("\n");
  assert.equal(lines[0], "FAKE-DENO", result.stderr);
  return lines.at(-1)!.slice(plugin.length + 1);
}

Deno.test(
  "the launcher runs a checkout's bundle only while each of its sources and deno.json is older",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    await using dir = await tempDir();
    const plugin = await copyLauncher(dir.path);
    const tools = await toolsDir(dir.path, { deno: FAKE_DENO });
    const stop = HOOK_BUNDLES.find((bundle) => bundle.name === "stop")!;
    for (const file of ["src/main.ts", "src/entry/stop.ts", "src/stop/stop_hook.ts", "deno.json"]) {
      await Deno.mkdir(join(plugin, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(plugin, file), "");
    }
    await Deno.mkdir(join(plugin, "bundles"));
    const bundle = join(plugin, "bundles", stop.file);
    await Deno.writeTextFile(bundle, "");
    const fragment = join(plugin, "bundles", freshnessFile(stop));
    await Deno.writeTextFile(
      fragment,
      freshnessScript(stop, ["entry/stop.ts", "stop/stop_hook.ts"]),
    );
    const age = (file: string, seconds: number) =>
      Deno.utime(join(plugin, file), Date.now() / 1000 + seconds, Date.now() / 1000 + seconds);
    for (const file of ["src/entry/stop.ts", "src/stop/stop_hook.ts", "deno.json"]) {
      await age(file, -60);
    }
    assert.equal(await launched(plugin, ["stop"], tools), "bundles/stop.js");
    // a source saved after the build
    await age("src/stop/stop_hook.ts", 60);
    assert.equal(await launched(plugin, ["stop"], tools), "src/entry/stop.ts");
    await age("src/stop/stop_hook.ts", -60);
    // the import map or compiler options changed
    await age("deno.json", 60);
    assert.equal(await launched(plugin, ["stop"], tools), "src/entry/stop.ts");
    await age("deno.json", -60);
    // the same modification time as the bundle (a shell that keeps whole seconds sees no order)
    const now = Math.floor(Date.now() / 1000);
    await Deno.utime(bundle, now, now);
    await Deno.utime(join(plugin, "src/entry/stop.ts"), now, now);
    assert.equal(await launched(plugin, ["stop"], tools), "src/entry/stop.ts");
    await age("src/entry/stop.ts", -60);
    assert.equal(await launched(plugin, ["stop"], tools), "bundles/stop.js");
    // the release tree's hooks/stop.js is not run in a checkout whose bundle is stale, and a
    // bundle without its fragment is not run
    await Deno.mkdir(join(plugin, "hooks"));
    await Deno.writeTextFile(join(plugin, "hooks", "stop.js"), "");
    await age("src/stop/stop_hook.ts", 60);
    assert.equal(await launched(plugin, ["stop"], tools), "src/entry/stop.ts");
    await age("src/stop/stop_hook.ts", -60);
    await Deno.remove(fragment);
    assert.equal(await launched(plugin, ["stop"], tools), "src/entry/stop.ts");
  },
);

Deno.test("the launcher runs the release tree's hooks/<hook>.js as it is, however old", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const plugin = await copyLauncher(dir.path);
  const tools = await toolsDir(dir.path, { deno: FAKE_DENO });
  for (const file of ["src/main.ts", "src/entry/inject.ts", "hooks/inject-shell.js"]) {
    await Deno.mkdir(join(plugin, file, ".."), { recursive: true });
    await Deno.writeTextFile(join(plugin, file), "");
  }
  const past = Date.now() / 1000 - 3600;
  await Deno.utime(join(plugin, "hooks", "inject-shell.js"), past, past);
  assert.equal(await launched(plugin, ["inject", "--shell"], tools), "hooks/inject-shell.js");
  // no bundle for plain inject: the TypeScript entry
  assert.equal(await launched(plugin, ["inject"], tools), "src/entry/inject.ts");
});

/** A fake `deno` that prints what {@link FAKE_DENO} prints, then the environment it was given. */
const FAKE_DENO_WITH_ENV = `${FAKE_DENO}
for name in HOME LIBRARIAN_HOME DENO_DIR LIBRARIAN_LAUNCHER DENO_V8_FLAGS DENO_NO_UPDATE_CHECK; do
  eval "printf 'ENV %s=%s\\\\n' \\"\\$name\\" \\"\\\${$name-unset}\\""
done`;

/**
 * A release tree (hooks/<hook>.js, src/main.ts) whose launcher stops after its first lines: a
 * run that gets past the common case exits 97 there.
 */
async function releaseTreeCutShort(root: string): Promise<{ plugin: string; cut: string }> {
  const plugin = await copyLauncher(root);
  for (const file of ["src/main.ts", "hooks/inject.js", "hooks/inject-shell.js", "hooks/stop.js"]) {
    await Deno.mkdir(join(plugin, file, ".."), { recursive: true });
    await Deno.writeTextFile(join(plugin, file), "");
  }
  const text = await Deno.readTextFile(join(plugin, "bin", "librarian"));
  const rest = "# Follow symlinks to the real launcher";
  assert.ok(text.includes(rest));
  const cut = join(plugin, "bin", "cut-short"); // not librarian-*, which would be a binary
  await Deno.writeTextFile(cut, text.replace(rest, `exit 97\n${rest}`));
  return { plugin, cut };
}

Deno.test(
  "a hook event in a release tree runs from the launcher's first lines, exactly as the full launcher runs it",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    await using dir = await tempDir();
    const { plugin, cut } = await releaseTreeCutShort(dir.path);
    const tools = await toolsDir(dir.path, { deno: FAKE_DENO_WITH_ENV });
    const home = join(dir.path, "home");
    const run = async (launcher: string, command: string[], env: Record<string, string>) => {
      return await runLibrarian(command, {
        launcher,
        home,
        env: { PATH: tools, DENO_DIR: "", DENO_V8_FLAGS: "--logfile=/tmp/x", ...env },
      });
    };
    for (const command of [["inject"], ["inject", "--shell"], ["stop"]]) {
      const first = await run(cut, command, {});
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^FAKE-DENO\n/);
      assert.ok(first.stdout.includes(`ENV DENO_V8_FLAGS=unset\n`), first.stdout);
      // the full launcher, made to take its long way by a DENO_DIR it accepts: the same value
      const full = await run(join(plugin, "bin", "librarian"), command, {
        DENO_DIR: join(home, ".cache", "deno"),
      });
      assert.equal(first.stdout, full.stdout, command.join(" "));
      assert.ok(
        full.stdout.includes(`ENV HOME=${plugin}/bin/.deno-home\nENV LIBRARIAN_HOME=${home}\n`),
      );
    }
    // anything else takes the long way (here: to exit 97)
    for (
      const [command, env] of [
        [["status"], {}],
        [["inject"], { LIBRARIAN_UNBUNDLED: "1" }],
        [["inject"], { XDG_CACHE_HOME: join(dir.path, "cache") }],
        [["stop"], { LIBRARIAN_FORCE_SOURCE: "1" }],
      ] as const
    ) {
      const result = await run(cut, [...command], env);
      assert.equal(result.code, 97, `${command.join(" ")} ${JSON.stringify(env)}`);
      assert.doesNotMatch(result.stdout, /FAKE-DENO/);
    }
    await Deno.writeTextFile(join(plugin, "bin", "librarian-x86_64-unknown-linux-gnu"), "");
    assert.equal((await run(cut, ["inject"], {})).code, 97, "a binary beside it");
  },
);

/** Deno's environment variables that the launcher passes on: the program's, or harmless to it. */
const DENO_VARIABLES_PASSED: Readonly<Record<string, string>> = {
  DENO_DIR: "checked by the launcher's setting (a folder outside the project), else not passed",
  DENO_NO_UPDATE_CHECK: "set to 1 by the launcher",
  NO_COLOR: "only colours",
  HTTP_PROXY: "the program has no network; curl in fetch-binary needs it",
  HTTPS_PROXY: "the program has no network; curl in fetch-binary needs it",
  NO_PROXY: "the program has no network; curl in fetch-binary needs it",
  NODE_USE_ENV_PROXY: "the program has no network",
};

/** The variables `bin/librarian`'s deno_settings_from_here unsets. */
async function variablesTheLauncherUnsets(): Promise<string[]> {
  const text = await Deno.readTextFile(join(REPO_ROOT, "bin", "librarian"));
  const unsetLine =
    /\ndeno_settings_from_here\(\) \{\n {2}unset ([^]*?)\n {2}DENO_NO_UPDATE_CHECK=1/;
  const body = unsetLine.exec(text);
  assert.ok(body, "bin/librarian defines deno_settings_from_here with one unset");
  return body[1]!.split(/[\s\\]+/).filter((name) => name !== "");
}

Deno.test("the launcher unsets or knowingly passes every environment variable `deno --help` lists", async () => {
  const out = await new Deno.Command(Deno.execPath(), { args: ["--help"], stdout: "piped" })
    .output();
  const help = new TextDecoder().decode(out.stdout);
  const section = help.slice(help.indexOf("Environment variables:"));
  const listed = [...section.matchAll(/^ {2}([A-Z][A-Z0-9_]+) /gm)].map((m) => m[1]!);
  assert.ok(listed.includes("DENO_COVERAGE_DIR") && listed.length > 20, listed.join(" "));
  const unset = await variablesTheLauncherUnsets();
  const unhandled = listed.filter((name) =>
    !unset.includes(name) && !(name in DENO_VARIABLES_PASSED)
  );
  assert.deepEqual(unhandled, [], "add them to deno_settings_from_here in bin/librarian");
});

Deno.test(
  "Deno's settings never come from the environment: whatever it sets, the program runs with the launcher's, and never checks for Deno updates",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    await using dir = await tempDir();
    const { plugin, cut } = await releaseTreeCutShort(dir.path);
    const unset = await variablesTheLauncherUnsets();
    const names = [...unset, ...Object.keys(DENO_VARIABLES_PASSED)].filter((n) => n !== "DENO_DIR");
    const tools = await toolsDir(dir.path, {
      deno: `${FAKE_DENO}\nfor name in ${names.join(" ")}; do\n` +
        `  eval "printf 'ENV %s=%s\\\\n' \\"\\$name\\" \\"\\\${$name-unset}\\""\ndone`,
    });
    // as a cloned repository's .claude/settings.json "env" could set them
    const hostile = Object.fromEntries(names.map((name) => [name, join(dir.path, "chosen")]));
    const launcher = join(plugin, "bin", "librarian");
    const cases: [string, string[]][] = [
      // the hooks' first lines, and the full launcher's way for a hook and for a person's command
      [cut, ["inject"]],
      [cut, ["stop"]],
      [launcher, ["inject", "--shell"]],
      [launcher, ["status"]],
    ];
    for (const [script, command] of cases) {
      const result = await runLibrarian(command, {
        launcher: script,
        home: join(dir.path, "home"),
        env: { PATH: tools, DENO_DIR: "", ...hostile },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^FAKE-DENO\n/);
      const seen = Object.fromEntries(
        [...result.stdout.matchAll(/^ENV ([A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
      );
      for (const name of unset) assert.equal(seen[name], "unset", `${command.join(" ")}: ${name}`);
      assert.equal(seen.DENO_NO_UPDATE_CHECK, "1", command.join(" "));
      assert.equal(seen.NO_COLOR, hostile.NO_COLOR, "passed on");
    }
  },
);

Deno.test(
  "Deno fact: a deno run that lives past half a second asks dl.deno.land for its latest version, unless DENO_NO_UPDATE_CHECK is set",
  async () => {
    await using dir = await tempDir();
    // a local proxy stands in for the network: Deno's HTTP client goes through HTTPS_PROXY
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const asked: string[] = [];
    const serving = (async () => {
      for await (const connection of listener) {
        const buffer = new Uint8Array(1024);
        const read = await connection.read(buffer).catch(() => null);
        asked.push(new TextDecoder().decode(buffer.subarray(0, read ?? 0)));
        connection.close();
      }
    })().catch(() => {});
    const script = join(dir.path, "waits.js");
    await Deno.writeTextFile(script, "await new Promise((done) => setTimeout(done, 2000));\n");
    const runWaiting = async (env: Record<string, string>) => {
      const before = asked.length;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "--no-config", script],
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          HOME: dir.path,
          DENO_DIR: join(dir.path, `cache-${before}-${Object.keys(env).length}`),
          HTTPS_PROXY: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
          ...env,
        },
        clearEnv: true,
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(out.code, 0);
      return asked.slice(before).join("");
    };
    assert.match(await runWaiting({}), /^CONNECT dl\.deno\.land:443 /);
    assert.equal(await runWaiting({ DENO_NO_UPDATE_CHECK: "1" }), "");
    listener.close();
    await serving;
  },
);

Deno.test(
  "a release tree's inject hook, run by the launcher's first lines, injects with the real deno",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    await using dir = await tempDir();
    const { plugin, cut } = await releaseTreeCutShort(dir.path);
    await Deno.copyFile(
      join(REPO_ROOT, "bundles", "inject.js"),
      join(plugin, "hooks", "inject.js"),
    );
    await writeTree(dir.path, {
      "proj/_memory_library/src/patterns.md": "- FIRST-LINES-PATTERN",
      "proj/src/a.ts": "",
    });
    const result = await runLibrarian(["inject"], {
      launcher: cut,
      home: join(dir.path, "home"),
      cwd: join(dir.path, "proj"),
      // a folder a cloned repository's settings could name: Deno would write a coverage file there
      env: { DENO_DIR: "", DENO_COVERAGE_DIR: join(dir.path, "proj", "coverage") },
      stdin: preToolUseEvent(join(dir.path, "proj"), "Read", { file_path: "src/a.ts" }, "t-1"),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(hookContextOf(result), /FIRST-LINES-PATTERN/);
    await assert.rejects(Deno.stat(join(dir.path, "proj", "coverage")), Deno.errors.NotFound);
  },
);
