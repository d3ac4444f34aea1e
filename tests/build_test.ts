/**
 * `deno task build`: the plan (targets, names, flags), the printed commands, the checksum file, and
 * the one-sentence failure when `deno compile` cannot fetch its runtime.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  binaryFileName,
  buildPlan,
  CHECKSUM_FILE,
  DENO_VERSION,
  ENTRY_MODULE,
  explainCompileFailure,
  findTarget,
  formatChecksums,
  formatCommand,
  parseBuildArgs,
  parseChecksums,
  TARGETS,
} from "../scripts/build_plan.ts";
import { sha256File } from "../scripts/sha256.ts";
import { REPO_ROOT, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const SIX_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
];

function argAfter(args: readonly string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args[i + 1];
}

Deno.test("the build compiles each of the six targets once, into the names the launcher looks for", () => {
  const compiles = buildPlan({ targets: [], outDir: "bin", skipCheck: false })
    .filter((s) => s.kind === "compile");
  assert.deepEqual(compiles.map((s) => argAfter(s.args, "--target")), SIX_TARGETS);
  assert.deepEqual(compiles.map((s) => argAfter(s.args, "--output")), [
    "bin/librarian-x86_64-unknown-linux-gnu",
    "bin/librarian-aarch64-unknown-linux-gnu",
    "bin/librarian-x86_64-apple-darwin",
    "bin/librarian-aarch64-apple-darwin",
    "bin/librarian-x86_64-pc-windows-msvc.exe",
    "bin/librarian-aarch64-pc-windows-msvc.exe",
  ]);
});

Deno.test("each compile embeds only the program: its config and lock, no node_modules, no unused npm", () => {
  for (const step of buildPlan({ targets: [], outDir: "dist", skipCheck: true })) {
    assert.equal(step.args[0], "compile");
    assert.equal(step.args.at(-1), ENTRY_MODULE);
    assert.equal(argAfter(step.args, "--config"), "deno.json");
    for (const flag of ["--frozen-lockfile", "--node-modules-dir=none", "--exclude-unused-npm"]) {
      assert.ok(step.args.includes(flag), `${flag} in ${step.description}`);
    }
    assert.ok(!step.args.includes("--no-config"), "the import map in deno.json is needed");
  }
});

Deno.test("the build type-checks once, before compiling; --no-check drops that step", () => {
  const steps = buildPlan({
    targets: [findTarget("x86_64-apple-darwin")!],
    outDir: "bin",
    skipCheck: false,
  });
  assert.deepEqual(steps.map((s) => s.kind), ["check", "compile"]);
  assert.deepEqual(steps[0]!.args.slice(0, 1), ["check"]);
  assert.ok(steps[1]!.args.includes("--no-check"));
  const unchecked = buildPlan({ targets: [], outDir: "bin", skipCheck: true });
  assert.ok(unchecked.every((s) => s.kind === "compile"));
});

Deno.test("only Windows binaries get the .exe suffix", () => {
  for (const t of TARGETS) {
    assert.equal(binaryFileName(t.triple).endsWith(".exe"), t.os === "windows", t.triple);
  }
});

Deno.test("--target picks targets (host is this machine); unknown targets and options are errors", () => {
  const line = parseBuildArgs(
    ["--target", "host", "--target=aarch64-apple-darwin"],
    Deno.build.target,
  );
  assert.deepEqual(line.targets.map((t) => t.triple), [Deno.build.target, "aarch64-apple-darwin"]);
  assert.equal(line.outDir, "bin");
  assert.deepEqual(parseBuildArgs(["--out-dir", "dist/", "--dry-run"], "x").outDir, "dist");
  assert.throws(
    () => parseBuildArgs(["--target", "x86_64-unknown-linux-musl"], "x"),
    /unknown target/,
  );
  assert.throws(() => parseBuildArgs(["--fast"], "x"), /--fast/);
});

Deno.test("printed commands survive a POSIX shell word for word", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  const step = buildPlan({ targets: [], outDir: "out dir", skipCheck: true })[0]!;
  const words = ["deno", ...step.args];
  const out = await new Deno.Command("sh", {
    args: ["-c", `for a in ${formatCommand(words)}; do printf '%s\\n' "$a"; done`],
    stdout: "piped",
  }).output();
  assert.deepEqual(new TextDecoder().decode(out.stdout).trimEnd().split("\n"), words);
});

Deno.test("the checksum file is in sha256sum format and verifies with sha256sum -c", {
  ignore: skipOnWindows("needs sha256sum"),
}, async () => {
  await using dir = await tempDir();
  const name = binaryFileName("x86_64-unknown-linux-gnu");
  await Deno.writeTextFile(join(dir.path, name), "not really a binary\n");
  const entries = [{ fileName: name, sha256: await sha256File(join(dir.path, name)) }];
  const text = formatChecksums(entries);
  assert.equal(text, `759bcdde03a9a0aaf6ed35549599a2e529a9da802ed934af77841894061a454b  ${name}\n`);
  assert.deepEqual(parseChecksums(text), entries);
  await Deno.writeTextFile(join(dir.path, CHECKSUM_FILE), text);
  const check = await new Deno.Command("sha256sum", {
    args: ["-c", CHECKSUM_FILE],
    cwd: dir.path,
    stdout: "piped",
    stderr: "piped",
  }).output().catch(() => null);
  if (check) assert.ok(check.success, new TextDecoder().decode(check.stderr));
});

const UNREACHABLE = `\x1b[32mCompile\x1b[0m src/main.ts to bin/librarian-x86_64-unknown-linux-gnu
\x1b[32mDownload\x1b[0m https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip
\x1b[1m\x1b[31merror\x1b[0m: Writing deno compile executable to temporary file 'bin/x.tmp-1'

Caused by:
    0: Setting up base binary.
    1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): client error (Connect): dns error: failed to lookup address information: Name or service not known

Stack backtrace:
   0: <unknown>
`;

Deno.test("an unreachable download server is explained in one sentence that names DENORT_BIN", () => {
  const message = explainCompileFailure(UNREACHABLE, TARGETS[0]!, undefined);
  assert.match(message, /Deno's download server \(dl\.deno\.land\) is unreachable/);
  assert.match(message, /DENORT_BIN/);
  assert.equal(message.split("\n").length, 1);
  assert.equal(message.match(/\.(\s|$)/g)?.length, 1, "one sentence");
});

Deno.test("any other compile failure is Deno's own first error line, without colours", () => {
  const message = explainCompileFailure(
    '\x1b[1m\x1b[31merror\x1b[0m: Module not found "file:///x.ts".\n    at file:///y.ts:1:8\n',
    TARGETS[0]!,
    undefined,
  );
  assert.equal(
    message,
    'Cannot build librarian-x86_64-unknown-linux-gnu: deno compile failed: error: Module not found "file:///x.ts".',
  );
});

async function runBuild(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(REPO_ROOT, "scripts", "build.ts"), ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("--dry-run prints the exact commands and builds nothing", async () => {
  await using dir = await tempDir();
  const result = await runBuild(["--dry-run", "--out-dir", dir.path]);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split("\n");
  const plan = buildPlan({ targets: [], outDir: dir.path, skipCheck: false });
  assert.deepEqual(
    lines.slice(0, plan.length),
    plan.map((s) => formatCommand(["deno", ...s.args])),
  );
  assert.equal(lines.length, plan.length + 1);
  assert.match(lines.at(-1)!, new RegExp(CHECKSUM_FILE.replace(".", "\\.")));
  assert.deepEqual([...Deno.readDirSync(dir.path)], []);
});

Deno.test("a real build without Deno's download server fails fast with one clear sentence", async () => {
  await using dir = await tempDir();
  // A dead proxy makes the runtime download fail here and on machines with network alike.
  const proxy = "http://127.0.0.1:9";
  const result = await runBuild(["--target", "host", "--no-check", "--out-dir", dir.path], {
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
  });
  if (result.code === 0) {
    // This machine has Deno's runtime cached: then the build must have produced the binary.
    await Deno.stat(join(dir.path, binaryFileName(Deno.build.target)));
    return;
  }
  assert.equal(result.code, 1);
  const errors = result.stderr.trimEnd().split("\n");
  assert.equal(errors.length, 1, result.stderr);
  assert.match(
    errors[0]!,
    /^build: Cannot build librarian-.*download server.*unreachable.*DENORT_BIN/,
  );
  assert.doesNotMatch(result.stderr, /Stack backtrace|^\s+at /m);
});

Deno.test("a DENORT_BIN that is not a denort is named in the one-sentence failure", async () => {
  await using dir = await tempDir();
  const result = await runBuild(["--target", "host", "--no-check", "--out-dir", dir.path], {
    DENORT_BIN: join(dir.path, "no-such-denort"),
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^build: Cannot build .*DENORT_BIN=.*no-such-denort is not a usable denort/,
  );
  assert.equal(result.stderr.trimEnd().split("\n").length, 1);
});

Deno.test("DENORT_BIN with more than one target is refused before anything runs", async () => {
  const result = await runBuild(["--dry-run"], { DENORT_BIN: "/opt/denort" });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /build exactly one target with --target/);
});

Deno.test("CI, .ci/run and the release workflow use the Deno version the build pins", async () => {
  const ci = await Deno.readTextFile(join(REPO_ROOT, ".ci", "run"));
  assert.match(ci, new RegExp(`^DENO_VERSION=${DENO_VERSION.replaceAll(".", "\\.")}$`, "m"));
  const workflow = await Deno.readTextFile(join(REPO_ROOT, ".github", "workflows", "release.yml"));
  assert.match(workflow, new RegExp(`DENO_VERSION: "${DENO_VERSION.replaceAll(".", "\\.")}"`));
});
