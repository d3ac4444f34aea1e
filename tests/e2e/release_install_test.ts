/**
 * The real install flow: Claude Code (pinned) adds a marketplace whose plugin comes from a git
 * `release` branch made by scripts/publish_release_branch.sh from a tree staged without binaries
 * (scripts/stage_release.ts --no-binaries), installs it, and runs a session. The clone is small;
 * the first SessionStart fetches this machine's (stand-in) binary from a loopback server named by
 * LIBRARIAN_BINARY_URL, verified against bin/release-binaries.txt; the next hooks run it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { binaryFileName, CHECKSUM_FILE, TARGETS } from "../../scripts/build_plan.ts";
import { sha256File } from "../../scripts/sha256.ts";
import { stageRelease } from "../../scripts/stage_release.ts";
import { denoDir, REPO_ROOT, tempDir, writeTree } from "../helpers.ts";
import { hookContexts } from "./requests.ts";
import { claudeBinary, scenario } from "./scenario.ts";
import { text, toolUse } from "./model_server.ts";
import { systemMessages } from "./transcript.ts";

const HOST_FILE = binaryFileName(Deno.build.target);
const VERSION = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))).version as string;
const MARKETPLACE = "librarian-e2e";

/**
 * The stand-in binary (deno compile cannot fetch its runtime here): notes each run, then runs the
 * plugin that started it (LIBRARIAN_LAUNCHER) from source.
 */
const STAND_IN = `#!/bin/sh
echo "stand-in $*" >>"\${LIBRARIAN_STANDIN_LOG:-/dev/null}"
LIBRARIAN_FORCE_SOURCE=1 exec sh "$LIBRARIAN_LAUNCHER" "$@"
`;

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "ci",
  GIT_AUTHOR_EMAIL: "ci@example.com",
  GIT_COMMITTER_NAME: "ci",
  GIT_COMMITTER_EMAIL: "ci@example.com",
};

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  const all = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${cmd} ${args.join(" ")}: ${all}`);
  return all;
}

/** A marketplace repository: main holds marketplace.json, `release` the staged plugin tree. */
async function releaseRepository(root: string): Promise<string> {
  const dist = join(root, "dist");
  const sums: string[] = [];
  for (const target of TARGETS) {
    const name = binaryFileName(target.triple);
    await writeTree(dist, { [name]: name === HOST_FILE ? STAND_IN : `not for ${target.triple}\n` });
    sums.push(`${await sha256File(join(dist, name))}  ${name}`);
  }
  await Deno.writeTextFile(join(dist, CHECKSUM_FILE), `${sums.join("\n")}\n`);
  const tree = join(root, "tree");
  await stageRelease({
    repoRoot: REPO_ROOT,
    binariesDir: dist,
    outDir: tree,
    targets: [],
    noBinaries: true,
    url: `https://github.com/librarian-dev/librarian/releases/download/v${VERSION}`,
  });
  const repo = join(root, "marketplace");
  await Deno.mkdir(join(repo, ".claude-plugin"), { recursive: true });
  await Deno.writeTextFile(
    join(repo, ".claude-plugin", "marketplace.json"),
    JSON.stringify({
      name: MARKETPLACE,
      owner: { name: "e2e" },
      plugins: [{
        name: "librarian",
        source: { source: "url", url: `file://${repo}`, ref: "release" },
      }],
    }),
  );
  await run("git", ["init", "-q", "-b", "main"], repo, GIT_ENV);
  await run("git", ["add", "-A"], repo, GIT_ENV);
  await run("git", ["commit", "-qm", "marketplace"], repo, GIT_ENV);
  await run(
    "sh",
    [
      join(REPO_ROOT, "scripts", "publish_release_branch.sh"),
      tree,
      repo,
      "release",
      `librarian v${VERSION}`,
    ],
    repo,
    GIT_ENV,
  );
  return repo;
}

async function bytesUnder(dir: string, skip?: string): Promise<{ bytes: number; files: string[] }> {
  let bytes = 0;
  const files: string[] = [];
  async function walk(rel: string): Promise<void> {
    for await (const entry of Deno.readDir(join(dir, rel))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (path === skip) continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) {
        bytes += (await Deno.stat(join(dir, path))).size;
        files.push(path);
      }
    }
  }
  await walk("");
  return { bytes, files };
}

