/**
 * Packaging for other agents: the Codex trust check of `librarian doctor` (every hook of
 * hooks/hooks.json is named; an installed but untrusted plugin is told with the fix) and
 * `librarian setup-gemini --dir` (a Gemini CLI extension wiring the after-tool, session-start,
 * before-agent and after-agent events to this installation).
 */
import assert from "node:assert/strict";
import { CODEX_HOOK_KEYS, codexCheck, codexTrustOf } from "../src/commands/doctor/codex_check.ts";
import { envFrom } from "../src/core/env.ts";
import { LAUNCHER, REPO_ROOT, runLibrarian, tempDir } from "./helpers.ts";

const SNAKE: Record<string, string> = {
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  UserPromptSubmit: "user_prompt_submit",
  SessionStart: "session_start",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  Stop: "stop",
};

Deno.test("codex check: its hook keys are exactly the plugin's hooks/hooks.json entries", async () => {
  const hooks = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/hooks/hooks.json`)).hooks;
  const keys: string[] = [];
  for (const [event, groups] of Object.entries(hooks) as [string, { hooks: unknown[] }[]][]) {
    if (event === "InstructionsLoaded") continue; // Claude Code's own report: Codex has no such event
    groups.forEach((group, g) =>
      group.hooks.forEach((_, h) => keys.push(`${SNAKE[event]}:${g}:${h}`))
    );
  }
  assert.deepEqual([...keys].sort(), [...CODEX_HOOK_KEYS].sort());
});

Deno.test("codex check: installed and untrusted is a warning with the fix; trusted is fine", async () => {
  await using dir = await tempDir();
  const env = envFrom({ CODEX_HOME: dir.path });
  assert.equal(codexCheck(env), undefined, "no Codex configuration: nothing to say");
  const plugin = '[plugins."librarian@librarian"]\nenabled = true\n';
  await Deno.writeTextFile(`${dir.path}/config.toml`, plugin);
  const untrusted = codexCheck(env);
  assert.equal(untrusted?.status, "warn");
  assert.match(untrusted!.message, /10 of 10 hooks not trusted/);
  assert.match(untrusted!.fix ?? "", /\/hooks/);
  const trust = CODEX_HOOK_KEYS.map((key) =>
    `[hooks.state."librarian@librarian:hooks/hooks.json:${key}"]\n` +
    `trusted_hash = "sha256:aa"\ntrusted_content_hash = "sha256:bb"\n`
  ).join("\n");
  await Deno.writeTextFile(`${dir.path}/config.toml`, `${plugin}\n${trust}`);
  assert.equal(codexCheck(env)?.status, "ok");
  // a disabled plugin, or another plugin's trust, does not count
  assert.deepEqual(codexTrustOf('[plugins."librarian@x"]\nenabled = false\n').plugins, []);
  const other = codexTrustOf(
    `${plugin}[hooks.state."other@x:hooks/hooks.json:stop:0:0"]\ntrusted_hash = "h"\n`,
  );
  assert.equal(other.untrusted["librarian@librarian"]!.length, CODEX_HOOK_KEYS.length);
});

Deno.test("setup-gemini writes the extension: four events, after-tool context, absolute launcher", async () => {
  await using dir = await tempDir();
  const out = `${dir.path}/ext`;
  const result = await runLibrarian(["setup-gemini", "--dir", out], { cwd: dir.path });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /gemini extensions install/);
  const manifest = JSON.parse(await Deno.readTextFile(`${out}/gemini-extension.json`));
  assert.equal(manifest.name, "librarian");
  const hooks = JSON.parse(await Deno.readTextFile(`${out}/hooks/hooks.json`)).hooks;
  assert.deepEqual(Object.keys(hooks).sort(), [
    "AfterAgent",
    "AfterTool",
    "BeforeAgent",
    "SessionStart",
  ]);
  const commands = JSON.stringify(hooks);
  assert.ok(
    commands.includes(LAUNCHER.replaceAll("\\", "/")),
    "the hooks run this installation by absolute path",
  );
  assert.match(hooks.AfterTool[0].matcher, /read_file/);
  assert.match(hooks.AfterTool[0].matcher, /replace/);
  assert.equal(hooks.AfterTool[1].matcher, "run_shell_command");
  assert.ok(hooks.AfterAgent[0].hooks[0].timeout >= 10_000, "milliseconds");
  const again = await runLibrarian(["setup-gemini", "--dir", out], { cwd: dir.path });
  assert.match(again.stdout, /Nothing to change/);
  const missing = await runLibrarian(["setup-gemini"], { cwd: dir.path });
  assert.notEqual(missing.code, 0);
});

Deno.test("setup-gemini --dir refuses a folder that holds another extension and changes nothing in it", async () => {
  await using dir = await tempDir();
  const other = `${dir.path}/other`;
  await Deno.mkdir(`${other}/hooks`, { recursive: true });
  const manifest = '{ "name": "someone-else", "version": "1.0.0" }\n';
  const hooks = '{ "hooks": { "BeforeTool": [] } }\n';
  await Deno.writeTextFile(`${other}/gemini-extension.json`, manifest);
  await Deno.writeTextFile(`${other}/hooks/hooks.json`, hooks);
  const result = await runLibrarian(["setup-gemini", "--dir", other], { cwd: dir.path });
  assert.equal(result.code, 1, result.stdout);
  assert.match(
    result.stderr,
    /holds the Gemini CLI extension 'someone-else'.*choose another folder/,
  );
  assert.equal(await Deno.readTextFile(`${other}/gemini-extension.json`), manifest);
  assert.equal(await Deno.readTextFile(`${other}/hooks/hooks.json`), hooks);
  // a hooks.json with no manifest beside it is someone else's too
  const loose = `${dir.path}/loose`;
  await Deno.mkdir(`${loose}/hooks`, { recursive: true });
  await Deno.writeTextFile(`${loose}/hooks/hooks.json`, hooks);
  const refused = await runLibrarian(["setup-gemini", "--dir", loose], { cwd: dir.path });
  assert.equal(refused.code, 1, refused.stdout);
  assert.match(refused.stderr, /hooks\/hooks\.json .*not written by setup-gemini/);
  assert.equal(await Deno.readTextFile(`${loose}/hooks/hooks.json`), hooks);
  assert.equal(await Deno.stat(`${loose}/gemini-extension.json`).catch(() => null), null);
});

Deno.test("hooks.json: every context hook lifts Codex's 2,500-token cut (additionalContextLimit 0)", async () => {
  // Codex CLI truncates hook context past about 2,500 tokens unless the handler sets the key;
  // Claude Code 2.1.197 accepts it (claude plugin validate --strict, and the e2e suite runs with it).
  const hooks = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/hooks/hooks.json`)).hooks;
  for (
    const [event, groups] of Object.entries(hooks) as [
      string,
      { hooks: Record<string, unknown>[] }[],
    ][]
  ) {
    for (const group of groups) {
      for (const handler of group.hooks) {
        const inject = String(handler.command).includes(" inject");
        assert.equal(
          handler.additionalContextLimit,
          inject ? 0 : undefined,
          `${event}: ${handler.command}`,
        );
      }
    }
  }
});
