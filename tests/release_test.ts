/**
 * The release path, minus GitHub: the version gate, the staged plugin tree, the smoke script, the
 * one-commit release branch, and the workflow that strings them together.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  binaryFileName,
  CHECKSUM_FILE,
  findTarget,
  formatChecksums,
  parseChecksums,
  TARGETS,
} from "../scripts/build_plan.ts";
import { readReleaseFacts, type ReleaseFacts, releaseProblems } from "../scripts/check_versions.ts";
import {
  DEVELOPER_DOCS,
  LOCAL_MARKETPLACE,
  MANIFEST_FILE,
  stageRelease,
} from "../scripts/stage_release.ts";
import { BINARY_BENCH_ROWS } from "../scripts/bench_binary.ts";
import { sha256File } from "../scripts/sha256.ts";
import { COMMANDS } from "../src/command_table.ts";
import { REPO_ROOT, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { git } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

// ---------------------------------------------------------------------------------------------
// Version gate

function facts(overrides: Partial<ReleaseFacts> = {}): ReleaseFacts {
  return {
    denoJson: { version: "1.2.3" },
    pluginJson: { name: "librarian", version: "1.2.3" },
    marketplaceJson: {
      plugins: [{
        name: "librarian",
        source: { source: "github", repo: "acme/librarian", ref: "release" },
      }],
    },
    tag: "v1.2.3",
    repository: "acme/librarian",
    ...overrides,
  };
}

Deno.test("the release gate passes when tag, deno.json, plugin.json and marketplace agree", () => {
  assert.deepEqual(releaseProblems(facts()), []);
  assert.deepEqual(releaseProblems(facts({ tag: undefined, repository: undefined })), []);
});

Deno.test("the release gate names each disagreement", () => {
  assert.match(
    releaseProblems(facts({ pluginJson: { name: "librarian", version: "1.2.2" } })).join(),
    /plugin\.json version "1\.2\.2" differs from deno\.json's 1\.2\.3/,
  );
  assert.match(releaseProblems(facts({ tag: "v1.2.4" })).join(), /tag v1\.2\.4 does not match/);
  assert.match(releaseProblems(facts({ tag: "1.2.3" })).join(), /expected v1\.2\.3/);
  assert.match(
    releaseProblems(facts({ repository: "fork/librarian" })).join(),
    /installs from "acme\/librarian", but this release is published to fork\/librarian/,
  );
  const fromMain = facts({
    marketplaceJson: {
      plugins: [{ name: "librarian", source: { source: "github", repo: "acme/librarian" } }],
    },
  });
  assert.match(releaseProblems(fromMain).join(), /from the "release" branch/);
  const pinned = facts({
    marketplaceJson: {
      plugins: [{
        name: "librarian",
        version: "1.0.0",
        source: { source: "github", repo: "acme/librarian", ref: "release" },
      }],
    },
  });
  assert.match(releaseProblems(pinned).join(), /lists librarian "1\.0\.0", not 1\.2\.3/);
  assert.match(releaseProblems(facts({ denoJson: { version: "one" } })).join(), /semantic version/);
});

Deno.test("this repository's versions agree, and with the tag the release would carry", async () => {
  const own = await readReleaseFacts(REPO_ROOT, undefined, undefined);
  assert.deepEqual(releaseProblems(own), []);
  const tagged = await readReleaseFacts(REPO_ROOT, `v${own.denoJson.version}`, undefined);
  assert.deepEqual(releaseProblems(tagged), []);
});

// ---------------------------------------------------------------------------------------------
// Staging the plugin tree

const HOST_FILE = binaryFileName(Deno.build.target);

/** Fake binaries (sh scripts) for every target, and the build's checksum file. */
async function fakeBuild(dir: string): Promise<string> {
  const dist = join(dir, "dist");
  const lines: string[] = [];
  for (const target of TARGETS) {
    const name = binaryFileName(target.triple);
    await writeTree(dist, { [name]: `#!/bin/sh\necho "fake ${target.triple} $*"\n` });
    lines.push(`${await sha256File(join(dist, name))}  ${name}`);
  }
  await Deno.writeTextFile(join(dist, CHECKSUM_FILE), `${lines.join("\n")}\n`);
  return dist;
}

