/**
 * `librarian read <path>`: what the inject hook would send for a file, plus a summary.
 */
import assert from "node:assert/strict";
import { parseHookStdout, runLibrarian, tempDir, writeTree } from "./helpers.ts";

const LIBRARY = {
  "_memory_library/tech.md": "# Tech\n- deno 2",
  "_memory_library/src/api/edge.md": "# Edge\n- api edge case",
  "_memory_library/src/patterns.md": "# Src patterns\n- src pattern",
  "_memory_library/.scratch.md": "## [TAG: global, type: tech]\n- pending",
  "src/api/handler.ts": "export {};",
};

Deno.test("read prints exactly the additionalContext the inject hook sends", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const hook = await runLibrarian(["inject"], {
    cwd: dir.path,
    stdin: JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: `${dir.path}/src/api/handler.ts` },
    }),
  });
  const sent = (parseHookStdout(hook.stdout)!.hookSpecificOutput as Record<string, string>)
    .additionalContext!;
  const read = await runLibrarian(["read", "src/api/handler.ts", "--json"], { cwd: dir.path });
  assert.equal(read.code, 0, read.stderr);
  assert.equal(JSON.parse(read.stdout).additionalContext, sent);
  const text = await runLibrarian(["read", "src/api/handler.ts"], { cwd: dir.path });
  assert.ok(text.stdout.startsWith(`${sent}\n`), text.stdout);
});

Deno.test("read ignores the session ledger: a second read sends everything again", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const first = await runLibrarian(["read", "src/api/handler.ts", "--json"], { cwd: dir.path });
  const second = await runLibrarian(["read", "src/api/handler.ts", "--json"], { cwd: dir.path });
  assert.equal(
    JSON.parse(second.stdout).additionalContext,
    JSON.parse(first.stdout).additionalContext,
  );
  assert.match(JSON.parse(second.stdout).additionalContext, /api edge case/);
});

Deno.test("read's summary names the files, characters and the budget used", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const result = await runLibrarian(["read", "src/api/handler.ts"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  const summary = result.stdout.slice(result.stdout.indexOf("── librarian read: summary ──"));
  assert.match(summary, /file:\s+src\/api\/handler\.ts/);
  assert.match(summary, new RegExp(`library:\\s+${dir.path}/_memory_library \\(above the file\\)`));
  assert.match(summary, /files:\s+3 apply: 3 shown, 0 cut, 0 left out, 0 skipped/);
  assert.match(summary, /shown\s+src\/api\/edge\.md/);
  assert.match(summary, /shown\s+tech\.md \(library root\)/);
  assert.match(summary, /characters: \d+ of a 9000-character budget \(\d+%\)/);
  assert.ok(!result.stdout.includes("\x1b["), "no colour when stdout is not a terminal");
});

Deno.test("read reports what was cut and left out under a small budget", async () => {
  await using dir = await tempDir();
  const bullet = (n: number) => `- learning number ${n} with enough words to take some room\n`;
  const big = Array.from({ length: 40 }, (_, i) => bullet(i)).join("");
  await writeTree(dir.path, {
    "_memory_library/src/a.md": big,
    "_memory_library/src/b.md": big,
    "_memory_library/tech.md": big,
    "src/x.ts": "",
  });
  const env = { LIBRARIAN_BUDGET: "2000" };
  const json = await runLibrarian(["read", "src/x.ts", "--json"], { cwd: dir.path, env });
  const report = JSON.parse(json.stdout);
  assert.equal(report.budget, 2000);
  assert.ok(report.chars <= 2000);
  assert.equal(report.chars, report.additionalContext.length);
  const statuses = Object.fromEntries(
    report.files.map((f: { label: string; status: string }) => [f.label, f.status]),
  );
  // the fair budget: each file gets a share, none is left out for another
  assert.deepEqual(statuses, {
    "src/a.md": "cut",
    "src/b.md": "cut",
    "tech.md (library root)": "cut",
  });
  const text = await runLibrarian(["read", "src/x.ts"], { cwd: dir.path, env });
  assert.match(text.stdout, /3 apply: 0 shown, 3 cut, 0 left out, 0 skipped/);
  assert.match(text.stdout, /cut\s+src\/a\.md/);
  assert.match(text.stdout, /cut\s+tech\.md \(library root\)/);
});

Deno.test("read --json has a stable shape", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const result = await runLibrarian(["read", `${dir.path}/src/api/handler.ts`, "--json"], {
    cwd: "/",
    env: { LIBRARIAN_BUDGET: "50000" },
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(report), [
    "version",
    "path",
    "folder",
    "relPath",
    "library",
    "budget",
    "budgetWarning",
    "result",
    "additionalContext",
    "chars",
    "files",
  ]);
  assert.equal(report.relPath, "src/api/handler.ts");
  assert.deepEqual(report.library, {
    root: `${dir.path}/_memory_library`,
    projectRoot: dir.path,
    foundBy: "file",
  });
  assert.equal(report.budget, 9900);
  assert.match(report.budgetWarning, /LIBRARIAN_BUDGET=50000/);
  assert.equal(report.result, "context");
  assert.deepEqual(report.files[0], {
    path: "src/api/edge.md",
    label: "src/api/edge.md",
    status: "shown",
  });
});

Deno.test("read with no library exits 1 and says how to create one", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["read", "a.ts"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /no memory library found/);
  assert.match(result.stderr, /librarian init/);
  const json = await runLibrarian(["read", "a.ts", "--json"], { cwd: dir.path });
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal(report.result, "no-library");
  assert.equal(report.additionalContext, null);
  assert.equal(report.library, null);
});

