/**
 * The human commands under attack: bad arguments, `--json` in every situation, FIFOs and devices
 * in the library, and the promise that `read` shows exactly what the hook sends and that no
 * command writes outside the project, its library and the Librarian's own state folder.
 */
import assert from "node:assert/strict";
import { runLibrarian, type RunOptions, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows, wineSample } from "./platform.ts";
import { isLocalAbsolutePath } from "../src/core/paths.ts";

const IS_LINUX = Deno.build.os === "linux";

const LIBRARY = {
  "proj/_memory_library/tech.md": "# Tech\n- deno 2\n",
  "proj/_memory_library/src/api/edge.md": "# Edge\n- api edge case\n",
  "proj/_memory_library/.scratch.md": "## [TAG: src/api, type: patterns]\n- retry with backoff\n",
  "proj/src/api/handler.ts": "export {};\n",
  "bank/projectbrief.md": "# Brief\n- what it is\n",
};

/** Runs a command, killing it after `deadlineMs` (a hang fails the test). */
async function bounded(args: string[], options: RunOptions, deadlineMs = 20_000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let killed = false;
  const result = await runLibrarian(args, {
    ...options,
    onSpawn: (child) => {
      timer = setTimeout(() => {
        killed = true;
        child.kill("SIGKILL");
      }, deadlineMs);
    },
  });
  clearTimeout(timer);
  assert.ok(!killed, `librarian ${args.join(" ")} hung (killed after ${deadlineMs} ms)`);
  return result;
}

Deno.test("bad arguments exit 2 with the command's usage line on stderr and nothing on stdout", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const cwd = `${dir.path}/proj`;
  const cases = [
    ["read"],
    ["read", "a", "b"],
    ["read", ""],
    ["read", "--json=yes", "x"],
    ["status", "--runs"],
    ["status", "--runs", "lots"],
    ["status", "--runs", "0x10"],
    ["status", "--runs", "1e3"],
    ["status", "--runs", ""],
    ["status", "--runs", " 5"],
    ["status", "--runs", "2.5"],
    ["status", "--runs", "100000"],
    ["route", "--dry-run=1"],
    ["route", "now"],
    ["init", "a", "b"],
    ["init", ""],
    ["lint", "--jsn"],
    ["doctor", "-q"],
    ["import", ""],
    ["import", "bank", "--include-transient=no"],
    ["setup-hooks", "--shell", "fish"],
    ["setup-hooks", "--project", ""],
  ];
  for (const args of wineSample(cases)) {
    const result = await runLibrarian(args, { cwd, home: `${dir.path}/home` });
    const name = JSON.stringify(args);
    assert.equal(result.code, 2, `${name}: ${result.stderr}${result.stdout}`);
    assert.equal(result.stdout, "", name);
    assert.match(result.stderr, new RegExp(`^Usage: librarian ${args[0]}\\b`, "m"), name);
  }
});

Deno.test("--json output is one valid JSON document with a library, without one, and with a broken LIBRARIAN_PATH", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ...LIBRARY, "empty/x.ts": "", "afile": "" });
  const commands = [
    ["read", "src/api/handler.ts", "--json"],
    ["status", "--json"],
    ["lint", "--json"],
    ["doctor", "--json"],
    ["route", "--dry-run", "--json"],
    ["import", "../bank", "--dry-run", "--json"],
  ];
  const situations: Array<[string, RunOptions]> = [
    ["library", { cwd: `${dir.path}/proj` }],
    ["no library", { cwd: `${dir.path}/empty` }],
    ["relative LIBRARIAN_PATH", { cwd: `${dir.path}/empty`, env: { LIBRARIAN_PATH: "lib" } }],
    ["LIBRARIAN_PATH is a file", {
      cwd: `${dir.path}/empty`,
      env: { LIBRARIAN_PATH: `${dir.path}/afile` },
    }],
  ];
  for (const [situation, options] of situations) {
    for (const args of wineSample(commands)) {
      const result = await runLibrarian(args, { home: `${dir.path}/home`, ...options });
      const name = `${situation}: ${args.join(" ")}`;
      assert.ok(result.code === 0 || result.code === 1, `${name}: exit ${result.code}`);
      assert.doesNotThrow(() => JSON.parse(result.stdout), `${name}: ${result.stdout}`);
      assert.ok(!result.stdout.includes("\x1b["), name);
    }
  }
});

