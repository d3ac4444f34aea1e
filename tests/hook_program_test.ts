/**
 * What `setup-hooks` writes into settings as the program to run (`src/setup/hook_program.ts`):
 * never the plugin's own copy, which moves with every update.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { LibrarianError } from "../src/core/errors.ts";
import {
  absolute,
  chooseProgram,
  chooseProject,
  isPluginCachePath,
} from "../src/setup/hook_program.ts";
import { tempDir } from "./helpers.ts";

Deno.test("a relative path is made absolute against the current folder", () => {
  assert.equal(absolute("../tools/librarian", "/repo/src"), "/repo/tools/librarian");
  assert.equal(absolute("/opt/librarian", "/repo"), "/opt/librarian");
});

Deno.test("the project: --project, else CLAUDE_PROJECT_DIR, else the library's, else the folder", async () => {
  await using dir = await tempDir();
  const project = dir.path;
  Deno.mkdirSync(`${project}/_memory_library`);
  Deno.mkdirSync(`${project}/src/deep`, { recursive: true });
  const env = envFrom({});
  assert.equal(await chooseProject("sub", env, project), `${project}/sub`);
  assert.equal(
    await chooseProject(undefined, envFrom({ CLAUDE_PROJECT_DIR: "/proj" }), project),
    "/proj",
  );
  assert.equal(await chooseProject(undefined, env, `${project}/src/deep`), project);
});

Deno.test("plugin cache and marketplace paths are recognised, in any case and separator", () => {
  assert.ok(isPluginCachePath("/h/.claude/plugins/cache/t/librarian/1/bin/librarian"));
  assert.ok(isPluginCachePath("C:\\Users\\a\\.claude\\Plugins\\Marketplaces\\t\\bin\\librarian"));
  assert.ok(!isPluginCachePath("/h/.claude/plugins/data/librarian/bin/librarian"));
});

Deno.test("--launcher: a launcher by its name, anything else as a binary; a missing file is refused", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/librarian`, "#!/bin/sh\n");
  Deno.writeTextFileSync(`${dir.path}/librarian-x86_64`, "");
  const env = envFrom({});
  assert.equal(chooseProgram("librarian", "sh", env, dir.path).kind, "launcher");
  assert.deepEqual(chooseProgram("librarian-x86_64", "sh", env, dir.path), {
    kind: "binary",
    path: `${dir.path}/librarian-x86_64`,
  });
  assert.throws(() => chooseProgram("nope", "sh", env, dir.path), LibrarianError);
});

Deno.test("the plugin's own launcher is refused, with what to do instead", () => {
  const env = envFrom({
    LIBRARIAN_LAUNCHER: "/h/.claude/plugins/cache/t/librarian/1/bin/librarian",
  });
  assert.throws(() => chooseProgram(undefined, "sh", env, "/"), /--env-only/);
});

Deno.test("PowerShell runs the compiled binary beside a launcher, and says so when there is none", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/librarian`, "#!/bin/sh\n");
  assert.throws(
    () => chooseProgram("librarian", "powershell", envFrom({}), dir.path),
    /PowerShell hooks run the compiled binary/,
  );
});
