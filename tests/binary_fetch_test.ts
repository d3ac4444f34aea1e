/**
 * The launcher fetches one verified binary (bin/librarian `fetch-binary`, the SessionStart hook),
 * against a stand-in release served on loopback: small shell scripts stand in for the binaries and
 * `bin/release-binaries.txt` pins their SHA-256. Each test runs a copy of the launcher with a PATH
 * of chosen tools and no deno, so a hook that has no binary stays silent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { binaryFileName } from "../scripts/build_plan.ts";
import { formatManifest, MANIFEST_FILE } from "../scripts/stage_release.ts";
import { sha256Hex } from "../scripts/sha256.ts";
import { parseHookStdout, runLibrarian, tempDir } from "./helpers.ts";
import { copyLauncher, toolsDir } from "./launcher_fixtures.ts";

/** A real tool's absolute path (for fakes that call it while it is off their PATH). */
function which(name: string): string {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    try {
      if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
    } catch {
      // not here
    }
  }
  throw new Error(`test needs '${name}' on PATH`);
}
import { skipOnWindows } from "./platform.ts";

const HOST_FILE = binaryFileName(Deno.build.target);
const VERSION = "9.8.7";
/** What the fetch needs besides sh, chmod and uname (stat checks the binary before each run). */
const FETCH_TOOLS = ["mkdir", "mv", "rm", "cp", "sleep", "sha256sum", "stat", "date"];

/** An `extra` value that leaves the variable out of the launcher's environment. */
const UNSET = "\0unset";

/** The stand-in binary: says it ran, with its arguments. */
const STAND_IN = new TextEncoder().encode(`#!/bin/sh\necho "stand-in ${VERSION} $*"\n`);

type Mode = "serve" | "404" | "tampered" | "stall";

/** A stand-in release on 127.0.0.1: `/v<version>/librarian-<target>` and a request count. */
function serveRelease(marker: string) {
  let mode: Mode = "serve";
  let requests = 0;
  const stalled: ReadableStreamDefaultController<Uint8Array>[] = [];
  const tampered = new TextEncoder().encode(`#!/bin/sh\n: > '${marker}'\necho tampered\n`);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path !== `/v${VERSION}/${HOST_FILE}`) return new Response("no such asset", { status: 404 });
    requests++;
    if (mode === "404") return new Response("gone", { status: 404 });
    if (mode === "tampered") return new Response(tampered);
    if (mode === "stall") {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(4096).fill(35));
          stalled.push(controller);
        },
      });
      return new Response(body, { headers: { "content-length": "1000000" } });
    }
    return new Response(STAND_IN);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v{version}`,
    set mode(next: Mode) {
      mode = next;
    },
    requests: () => requests,
    async close() {
      for (const controller of stalled) {
        try {
          controller.close();
        } catch {
          // already closed
        }
      }
      await server.shutdown();
    },
  };
}

/** A plugin tree as the release branch ships it: the launcher and the manifest, no binary. */
async function releaseTree(root: string): Promise<string> {
  const plugin = await copyLauncher(root);
  const manifest = formatManifest(VERSION, "https://example.invalid/never-used", [
    { fileName: HOST_FILE, bytes: STAND_IN.length, sha256: await sha256Hex(STAND_IN.slice()) },
    { fileName: "librarian-other-target", bytes: 1, sha256: "0".repeat(64) },
  ]);
  await Deno.writeTextFile(join(plugin, "bin", MANIFEST_FILE), manifest);
  return plugin;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch {
    // no folder
  }
  return out.sort();
}

/** A temp root with a plugin, a data folder, a tools PATH and the stand-in release. */
async function setUp(tools: readonly string[] = ["curl", ...FETCH_TOOLS]) {
  const dir = await tempDir();
  const plugin = await releaseTree(dir.path);
  const data = join(dir.path, "data");
  const marker = join(dir.path, "tampered-binary-ran");
  const release = serveRelease(marker);
  const path = await toolsDir(dir.path, {}, tools);
  const store = join(data, "binaries", VERSION);
  const run = (
    args: string[],
    extra: Record<string, string> = {},
    onSpawn?: (c: Deno.ChildProcess) => void,
    cwd?: string,
  ) =>
    runLibrarian(args, {
      launcher: join(plugin, "bin", "librarian"),
      env: Object.fromEntries(
        Object.entries({
          PATH: path,
          CLAUDE_PLUGIN_DATA: data,
          LIBRARIAN_BINARY_URL: release.url,
          LIBRARIAN_FETCH_SECONDS: "30",
          ...extra,
        }).filter(([, value]) => value !== UNSET),
      ),
      stdin: "{}",
      ...(onSpawn ? { onSpawn } : {}),
      ...(cwd ? { cwd } : {}),
    });
  return {
    dir,
    plugin,
    data,
    store,
    marker,
    release,
    run,
    binary: join(store, HOST_FILE),
    async [Symbol.asyncDispose]() {
      await release.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}

function message(stdout: string): string {
  const output = parseHookStdout(stdout);
  assert.ok(output, "one JSON line");
  assert.deepEqual(Object.keys(output), ["systemMessage"]);
  return output.systemMessage as string;
}

Deno.test(
  "before the binary is fetched a tool hook stays silent and fetches nothing",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    for (const command of [["inject"], ["inject", "--shell"], ["stop"]]) {
      const result = await t.run(command);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "");
    }
    assert.equal(t.release.requests(), 0, "never a download inside a tool call's hook");
    assert.equal(await exists(t.store), false);
    // a person's command says what to do
    const status = await t.run(["status"]);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /not fetched yet .*librarian fetch-binary/);
  },
);

Deno.test("the first SessionStart downloads and verifies the binary; later hooks run it", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  const first = await t.run(["fetch-binary"]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    message(first.stdout),
    new RegExp(
      `^Librarian: fetched its binary for ${Deno.build.target} \\(0\\.0 MB, version ${VERSION}\\) from 127\\.0\\.0\\.1:\\d+; hooks run it from now on\\.$`,
    ),
  );
  assert.equal(t.release.requests(), 1);
  assert.deepEqual(await names(t.store), [HOST_FILE, `${HOST_FILE}.origin`]);
  assert.equal((await Deno.stat(t.binary)).mode! & 0o111, 0o111);
  assert.deepEqual(await Deno.readFile(t.binary), STAND_IN);
  const origin = await Deno.readTextFile(`${t.binary}.origin`);
  assert.match(
    origin,
    new RegExp(
      `^downloaded from http://127\\.0\\.0\\.1:\\d+/v${VERSION}/${HOST_FILE}\\nsha256 [0-9a-f]{64}\\nstamp \\d+ ${STAND_IN.length} \\d+\\n$`,
    ),
  );
  // later hooks run it
  const inject = await t.run(["inject"]);
  assert.equal(inject.stdout.trim(), `stand-in ${VERSION} inject`);
  // a second session start has nothing to do
  const again = await t.run(["fetch-binary"]);
  assert.equal(again.code, 0);
  assert.equal(again.stdout, "");
  assert.equal(t.release.requests(), 1);
});

