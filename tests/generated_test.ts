/**
 * Generated code is built, not committed: no file git tracks is a hook bundle or carries the
 * bundler's `@generated` header (the bundles are built into the git-ignored bundles/).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

Deno.test("git tracks no generated file: no bundle, nothing with a @generated header", {
  ignore: skipOnWindows("needs git"),
}, async () => {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  const files = new TextDecoder().decode(out.stdout).split("\0").filter((f) => f !== "");
  assert.ok(files.includes("src/main.ts"), "the tracked files are listed");
  const bundles = files.filter((f) => f.startsWith("bundles/") || /^hooks\/.*\.js$/.test(f));
  assert.deepEqual(bundles, []);
  const generated: string[] = [];
  for (const file of files.filter((f) => /\.(?:[cm]?js|ts)$/.test(f))) {
    let head = "";
    try {
      head = (await Deno.readTextFile(join(REPO_ROOT, file))).slice(0, 200);
    } catch {
      continue; // deleted in the working tree
    }
    if (/^\/\/ @generated/.test(head)) generated.push(file);
  }
  assert.deepEqual(generated, []);
});
