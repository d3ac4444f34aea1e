/**
 * Reading Claude Code settings files for `setup-hooks` (`src/setup/settings_file.ts`): a file
 * of the wrong shape stops the command with what to fix; the per-developer file stays out of git.
 */
import assert from "node:assert/strict";
import { LibrarianError } from "../src/core/errors.ts";
import { EXCLUDE_LINE, excludeFromGit, readSettings } from "../src/setup/settings_file.ts";
import { tempDir } from "./helpers.ts";

Deno.test("missing and blank settings files read as empty objects; whether it existed is kept", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/settings.json`;
  assert.deepEqual(readSettings(path), { settings: {}, existed: false });
  Deno.writeTextFileSync(path, " \n");
  assert.deepEqual(readSettings(path), { settings: {}, existed: true });
  Deno.writeTextFileSync(path, '\uFEFF{"model":"opus"}');
  assert.deepEqual(readSettings(path), { settings: { model: "opus" }, existed: true });
});

Deno.test("a settings file Claude Code would reject stops the command, naming the file and the fix", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/settings.json`;
  Deno.writeTextFileSync(path, '{"env":{"A":1}}');
  let error: unknown;
  try {
    readSettings(path);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof LibrarianError);
  assert.ok(error.message.startsWith(path));
  assert.match(error.message, /env\.A is a number, not a string/);
  assert.match(error.message, /fix it, then run this again$/);
});

Deno.test("the local settings file is excluded from git once, and only in a repository", async () => {
  await using dir = await tempDir();
  assert.equal(excludeFromGit(dir.path, false), false, "not a repository");
  Deno.mkdirSync(`${dir.path}/.git`);
  assert.equal(excludeFromGit(dir.path, true), true, "a dry run says it would");
  assert.throws(() => Deno.statSync(`${dir.path}/.git/info/exclude`), "and writes nothing");
  assert.equal(excludeFromGit(dir.path, false), true);
  assert.equal(Deno.readTextFileSync(`${dir.path}/.git/info/exclude`), `${EXCLUDE_LINE}\n`);
  assert.equal(excludeFromGit(dir.path, false), false, "already excluded");
});

Deno.test("a .gitignore that already names the file is respected", async () => {
  await using dir = await tempDir();
  Deno.mkdirSync(`${dir.path}/.git`);
  Deno.writeTextFileSync(`${dir.path}/.gitignore`, "node_modules\n.claude/settings.local.json\n");
  assert.equal(excludeFromGit(dir.path, false), false);
});