Deno.test("read names a bad LIBRARIAN_PATH when it finds no library", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["read", "a.ts"], {
    cwd: dir.path,
    env: { LIBRARIAN_PATH: `${dir.path}/missing` },
  });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /LIBRARIAN_PATH=".*missing" does not exist/);
});

Deno.test("read of a file no library file applies to says nothing would be sent, exit 0", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.scratch.md": "", "src/a.ts": "" });
  const result = await runLibrarian(["read", "src/a.ts"], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Nothing would be sent for src\/a\.ts: no library file applies/);
  const json = JSON.parse(
    (await runLibrarian(["read", "src/a.ts", "--json"], { cwd: dir.path })).stdout,
  );
  assert.equal(json.result, "no-library-files");
});

Deno.test("read of a library file says library files get no context", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, LIBRARY);
  const result = await runLibrarian(["read", "_memory_library/tech.md"], { cwd: dir.path });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /inside the library itself/);
});

Deno.test("read with bad arguments exits 2 with a usage line", async () => {
  for (
    const args of [
      ["read"],
      ["read", "a.ts", "b.ts"],
      ["read", "a.ts", "--verbose"],
      ["read", "a.ts", "--command", "cat a.ts"],
    ]
  ) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(
      result.stderr,
      /^Usage: librarian read <path> \[--json\] \[--provenance\] \| --command/m,
    );
    assert.equal(result.stdout, "");
  }
});

Deno.test("read --help describes the command and exits 0", async () => {
  const result = await runLibrarian(["read", "--help"]);
  assert.equal(result.code, 0);
  assert.match(
    result.stdout,
    /^Usage: librarian read <path> \[--json\] \[--provenance\] \| --command/m,
  );
  assert.match(result.stdout, /--json/);
  assert.match(result.stdout, /--command <shell command>/);
});

Deno.test("read of a folder answers for a file directly in that folder, not for its parent", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/global.md": "- root\n",
    "_memory_library/src/src.md": "- src level\n",
    "_memory_library/src/api/api.md": "- api level\n",
    "src/api/handler.ts": "",
  });
  for (const arg of ["src/api/", "src/api"]) {
    const result = await runLibrarian(["read", arg, "--json"], { cwd: dir.path });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.folder, true);
    assert.match(
      report.additionalContext,
      /^\[Librarian\] Memory library context for src\/api\/\*:/,
    );
    assert.deepEqual(report.files.map((f: { path: string }) => f.path), [
      "src/api/api.md",
      "src/src.md",
      "global.md",
    ]);
  }
  const root = await runLibrarian(["read", "."], { cwd: dir.path });
  assert.equal(root.code, 0, root.stderr);
  assert.match(root.stdout, /- root/);
  assert.doesNotMatch(root.stdout, /src level/);
});