Deno.test({
  name: "lint, status and route never hang on FIFOs or device links, and count only real files",
  ignore: skipOnWindows("needs FIFOs and /dev") || !IS_LINUX,
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, LIBRARY);
    const lib = `${dir.path}/proj/_memory_library`;
    await Deno.remove(`${lib}/.scratch.md`);
    await new Deno.Command("mkfifo", {
      args: [`${lib}/src/api/fifo.md`, `${lib}/.scratch.md`, `${dir.path}/log-fifo`],
    }).output();
    await Deno.symlink("/dev/zero", `${lib}/src/zero.md`, { type: "file" });
    const options = {
      cwd: `${dir.path}/proj`,
      home: `${dir.path}/home`,
      env: { LIBRARIAN_LOG: `${dir.path}/log-fifo` },
    };
    const lint = await bounded(["lint", "--json"], options);
    const findings = JSON.parse(lint.stdout).findings as Array<{ check: string }>;
    assert.deepEqual(findings, [], lint.stdout);
    const status = await bounded(["status", "--json"], options);
    assert.equal(status.code, 0, status.stderr);
    const tree = JSON.parse(status.stdout).tree as Array<{ path: string; files: number }>;
    assert.deepEqual(tree.map((f) => [f.path, f.files]), [["", 1], ["src", 0], ["src/api", 1]]);
    const route = await bounded(["route", "--json"], options);
    assert.equal(route.code, 1);
    assert.match(JSON.parse(route.stdout).error, /scratch .*not a regular file/);
    const doctor = await bounded(["doctor", "--json"], options);
    assert.doesNotThrow(() => JSON.parse(doctor.stdout));
  },
});

Deno.test({
  name: "lint --json names a library link into /proc as outside the library instead of crashing",
  ignore: skipOnWindows("needs /proc") || !IS_LINUX,
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, LIBRARY);
    await Deno.symlink("/proc/self/environ", `${dir.path}/proj/_memory_library/src/env.md`, {
      type: "file",
    });
    const result = await runLibrarian(["lint", "--json"], { cwd: `${dir.path}/proj` });
    assert.equal(result.code, 1, result.stderr);
    const findings = JSON.parse(result.stdout).findings as Array<{ check: string; path: string }>;
    assert.deepEqual(findings.map((f) => [f.check, f.path]), [["outside-library", "src/env.md"]]);
  },
});

Deno.test("read prints exactly what the hook sends, for every way of naming the file", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...LIBRARY,
    "proj/_memory_library/src/caf\u00e9 🚀/notes.md": "- unicode folder\n",
    "proj/_memory_library/src/api/big.md": "- a long line of learning\n".repeat(400),
  });
  const root = `${dir.path}/proj`;
  const cases: Array<[string, string]> = [
    [`${root}/src`, "api/handler.ts"],
    [`${root}/src/api`, "../../src/./api/handler.ts"],
    [dir.path, `${root}\\src\\api/handler.ts`],
    [root, "src/caf\u00e9 🚀/new file.ts"],
    // (a folder such as `src/api` is answered for the folder itself: see cli_read_test.ts)
  ];
  for (const budget of ["9000", "1500"]) {
    for (const [cwd, path] of wineSample(cases)) {
      // (an edit's first touch of a folder also gets the tagging hint, which read leaves out)
      const env = { LIBRARIAN_BUDGET: budget, LIBRARIAN_HINT: "off" };
      const hook = await runLibrarian(["inject"], {
        cwd,
        env,
        stdin: JSON.stringify({
          hook_event_name: "PreToolUse",
          tool_name: "Edit",
          cwd,
          tool_input: { file_path: path },
        }),
      });
      const sent = hook.stdout === ""
        ? null
        : JSON.parse(hook.stdout).hookSpecificOutput.additionalContext;
      const read = await runLibrarian(["read", path, "--json"], { cwd, env });
      assert.equal(JSON.parse(read.stdout).additionalContext, sent, `${budget} ${cwd} ${path}`);
      assert.ok(sent === null || sent.length <= Number(budget));
    }
  }
});