async function listTree(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(root, rel))) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await listTree(root, path));
    else out.push(path);
  }
  return out.sort();
}

Deno.test("the staged tree is the plugin plus every binary, without tests, scripts or CI files", {
  ignore: skipOnWindows("needs POSIX mode bits"),
}, async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  const out = join(dir.path, "stage");
  const staged = await stageRelease({
    repoRoot: REPO_ROOT,
    binariesDir: dist,
    outDir: out,
    targets: [],
  });
  const files = await listTree(out);
  assert.deepEqual(files, staged);
  for (
    const required of [
      ".claude-plugin/plugin.json",
      ".claude-plugin/marketplace.json",
      "hooks/hooks.json",
      // the hook bundles: source mode (no binary for the machine) runs them
      "hooks/inject.js",
      "hooks/inject-shell.js",
      "hooks/stop.js",
      "bin/librarian",
      `bin/${CHECKSUM_FILE}`,
      "src/main.ts",
      "src/permissions.ts",
      "deno.json",
      "deno.lock",
      // LF line ends in a Windows clone: a CRLF launcher does not run under sh
      ".gitattributes",
    ]
  ) {
    assert.ok(files.includes(required), required);
  }
  for (const target of TARGETS) assert.ok(files.includes(`bin/${binaryFileName(target.triple)}`));
  assert.ok(files.some((f) => /^skills\/[a-z-]+\/SKILL\.md$/.test(f)), "skills ship");
  assert.deepEqual(
    files.filter((f) => /^(tests|scripts|\.github|\.ci|node_modules)\/|_test\.ts$/.test(f)),
    [],
  );
  // the bundles ship in hooks/ only, without the checkout's freshness fragments
  assert.deepEqual(files.filter((f) => /^bundles\/|\.fresh\.sh$/.test(f)), []);
  assert.equal((await Deno.stat(join(out, "bin", "librarian"))).mode! & 0o111, 0o111);
  assert.equal((await Deno.stat(join(out, "bin", HOST_FILE))).mode! & 0o111, 0o111);
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(join(out, ".claude-plugin", "marketplace.json"))),
    LOCAL_MARKETPLACE,
  );
  const sums = await Deno.readTextFile(join(out, "bin", CHECKSUM_FILE));
  const built = parseChecksums(await Deno.readTextFile(join(dist, CHECKSUM_FILE)));
  assert.equal(sums, formatChecksums(built));
  assert.equal(built.length, TARGETS.length);
});

Deno.test("the staged launcher runs the staged binary for this machine", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  const out = join(dir.path, "stage");
  await stageRelease({ repoRoot: REPO_ROOT, binariesDir: dist, outDir: out, targets: [] });
  const result = await runLibrarian(["inject"], { launcher: join(out, "bin", "librarian") });
  assert.equal(result.stdout.trim(), `fake ${Deno.build.target} inject`);
});

Deno.test("a one-platform tree holds only that platform's binary and checksum", async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  const out = join(dir.path, "stage");
  const target = findTarget("aarch64-apple-darwin")!;
  await stageRelease({ repoRoot: REPO_ROOT, binariesDir: dist, outDir: out, targets: [target] });
  const binaries = (await listTree(out)).filter((f) => /^bin\/librarian-.*-/.test(f));
  assert.deepEqual(binaries, ["bin/librarian-aarch64-apple-darwin"]);
  const sums = await Deno.readTextFile(join(out, "bin", CHECKSUM_FILE));
  assert.equal(sums.trim().split("\n").length, 1);
  assert.match(sums, /^[0-9a-f]{64} {2}librarian-aarch64-apple-darwin\n$/);
});