scenario(
  "a marketplace install from the release branch is small, and its first SessionStart fetches the binary",
  async (open) => {
    await using work = await tempDir("librarian-e2e-release-");
    const repo = await releaseRepository(work.path);
    const project = await open({
      "_memory_library/src/patterns.md":
        "# patterns\n- FETCHED-BINARY-CONTEXT: served by the fetched binary\n",
      "src/a.ts": "export const A = 1;\n",
    });
    const claude = claudeBinary()!;
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: project.home,
      DENO_DIR: await denoDir(),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      ...GIT_ENV,
    };
    await run(claude, ["plugin", "marketplace", "add", repo], project.root, env);
    await run(claude, ["plugin", "install", `librarian@${MARKETPLACE}`], project.root, env);

    // what the install cloned: the release branch, without binaries
    const installed = JSON.parse(
      await Deno.readTextFile(join(project.home, ".claude", "plugins", "installed_plugins.json")),
    );
    const installPath = installed.plugins[`librarian@${MARKETPLACE}`][0].installPath as string;
    const plugin = await bytesUnder(installPath, ".git");
    let clone = { bytes: 0, files: [] as string[] };
    try {
      clone = await bytesUnder(join(installPath, ".git"));
    } catch {
      // copied without its git folder
    }
    console.log(
      `e2e: the installed plugin: ${plugin.files.length} files, ${plugin.bytes} bytes; ` +
        `its git folder (what the clone transferred): ${clone.bytes} bytes`,
    );
    assert.ok(plugin.files.includes("bin/release-binaries.txt"));
    assert.deepEqual(plugin.files.filter((f) => /^bin\/librarian-/.test(f)), [], "no binary");
    // about 2.2 MB: as tests/release_test.ts stages it
    assert.ok(plugin.bytes < 2.5 * 1024 * 1024, `${plugin.bytes} bytes`);
    assert.ok(clone.bytes < 2.5 * 1024 * 1024, `${clone.bytes} bytes`);

    // the loopback release the launcher fetches from (a mirror: LIBRARIAN_BINARY_URL)
    const requests: string[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
      const path = new URL(request.url).pathname;
      requests.push(path);
      return path === `/v${VERSION}/${HOST_FILE}`
        ? new Response(STAND_IN)
        : new Response("not found", { status: 404 });
    });
    try {
      const standInLog = join(work.path, "stand-in.log");
      const sessionEnv = {
        LIBRARIAN_BINARY_URL: `http://127.0.0.1:${server.addr.port}/v{version}`,
        LIBRARIAN_STANDIN_LOG: standInLog,
      };
      const first = await project.run("Read a.ts.", [
        [toolUse("Read", { file_path: project.path("src/a.ts") })],
        [text("done")],
      ], { env: sessionEnv });
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(requests, [`/v${VERSION}/${HOST_FILE}`], "one download");
      const told = systemMessages(await project.transcripts(), "SessionStart");
      assert.ok(
        told.some((m) =>
          new RegExp(
            `^Librarian: fetched its binary for ${Deno.build.target} \\(0\\.0 MB, version ${VERSION}\\) from 127\\.0\\.0\\.1:\\d+`,
          ).test(m)
        ),
        told.join("\n"),
      );
      const data = join(project.home, ".claude", "plugins", "data", `librarian-${MARKETPLACE}`);
      const binary = join(data, "binaries", VERSION, HOST_FILE);
      assert.equal(await Deno.readTextFile(binary), STAND_IN);
      // the Read's hook ran the fetched binary, and the model got the folder's file
      assert.match(await Deno.readTextFile(standInLog), /^stand-in inject$/m);
      const contexts = hookContexts(first.turns.at(-1)!.body).map((c) => c.text).join("\n");
      assert.match(contexts, /FETCHED-BINARY-CONTEXT/);

      // the next session downloads nothing
      const second = await project.run("Again.", [[text("done")]], { env: sessionEnv });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(requests.length, 1);
    } finally {
      await server.shutdown();
    }
  },
  { pluginDir: null },
);
