/**
 * A forked session (`--resume <id> --fork-session`) inherits its parent's context window, through
 * the hook process: Claude Code 2.1.332 starts it as SessionStart `source: "fork"` (a new session
 * id, `seconds_since_last_response`, the fork's transcript not written yet), 2.1.197 as `resume`
 * under the parent's id and then prompts under the new id (`src/inject/fork_parent.ts`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- ROOT-TECH: deno 2\n",
  "proj/_memory_library/src/api/edge.md": "# Edge\n- API-EDGE: handlers return results.\n",
  "proj/src/api/x.ts": "export const X = 1;\n",
};

const PARENT = "11111111-parent";
const FORK = "22222222-fork";

let ids = 0;

/** Runs the inject hook; returns the context it sent ("" for none). */
async function hook(p: TempProject, event: Record<string, unknown>): Promise<string> {
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({ cwd: p.root, tool_use_id: `toolu_${++ids}`, ...event }),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_LOG: `${p.dir.path}/librarian.log`, LIBRARIAN_HINT: "off" },
  });
  assert.equal(result.code, 0, result.stderr);
  if (result.stdout.trim() === "") return "";
  return JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
}

async function lastLog(p: TempProject): Promise<Record<string, string>> {
  const lines = (await Deno.readTextFile(`${p.dir.path}/librarian.log`)).trim().split("\n");
  return Object.fromEntries(
    [...lines.at(-1)!.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/^"|"$/g, ""),
    ]),
  );
}

/** A parent session that got its root files, its reminder and src/api's files; its transcript. */
async function parentSession(p: TempProject): Promise<string> {
  const transcripts = join(p.dir.path, "transcripts");
  await Deno.mkdir(transcripts, { recursive: true });
  const transcript = (id: string) => join(transcripts, `${id}.jsonl`);
  await Deno.writeTextFile(transcript(PARENT), '{"type":"user"}\n');
  const base = { session_id: PARENT, transcript_path: transcript(PARENT) };
  assert.match(
    await hook(p, { ...base, hook_event_name: "SessionStart", source: "startup" }),
    /ROOT-TECH/,
  );
  assert.match(
    await hook(p, { ...base, hook_event_name: "UserPromptSubmit", prompt: "x" }),
    /keeps a memory library/,
  );
  const read = { tool_name: "Read", tool_input: { file_path: `${p.root}/src/api/x.ts` } };
  assert.match(await hook(p, { ...base, hook_event_name: "PreToolUse", ...read }), /API-EDGE/);
  return transcripts;
}

Deno.test("a fork (SessionStart source fork, 2.1.332) is sent nothing its parent had: no root files, no reminder, no folder files", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const transcripts = await parentSession(p);
  // another session, written long before the parent's last response: not the parent
  await Deno.writeTextFile(join(transcripts, "33333333-other.jsonl"), "{}\n");
  await Deno.utime(join(transcripts, "33333333-other.jsonl"), new Date(0), new Date(0));
  const fork = { session_id: FORK, transcript_path: join(transcripts, `${FORK}.jsonl`) };
  // the parent's last response a minute ago: its transcript, written since, is the latest after
  // it (a minute, so that the parent's hooks above may take long on a loaded machine or Wine)
  const start = await hook(p, {
    ...fork,
    hook_event_name: "SessionStart",
    source: "fork",
    seconds_since_last_response: 60,
  });
  assert.equal(start, "", "the fork holds the root files already");
  assert.equal((await lastLog(p)).parent, PARENT.slice(0, 8));
  assert.equal(await hook(p, { ...fork, hook_event_name: "UserPromptSubmit", prompt: "y" }), "");
  const read = { tool_name: "Read", tool_input: { file_path: `${p.root}/src/api/x.ts` } };
  assert.equal(await hook(p, { ...fork, hook_event_name: "PreToolUse", ...read }), "");
});

Deno.test("a fork whose parent cannot be told is started as a new window: root files and reminder", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const transcripts = await parentSession(p);
  await Deno.utime(join(transcripts, `${PARENT}.jsonl`), new Date(0), new Date(0));
  const fork = { session_id: FORK, transcript_path: join(transcripts, `${FORK}.jsonl`) };
  const start = await hook(p, {
    ...fork,
    hook_event_name: "SessionStart",
    source: "fork",
    seconds_since_last_response: 1,
  });
  assert.match(start, /ROOT-TECH/);
  assert.equal((await lastLog(p)).parent, "none");
});

Deno.test("a fork started as resume under its parent's id (2.1.197) inherits the root files and reminder, not the folder files its conversation lost", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const transcripts = await parentSession(p);
  const resumed = { session_id: PARENT, transcript_path: join(transcripts, `${PARENT}.jsonl`) };
  assert.equal(
    await hook(p, { ...resumed, hook_event_name: "SessionStart", source: "resume" }),
    "",
  );
  const fork = { session_id: FORK, transcript_path: join(transcripts, `${FORK}.jsonl`) };
  assert.equal(await hook(p, { ...fork, hook_event_name: "UserPromptSubmit", prompt: "y" }), "");
  assert.equal((await lastLog(p)).parent, PARENT.slice(0, 8));
  const read = { tool_name: "Read", tool_input: { file_path: `${p.root}/src/api/x.ts` } };
  const context = await hook(p, { ...fork, hook_event_name: "PreToolUse", ...read });
  assert.match(context, /API-EDGE/);
  assert.doesNotMatch(context, /ROOT-TECH/);
});
