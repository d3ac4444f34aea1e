/**
 * The plugin as Claude Code loads it: manifest, marketplace, hooks file and skills, checked against
 * the documented shapes and against the program they call.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { type CommandSpec } from "../src/cli/help.ts";
import { COMMANDS } from "../src/command_table.ts";
import { REPO_ROOT } from "./helpers.ts";

type Json = Record<string, unknown>;

async function readJson(...path: string[]): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(join(REPO_ROOT, ...path)));
}

const denoJson = await readJson("deno.json");
const plugin = await readJson(".claude-plugin", "plugin.json");
const marketplace = await readJson(".claude-plugin", "marketplace.json");
const hooksFile = await readJson("hooks", "hooks.json");

Deno.test("plugin.json names the plugin and carries deno.json's version and its metadata", () => {
  assert.equal(plugin.name, "librarian");
  assert.equal(plugin.version, denoJson.version);
  assert.equal(typeof plugin.description, "string");
  assert.ok((plugin.description as string).length > 20);
  assert.equal(typeof (plugin.author as Json)?.name, "string");
  assert.equal(plugin.license, "MIT");
  assert.ok(Array.isArray(plugin.keywords) && plugin.keywords.length > 0);
  // hooks/hooks.json loads by itself; naming it again is a "duplicate hooks file" load error.
  assert.equal(plugin.hooks, undefined);
});

Deno.test("only the manifest and the marketplace live in .claude-plugin/", () => {
  const names = [...Deno.readDirSync(join(REPO_ROOT, ".claude-plugin"))].map((e) => e.name).sort();
  assert.deepEqual(names, ["marketplace.json", "plugin.json"]);
});

Deno.test("marketplace.json lists librarian, installed from the release branch", () => {
  assert.match(marketplace.name as string, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.equal(typeof (marketplace.owner as Json)?.name, "string");
  const plugins = marketplace.plugins as Json[];
  const entry = plugins.find((p) => p.name === "librarian")!;
  assert.ok(entry, "an entry named librarian");
  const source = entry.source as Json;
  assert.equal(source.source, "github");
  assert.match(source.repo as string, /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/);
  assert.equal(source.ref, "release");
  if (entry.version !== undefined) assert.equal(entry.version, denoJson.version);
});

type Handler = {
  type: string;
  command: string;
  timeout: number;
  statusMessage?: string;
  args?: unknown;
};
type Group = { matcher?: string; hooks: Handler[] };

const events = hooksFile.hooks as Record<string, Group[]>;

Deno.test("hooks.json wraps its events in 'hooks' and registers exactly the six the Librarian needs", () => {
  assert.ok(events && typeof events === "object", "events under a top-level 'hooks' key");
  assert.deepEqual(Object.keys(events), [
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "SessionStart",
    "SubagentStart",
    "SubagentStop",
    "InstructionsLoaded",
    "Stop",
  ]);
  assert.deepEqual(events.SubagentStart!.map((g) => g.matcher), [undefined], "every agent type");
  // Bash on a group of its own, so that its events run the bundle with the shell-command reader
  assert.deepEqual(events.PreToolUse!.map((g) => g.matcher), [
    "Read|Edit|Write|MultiEdit|NotebookEdit|Grep|Glob",
    "Bash",
  ]);
  // after a Bash search only: a lone grep or rg that matched nothing (inject/after_shell_read.ts);
  // `if` keeps every other command from starting a process
  assert.deepEqual(events.PostToolUse!.map((g) => g.matcher), ["Bash"]);
  assert.deepEqual(
    events.PostToolUse![0]!.hooks.map((h) => (h as { if?: string }).if),
    ["Bash(grep *)", "Bash(rg *)"],
  );
  assert.deepEqual(events.UserPromptSubmit!.map((g) => g.matcher), [undefined]);
  assert.deepEqual(events.Stop!.map((g) => g.matcher), [undefined]);
  assert.deepEqual(events.SubagentStop!.map((g) => g.matcher), [undefined], "every agent type");
  const sources = events.SessionStart!.map((g) => g.matcher)[0]!.split("|");
  // fork: Claude Code 2.1.332's --fork-session (2.1.197 reported it as resume)
  for (const source of ["startup", "resume", "fork", "clear", "compact"]) {
    assert.ok(sources.includes(source));
  }
});

Deno.test("every hook calls the launcher through sh, in shell form, with the right subcommand", () => {
  for (const [event, groups] of Object.entries(events)) {
    for (const group of groups) {
      for (const handler of group.hooks) {
        assert.equal(handler.type, "command");
        assert.equal(handler.args, undefined, "shell form: exec form cannot pick the OS");
        const expected = event === "Stop" || event === "SubagentStop"
          ? "stop"
          : group.matcher === "Bash"
          ? "inject --shell"
          : event === "SessionStart" && handler !== group.hooks[0]
          ? "fetch-binary"
          : "inject";
        assert.equal(handler.command, `sh "\${CLAUDE_PLUGIN_ROOT}/bin/librarian" ${expected}`);
        if (expected === "fetch-binary") continue; // the launcher's own command
        assert.ok(expected.split(" ")[0]! in COMMANDS, `${expected} is a command of the program`);
      }
    }
  }
});

Deno.test("every hook has a status message and a timeout in seconds that fits its job", () => {
  for (const [event, groups] of Object.entries(events)) {
    for (const handler of groups.flatMap((g) => g.hooks)) {
      assert.ok(handler.statusMessage && handler.statusMessage.length > 5, event);
      assert.ok(Number.isInteger(handler.timeout), event);
      // Seconds, not milliseconds; long enough for a first (cold) run, short enough that a stuck
      // hook does not hold up the user.
      assert.ok(handler.timeout >= 5 && handler.timeout <= 60, `${event}: ${handler.timeout}`);
    }
  }
  // the binary is fetched on SessionStart only, in a hook of its own beside inject
  const start = events.SessionStart![0]!.hooks.map((h) => h.command.split(" ").at(-1));
  assert.deepEqual(start, ["inject", "fetch-binary"]);
  for (const [event, groups] of Object.entries(events)) {
    if (event === "SessionStart") continue;
    assert.ok(groups.every((g) => g.hooks.every((h) => !h.command.includes("fetch-binary"))));
  }
  const stop = events.Stop![0]!.hooks[0]!;
  const pre = events.PreToolUse![0]!.hooks[0]!;
  assert.ok(stop.timeout >= pre.timeout, "routing gets at least as long as injecting");
});

// ---------------------------------------------------------------------------------------------
// Skills

const SKILLS = [
  "import-library",
  "librarian",
  "librarian-curate",
  "librarian-help",
  "librarian-setup",
];

async function readSkill(name: string): Promise<{ front: Json; body: string }> {
  const text = await Deno.readTextFile(join(REPO_ROOT, "skills", name, "SKILL.md"));
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(match, `${name}: YAML front matter between --- lines`);
  return { front: parseYaml(match[1]!) as Json, body: match[2]! };
}

const LAUNCHER_CALL = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/librarian"';

/** Every `librarian <command> [--options]` a skill tells the model to run. */
function commandCalls(body: string): { command: string; options: string[] }[] {
  const calls: { command: string; options: string[] }[] = [];
  const pattern = /(?:bin\/librarian"?|`\.\.\.) ([a-z][a-z-]*)([^`\n]*)/g;
  for (const match of body.matchAll(pattern)) {
    const options = [...match[2]!.matchAll(/(?:^|\s)--([a-z][a-z-]*)/g)].map((m) => m[1]!);
    calls.push({ command: match[1]!, options });
  }
  return calls;
}

Deno.test("the five skills exist, each with a name matching its folder and a description", async () => {
  const folders = [...Deno.readDirSync(join(REPO_ROOT, "skills"))]
    .filter((e) => e.isDirectory).map((e) => e.name).sort();
  assert.deepEqual(folders, SKILLS);
  for (const name of SKILLS) {
    const { front } = await readSkill(name);
    assert.equal(front.name, name);
    assert.equal(typeof front.description, "string");
    const description = front.description as string;
    assert.ok(description.length > 40 && description.length <= 1024, name);
  }
});

Deno.test("skills that change files run only when the user asks", async () => {
  for (const name of ["librarian-setup", "import-library", "librarian-curate"]) {
    assert.equal((await readSkill(name)).front["disable-model-invocation"], true, name);
  }
});

Deno.test("skills run the librarian program through the plugin's launcher", async () => {
  for (const name of SKILLS) {
    const { body } = await readSkill(name);
    assert.ok(body.includes(LAUNCHER_CALL), `${name} uses ${LAUNCHER_CALL}`);
    assert.ok(commandCalls(body).length > 0, name);
  }
});

Deno.test("every command and option a skill uses exists in the program", async () => {
  for (const name of SKILLS) {
    for (const call of commandCalls((await readSkill(name)).body)) {
      const entry = COMMANDS[call.command];
      assert.ok(entry, `${name}: '${call.command}' is not a librarian command`);
      const module = await entry.load() as unknown as { SPEC?: CommandSpec };
      const known = new Set([...Object.keys(module.SPEC?.options ?? {}), "help"]);
      for (const option of call.options) {
        assert.ok(known.has(option), `${name}: '${call.command} --${option}' is not an option`);
      }
    }
  }
});

Deno.test("each skill covers the commands its issue names", async () => {
  const uses = async (name: string) =>
    new Set(commandCalls((await readSkill(name)).body).map((c) => c.command));
  const librarian = await uses("librarian");
  for (const command of ["read", "route", "status"]) assert.ok(librarian.has(command), command);
  const setup = await uses("librarian-setup");
  for (const command of ["init", "setup-hooks", "import", "doctor"]) assert.ok(setup.has(command));
  const importing = await uses("import-library");
  for (const command of ["import", "route", "lint"]) assert.ok(importing.has(command), command);
  const curate = await uses("librarian-curate");
  for (const command of ["read", "lint", "tidy"]) assert.ok(curate.has(command), command);
  const help = (await readSkill("librarian-help")).body;
  assert.match(help, /## \[TAG: src\/api\/billing, type: edge\]/);
  assert.match(help, /librarian\.log/);
});