Deno.test(
  "a manifest checked out with CRLF line ends is read the same",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    const manifest = join(t.plugin, "bin", MANIFEST_FILE);
    await Deno.writeTextFile(
      manifest,
      (await Deno.readTextFile(manifest)).replaceAll("\n", "\r\n"),
    );
    const result = await t.run(["fetch-binary"]);
    assert.match(message(result.stdout), /^Librarian: fetched its binary .*version 9\.8\.7\)/);
    assert.deepEqual(await names(t.store), [HOST_FILE, `${HOST_FILE}.origin`]);
    assert.equal((await t.run(["inject"])).stdout.trim(), `stand-in ${VERSION} inject`);
  },
);

Deno.test("a new version's fetch prunes the binaries of older versions", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  await Deno.mkdir(join(t.data, "binaries", "0.0.1"), { recursive: true });
  await Deno.writeTextFile(join(t.data, "binaries", "0.0.1", HOST_FILE), "old");
  await t.run(["fetch-binary"]);
  assert.deepEqual(await names(join(t.data, "binaries")), [VERSION]);
});

Deno.test("a tampered asset is refused and never run", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  t.release.mode = "tampered";
  const result = await t.run(["fetch-binary"]);
  assert.equal(result.code, 0);
  assert.match(
    message(result.stdout),
    new RegExp(
      `^Librarian: refused the binary fetched for ${Deno.build.target}: checksum mismatch: its SHA-256 is [0-9a-f]{64}, release-binaries\\.txt pins [0-9a-f]{64}; it was not run\\. The memory library is not loaded until then\\. It is tried again at the next session start`,
    ),
  );
  assert.deepEqual(await names(t.store), [], "nothing kept, not even a partial file");
  const inject = await t.run(["inject"]);
  assert.equal(inject.stdout, "");
  assert.equal(await exists(t.marker), false, "the tampered binary never ran");
});

