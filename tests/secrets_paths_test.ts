/**
 * Issue 22's credential shapes through every path that writes into the library or out of it:
 * filing from scratch, the auto-memory sync, import and export (subprocesses through
 * bin/librarian). Each shape is held back alone: the other learnings beside it go through, and
 * what the user is told names the line, never the value.
 *
 * Credentials are assembled at run time, so no credential-shaped string is committed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import { parseHookStdout, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { listFiles, makeProject, stopEvent } from "./stop_fixtures.ts";

const j = (...parts: string[]) => parts.join("");
const KEY40 = "Zq8vK2mN4pL7xR9tW3yB6cD1fG5hJ0sA/E+uI2oP";
/** AWS's documentation key: held like any other, wherever it is written. */
const DOC_KEY = j("wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "EXAMPLEKEY");
const HEX32 = "9f3b2c7d1e8a4f6b0c5d2e9a7b3f1c8d";
const TWILIO_SID = j("A", "C", HEX32);
const TWILIO_KEY_SID = j("S", "K", "4e7a1c9f2b8d6e3a5c0f7b1d9e2a8c4f");
const TWILIO_KEY_SECRET = "Qm7vX2kP9rL4tW8zN3bC6yF1hJ5dG0sA";

/** One learning per shape: [shape, the lines of a learning that holds it, the value]. */
const SHAPES: ReadonlyArray<[shape: string, learning: string, value: string]> = [
  ["AWS secret key in prose", `- the sandbox's AWS secret access key is ${KEY40}`, KEY40],
  ["aws secret access key:", `- aws secret access key: ${KEY40}`, KEY40],
  [
    "Slack xapp-",
    j("- socket mode: SLACK_APP_TOKEN=", "xa", "pp-1-A0B1C2D3E4F-1234567890123-aB3dE5fG7hJ9kLmN2p"),
    "A0B1C2D3E4F-1234567890123-aB3dE5fG7hJ9kLmN2p",
  ],
  [
    "Azure SharedAccessKey=",
    j(
      "- bus: Endpoint=sb://ops.servicebus.windows.net/;SharedAccess",
      "Key=",
      "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3dE5fG7h=",
    ),
    "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3dE5fG7h=",
  ],
  [
    ".npmrc _auth=",
    j("- the .npmrc needs _a", "uth=ZGVwbG95OnM0bWVQYXNzdzByZA=="),
    "ZGVwbG95OnM0bWVQYXNzdzByZA==",
  ],
  [
    "PEM header soft-wrapped in a bullet",
    j("- the old deploy key -----BEGIN RSA\n  PRIVATE ", "KEY----- MIIEowIBAAKCAQEAq7w"),
    "MIIEowIBAAKCAQEAq7w",
  ],
  [
    "PEM header split across bullets",
    j("- -----BEGIN OPENSSH\n- PRIVATE ", "KEY-----\n- b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"),
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
  ],
  [
    "Discord webhook",
    j(
      "- alerts: https://discord.com/api/web",
      "hooks/123456789012345678/aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3dE5fG7hJ9",
    ),
    "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3dE5fG7hJ9",
  ],
  [
    "Hugging Face hf_",
    j("- HF_TOKEN=", "h", "f_aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB"),
    "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB",
  ],
  ["docker login -p", "- `docker login registry.internal -u ci -p Vb7nM2xQ9kL4`", "Vb7nM2xQ9kL4"],
  // issue 31
  ["AWS secret key in prose, no 'AWS'", `- the secret access key is ${DOC_KEY}`, DOC_KEY],
  ["aws_secret_access_key = (spaced)", `- aws_secret_access_key = ${DOC_KEY}`, DOC_KEY],
  ["AWS Secret Access Key : (spaced)", `- AWS Secret Access Key : ${DOC_KEY}`, DOC_KEY],
  ["Twilio account SID in prose", `- the Twilio account SID is ${TWILIO_SID}`, TWILIO_SID],
  ["Twilio auth token in prose", `- Twilio's auth token is ${HEX32} (prod)`, HEX32],
  [
    "Twilio SID and auth token together",
    `- Twilio: account ${TWILIO_SID} with auth token ${HEX32}`,
    HEX32,
  ],
  ["Twilio API key SID", `- the Twilio API key is ${TWILIO_KEY_SID}`, TWILIO_KEY_SID],
  [
    "Twilio API key with its secret",
    `- Twilio API key ${TWILIO_KEY_SID}, its secret ${TWILIO_KEY_SECRET}`,
    TWILIO_KEY_SECRET,
  ],
  ["an API key's secret in prose", `- the key's secret is ${TWILIO_KEY_SECRET}`, TWILIO_KEY_SECRET],
];

/** Every file under `dir`, read, in one string. */
async function allText(dir: string): Promise<string> {
  const texts = [];
  for (const file of await listFiles(dir)) texts.push(await Deno.readTextFile(join(dir, file)));
  return texts.join("\n");
}

function messageOf(stdout: string): string {
  const out = parseHookStdout(stdout);
  assert.ok(out && typeof out.systemMessage === "string", stdout);
  return out.systemMessage as string;
}

Deno.test("filing: each shape's block stays in scratch, named by its line; the others are filed", async () => {
  for (const [shape, learning, value] of SHAPES) {
    await using dir = await tempDir();
    const p = await makeProject(dir.path, {
      "_memory_library/.scratch.md":
        `## [TAG: global, type: tech]\n- an ordinary learning\n${learning}\n\n## [TAG: global, type: edge]\n- fine to file\n`,
    });
    const result = await runLibrarian(["stop"], {
      stdin: stopEvent(p.root),
      home: p.home,
      cwd: p.root,
    });
    assert.equal(result.code, 0, result.stderr);
    const message = messageOf(result.stdout);
    assert.match(
      message,
      /1 learning → edge\.md; 1 block held in scratch \(likely .+ \(line 2\)(?: and \d+ more)? under the tag/,
      shape,
    );
    assert.ok(!message.includes(value), `${shape}: the value is never echoed`);
    assert.ok(
      (await Deno.readTextFile(p.scratch)).includes(value),
      `${shape}: it stays in scratch`,
    );
    const library = (await allText(p.lib)).replace(await Deno.readTextFile(p.scratch), "");
    assert.ok(!library.includes(value), `${shape}: never filed`);
    assert.ok(!library.includes("an ordinary learning"), `${shape}: the block is held whole`);
  }
});

Deno.test("auto memory: each shape's entry is held in scratch, the other entries are filed", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path);
  const mem = join(p.home, ".claude", "projects", encodeProjectDir(p.root), "memory");
  const files: Record<string, string> = {
    "project_clean.md":
      "---\nname: clean\ndescription: Deploys go out on Tuesdays\ntype: project\n---\n",
  };
  SHAPES.forEach(([, learning], i) => {
    files[`reference_${i}.md`] =
      `---\nname: creds-${i}\ndescription: how the service logs in\ntype: reference\n---\n\n${learning}\n`;
  });
  await writeTree(mem, files);
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root),
    home: p.home,
    cwd: p.root,
  });
  assert.equal(result.code, 0, result.stderr);
  const message = messageOf(result.stdout);
  assert.match(
    message,
    new RegExp(`1 learning → product\\.md; ${SHAPES.length} blocks held in scratch`),
  );
  const scratch = await Deno.readTextFile(p.scratch);
  const library = (await allText(p.lib)).replace(scratch, "");
  assert.match(library, /Deploys go out on Tuesdays/);
  for (const [shape, , value] of SHAPES) {
    assert.ok(!library.includes(value), `${shape}: never filed`);
    assert.ok(scratch.includes(value), `${shape}: held in scratch`);
    assert.ok(!message.includes(value), `${shape}: never echoed`);
  }
});

