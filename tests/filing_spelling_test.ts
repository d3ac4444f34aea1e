/**
 * Filing into the folder that is already there (issue 11, "Misfiled"): a tag spelled in NFC
 * files into a mirror folder spelled in NFD (or the other way round), never into a second folder
 * beside it; and control characters never reach a library file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Library } from "../src/core/discover.ts";
import { routeScratch } from "../src/filing/route_scratch.ts";
import { existingSpelling } from "../src/filing/spelling.ts";
import { parseHookStdout, runLibrarian, tempDir } from "./helpers.ts";
import { makeProject, type Project, stopEvent } from "./stop_fixtures.ts";

const NFC = "caf\u00e9";
const NFD = "cafe\u0301";

function libraryOf(project: Project): Library {
  return { root: project.lib, projectRoot: project.root, foundBy: "cwd" };
}

async function route(project: Project, scratch: string) {
  await Deno.writeTextFile(project.scratch, scratch);
  const env = (name: string) => ({ HOME: project.home } as Record<string, string>)[name];
  return await routeScratch(libraryOf(project), { env, now: new Date(2026, 10, 30, 12) });
}

function entries(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !n.startsWith(".")).sort();
}

Deno.test("an NFC tag files into the mirror folder spelled NFD, never a second folder", async () => {
  await using dir = await tempDir();
  const project = await makeProject(dir.path, {
    [`_memory_library/src/${NFD}/tech.md`]: "# tech\n\n- older learning\n",
  });
  const report = await route(project, `## [TAG: src/${NFC}, type: tech]\n- brew it hot\n`);
  assert.equal(report.status, "routed");
  assert.deepEqual(entries(join(project.lib, "src")), [NFD]);
  const text = await Deno.readTextFile(join(project.lib, "src", NFD, "tech.md"));
  assert.match(text, /- older learning/);
  assert.match(text, /- brew it hot/);
});

Deno.test("an NFD tag files into the mirror folder spelled NFC", async () => {
  await using dir = await tempDir();
  const project = await makeProject(dir.path, {
    [`_memory_library/src/${NFC}/tech.md`]: "# tech\n",
  });
  await route(project, `## [TAG: src/${NFD}, type: tech]\n- brew it hot\n`);
  assert.deepEqual(entries(join(project.lib, "src")), [NFC]);
  assert.match(await Deno.readTextFile(join(project.lib, "src", NFC, "tech.md")), /brew it hot/);
});

Deno.test("a new mirror folder takes the code folder's spelling", async () => {
  await using dir = await tempDir();
  const project = await makeProject(dir.path, { [`src/${NFD}/menu.ts`]: "export {};\n" });
  await route(project, `## [TAG: src/${NFC}, type: tech]\n- brew it hot\n`);
  assert.deepEqual(entries(join(project.lib, "src")), [NFD]);
});

Deno.test("existingSpelling keeps the tag's spelling where nothing is on disk", async () => {
  await using dir = await tempDir();
  const project = await makeProject(dir.path);
  assert.equal(existingSpelling(libraryOf(project), `src/${NFC}/tech.md`), `src/${NFC}/tech.md`);
});

Deno.test("control characters never reach a library file; tabs do", async () => {
  await using dir = await tempDir();
  const project = await makeProject(dir.path);
  const body = "- a NUL\u0000 here\n- colour \u001b[31mred\u001b[0m output\n- a\ttab\u0007\n" +
    "- a \uFEFFBOM\n";
  await route(project, `## [TAG: global, type: tech]\n${body}`);
  const text = await Deno.readTextFile(join(project.lib, "tech.md"));
  assert.match(text, /- a NUL here\n- colour red output\n- a\ttab\n- a BOM\n/);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f\uFEFF]/);
});

// ---------------------------------------------------------------------------------------------
// Issue 22: a tag that names a file or a folder that exists nowhere is filed where nothing reads
// it; such a block stays in scratch with the nearest real folder named.

Deno.test("a tag naming a file, a misspelt folder or no folder stays in scratch, the nearest real folder named", async () => {
  await using dir = await tempDir();
  const p = await makeProject(dir.path, {
    "src/api/a.ts": "export {};\n",
    "src/web/app.ts": "",
  });
  await Deno.writeTextFile(
    p.scratch,
    [
      "## [TAG: src/api/a.ts, type: edge]",
      "- about a.ts",
      "## [TAG: src/apu, type: edge]",
      "- a typo",
      "## [TAG: src/web/nowhere/deep, type: edge]",
      "- no such folder",
      "## [TAG: src/api, type: edge]",
      "- filed",
      "",
    ].join("\n"),
  );
  // a folder the turn created counts as real
  await Deno.mkdir(join(p.root, "src/new"), { recursive: true });
  await Deno.writeTextFile(p.scratch, "## [TAG: src/new, type: edge]\n- new folder\n", {
    append: true,
  });
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root),
    home: p.home,
    cwd: p.root,
  });
  assert.equal(result.code, 0, result.stderr);
  const message = String(parseHookStdout(result.stdout)?.systemMessage);
  assert.match(message, /2 learnings → src\/api\/edge\.md, src\/new\/edge\.md; 3 kept in scratch/);
  const scratch = await Deno.readTextFile(p.scratch);
  assert.match(scratch, /src\/api\/a\.ts is a file, not a folder: tag its folder, src\/api/);
  assert.match(scratch, /no folder src\/apu in the project: did you mean src\/api\?/);
  assert.match(
    scratch,
    /no folder src\/web\/nowhere\/deep in the project: the nearest real folder is src\/web/,
  );
  assert.ok(!scratch.includes("- filed") && !scratch.includes("- new folder"));
  for (const dead of ["src/api/a.ts", "src/apu", "src/web/nowhere"]) {
    await assert.rejects(Deno.lstat(join(p.lib, dead)), `${dead} was not created`);
  }
});