Deno.test("an HTTP 404, a refused connection and no download tool each give their message", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  t.release.mode = "404";
  const notFound = message((await t.run(["fetch-binary"])).stdout);
  assert.match(
    notFound,
    /^Librarian: could not fetch its binary for \S+ \(0\.0 MB\): HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/v9\.8\.7\/librarian-/,
  );
  assert.deepEqual(await names(t.store), []);

  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const refused = message(
    (await t.run(["fetch-binary"], { LIBRARIAN_BINARY_URL: `http://127.0.0.1:${closedPort}/v` }))
      .stdout,
  );
  assert.match(
    refused,
    /: no network: the connection to http:\/\/127\.0\.0\.1:\d+\/v\/librarian-\S+ was refused or failed\./,
  );
  assert.deepEqual(await names(t.store), []);

  const bare = await toolsDir(t.dir.path, {}, FETCH_TOOLS, "bare-tools");
  const noTool = message((await t.run(["fetch-binary"], { PATH: bare })).stdout);
  assert.match(noTool, /: no download tool: curl, wget or PowerShell is needed\. /);
  assert.match(noTool, /librarian install-binary <file>$/);
  assert.deepEqual(await names(t.store), []);
});

Deno.test(
  "with deno installed, the message says the hooks run from source meanwhile",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    t.release.mode = "404";
    const withDeno = await toolsDir(
      t.dir.path,
      { deno: "exit 0" },
      ["curl", ...FETCH_TOOLS],
      "deno-tools",
    );
    const text = message((await t.run(["fetch-binary"], { PATH: withDeno })).stdout);
    assert.match(text, /HTTP 404 .*Hooks run from source with Deno until then\./);
  },
);

Deno.test("wget fetches when curl is missing", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp(["wget", ...FETCH_TOOLS]);
  const result = await t.run(["fetch-binary"]);
  assert.match(message(result.stdout), /^Librarian: fetched its binary/);
  assert.deepEqual(await Deno.readFile(t.binary), STAND_IN);
});

Deno.test(
  "without curl, wget or sha256sum, PowerShell downloads and hashes (a fake that records its calls)",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp(FETCH_TOOLS.filter((tool) => tool !== "sha256sum"));
    const calls = join(t.dir.path, "powershell-calls");
    const fake = [
      `printf '%s\\n' "$*" >>'${calls}'`,
      `case "$*" in`,
      `  *Invoke-WebRequest*) exec '${
        which("curl")
      }' -sS -o "$LIBRARIAN_FETCH_TO" "$LIBRARIAN_FETCH_URL" ;;`,
      `  *Get-FileHash*) h=$('${
        which("sha256sum")
      }' "$LIBRARIAN_HASH_FILE") && echo "\${h%% *}" ;;`,
      `  *) exit 9 ;;`,
      `esac`,
    ].join("\n");
    const path = await toolsDir(
      t.dir.path,
      { "powershell.exe": fake },
      FETCH_TOOLS.filter((tool) => tool !== "sha256sum"),
      "ps-tools",
    );
    const result = await t.run(["fetch-binary"], { PATH: path });
    assert.match(message(result.stdout), /^Librarian: fetched its binary/);
    assert.deepEqual(await Deno.readFile(t.binary), STAND_IN);
    const made = await Deno.readTextFile(calls);
    assert.match(
      made,
      /Invoke-WebRequest -UseBasicParsing -TimeoutSec \$env:LIBRARIAN_FETCH_SECONDS/,
    );
    assert.match(made, /Get-FileHash -Algorithm SHA256/);
  },
);

Deno.test(
  "wget goes through the proxy HTTPS_PROXY names (the launcher hands wget the proxy variables)",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp(["wget", ...FETCH_TOOLS]);
    // a stand-in proxy: records the request wget sends it, and answers that it cannot connect
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const requests: string[] = [];
    const serving = (async () => {
      for await (const conn of listener) {
        const buffer = new Uint8Array(4096);
        const read = await conn.read(buffer).catch(() => null);
        requests.push(new TextDecoder().decode(buffer.subarray(0, read ?? 0)).split("\r\n")[0]!);
        await conn.write(new TextEncoder().encode("HTTP/1.1 502 Bad Gateway\r\n\r\n")).catch(
          () => {},
        );
        conn.close();
      }
    })();
    const port = (listener.addr as Deno.NetAddr).port;
    const result = await t.run(["fetch-binary"], {
      LIBRARIAN_BINARY_URL: "https://mirror.invalid/v{version}",
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
    });
    listener.close();
    await serving.catch(() => {});
    assert.match(message(result.stdout), /could not fetch its binary/);
    assert.ok(requests.includes("CONNECT mirror.invalid:443 HTTP/1.1"), requests.join("\n"));
    assert.equal(t.release.requests(), 0);
  },
);

