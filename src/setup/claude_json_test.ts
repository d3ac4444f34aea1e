/**
 * The validators for Claude Code's own JSON files (`src/setup/claude_json.ts`): a file of the
 * wrong shape is named with where it is wrong, never trusted after a shallow check.
 */
import assert from "node:assert/strict";
import {
  hooksFileProblems,
  hooksProblems,
  installedPluginsProblems,
  parseChecked,
  settingsProblems,
} from "./claude_json.ts";

Deno.test("hooks: each level of the nesting is checked and named by its path", () => {
  assert.deepEqual(hooksProblems({ Stop: [{ hooks: [{ type: "command", command: "x" }] }] }), []);
  assert.deepEqual(hooksProblems([]), ["hooks is an array, not an object"]);
  assert.deepEqual(hooksProblems({ Stop: [7] }), ["hooks.Stop[0] is a number, not an object"]);
  assert.deepEqual(hooksProblems({ PreToolUse: [{ matcher: 1, hooks: [] }] }), [
    "hooks.PreToolUse[0].matcher is not a string",
  ]);
  assert.deepEqual(hooksProblems({ Stop: [{}] }), ["hooks.Stop[0].hooks is missing, not a list"]);
});

Deno.test("settings: env values are strings, enabledPlugins are true or false; other keys are free", () => {
  assert.deepEqual(settingsProblems({ model: 1, permissions: {}, env: {} }), []);
  assert.deepEqual(settingsProblems([]), ["the file holds an array, not a JSON object"]);
  assert.deepEqual(settingsProblems({ env: { A: true } }), ["env.A is a boolean, not a string"]);
  assert.deepEqual(settingsProblems({ enabledPlugins: { "librarian@x": "yes" } }), [
    "enabledPlugins.librarian@x is a string, not true or false",
  ]);
  assert.deepEqual(settingsProblems({ enabledPlugins: { "librarian@x": false } }), []);
});

Deno.test("installed plugins: version 1 records and version 2 lists both need an installPath", () => {
  assert.deepEqual(
    installedPluginsProblems({ version: 1, plugins: { "a@b": { installPath: "/p" } } }),
    [],
  );
  assert.deepEqual(installedPluginsProblems({ version: 2, plugins: { "a@b": [{}] } }), [
    "plugins.a@b[0].installPath is not a string",
  ]);
  assert.deepEqual(installedPluginsProblems({ version: "2", plugins: {} }), [
    "version is not a number",
  ]);
});

Deno.test("a plugin's hooks.json needs its hooks object", () => {
  assert.deepEqual(hooksFileProblems({ description: "d", hooks: {} }), []);
  assert.deepEqual(hooksFileProblems({ description: 1, hooks: {} }), [
    "description is not a string",
  ]);
});

Deno.test("parsing: a BOM is allowed; broken JSON and wrong shapes say which, at most three problems", () => {
  assert.deepEqual(parseChecked('\uFEFF{"env":{}}', settingsProblems), {
    ok: true,
    value: { env: {} },
  });
  const broken = parseChecked("{", settingsProblems);
  assert.ok(!broken.ok && broken.problem.startsWith("is not valid JSON ("));
  const shape = parseChecked('{"env":{"A":1,"B":2,"C":3,"D":4}}', settingsProblems);
  assert.ok(!shape.ok);
  assert.equal(
    shape.problem,
    "is not in the shape Claude Code reads (env.A is a number, not a string; env.B is a number, " +
      "not a string; env.C is a number, not a string; ...)",
  );
});
