/**
 * "Once means once" under the conditions real Claude Code creates: parallel tool calls, hooks
 * wired twice, session and subagent starts, forks. Each test runs the hook as Claude Code does
 * (`sh bin/librarian inject`, one event on stdin), several processes at once where it matters.
 */
import assert from "node:assert/strict";
import { openLedger } from "../src/inject/ledger.ts";
import { parseHookStdout, runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const SIBLINGS = ["a", "b", "c", "d", "e", "f"];

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "- ROOT-TECH",
  "proj/_memory_library/patterns.md": "- ROOT-PATTERNS",
  "proj/_memory_library/.scratch.md": "",
  "proj/_memory_library/pkg/shared.md": "- PKG-SHARED",
  ...Object.fromEntries(
    SIBLINGS.map((s) => [`proj/_memory_library/pkg/${s}/own.md`, `- OWN-${s}`]),
  ),
};

interface Hooked {
  event: string;
  context: string;
}

async function run(
  p: TempProject,
  event: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  const result = await runLibrarian(["inject"], {
    stdin: JSON.stringify({ cwd: p.root, ...event }),
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_LOG: `${p.dir.path}/librarian.log`, ...env },
    deadlineMs: 30_000,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!result.killed);
  const out = parseHookStdout(result.stdout);
  if (out === null) return null;
  const specific = out.hookSpecificOutput as Record<string, string>;
  assert.ok(!result.stdout.includes("permissionDecision"));
  return { event: specific.hookEventName!, context: specific.additionalContext! } as Hooked;
}

function read(session: string, file: string, extra: Record<string, unknown> = {}) {
  return {
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: file },
    tool_use_id: `toolu_${crypto.randomUUID()}`,
    ...extra,
  };
}

function labels(context: string | undefined): string[] {
  return [...(context ?? "").matchAll(/^--- \[(.+)\] ---$/gm)].map((m) => m[1]!);
}

/** How often each label was sent, over all outputs. */
function counts(outputs: (Hooked | null)[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const label of outputs.flatMap((o) => labels(o?.context))) {
    seen.set(label, (seen.get(label) ?? 0) + 1);
  }
  return seen;
}

const ALL_LABELS = [
  "tech.md (library root)",
  "patterns.md (library root)",
  "pkg/shared.md",
  ...SIBLINGS.map((s) => `pkg/${s}/own.md`),
].sort();

async function logLines(p: TempProject): Promise<string[]> {
  return (await Deno.readTextFile(`${p.dir.path}/librarian.log`)).trim().split("\n");
}

Deno.test("six parallel Reads in sibling folders: every library file exactly once, every time", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  for (let round = 0; round < 4; round++) {
    const session = `parallel-${round}`;
    const outputs = await Promise.all(
      SIBLINGS.map((s) => run(p, read(session, `${p.root}/pkg/${s}/x.ts`))),
    );
    const seen = counts(outputs);
    assert.deepEqual([...seen.keys()].sort(), ALL_LABELS, `round ${round}: every file sent`);
    for (const [label, n] of seen) assert.equal(n, 1, `round ${round}: ${label} sent ${n} times`);
  }
});

Deno.test("hooks wired twice (the same event, two processes at once): sent once, the copy sends nothing", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  for (let round = 0; round < 4; round++) {
    const event = read(`twice-${round}`, `${p.root}/pkg/a/x.ts`);
    const outputs = await Promise.all([run(p, event), run(p, event)]);
    assert.equal(outputs.filter((o) => o !== null).length, 1, `round ${round}`);
    const prompt = {
      session_id: `twice-${round}`,
      hook_event_name: "UserPromptSubmit",
      prompt: "hello",
      prompt_id: `p-${round}`,
    };
    const reminders = await Promise.all([run(p, prompt), run(p, prompt)]);
    assert.equal(reminders.filter((o) => o !== null).length, 1, `round ${round}: one reminder`);
  }
  const log = await logLines(p);
  assert.ok(log.some((l) => /result=duplicate-event/.test(l)) || log.length > 0);
});

Deno.test("a lock that cannot be had in time: nothing is sent, and the log says why", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const state = `${p.dir.path}/state`;
  const env = { LIBRARIAN_STATE_DIR: state, LIBRARIAN_LOCK_TIMEOUT_MS: "150" };
  const held = openLedger(state, { sessionId: "held" }, 1000)!;
  try {
    assert.equal(await run(p, read("held", `${p.root}/pkg/a/x.ts`), env), null);
  } finally {
    held.release();
  }
  assert.match((await logLines(p)).at(-1)!, /result=lock-timeout/);
  assert.ok(await run(p, read("held", `${p.root}/pkg/a/x.ts`), env), "sent once the lock is free");
});

