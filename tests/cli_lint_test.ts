/**
 * `librarian lint`: library health for people and CI; exit 1 on findings, 0 when clean.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

interface Finding {
  check: string;
  path: string;
  line?: number;
  message: string;
  fix: string;
  movedTo?: string;
}

async function lint(cwd: string, env: Record<string, string> = {}) {
  const result = await runLibrarian(["lint", "--json"], { cwd, env });
  const report = JSON.parse(result.stdout);
  return { code: result.code, report, findings: report.findings as Finding[] };
}

const CLEAN = {
  "_memory_library/.scratch.md": "",
  "_memory_library/tech.md": "# Tech\n- Deno 2 with the npm registry only\n",
  "_memory_library/src/api/patterns.md": "# Patterns\n- validate every request body at the edge\n",
  "src/api/handler.ts": "export {};\n",
};

Deno.test("lint of a healthy library exits 0 and says so", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, CLEAN);
  const { code, report, findings } = await lint(dir.path);
  assert.equal(code, 0);
  assert.deepEqual(findings, []);
  assert.deepEqual(report.checked, { folders: 3, files: 2, budget: 9000, learnings: 0 });
  const text = await runLibrarian(["lint"], { cwd: dir.path });
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^No problems in 2 files in 3 folders of /);
});

Deno.test("lint --json has a stable shape", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, CLEAN);
  const { report } = await lint(dir.path);
  assert.deepEqual(Object.keys(report), ["version", "library", "checked", "git", "findings"]);
  assert.deepEqual(report.library, {
    root: `${dir.path}/_memory_library`,
    projectRoot: dir.path,
    foundBy: "cwd",
  });
});

Deno.test("lint finds a library folder whose code folder is gone (not a git repository)", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/old/patterns.md": "- an old learning about the old module\n",
    "_memory_library/src/old/deeper/edge.md": "- an edge case deeper in the old module\n",
  });
  const { code, report, findings } = await lint(dir.path);
  assert.equal(code, 1);
  assert.equal(report.git, "not-a-repository");
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}`), ["stale-folder src/old/"]);
  assert.match(findings[0]!.fix, /fold its learnings into an ancestor folder/);
  assert.equal(findings[0]!.movedTo, undefined);
});

Deno.test("lint flags a library folder named after a code file: it is never sent", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/api/handler.ts/patterns.md": "- a learning filed under a file name\n",
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}`), [
    "stale-folder src/api/handler.ts/",
  ]);
  assert.match(findings[0]!.message, /which is a file/);
  assert.equal(
    findings[0]!.fix,
    "move its files into _memory_library/src/api/ (the file's folder)",
  );
});

Deno.test("lint suggests the new home of a folder that git shows was renamed", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await gitInit(dir.path);
  await writeTree(dir.path, { ...CLEAN, "src/api/routes.ts": "export const routes = [];\n" });
  await commitAll(dir.path, "start");
  await gitOk(dir.path, "mv", "src/api", "src/http");
  await commitAll(dir.path, "rename api to http");
  const { code, report, findings } = await lint(dir.path);
  assert.equal(code, 1);
  assert.equal(report.git, "ok");
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.check, "stale-folder");
  assert.equal(findings[0]!.path, "src/api/");
  assert.equal(findings[0]!.movedTo, "src/http");
  assert.equal(findings[0]!.fix, "git mv _memory_library/src/api _memory_library/src/http");
  const text = await runLibrarian(["lint"], { cwd: dir.path });
  assert.match(text.stdout, /git shows it moved to src\/http\//);
});

Deno.test("lint sees a rename that is staged but not committed yet", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  await using dir = await tempDir();
  await gitInit(dir.path);
  await writeTree(dir.path, CLEAN);
  await commitAll(dir.path, "start");
  await Deno.mkdir(join(dir.path, "lib"));
  await gitOk(dir.path, "mv", "src/api", "lib/api");
  const { findings } = await lint(dir.path);
  assert.equal(findings[0]!.movedTo, "lib/api");
});

Deno.test("lint flags files larger than the inject budget", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/product.md": "- a learning that repeats\n".repeat(60),
  });
  const { findings } = await lint(dir.path, { LIBRARIAN_BUDGET: "1000" });
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}`), ["oversized product.md"]);
  assert.match(findings[0]!.message, /has 1560 characters, more than the 1000-character/);
  const atDefault = await lint(dir.path);
  assert.deepEqual(atDefault.findings, []);
});

Deno.test("lint flags the same bullet in a folder and its ancestor, ignoring case and spacing", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/api/edge.md": "# Edge\n\n-   Deno 2 with the NPM registry   only\n",
    "_memory_library/docs/notes.md": "- Deno 2 with the npm registry only\n",
    "docs/readme.md": "",
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(
    findings.map((f) => `${f.check} ${f.path}:${f.line}`),
    ["duplicate-bullet docs/notes.md:1", "duplicate-bullet src/api/edge.md:3"],
  );
  assert.match(findings[0]!.message, /tech\.md line 2/);
});

Deno.test("lint reports near-duplicate learnings as pairs with both places, across levels", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/tech.md": "# Tech\n\n- Money is integer cents; never floats.\n",
    "_memory_library/src/api/patterns.md": "# Patterns\n\n" +
      "- Retries use exponential backoff with jitter.\n" +
      "- Money is stored as integer cents, never as floats.\n" +
      "- Retries use exponential backoff, with jitter added.\n",
    // another branch of the tree: never sent with src/api, so not a pair
    "_memory_library/src/ui/patterns.md":
      "# Patterns\n\n- Retries use exponential backoff with jitter\n",
    "src/ui/view.ts": "",
  });
  const { code, findings } = await lint(dir.path);
  assert.equal(code, 1);
  const near = findings.filter((f) => f.check === "near-duplicate") as (Finding & {
    other: { path: string; line: number };
    similarity: number;
  })[];
  assert.deepEqual(near.map((f) => [`${f.path}:${f.line}`, `${f.other.path}:${f.other.line}`]), [
    ["src/api/patterns.md:4", "tech.md:3"],
    ["src/api/patterns.md:5", "src/api/patterns.md:3"],
  ]);
  assert.match(near[0]!.message, /nearly the same as tech\.md line 3 \(\d+% alike\)/);
  assert.ok(near.every((f) => f.similarity >= 0.6 && f.similarity < 1));
  const text = await runLibrarian(["lint"], { cwd: dir.path });
  assert.match(
    text.stdout,
    /near-duplicate +_memory_library\/src\/api\/patterns\.md:4 says nearly/,
  );
  const off = await runLibrarian(["lint", "--json", "--similarity", "0"], { cwd: dir.path });
  assert.deepEqual(JSON.parse(off.stdout).findings, []);
});

Deno.test("lint reports a learning repeated in one file or one folder, whatever its spelling", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/api/patterns.md":
      "# Patterns\n\n- Validate every request body at the edge.\n- VALIDATE every request-body at the edge\n",
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(
    findings.map((f) => `${f.check} ${f.path}:${f.line} ${f.message}`),
    [
      "near-duplicate src/api/patterns.md:4 says the same as line 3 of this file, so the model reads it twice",
    ],
  );
});

Deno.test("lint does not call short or fenced bullets duplicates", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/tech.md": "- TODO\n```\n- the same example bullet in a code block\n```\n",
    "_memory_library/src/api/edge.md":
      "- TODO\n```\n- the same example bullet in a code block\n```\n",
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(findings, []);
});

Deno.test("lint flags merge-conflict markers, not a setext heading underline", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/product.md": "Product\n=======\n\n<<<<<<< HEAD\n- ours\n=======\n- theirs\n" +
      ">>>>>>> feature\n",
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}:${f.line}`), [
    "conflict-marker product.md:4",
  ]);
});

Deno.test("lint flags library files that are not UTF-8 text", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/latin1.md": new Uint8Array([0x2d, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]),
    "_memory_library/src/blob.md": new Uint8Array([0x00, 0x01, 0x02]),
  });
  const { findings } = await lint(dir.path);
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}`), [
    "not-utf8 latin1.md",
    "not-utf8 src/blob.md",
  ]);
  assert.match(findings[1]!.message, /binary/);
});

Deno.test("lint flags malformed, escaping and type-less tags and secrets in scratch", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/.scratch.md": [
      "notes before the first tag are fine",
      "## [TAG: ../../other-project, type: patterns]",
      "- escape attempt",
      "## [TAG: src/api]",
      "- legacy block",
      "## [TAG: src/api, type: patterns",
      "- no closing bracket",
      "## [TAG: global, type: tech]",
      "- the deploy key is AKIAABCDEFGHIJKLMNOP",
      "## [TAG: src/api, type: patterns]",
      "- a good block",
      "## [TAG: global, type: tech]",
      "<!-- librarian: not-a-secret -->",
      "- the docs' example key AKIAABCDEFGHIJKLMNOP is fine here",
      "## [TAG: src/api, type: edge]",
      "```ts",
      "- a fence that never closes",
      "",
    ].join("\n"),
  });
  const { code, findings } = await lint(dir.path);
  assert.equal(code, 1);
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}:${f.line}`), [
    "scratch-tag .scratch.md:2",
    "scratch-tag .scratch.md:4",
    "scratch-tag .scratch.md:6",
    "scratch-fence .scratch.md:15",
    "scratch-secret .scratch.md:8",
  ]);
  assert.match(findings[0]!.message, /'\.\.' segment/);
  assert.match(findings[1]!.message, /no type/);
  assert.match(findings[2]!.message, /no closing '\]'/);
  assert.match(findings[3]!.message, /code fence opened on line 1 under the tag is never closed/);
  assert.match(findings[4]!.message, /likely AWS access key \(line 1\) under the tag/);
  assert.match(findings[4]!.fix, /not-a-secret/);
  assert.doesNotMatch(JSON.stringify(findings), /AKIAABCDEFGHIJKLMNOP/, "never echo the secret");
});

Deno.test("lint prints each finding with its fix and a count", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { ...CLEAN, "_memory_library/gone/x.md": "- x learning here\n" });
  const result = await runLibrarian(["lint"], { cwd: join(dir.path, "src") });
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    /^stale-folder {2}_memory_library\/gone\/ mirrors the code folder gone\//m,
  );
  assert.match(result.stdout, /^ +fix: /m);
  assert.match(result.stdout, /^1 problem in 3 files in 4 folders of /m);
});

Deno.test("lint with no library exits 1 and says how to create one", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["lint"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no memory library found.*librarian init/);
  const json = await runLibrarian(["lint", "--json"], { cwd: dir.path });
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.stdout).library, null);
});

Deno.test("lint with bad arguments exits 2 with a usage line", async () => {
  for (const args of [["lint", "src"], ["lint", "--strict"]]) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(
      result.stderr,
      /^Usage: librarian lint \[--json\] \[--fix\] \[--change-threshold <percent>\] \[--similarity <percent>\]$/m,
    );
  }
});

Deno.test({
  name: "lint names every library entry that is a link out of the library (never read or sent)",
  ignore: skipOnWindows("needs symbolic links"),
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      ...CLEAN,
      "outside/secret.md": "- not library content\n",
      "outside/notes/n.md": "- nor this\n",
    });
    const lib = join(dir.path, "_memory_library");
    await Deno.symlink(join(dir.path, "outside/secret.md"), join(lib, "src/api/edge.md"), {
      type: "file",
    });
    await Deno.symlink(join(dir.path, "outside/notes"), join(lib, "notes"), { type: "dir" });
    await Deno.symlink(join(lib, "tech.md"), join(lib, "src/tech.md"), { type: "file" }); // stays inside: fine
    const { code, findings } = await lint(dir.path);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.filter((f) => f.check === "outside-library").map((f) => f.path),
      ["notes/", "src/api/edge.md"],
    );
  },
});

Deno.test("lint flags a credential already in a library file, never echoing it", async () => {
  await using dir = await tempDir();
  const token = ["gh", "p_", "R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u"].join("");
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/api/tech.md": `# tech\n\n- CI pushes with ${token}\n`,
    "_memory_library/src/api/edge.md": "# edge\n\n- DB_PASSWORD=Xk9;mQ2#vL8@pR4 on staging\n",
  });
  const { code, findings } = await lint(dir.path);
  assert.equal(code, 1);
  assert.deepEqual(findings.map((f) => `${f.check} ${f.path}:${f.line}`), [
    "secret src/api/edge.md:3",
    "secret src/api/tech.md:3",
  ]);
  assert.match(findings[1]!.message, /likely GitHub token/);
  assert.match(findings[1]!.fix, /rotate/);
  assert.match(findings[1]!.fix, /not-a-secret/);
  assert.doesNotMatch(JSON.stringify(findings), /R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u|Xk9;mQ2/);
});

Deno.test("lint leaves a library file alone that says its look-alikes are not secrets", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/src/api/edge.md":
      "# edge\n\n<!-- librarian: not-a-secret -->\n- the docs' key AKIAABCDEFGHIJKLMNOP\n",
  });
  const { code, findings } = await lint(dir.path);
  assert.deepEqual(findings, []);
  assert.equal(code, 0);
});

Deno.test("a block filed as not-a-secret carries its marker, so lint does not flag it later", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "_memory_library/.scratch.md": "## [TAG: src/api, type: edge]\n" +
      "<!-- librarian: not-a-secret -->\n- the docs' key AKIAABCDEFGHIJKLMNOP\n",
  });
  const routed = await runLibrarian(["route"], { cwd: dir.path, home: join(dir.path, "home") });
  assert.equal(routed.code, 0, routed.stdout + routed.stderr);
  const edge = await Deno.readTextFile(join(dir.path, "_memory_library/src/api/edge.md"));
  assert.match(edge, /<!-- librarian: not-a-secret -->\n\n- the docs' key/);
  const { code, findings } = await lint(dir.path);
  assert.deepEqual(findings, []);
  assert.equal(code, 0);
});

Deno.test("lint names learnings waiting in a nested library's scratch (they reach nobody until filed)", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...CLEAN,
    "packages/a/_memory_library/.scratch.md": "## [TAG: src, type: edge]\n- NESTED-WAITING\n",
    "packages/a/src/x.ts": "export {};\n",
  });
  const { code, findings } = await lint(dir.path);
  assert.equal(code, 1);
  assert.deepEqual(findings.map((f) => [f.check, f.path]), [
    ["nested-scratch", "packages/a/_memory_library/.scratch.md"],
  ]);
  assert.match(findings[0]!.fix, /librarian route' in packages\/a\//);
  await Deno.writeTextFile(join(dir.path, "packages/a/_memory_library/.scratch.md"), "");
  assert.equal((await lint(dir.path)).code, 0, "an empty nested scratch is no finding");
});

Deno.test("lint --fix moves a library folder into a new folder whose name git would quote", {
  ignore: skipOnWindows("needs git, and a double quote in a file name"),
}, async () => {
  // git quotes a path with a tab, a double quote or a backslash even with core.quotePath=false;
  // a name with a non-ASCII letter and a space must be read as it is too
  for (const name of ['src/Überweisung "v2"', "src/Über weisung", "src/tab\there"]) {
    await using dir = await tempDir();
    await gitInit(dir.path);
    await writeTree(dir.path, CLEAN);
    await commitAll(dir.path, "start");
    await gitOk(dir.path, "mv", "src/api", name);
    await commitAll(dir.path, "rename api");
    const { findings } = await lint(dir.path);
    assert.equal(findings[0]?.movedTo, name, JSON.stringify(findings));
    const quoted = `'_memory_library/${name.replaceAll("'", "'\\''")}'`;
    assert.equal(findings[0]?.fix, `git mv _memory_library/src/api ${quoted}`, "one shell word");
    const fixed = await runLibrarian(["lint", "--json", "--fix"], { cwd: dir.path });
    assert.equal(fixed.code, 0, fixed.stdout);
    const moved = await Deno.readTextFile(join(dir.path, "_memory_library", name, "patterns.md"));
    assert.match(moved, /validate every request body/);
  }
});