Deno.test("the release branch's tree carries no binary, names each platform's asset, and weighs under 2.5 MB", async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  const out = join(dir.path, "stage");
  const url = "https://github.com/acme/librarian/releases/download/v1.2.3";
  const staged = await stageRelease({
    repoRoot: REPO_ROOT,
    binariesDir: dist,
    outDir: out,
    targets: [],
    noBinaries: true,
    url,
  });
  const files = await listTree(out);
  assert.deepEqual(files, staged);
  assert.deepEqual(files.filter((f) => f.startsWith("bin/")), [
    "bin/librarian",
    `bin/${MANIFEST_FILE}`,
  ]);
  const manifest = await Deno.readTextFile(join(out, "bin", MANIFEST_FILE));
  const version = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))).version;
  assert.match(manifest, new RegExp(`^version ${version.replaceAll(".", "\\.")}$`, "m"));
  assert.match(manifest, new RegExp(`^url ${url.replaceAll(".", "\\.")}$`, "m"));
  for (const target of TARGETS) {
    const name = binaryFileName(target.triple);
    const bytes = (await Deno.stat(join(dist, name))).size;
    const sha = await sha256File(join(dist, name));
    assert.match(manifest, new RegExp(`^asset ${name.replace(".", "\\.")} ${bytes} ${sha}$`, "m"));
  }
  assert.ok(files.includes("docs/daily-use.md"), "a user's documents ship");
  assert.deepEqual(files.filter((f) => DEVELOPER_DOCS.includes(f)), [], "a developer's do not");
  let total = 0;
  for (const file of files) total += (await Deno.stat(join(out, file))).size;
  console.log(`the release branch's tree: ${files.length} files, ${total} bytes`);
  // about 2.2 MB: the sources, the documents, and the hook bundles with the stop hook's filing
  // chunk (150 KB, which makes a filing turn some 20 ms faster: docs/benchmarks.md)
  assert.ok(total < 2.5 * 1024 * 1024, `${total} bytes`);
});

Deno.test("staging refuses a binary that does not match its checksum", async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  await Deno.writeTextFile(join(dist, HOST_FILE), "tampered");
  await assert.rejects(
    () =>
      stageRelease({
        repoRoot: REPO_ROOT,
        binariesDir: dist,
        outDir: join(dir.path, "stage"),
        targets: [],
      }),
    /does not match its SHA-256/,
  );
  await assert.rejects(() => Deno.stat(join(dir.path, "stage")), "nothing staged");
});