Deno.test("import: only each shape's lines are set aside, named by line; the rest is imported", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = { "_memory_library/.scratch.md": "" };
  SHAPES.forEach(([, learning], i) => {
    files[`bank/notes-${i}.md`] = `# Notes ${i}\n- kept line ${i}\n${learning}\n- after ${i}\n`;
  });
  await writeTree(dir.path, files);
  const result = await runLibrarian(["import", "bank", "--json", "--yes"], {
    cwd: dir.path,
  });
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout) as {
    entries: { source: string; action: string; reason?: string }[];
  };
  const library = await allText(join(dir.path, "_memory_library"));
  SHAPES.forEach(([shape, , value], i) => {
    const entry = report.entries.find((e) => e.source === `notes-${i}.md`)!;
    assert.equal(entry.action, "create", shape);
    // named by its first line (a key's body goes with its header)
    assert.match(entry.reason ?? "", /^line 3 \(likely [^)]+\)$/, shape);
    assert.ok(!library.includes(value), `${shape}: never imported`);
    assert.match(
      library,
      new RegExp(`- kept line ${i}\\n- after ${i}\\n`),
      `${shape}: the rest is`,
    );
    assert.ok(!result.stdout.includes(value), `${shape}: never echoed`);
  });
});

Deno.test("export: only each shape's learning is left out of the generated file, named by line", async () => {
  await using dir = await tempDir();
  const body = SHAPES.map(([, learning], i) => `- clean ${i}\n${learning}`).join("\n") +
    "\n- last\n";
  await writeTree(dir.path, {
    "proj/_memory_library/tech.md": `# tech\n\n${body}`,
    "proj/_memory_library/.scratch.md": "",
  });
  const cwd = join(dir.path, "proj");
  const result = await runLibrarian(["export", "--format", "agents-md"], {
    cwd,
    home: join(dir.path, "home"),
  });
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const agents = await Deno.readTextFile(join(cwd, "AGENTS.md"));
  for (const [i, [shape, , value]] of SHAPES.entries()) {
    assert.ok(!agents.includes(value), `${shape}: never exported`);
    assert.match(agents, new RegExp(`- clean ${i}\\n`), `${shape}: the learning before it is`);
    assert.ok(!result.stdout.includes(value), `${shape}: never echoed`);
  }
  assert.match(agents, /- last\n/);
  assert.match(
    result.stdout,
    /skipped +\(root\) \(agents-md\): tech\.md lines 4, 6, .* left out: likely/,
  );
});

Deno.test("import: a Twilio auth token is held inside fenced code too, where a password guess is not (issue 31)", async () => {
  await using dir = await tempDir();
  const fence = "```";
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "bank/setup.md": [
      "# Setup",
      "- SMS goes through Twilio",
      `${fence}sh`,
      `export TWILIO_AUTH_TOKEN=${HEX32}`,
      "const password = 'Zx9#q!rT2' // test fixture",
      fence,
      "",
    ].join("\n"),
  });
  const result = await runLibrarian(["import", "bank", "--json", "--yes"], { cwd: dir.path });
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout) as { entries: { source: string; reason?: string }[] };
  assert.equal(report.entries[0]!.reason, "line 4 (likely secret in prose)");
  const library = await allText(join(dir.path, "_memory_library"));
  assert.ok(!library.includes(HEX32), "never imported");
  assert.match(library, /- SMS goes through Twilio\n/);
  assert.match(library, /const password = 'Zx9#q!rT2' \/\/ test fixture/);
});
