/**
 * Once, both hooks: with the hooks wired by the plugin and in settings, Claude Code runs both
 * Stop hooks for every Stop, at the same time. The plugin's gets `CLAUDE_PLUGIN_DATA`, the
 * settings' does not; between them each Stop is handled once (filed once, nudged at most once,
 * told once), and both remember the session in the same state folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseLogLine } from "../src/core/log.ts";
import { parseHookStdout, runLibrarian, type RunResult, tempDir } from "./helpers.ts";
import {
  makeProject,
  makeTaggedFolders,
  nudgeOf,
  type Project,
  stopEvent,
  writeTranscript,
  writeTurn,
} from "./stop_fixtures.ts";

const NOW = "2026-11-30T12:00:00";

interface Wiring {
  /** The plugin's hook: Claude Code gives it its plugin data folder. */
  plugin: boolean;
  event?: Record<string, unknown>;
  env?: Record<string, string>;
}

async function stop(p: Project, transcript: string, wiring: Wiring): Promise<RunResult> {
  const result = await runLibrarian(["stop"], {
    stdin: stopEvent(p.root, {
      transcript_path: transcript,
      prompt_id: "prompt-1",
      last_assistant_message: "Done.",
      ...wiring.event,
    }),
    home: p.home,
    cwd: p.root,
    env: {
      LIBRARIAN_NOW: NOW,
      LIBRARIAN_LOG: join(p.base, "librarian.log"),
      ...(wiring.plugin
        ? { CLAUDE_PLUGIN_DATA: join(p.home, ".claude/plugins/data/librarian-x") }
        : {}),
      ...wiring.env,
    },
  });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

function output(result: RunResult): Record<string, unknown> {
  return parseHookStdout(result.stdout) ?? {};
}

async function stopLog(p: Project): Promise<Record<string, string>[]> {
  const text = await Deno.readTextFile(join(p.base, "librarian.log"));
  return text.trim().split("\n").map((line) => parseLogLine(line)!.fields);
}

async function editedProject(base: string) {
  const p = await makeProject(base, { "_memory_library/.scratch.md": "" });
  const transcript = await writeTranscript(p, writeTurn(p, "src/api/billing/invoice.ts"));
  return { p, transcript };
}

Deno.test("one Stop delivered to the plugin's hook and to a settings hook at once is nudged once", async () => {
  await using dir = await tempDir();
  const { p, transcript } = await editedProject(dir.path);
  const env = { LIBRARIAN_NUDGE: "turn" };
  const both = await Promise.all([
    stop(p, transcript, { plugin: true, env }),
    stop(p, transcript, { plugin: false, env }),
  ]);
  const nudges = both.map((r) => nudgeOf(output(r)));
  assert.equal(nudges.filter((n) => n !== undefined).length, 1, JSON.stringify(nudges));
  const results = (await stopLog(p)).map((f) => f.result).sort();
  assert.deepEqual(results, ["duplicate-event", "nothing-to-do"]);
});

Deno.test("the second delivery of a Stop, however late it starts, does nothing and says so in the log", async () => {
  await using dir = await tempDir();
  const { p, transcript } = await editedProject(dir.path);
  await makeTaggedFolders(p.root, "[TAG: src/api/billing,");
  await Deno.writeTextFile(p.scratch, "## [TAG: src/api/billing, type: edge]\n- Round once.\n");
  const first = await stop(p, transcript, { plugin: true, env: { LIBRARIAN_NUDGE: "turn" } });
  assert.match(String(output(first).systemMessage), /1 learning → src\/api\/billing\/edge\.md/);
  await Deno.writeTextFile(p.scratch, "## [TAG: src/api/billing, type: edge]\n- Round twice.\n");
  const second = await stop(p, transcript, { plugin: false, env: { LIBRARIAN_NUDGE: "turn" } });
  assert.deepEqual(output(second), {}, "no second message, no nudge");
  assert.equal((await stopLog(p)).at(-1)!.result, "duplicate-event");
  assert.match(await Deno.readTextFile(p.scratch), /Round twice/, "left for the next Stop");
});

Deno.test("the plugin's hook and a settings hook share the session's nudge record: once per session", async () => {
  await using dir = await tempDir();
  const { p, transcript } = await editedProject(dir.path);
  const first = await stop(p, transcript, { plugin: true });
  assert.ok(nudgeOf(output(first)));
  // The next turn's Stop happens to reach the settings hook first.
  const next = await stop(p, transcript, { plugin: false, event: { prompt_id: "prompt-2" } });
  assert.deepEqual(output(next), {});
  assert.equal((await stopLog(p)).at(-1)!.nudge, "already-nudged");
});

Deno.test("a Stop of the same prompt after a continuation, or without a prompt id, is another Stop", async () => {
  await using dir = await tempDir();
  const { p, transcript } = await editedProject(dir.path);
  const env = { LIBRARIAN_NUDGE: "turn" };
  assert.ok(nudgeOf(output(await stop(p, transcript, { plugin: true, env }))));
  const continued = await stop(p, transcript, {
    plugin: false,
    env,
    event: { stop_hook_active: true, last_assistant_message: "Nothing worth recording." },
  });
  assert.deepEqual(output(continued), {});
  assert.equal((await stopLog(p)).at(-1)!.nudge, "stop-hook-active", "handled, not a duplicate");
  for (let i = 0; i < 2; i++) {
    await stop(p, transcript, { plugin: i === 0, env, event: { prompt_id: undefined } });
  }
  const last = (await stopLog(p)).slice(-2).map((f) => f.result);
  assert.deepEqual(last, ["nothing-to-do", "nothing-to-do"], "no id: never taken for a duplicate");
});

Deno.test("the same prompt ending the same way a minute later is another Stop", async () => {
  await using dir = await tempDir();
  const { p, transcript } = await editedProject(dir.path);
  const env = { LIBRARIAN_NUDGE: "turn" };
  assert.ok(nudgeOf(output(await stop(p, transcript, { plugin: true, env }))));
  const stops = join(p.home, ".claude/librarian/stops");
  const [session] = [...Deno.readDirSync(stops)].map((e) => e.name);
  const records = [...Deno.readDirSync(join(stops, session!))].map((e) => e.name);
  assert.equal(records.length, 1);
  const minuteAgo = new Date(Date.now() - 60_000);
  await Deno.utime(join(stops, session!, records[0]!), minuteAgo, minuteAgo);
  assert.ok(nudgeOf(output(await stop(p, transcript, { plugin: false, env }))));
});