Deno.test("staging refuses a missing build, an unbuilt target and a folder that is not empty", async () => {
  await using dir = await tempDir();
  const request = {
    repoRoot: REPO_ROOT,
    binariesDir: join(dir.path, "nothing"),
    outDir: join(dir.path, "stage"),
    targets: [],
  };
  await assert.rejects(() => stageRelease(request), /run 'deno task build --out-dir/);
  const dist = await fakeBuild(dir.path);
  await Deno.writeTextFile(join(dist, CHECKSUM_FILE), "");
  await assert.rejects(
    () => stageRelease({ ...request, binariesDir: dist }),
    /lists no librarian-x86_64-unknown-linux-gnu; build it with 'deno task build --target/,
  );
  const fresh = await fakeBuild(join(dir.path, "second"));
  await writeTree(dir.path, { "stage/old.txt": "left over" });
  await assert.rejects(
    () => stageRelease({ ...request, binariesDir: fresh }),
    /is not empty/,
  );
});

Deno.test({
  name: "the smoke script passes on a staged tree (source mode here, binaries in the workflow)",
  ignore: skipOnWindows("runs a POSIX shell script") || !("stop" in COMMANDS),
  async fn() {
    await using dir = await tempDir();
    const dist = await fakeBuild(dir.path);
    const out = join(dir.path, "stage");
    await stageRelease({ repoRoot: REPO_ROOT, binariesDir: dist, outDir: out, targets: [] });
    const version = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))).version;
    const result = await new Deno.Command("sh", {
      args: [join(REPO_ROOT, "scripts", "smoke_release.sh"), out, version],
      env: { SMOKE_MODE: "source" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(result.stderr);
    assert.equal(result.code, 0, stderr);
    assert.match(new TextDecoder().decode(result.stdout), /^smoke: ok /m);
  },
});

Deno.test("the smoke script fails when the hook does not send the library", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  const out = join(dir.path, "stage");
  await stageRelease({ repoRoot: REPO_ROOT, binariesDir: dist, outDir: out, targets: [] });
  // The staged fake binaries answer every event with a line that is not hook JSON.
  const result = await new Deno.Command("sh", {
    args: [join(REPO_ROOT, "scripts", "smoke_release.sh"), out],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 1);
  assert.match(new TextDecoder().decode(result.stderr), /^smoke: FAILED: inject printed: fake /);
});

// ---------------------------------------------------------------------------------------------
// The release branch

Deno.test("each publish makes the release branch one parentless commit holding the tree", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  const remote = join(dir.path, "remote.git");
  const clone = join(dir.path, "clone");
  await Deno.mkdir(clone);
  assert.equal((await git(dir.path, "init", "-q", "--bare", remote)).code, 0);
  await git(clone, "init", "-q");
  const tree = join(dir.path, "tree");
  const publish = async (message: string) => {
    const out = await new Deno.Command("sh", {
      args: [
        join(REPO_ROOT, "scripts", "publish_release_branch.sh"),
        tree,
        remote,
        "release",
        message,
      ],
      cwd: clone,
      env: {
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_AUTHOR_NAME: "ci",
        GIT_AUTHOR_EMAIL: "ci@example.com",
        GIT_COMMITTER_NAME: "ci",
        GIT_COMMITTER_EMAIL: "ci@example.com",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  };
  await writeTree(tree, { "bin/librarian-x": "v1 binary", "README.md": "one" });
  await Deno.chmod(join(tree, "bin", "librarian-x"), 0o755);
  await publish("librarian v1");
  await writeTree(tree, { "bin/librarian-x": "v2 binary", "README.md": "two" });
  await publish("librarian v2");
  const log = await git(remote, "log", "--format=%P|%s", "release");
  assert.equal(log.stdout, "|librarian v2\n", "one commit, no parent");
  const files = await git(remote, "ls-tree", "-r", "release");
  assert.match(files.stdout, /^100755 blob \w+\tbin\/librarian-x$/m);
  assert.equal((await git(remote, "show", "release:README.md")).stdout, "two");
});

// ---------------------------------------------------------------------------------------------
// The workflow

type Workflow = {
  on: { push: { tags: string[] } };
  env: Record<string, string>;
  jobs: Record<string, {
    needs?: string | string[];
    "runs-on": string;
    permissions?: Record<string, string>;
    strategy?: { matrix: { include: { runner: string; target: string }[] } };
    steps: { run?: string; uses?: string; with?: Record<string, string> }[];
  }>;
};

const workflow = parseYaml(
  await Deno.readTextFile(join(REPO_ROOT, ".github", "workflows", "release.yml")),
) as Workflow;

Deno.test("the release workflow runs on version tags: build, then smoke, then publish", () => {
  assert.deepEqual(workflow.on.push.tags, ["v[0-9]+.[0-9]+.[0-9]+*"]);
  assert.deepEqual(Object.keys(workflow.jobs), ["build", "smoke", "publish"]);
  assert.equal(workflow.jobs.smoke!.needs, "build");
  assert.equal(workflow.jobs.publish!.needs, "smoke");
  assert.equal(workflow.jobs.publish!.permissions?.contents, "write");
  const build = workflow.jobs.build!.steps.map((s) => s.run ?? "").join("\n");
  const order = ["scripts/check_versions.ts", ".ci/run", "deno task build --out-dir dist"];
  const positions = order.map((needle) => build.indexOf(needle));
  assert.ok(positions.every((p) => p >= 0), `${positions}`);
  assert.deepEqual([...positions].sort((a, b) => a - b), positions, "gate, tests, build");
});

Deno.test("every job installs the pinned Deno", () => {
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const setup = job.steps.find((s) => s.uses?.startsWith("denoland/setup-deno@"));
    assert.equal(setup?.with?.["deno-version"], "${{ env.DENO_VERSION }}", name);
  }
});

Deno.test("the smoke matrix runs each shipped OS's binary on that OS", () => {
  const include = workflow.jobs.smoke!.strategy!.matrix.include;
  assert.deepEqual(include.map((m) => m.target).sort(), [
    "aarch64-apple-darwin",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  for (const { runner, target } of include) {
    const os = findTarget(target)!.os;
    assert.match(
      runner,
      { linux: /^ubuntu-/, darwin: /^macos-/, windows: /^windows-/ }[os],
      target,
    );
  }
  const steps = workflow.jobs.smoke!.steps.map((s) => s.run ?? "").join("\n");
  assert.match(steps, /sh scripts\/smoke_release\.sh smoke-plugin/);
});

Deno.test("publishing pushes the staged tree to the release branch and attaches checksummed assets", () => {
  const steps = workflow.jobs.publish!.steps.map((s) => s.run ?? "").join("\n");
  assert.match(steps, /sh scripts\/publish_release_branch\.sh stage\/all origin release/);
  // the branch carries no binary; the launcher fetches it from this release's assets
  assert.match(steps, /\$stage --out stage\/all --no-binaries/);
  assert.match(
    steps,
    /url="https:\/\/github\.com\/\$GITHUB_REPOSITORY\/releases\/download\/\$GITHUB_REF_NAME"/,
  );
  assert.match(steps, /stage_release\.ts --binaries dist --url \$url/);
  // the timings of every OS go into the notes
  assert.match(steps, /cat bench\/\*\.md/);
  const bench = workflow.jobs.publish!.steps.find((s) => s.with?.pattern === "bench-*");
  assert.ok(bench, "the publish job downloads every OS's timings");
  assert.match(steps, /sha256sum -- \* > SHA256SUMS/);
  assert.match(steps, /gh release create "\$GITHUB_REF_NAME" assets\/\*/);
  assert.ok(steps.indexOf("publish_release_branch") < steps.indexOf("gh release create"));
});

/**
 * The permission flags a job's `run` steps give `scripts/stage_release.ts` (`deno run <flags>
 * scripts/stage_release.ts`), one list per command that runs it.
 */
function stagingFlags(job: string): string[][] {
  const runs = workflow.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");
  return [...runs.matchAll(/deno run ((?:--[\w-]+(?:=\S+)? )*)scripts\/stage_release\.ts/g)]
    .map((m) => m[1]!.trim().split(/\s+/));
}

Deno.test("the release workflow stages with the permissions staging needs (it builds the hook bundles)", async () => {
  const commands = [...stagingFlags("smoke"), ...stagingFlags("publish")];
  assert.equal(commands.length, 2, "the smoke job's staging and the publish job's");
  await using dir = await tempDir();
  const dist = await fakeBuild(dir.path);
  for (const [index, flags] of commands.entries()) {
    const out = join(dir.path, `stage-${index}`);
    const staged = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...flags,
        join(REPO_ROOT, "scripts", "stage_release.ts"),
        "--binaries",
        dist,
        "--out",
        out,
        "--no-binaries",
        "--url",
        "https://example.com/releases/v0",
      ],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(staged.code, 0, `${flags.join(" ")}: ${new TextDecoder().decode(staged.stderr)}`);
    const files = await listTree(out);
    for (const bundle of ["hooks/inject.js", "hooks/stop.js", "hooks/stop-filing.js"]) {
      assert.ok(files.includes(bundle), `${flags.join(" ")}: ${bundle}`);
    }
  }
});

Deno.test("the smoke job times the hooks with the binary it staged and keeps the table", () => {
  const steps = workflow.jobs.smoke!.steps;
  const runs = steps.map((s) => s.run ?? "").join("\n");
  assert.match(
    runs,
    /deno run --allow-all scripts\/bench_binary\.ts --plugin smoke-plugin\s+--target \$\{\{ matrix\.target \}\} --out bench\/\$\{\{ matrix\.target \}\}\.md/,
  );
  assert.ok(runs.indexOf("smoke_release.sh") < runs.indexOf("bench_binary.ts"));
  const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
  assert.equal(upload?.with?.name, "bench-${{ matrix.target }}");
});

/** A staged one-platform tree whose host "binary" is `body` (a shell script). */
async function stageStandIn(root: string, body: string): Promise<string> {
  const dist = join(root, "dist");
  await writeTree(dist, { [HOST_FILE]: body });
  await Deno.chmod(join(dist, HOST_FILE), 0o755);
  await Deno.writeTextFile(
    join(dist, CHECKSUM_FILE),
    `${await sha256File(join(dist, HOST_FILE))}  ${HOST_FILE}\n`,
  );
  const out = join(root, "stage");
  await stageRelease({
    repoRoot: REPO_ROOT,
    binariesDir: dist,
    outDir: out,
    targets: [findTarget(Deno.build.target)!],
  });
  return out;
}

async function benchBinaryScript(plugin: string, out: string) {
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      join(REPO_ROOT, "scripts", "bench_binary.ts"),
      "--plugin",
      plugin,
      "--runs",
      "1",
      "--warmup",
      "0",
      "--out",
      out,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: result.code,
    stdout: new TextDecoder().decode(result.stdout),
    stderr: new TextDecoder().decode(result.stderr),
  };
}

Deno.test({
  name: "the smoke job's benchmark step, run here against a stand-in binary, writes the table",
  ignore: skipOnWindows("runs a POSIX shell script"),
  async fn() {
    await using dir = await tempDir();
    // deno compile cannot fetch its runtime here: the stand-in runs the program from source
    const standIn = "#!/bin/sh\nLIBRARIAN_FORCE_BINARY= LIBRARIAN_FORCE_SOURCE=1 exec sh " +
      `'${join(REPO_ROOT, "bin", "librarian")}' "$@"\n`;
    const plugin = await stageStandIn(dir.path, standIn);
    const out = join(dir.path, "bench", `${Deno.build.target}.md`);
    const result = await benchBinaryScript(plugin, out);
    assert.equal(result.code, 0, result.stderr);
    const table = await Deno.readTextFile(out);
    assert.match(
      table,
      /\| hook run \| binary ms \| source mode ms \| bare process start ms \| binary ÷ bare \| binary ÷ source \|/,
    );
    for (const row of BINARY_BENCH_ROWS) {
      assert.match(
        table,
        new RegExp(`^\\| ${row.replace(/[.-]/g, "\\$&")} \\|( [\\d.]+×? \\|){5}$`, "m"),
      );
    }
    const bytes = new TextEncoder().encode(standIn).length;
    assert.match(table, new RegExp(`^${HOST_FILE}: ${bytes} bytes \\(0\\.0 MB\\)$`, "m"));
  },
});

Deno.test({
  name: "the benchmark step refuses a binary whose hooks send nothing",
  ignore: skipOnWindows("runs a POSIX shell script"),
  async fn() {
    await using dir = await tempDir();
    const plugin = await stageStandIn(dir.path, "#!/bin/sh\ncat >/dev/null\n");
    const result = await benchBinaryScript(plugin, join(dir.path, "bench.md"));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^bench_binary: in binary mode, inject did not send the library/);
  },
});