Deno.test({
  name:
    "a Windows drive path given to init, import or setup-hooks on Linux or macOS is refused, not created beside the working folder",
  ignore: skipOnWindows("checks how Linux and macOS treat Windows paths"),
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, LIBRARY);
    const cwd = `${dir.path}/proj`;
    const cases = [
      ["init", "C:\\newproj"],
      ["import", "c:/bank", "--json"],
      ["setup-hooks", "--project", "C:\\proj", "--json"],
      ["setup-hooks", "--library-path", "C:\\lib", "--env-only", "--json"],
    ];
    for (const args of cases) {
      const result = await runLibrarian(args, { cwd, home: `${dir.path}/home` });
      assert.ok(result.code === 1 || result.code === 2, `${args.join(" ")}: ${result.code}`);
      assert.match(result.stdout + result.stderr, /not a path on this machine/, args.join(" "));
      await assert.rejects(Deno.lstat(`${cwd}/C:`), Deno.errors.NotFound, args.join(" "));
      await assert.rejects(Deno.lstat(`${cwd}/c:`), Deno.errors.NotFound, args.join(" "));
    }
  },
});

Deno.test({
  name: "import into a library whose target file is a FIFO stops with a message instead of hanging",
  ignore: skipOnWindows("needs FIFOs") || !IS_LINUX,
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, LIBRARY);
    await new Deno.Command("mkfifo", { args: [`${dir.path}/proj/_memory_library/product.md`] })
      .output();
    const result = await bounded(["import", "../bank", "--json"], {
      cwd: `${dir.path}/proj`,
      home: `${dir.path}/home`,
    });
    assert.equal(result.code, 1);
    assert.match(JSON.parse(result.stdout).error, /product\.md is not a regular file/);
  },
});

/** Every path under `root` with its size and modification time, to spot any write. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function visit(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      const info = await Deno.lstat(path);
      out.set(path.slice(root.length + 1), `${info.size}:${info.mtime?.getTime()}`);
      if (entry.isDirectory) await visit(path);
    }
  }
  await visit(root);
  return out;
}

function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

Deno.test("no command writes outside the project's library and the Librarian's state folder", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ...LIBRARY, "home/.keep": "", "outside/.keep": "" });
  const project = `${dir.path}/proj`;
  for (const home of [`${dir.path}/home`, ".", "home"]) {
    const before = await snapshot(dir.path);
    const env = { LIBRARIAN_LOG: "" };
    for (
      const args of [
        ["status"],
        ["lint"],
        ["doctor"],
        ["read", "src/api/handler.ts"],
        ["route", "--dry-run"],
        ["import", "../bank", "--dry-run"],
        ["route"],
        ["import", "../bank"],
      ]
    ) {
      const result = await runLibrarian(args, { cwd: project, home, env });
      assert.ok(result.code === 0 || result.code === 1, `${args.join(" ")}: ${result.stderr}`);
    }
    const changed = changedPaths(before, await snapshot(dir.path));
    const allowed = (p: string) =>
      p.startsWith("proj/_memory_library/") || p === "proj/_memory_library" ||
      (isLocalAbsolutePath(home) && (p === "home" || p.startsWith("home/.claude")));
    assert.deepEqual(changed.filter((p) => !allowed(p)), [], `HOME=${home}`);
  }
});
