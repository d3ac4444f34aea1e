/**
 * What `doctor` looks at in an installation (`src/setup/install_check.ts` and the pure checks
 * of `src/commands/doctor/doctor_checks.ts`): the plugin root and the files that make the hooks run.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import {
  binaryName,
  currentRuntime,
  findPluginRoot,
  inspectPluginRoot,
} from "../src/setup/install_check.ts";
import { pluginFilesProblem } from "../src/commands/doctor/doctor_checks.ts";
import { REPO_ROOT } from "./helpers.ts";
import { tempDir } from "./helpers.ts";
import { normalizePath } from "../src/core/paths.ts";

const TARGET = "x86_64-unknown-linux-gnu";

Deno.test("the plugin root: CLAUDE_PLUGIN_ROOT, else above a compiled binary, else above src/", () => {
  const runtime = currentRuntime();
  assert.equal(runtime.compiled, false, "the tests run from source");
  assert.deepEqual(findPluginRoot(envFrom({ CLAUDE_PLUGIN_ROOT: " /proj/lib " }), runtime), {
    path: "/proj/lib",
    from: "CLAUDE_PLUGIN_ROOT",
  });
  const compiled = { ...runtime, compiled: true, execPath: `/proj/lib/bin/${binaryName(TARGET)}` };
  assert.deepEqual(findPluginRoot(envFrom({}), compiled), { path: "/proj/lib", from: "binary" });
  // a binary the launcher fetched runs from the data folder: the launcher names the plugin
  const fetched = {
    ...runtime,
    compiled: true,
    execPath: `/data/binaries/1.0.0/${binaryName(TARGET)}`,
  };
  assert.deepEqual(
    findPluginRoot(envFrom({ LIBRARIAN_LAUNCHER: "/proj/lib/bin/librarian" }), fetched),
    { path: "/proj/lib", from: "launcher" },
  );
  assert.deepEqual(findPluginRoot(envFrom({}), runtime), {
    path: normalizePath(REPO_ROOT),
    from: "source",
  });
});

Deno.test("this repository is a plugin root the hooks can run from", async () => {
  const files = await inspectPluginRoot(normalizePath(REPO_ROOT), TARGET);
  assert.equal(files.launcher, "ok");
  assert.equal(files.hooksFile, "ok");
  assert.equal(files.source, true);
  assert.equal(pluginFilesProblem(files), undefined);
});

Deno.test("each broken plugin file is named", async () => {
  await using dir = await tempDir();
  const root = dir.path;
  const inspect = () => inspectPluginRoot(root, TARGET);
  assert.equal(pluginFilesProblem(await inspect()), "bin/librarian is missing");
  Deno.mkdirSync(`${root}/bin`);
  Deno.writeTextFileSync(`${root}/bin/librarian`, "#!/bin/bash\n");
  assert.equal(pluginFilesProblem(await inspect()), "bin/librarian is not the sh launcher");
  Deno.writeTextFileSync(`${root}/bin/librarian`, "#!/bin/sh\n");
  assert.equal(pluginFilesProblem(await inspect()), "hooks/hooks.json is missing");
  Deno.mkdirSync(`${root}/hooks`);
  Deno.writeTextFileSync(`${root}/hooks/hooks.json`, "{ not json");
  assert.equal(pluginFilesProblem(await inspect()), "hooks/hooks.json is not valid hooks JSON");
  Deno.writeTextFileSync(`${root}/hooks/hooks.json`, '{"hooks":{}}');
  assert.equal(pluginFilesProblem(await inspect()), "hooks/hooks.json does not run bin/librarian");
  Deno.copyFileSync(`${REPO_ROOT}/hooks/hooks.json`, `${root}/hooks/hooks.json`);
  assert.equal(
    pluginFilesProblem(await inspect()),
    "neither a compiled binary nor src/main.ts is there",
  );
  Deno.writeTextFileSync(`${root}/bin/${binaryName(TARGET)}`, "");
  const files = await inspect();
  assert.equal(files.binary, `${root}/bin/${binaryName(TARGET)}`);
  assert.equal(pluginFilesProblem(files), undefined);
});
