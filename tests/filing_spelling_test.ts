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
import { tempDir } from "./helpers.ts";
import { makeProject, type Project } from "./stop_fixtures.ts";

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