Deno.test("ten SessionStarts at once download the binary once", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  const results = await Promise.all(Array.from({ length: 10 }, () => t.run(["fetch-binary"])));
  assert.ok(results.every((r) => r.code === 0), results.map((r) => r.stderr).join("\n"));
  assert.equal(t.release.requests(), 1);
  const told = results.filter((r) => r.stdout !== "").map((r) => message(r.stdout));
  assert.equal(told.length, 1, "one session says it fetched");
  assert.match(told[0]!, /^Librarian: fetched its binary/);
  assert.deepEqual(await names(t.store), [HOST_FILE, `${HOST_FILE}.origin`]);
  assert.deepEqual(await Deno.readFile(t.binary), STAND_IN);
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  Deno.test(
    `a ${signal} during the download leaves no partial binary; the next start fetches it whole`,
    { ignore: skipOnWindows("runs a POSIX shell script") },
    async () => {
      await using t = await setUp();
      t.release.mode = "stall";
      let child: Deno.ChildProcess | undefined;
      const running = t.run(["fetch-binary"], {}, (c) => child = c);
      await until(
        async () => (await names(t.store)).some((n) => n.endsWith(".part")),
        "the download",
      );
      child!.kill(signal);
      const killed = await running;
      assert.notEqual(killed.stdout.includes("fetched"), true);
      assert.equal(await exists(t.binary), false, "no half-written binary where it is run from");
      if (signal === "SIGTERM") {
        assert.deepEqual(await names(t.store), [], "the partial file and the lock are removed");
      }
      t.release.mode = "serve";
      const next = await t.run(["fetch-binary"]);
      assert.match(message(next.stdout), /^Librarian: fetched its binary/);
      assert.deepEqual(await names(t.store), [HOST_FILE, `${HOST_FILE}.origin`]);
      assert.deepEqual(await Deno.readFile(t.binary), STAND_IN);
    },
  );
}

Deno.test("install-binary places a downloaded file verified the same way, and refuses another", {
  ignore: skipOnWindows("runs a POSIX shell script"),
}, async () => {
  await using t = await setUp();
  const good = join(t.dir.path, "download", HOST_FILE);
  await Deno.mkdir(join(t.dir.path, "download"));
  await Deno.writeFile(good, STAND_IN);
  const bad = join(t.dir.path, "download", "bad");
  await Deno.writeTextFile(bad, `#!/bin/sh\n: > '${t.marker}'\n`);
  const refused = await t.run(["install-binary", bad]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^librarian: install-binary refused .*bad: checksum mismatch: /);
  assert.deepEqual(await names(t.store), []);
  const placed = await t.run(["install-binary", good]);
  assert.equal(placed.code, 0, placed.stderr);
  assert.match(
    placed.stdout,
    new RegExp(`^librarian: installed ${HOST_FILE} ${VERSION} \\(sha256 [0-9a-f]{64}\\)`),
  );
  assert.match(
    await Deno.readTextFile(`${t.binary}.origin`),
    /^installed by hand from .*\/download\//,
  );
  assert.equal((await t.run(["inject"])).stdout.trim(), `stand-in ${VERSION} inject`);
  assert.equal(await exists(t.marker), false);
  assert.equal(t.release.requests(), 0);
});

/** A cloned repository: its committed `.claude/settings.json` sets `env`. */
async function repository(root: string, env: Record<string, string>): Promise<string> {
  const repo = join(root, "cloned-repo");
  await Deno.mkdir(join(repo, ".claude"), { recursive: true });
  await Deno.writeTextFile(join(repo, ".claude", "settings.json"), JSON.stringify({ env }));
  return repo;
}

Deno.test(
  "LIBRARIAN_BINARY_URL is never a curl option: '-K<file in the repository>' is refused, and said",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    // the repository ships a curl config that would write over a file of the user's
    const victim = join(t.dir.path, "bashrc");
    await Deno.writeTextFile(victim, "the user's own\n");
    const config = join(t.dir.path, "cloned-repo", "cfg");
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(
      join(config, HOST_FILE),
      `url = "${t.release.url.replace("{version}", VERSION)}/${HOST_FILE}"\noutput = "${victim}"\n`,
    );
    for (const url of [`-K${config}`, `--config=${config}`, `file://${config}`]) {
      const result = await t.run(["fetch-binary"], { LIBRARIAN_BINARY_URL: url });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(await Deno.readTextFile(victim), "the user's own\n", url);
      assert.match(
        message(result.stdout),
        /LIBRARIAN_BINARY_URL is ignored \(.*not an https:\/\/ URL\)/,
        url,
      );
    }
    assert.equal(t.release.requests(), 0);
  },
);