Deno.test("SessionStart sends the root files once; a first touch then sends only its folders' files", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  for (const source of ["startup", "resume", "clear", "compact"]) {
    const session = `start-${source}`;
    const start = { session_id: session, hook_event_name: "SessionStart", source };
    const outputs = await Promise.all([run(p, start), run(p, start)]);
    const sent = outputs.filter((o) => o !== null);
    assert.equal(sent.length, 1, `${source}: sent once even when wired twice`);
    assert.equal(sent[0]!.event, "SessionStart");
    assert.deepEqual(labels(sent[0]!.context), [
      "patterns.md (library root)",
      "tech.md (library root)",
    ]);
    const touch = await run(p, read(session, `${p.root}/pkg/a/x.ts`));
    assert.deepEqual(labels(touch?.context), ["pkg/a/own.md", "pkg/shared.md"], source);
  }
});

Deno.test("LIBRARIAN_SESSION_START=off: no root files at start; the first touch brings them", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const env = { LIBRARIAN_SESSION_START: "off" };
  const start = { session_id: "off", hook_event_name: "SessionStart", source: "startup" };
  assert.equal(await run(p, start, env), null);
  const touch = await run(p, read("off", `${p.root}/pkg/a/x.ts`), env);
  assert.deepEqual(labels(touch?.context), [
    "pkg/a/own.md",
    "pkg/shared.md",
    "patterns.md (library root)",
    "tech.md (library root)",
  ]);
});

Deno.test("a subagent gets the tagging reminder and the root files in its own window, once", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const session = "with-agent";
  assert.ok(
    await run(p, { session_id: session, hook_event_name: "SessionStart", source: "startup" }),
  );
  const start = {
    session_id: session,
    hook_event_name: "SubagentStart",
    agent_id: "agent-1",
    agent_type: "general-purpose",
  };
  const outputs = await Promise.all([run(p, start), run(p, start)]);
  const sent = outputs.filter((o) => o !== null);
  assert.equal(sent.length, 1, "wired twice: once");
  assert.equal(sent[0]!.event, "SubagentStart");
  assert.ok(sent[0]!.context.includes(`${p.root}/_memory_library/.scratch.md`));
  assert.match(sent[0]!.context, /## \[TAG: /);
  assert.deepEqual(labels(sent[0]!.context), [
    "patterns.md (library root)",
    "tech.md (library root)",
  ]);
  const touch = await run(p, read(session, `${p.root}/pkg/a/x.ts`, { agent_id: "agent-1" }));
  assert.deepEqual(labels(touch?.context), ["pkg/a/own.md", "pkg/shared.md"]);
});

Deno.test("a fork starts from what its parent had: nothing the parent was sent comes again", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const session = "forked";
  await run(p, { session_id: session, hook_event_name: "SessionStart", source: "startup" });
  await run(p, { session_id: session, hook_event_name: "UserPromptSubmit", prompt: "go" });
  await run(p, read(session, `${p.root}/pkg/a/x.ts`));
  const fork = {
    session_id: session,
    hook_event_name: "SubagentStart",
    agent_id: "fork-1",
    agent_type: "fork",
  };
  assert.equal(await run(p, fork), null, "the fork's window already holds the reminder and root");
  const sameFolder = await run(p, read(session, `${p.root}/pkg/a/y.ts`, { agent_id: "fork-1" }));
  assert.equal(sameFolder, null, "the parent's folder files are in the inherited conversation");
  const other = await run(p, read(session, `${p.root}/pkg/b/x.ts`, { agent_id: "fork-1" }));
  assert.deepEqual(labels(other?.context), ["pkg/b/own.md"]);
  // the parent's own window is untouched by what the fork was sent
  const parent = await run(p, read(session, `${p.root}/pkg/b/x.ts`));
  assert.deepEqual(labels(parent?.context), ["pkg/b/own.md"]);
});

Deno.test("a real global/ folder and the library root are told apart, and each is sent once", async () => {
  const p = await tempProject({
    "proj/_memory_library/tech.md": "- ROOT",
    "proj/_memory_library/global/tech.md": "- GLOBAL-FOLDER",
    "proj/global/x.ts": "",
  });
  await using _ = p.dir;
  const first = await run(p, read("g", `${p.root}/global/x.ts`));
  assert.deepEqual(labels(first?.context), ["global/tech.md", "tech.md (library root)"]);
  assert.equal(await run(p, read("g", `${p.root}/global/x.ts`)), null, "both recorded");
});

Deno.test("a ledger left over from the previous format is read as empty, once, and replaced", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const state = `${p.dir.path}/state`;
  const env = { LIBRARIAN_STATE_DIR: state };
  await Deno.mkdir(`${state}/ledgers/old`, { recursive: true });
  await Deno.writeTextFile(
    `${state}/ledgers/old/main.json`,
    JSON.stringify({ files: { [`${p.root}/_memory_library/tech.md`]: "1:2:abc" }, reminded: true }),
  );
  assert.ok(await run(p, read("old", `${p.root}/pkg/a/x.ts`), env));
  assert.match((await logLines(p)).at(-1)!, /ledger_discarded="format version undefined, not 2"/);
  assert.equal(await run(p, read("old", `${p.root}/pkg/a/x.ts`), env), null);
});
