/**
 * `lint --fix` keeps learnings inside the library (issue 22): a library folder move whose target
 * lies beyond a link out of the library, or whose source is a link, is refused and reported;
 * nothing leaves the repository and no link's deletion is staged.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

async function lintFix(cwd: string) {
  const result = await runLibrarian(["lint", "--json", "--fix"], { cwd });
  return { code: result.code, report: JSON.parse(result.stdout), stderr: result.stderr };
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

Deno.test("lint --fix never moves learnings through a library link that leads outside", {
  ignore: skipOnWindows("needs git and symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "repo");
  const outside = join(dir.path, "outside");
  await Deno.mkdir(outside, { recursive: true });
  await Deno.mkdir(root, { recursive: true });
  await gitInit(root);
  await writeTree(root, {
    "src/lib/a.ts": "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
    "_memory_library/src/lib/edge.md": "# edge\n- LIB-LEARNING\n",
    "_memory_library/tech.md": "- root\n",
  });
  await Deno.symlink(outside, join(root, "_memory_library/vendor"));
  await commitAll(root, "code");
  await Deno.mkdir(join(root, "vendor"));
  await gitOk(root, "mv", "src/lib", "vendor/lib");
  await commitAll(root, "vendor the lib");
  const { report } = await lintFix(root);
  assert.deepEqual(await names(outside), [], "nothing moved out of the repository");
  assert.equal(
    await Deno.readTextFile(join(root, "_memory_library/src/lib/edge.md")),
    "# edge\n- LIB-LEARNING\n",
  );
  const move = report.fixed.find((m: { from: string }) => m.from === "src/lib");
  assert.equal(move?.how, "skipped", JSON.stringify(report.fixed));
  assert.match(move.why, /outside the library/);
  assert.equal(await gitOk(root, "status", "--porcelain"), "");
});

Deno.test("lint --fix never moves (or stages the deletion of) a library folder that is a link", {
  ignore: skipOnWindows("needs git and symbolic links"),
}, async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "repo");
  await Deno.mkdir(root, { recursive: true });
  await gitInit(root);
  await writeTree(root, {
    "src/old/a.ts": "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
    "_memory_library/shared/edge.md": "# edge\n- SHARED-LEARNING\n",
    "_memory_library/tech.md": "- root\n",
    "shared/x.ts": "export {};\n",
  });
  await Deno.mkdir(join(root, "_memory_library/src"), { recursive: true });
  await Deno.symlink("../shared", join(root, "_memory_library/src/old"));
  await commitAll(root, "code");
  await gitOk(root, "mv", "src/old", "src/new");
  await commitAll(root, "rename");
  const { report } = await lintFix(root);
  const move = report.fixed?.find((m: { from: string }) => m.from === "src/old");
  if (move) {
    assert.equal(move.how, "skipped", JSON.stringify(report.fixed));
    assert.match(move.why, /symbolic link/);
  }
  assert.ok(Deno.lstatSync(join(root, "_memory_library/src/old")).isSymlink);
  assert.equal(await gitOk(root, "status", "--porcelain"), "");
});