Deno.test(
  "a binary a repository commits into a state folder its settings choose is never run",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    const repo = await repository(t.dir.path, { LIBRARIAN_STATE_DIR: ".cache/lib" });
    const planted = join(repo, ".cache", "lib", "binaries", VERSION);
    await Deno.mkdir(planted, { recursive: true });
    await Deno.writeTextFile(
      join(planted, HOST_FILE),
      `#!/bin/sh\n: > '${t.marker}'\necho planted\n`,
    );
    await Deno.chmod(join(planted, HOST_FILE), 0o755);
    await Deno.writeTextFile(join(planted, `${HOST_FILE}.origin`), "downloaded\nsha256 0\n");
    const home = join(t.dir.path, "home");
    for (
      const state of [".cache/lib", join(repo, ".cache", "lib")]
    ) {
      for (const command of [["inject"], ["status"]]) {
        const result = await t.run(
          command,
          {
            CLAUDE_PLUGIN_DATA: UNSET,
            LIBRARIAN_STATE_DIR: state,
            HOME: home,
          },
          undefined,
          repo,
        );
        assert.equal(await exists(t.marker), false, `${state} ${command}: the planted binary ran`);
        assert.doesNotMatch(result.stdout, /planted/);
      }
    }
    // the absolute folder inside the repository is refused even when its settings do not name it
    await Deno.writeTextFile(join(repo, ".claude", "settings.json"), "{}");
    const result = await t.run(
      ["status"],
      {
        CLAUDE_PLUGIN_DATA: UNSET,
        LIBRARIAN_STATE_DIR: join(repo, ".cache", "lib"),
        HOME: home,
      },
      undefined,
      repo,
    );
    assert.equal(await exists(t.marker), false, "the planted binary ran");
    assert.match(result.stderr, /LIBRARIAN_STATE_DIR is ignored \(.*inside the project/);
  },
);

Deno.test(
  "a binary in the data folder that the launcher did not place is re-verified, and refused when it differs",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    assert.match(message((await t.run(["fetch-binary"])).stdout), /^Librarian: fetched/);
    // touched, same bytes: verified again, then run
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(t.binary, later, later);
    assert.equal((await t.run(["inject"])).stdout.trim(), `stand-in ${VERSION} inject`);
    // swapped for another program, with the origin file kept: never run
    const evil = `${t.binary}.new`;
    await Deno.writeTextFile(evil, `#!/bin/sh\n: > '${t.marker}'\necho swapped\n`);
    await Deno.chmod(evil, 0o755);
    await Deno.rename(evil, t.binary);
    const inject = await t.run(["inject"]);
    assert.equal(inject.code, 0);
    assert.equal(inject.stdout, "", "a tool hook stays silent");
    const status = await t.run(["status"]);
    assert.match(
      status.stderr,
      /refused to run .*: its SHA-256 is [0-9a-f]{64}, release-binaries\.txt pins/,
    );
    assert.equal(await exists(t.marker), false, "the swapped binary never ran");
    // the next session start says so and fetches it again
    const next = message((await t.run(["fetch-binary"])).stdout);
    assert.match(next, /refused to run .*fetched its binary/);
    assert.equal((await t.run(["inject"])).stdout.trim(), `stand-in ${VERSION} inject`);
    // a folder others can write to is refused, whatever the file holds
    await Deno.chmod(t.store, 0o777);
    assert.match((await t.run(["status"])).stderr, /refused to run .*others can write to/);
    assert.equal(await exists(t.marker), false);
  },
);

