/**
 * One list of runtime permissions: `src/permissions.ts`. Source mode (the launcher's `deno run`)
 * and the compiled binaries (the build plan's `deno compile`) must grant exactly it.
 */
import assert from "node:assert/strict";
import { buildPlan } from "../scripts/build_plan.ts";
import { ALLOWED_RUN, INJECT_V8_FLAGS, PERMISSION_FLAGS, V8_FLAGS } from "../src/permissions.ts";
import { REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";
import { FAKE_DENO, toolsDir } from "./launcher_fixtures.ts";
import { skipOnWindows } from "./platform.ts";

/** The flags in an argument list that grant, deny or shape permissions. */
function permissionFlags(args: readonly string[]): string[] {
  return args.filter((a) =>
    /^--(allow|deny|ignore)-|^--no-prompt$|^-A$|^--allow-all$|^-[RWNESP]$|^--permission-set/
      .test(a)
  );
}

async function sourceModeArgs(
  command: string[] = ["inject"],
  env: Record<string, string> = {},
): Promise<string[]> {
  await using dir = await tempDir();
  const result = await runLibrarian(command, {
    mode: "source",
    env: { PATH: await toolsDir(dir.path, { deno: FAKE_DENO }), ...env },
  });
  const lines = result.stdout.trim().split("\n");
  assert.equal(lines[0], "FAKE-DENO", result.stderr);
  return lines.slice(1);
}

Deno.test("the source-mode launcher grants exactly PERMISSION_FLAGS, in order", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  const args = await sourceModeArgs();
  assert.deepEqual(permissionFlags(args), [...PERMISSION_FLAGS]);
  const start = args.indexOf(PERMISSION_FLAGS[0]!);
  assert.deepEqual(args.slice(start, start + PERMISSION_FLAGS.length), [...PERMISSION_FLAGS]);
  // a hook event runs the hook's bundle (scripts/bundle_hooks.ts)
  assert.deepEqual(args.slice(-1), [`${REPO_ROOT}/bundles/inject.js`]);
  assert.equal(args[0], "run");
});

Deno.test(
  "a bundle runs without a configuration file, the TypeScript modules with the plugin's deno.json",
  {
    ignore: skipOnWindows("runs a POSIX shell script"),
  },
  async () => {
    const config = (args: string[]) => args.filter((a) => /^--(no-)?config\b/.test(a));
    for (const command of [["inject"], ["inject", "--shell"], ["stop"]]) {
      assert.deepEqual(config(await sourceModeArgs(command)), ["--no-config"], command.join(" "));
      assert.deepEqual(
        config(await sourceModeArgs(command, { LIBRARIAN_UNBUNDLED: "1" })),
        [`--config=${REPO_ROOT}/deno.json`],
        command.join(" "),
      );
    }
    assert.deepEqual(config(await sourceModeArgs(["status"])), [`--config=${REPO_ROOT}/deno.json`]);
  },
);

Deno.test("in source mode a hook event runs the hook's bundle, anything else main.ts", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  assert.deepEqual((await sourceModeArgs(["stop"])).slice(-1), [`${REPO_ROOT}/bundles/stop.js`]);
  // hooks.json wires Bash events to `inject --shell`: the bundle with the shell-command reader
  assert.deepEqual((await sourceModeArgs(["inject", "--shell"])).slice(-1), [
    `${REPO_ROOT}/bundles/inject-shell.js`,
  ]);
  // LIBRARIAN_UNBUNDLED=1: the hook's own entry module, which loads its TypeScript modules
  const unbundled = { LIBRARIAN_UNBUNDLED: "1" };
  for (const command of [["inject"], ["inject", "--shell"], ["stop"]]) {
    assert.deepEqual(
      (await sourceModeArgs(command, unbundled)).slice(-1),
      [`${REPO_ROOT}/src/entry/${command[0]}.ts`],
      command.join(" "),
    );
  }
  assert.deepEqual((await sourceModeArgs(["inject", "--help"])).slice(-3), [
    `${REPO_ROOT}/src/main.ts`,
    "inject",
    "--help",
  ]);
  assert.deepEqual((await sourceModeArgs(["inject", "--shell", "--explain"])).slice(-4), [
    `${REPO_ROOT}/src/main.ts`,
    "inject",
    "--shell",
    "--explain",
  ]);
  assert.deepEqual((await sourceModeArgs(["status"])).slice(-2), [
    `${REPO_ROOT}/src/main.ts`,
    "status",
  ]);
});

Deno.test("every compile in the build plan grants exactly PERMISSION_FLAGS", () => {
  const compiles = buildPlan({ targets: [], outDir: "bin", skipCheck: false })
    .filter((s) => s.kind === "compile");
  assert.equal(compiles.length, 6);
  for (const step of compiles) {
    assert.deepEqual(permissionFlags(step.args), [...PERMISSION_FLAGS], step.description);
  }
});

Deno.test("source mode runs the binaries' V8 flags; its inject hooks add --jitless", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  const v8Flags = (args: string[]) => args.filter((a) => a.startsWith("--v8-flags"));
  assert.deepEqual(v8Flags(await sourceModeArgs(["stop"])), [...V8_FLAGS]);
  assert.deepEqual(v8Flags(await sourceModeArgs(["status"])), [...V8_FLAGS]);
  assert.deepEqual(v8Flags(await sourceModeArgs(["inject", "--help"])), [...V8_FLAGS]);
  assert.deepEqual(v8Flags(await sourceModeArgs(["inject"])), [...INJECT_V8_FLAGS]);
  assert.deepEqual(v8Flags(await sourceModeArgs(["inject", "--shell"])), [...INJECT_V8_FLAGS]);
  assert.deepEqual(
    v8Flags(await sourceModeArgs(["inject"], { LIBRARIAN_UNBUNDLED: "1" })),
    [...INJECT_V8_FLAGS],
  );
  const compiles = buildPlan({ targets: [], outDir: "bin", skipCheck: false })
    .filter((s) => s.kind === "compile");
  for (const step of compiles) {
    assert.deepEqual(step.args.filter((a) => a.startsWith("--v8-flags")), [...V8_FLAGS]);
  }
});

Deno.test("the permissions never prompt and grant no network, FFI, other programs, nor any system information but the user id", () => {
  assert.ok(PERMISSION_FLAGS.includes("--no-prompt"));
  for (const flag of PERMISSION_FLAGS) {
    assert.doesNotMatch(flag, /^(-A|--allow-all|--allow-(net|ffi|import))\b/);
    assert.ok(!flag.startsWith("--allow-sys") || flag === "--allow-sys=uid", flag);
  }
  assert.ok(PERMISSION_FLAGS.includes("--allow-sys=uid"));
  assert.ok(PERMISSION_FLAGS.includes(`--allow-run=${ALLOWED_RUN.join(",")}`));
  assert.deepEqual([...ALLOWED_RUN], ["git"]);
});

Deno.test("the Windows test shim (scripts/windows/sh_shim.c) grants exactly PERMISSION_FLAGS", async () => {
  const shim = await Deno.readTextFile(`${REPO_ROOT}/scripts/windows/sh_shim.c`);
  const flags = [...shim.matchAll(/L"(--[a-z-]+(?:=[^"]*)?)"/g)].map((m) => m[1]!);
  assert.deepEqual(permissionFlags(flags), [...PERMISSION_FLAGS]);
});