Deno.test(
  "under bash, LIBRARIAN_FETCH_SECONDS='a[$(cmd)]' runs nothing: it is not a number, so it is ignored",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    // a lock a live process holds makes the fetch compute how long to wait
    await Deno.mkdir(join(t.store, ".lock"), { recursive: true });
    const old = Math.floor(Date.now() / 1000) - 3600;
    await Deno.writeTextFile(join(t.store, ".lock", "pid"), `${Deno.pid}\n${old}\n`);
    const injected = join(t.dir.path, "injected");
    const out = await new Deno.Command(which("bash"), {
      args: ["--posix", join(t.plugin, "bin", "librarian"), "fetch-binary"],
      env: {
        PATH: await toolsDir(
          t.dir.path,
          {},
          ["curl", ...FETCH_TOOLS],
          "bash-tools",
        ),
        HOME: t.dir.path,
        CLAUDE_PLUGIN_DATA: t.data,
        LIBRARIAN_BINARY_URL: t.release.url,
        LIBRARIAN_FETCH_SECONDS: `a[$(: > '${injected}')]`,
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(await exists(injected), false, "the command in the value ran");
    const text = message(new TextDecoder().decode(out.stdout));
    assert.match(text, /LIBRARIAN_FETCH_SECONDS is ignored \(.*not a number/);
    assert.match(text, /fetched its binary/);
  },
);

Deno.test(
  "a lock left by a killed fetch whose pid now belongs to another live process is taken over at once",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    await Deno.mkdir(join(t.store, ".lock"), { recursive: true });
    const old = Math.floor(Date.now() / 1000) - 3600;
    await Deno.writeTextFile(join(t.store, ".lock", "pid"), `${Deno.pid}\n${old}\n`);
    const started = Date.now();
    const result = await t.run(["fetch-binary"], { LIBRARIAN_FETCH_SECONDS: "5" });
    assert.match(message(result.stdout), /^Librarian: fetched its binary/);
    assert.ok(Date.now() - started < 5_000, `it waited ${Date.now() - started} ms`);
    assert.deepEqual(await names(t.store), [HOST_FILE, `${HOST_FILE}.origin`]);
  },
);

Deno.test(
  "settings a repository's .claude/settings.json or settings.local.json names are ignored, and said",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    const repo = await repository(t.dir.path, {});
    await Deno.writeTextFile(
      join(repo, ".claude", "settings.local.json"),
      JSON.stringify({ env: { LIBRARIAN_BINARY_URL: "https://attacker.invalid/x" } }),
    );
    const result = await t.run(
      ["fetch-binary"],
      {
        LIBRARIAN_BINARY_URL: "https://attacker.invalid/x",
      },
      undefined,
      repo,
    );
    assert.match(
      message(result.stdout),
      /LIBRARIAN_BINARY_URL is ignored \(the project's \.claude\/settings\.local\.json sets it\)/,
    );
    // the same value from the user's own environment is used
    const elsewhere = join(t.dir.path, "elsewhere");
    await Deno.mkdir(elsewhere);
    const own = await t.run(["fetch-binary"], {}, undefined, elsewhere);
    assert.match(message(own.stdout), /^Librarian: fetched its binary/);
  },
);

Deno.test(
  "only an https URL, a number of seconds and a plain absolute folder outside the project pass",
  { ignore: skipOnWindows("runs a POSIX shell script") },
  async () => {
    await using t = await setUp();
    t.release.mode = "404";
    const refused: Record<string, string>[] = [
      { LIBRARIAN_BINARY_URL: "http://mirror.example/v{version}" },
      { LIBRARIAN_BINARY_URL: "ftp://mirror.example/v" },
      { LIBRARIAN_BINARY_URL: "https://mirror.example/a b" },
      { LIBRARIAN_BINARY_URL: "https://mirror.example/'x'" },
      { LIBRARIAN_FETCH_SECONDS: "0" },
      { LIBRARIAN_FETCH_SECONDS: "1000" },
      { LIBRARIAN_FETCH_SECONDS: "08" },
      { LIBRARIAN_FETCH_SECONDS: "-1" },
      { LIBRARIAN_FETCH_SECONDS: "1e2" },
      { CLAUDE_PLUGIN_DATA: "data" },
      { CLAUDE_PLUGIN_DATA: `${t.data}/../data` },
      { CLAUDE_PLUGIN_DATA: `${t.data}/./x` },
    ];
    for (const env of refused) {
      const [name, value] = Object.entries(env)[0]!;
      const text = message((await t.run(["fetch-binary"], env)).stdout);
      assert.match(text, new RegExp(`^Librarian: ${name} is ignored \\(`), `${name}=${value}`);
    }
    for (const env of [{ LIBRARIAN_FETCH_SECONDS: "7" }, { LIBRARIAN_FETCH_SECONDS: "999" }]) {
      const text = message((await t.run(["fetch-binary"], env)).stdout);
      assert.match(text, /^Librarian: could not fetch its binary .*HTTP 404/, text);
    }
  },
);
