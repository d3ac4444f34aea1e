/**
 * No write made blind (`src/inject/hold.ts`), through the hook process (`sh bin/librarian inject`):
 * the first write into a folder whose library files never reached this context window is held
 * once (a `deny` whose reason is the folder's context); recorded before it is answered, so the
 * call made again passes; never for a folder already sent or with no library files, never when
 * anything fails, never `allow` or `ask`; `LIBRARIAN_HOLD=off` turns it off; subagents keep their
 * own; the log and `librarian sent` show each hold.
 */
import assert from "node:assert/strict";
import { parseLogLine } from "../src/core/log.ts";
import { takeLock } from "../src/core/lock.ts";
import { ledgerLockPath, ledgerPath } from "../src/inject/ledger_paths.ts";
import { runLibrarian, type TempProject, tempProject } from "./helpers.ts";
import { MIN_BUDGET } from "../src/core/env.ts";
import { wineSample } from "./platform.ts";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: deno 2\n",
  "proj/_memory_library/src/models/migration.md":
    "# Migration guide\n- MODELS-MIGRATION: every model gets a created_at column.\n",
  "proj/_memory_library/src/api/patterns.md": "# API\n- API-PATTERNS: handlers return results.\n",
  "proj/src/models/user.ts": "export const USER = 1;\n",
  "proj/src/api/x.ts": "export const X = 1;\n",
};

/** What one hook run answered. */
interface Answer {
  /** `held` (a deny), `context` (additionalContext) or `none` (no output). */
  kind: "held" | "context" | "none";
  text: string;
}

let ids = 0;

async function hook(
  p: TempProject,
  event: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Answer> {
  const stdin = JSON.stringify({
    session_id: "hold-session",
    hook_event_name: "PreToolUse",
    tool_use_id: `toolu_${++ids}`,
    cwd: p.root,
    ...event,
  });
  const result = await runLibrarian(["inject"], {
    stdin,
    home: p.home,
    cwd: p.root,
    // (the tagging hint of a first edit is the hint tests' business)
    env: { LIBRARIAN_LOG: `${p.dir.path}/librarian.log`, LIBRARIAN_HINT: "off", ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /"(allow|ask|defer)"|updatedInput/, "never approves or asks");
  if (result.stdout.trim() === "") return { kind: "none", text: "" };
  const out = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(out), ["hookSpecificOutput"]);
  const specific = out.hookSpecificOutput;
  if ("permissionDecision" in specific) {
    assert.deepEqual(specific, {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: specific.permissionDecisionReason,
    });
    return { kind: "held", text: specific.permissionDecisionReason };
  }
  assert.deepEqual(Object.keys(specific).sort(), ["additionalContext", "hookEventName"]);
  return { kind: "context", text: specific.additionalContext };
}

function write(p: TempProject, rel: string, extra: Record<string, unknown> = {}) {
  return {
    tool_name: "Write",
    tool_input: { file_path: `${p.root}/${rel}`, content: "export const A = 1;\n" },
    ...extra,
  };
}

function bash(command: string, extra: Record<string, unknown> = {}) {
  return { tool_name: "Bash", tool_input: { command, description: "scripted" }, ...extra };
}

async function logResults(p: TempProject): Promise<Record<string, string>[]> {
  const text = await Deno.readTextFile(`${p.dir.path}/librarian.log`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => parseLogLine(l)!.fields);
}

/** The library root's files, sent as a real session start would. */
async function sessionStart(p: TempProject, session = "hold-session") {
  const stdin = JSON.stringify({
    session_id: session,
    hook_event_name: "SessionStart",
    source: "startup",
    cwd: p.root,
  });
  const result = await runLibrarian(["inject"], { stdin, home: p.home, cwd: p.root });
  assert.equal(result.code, 0, result.stderr);
}

Deno.test("a Write of a new file in a folder with a library file is held once with the folder's context; the call made again passes; a second Write there is not held", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  await sessionStart(p);
  const first = await hook(p, write(p, "src/models/order.ts"));
  assert.equal(first.kind, "held");
  assert.match(
    first.text,
    /^\[Librarian\] Read the library notes for src\/models below, then make this Write again/,
  );
  assert.match(
    first.text,
    /\n\n\[Librarian\] Memory library context for src\/models\/order\.ts[: ]/,
  );
  assert.match(first.text, /MODELS-MIGRATION/);
  assert.doesNotMatch(first.text, /GLOBAL-TECH/, "the root's files came at session start");
  assert.ok(first.text.length <= 9000);

  assert.deepEqual(await hook(p, write(p, "src/models/order.ts")), { kind: "none", text: "" });
  assert.deepEqual(await hook(p, write(p, "src/models/invoice.ts")), { kind: "none", text: "" });
  const results = (await logResults(p)).filter((f) => f.event === "PreToolUse");
  assert.deepEqual(results.map((f) => f.result), ["held", "all-sent", "all-sent"]);
  assert.equal(results[0]!.held, "src/models");

  const ledger = JSON.parse(
    await Deno.readTextFile(
      ledgerPath(`${p.home}/.claude/librarian`, { sessionId: "hold-session" }),
    ),
  );
  assert.deepEqual(ledger.held, [`${p.root}/src/models`], "recorded in the ledger");
  assert.ok(
    Object.keys(ledger.files).includes(`${p.root}/_memory_library/src/models/migration.md`),
  );
});

Deno.test("never held: a folder already sent (a Read came first), an Edit after its Read, a folder with no library files, a Read", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  await sessionStart(p);
  const read = await hook(p, {
    tool_name: "Read",
    tool_input: { file_path: `${p.root}/src/models/user.ts` },
  });
  assert.equal(read.kind, "context");
  assert.match(read.text, /MODELS-MIGRATION/);
  assert.equal((await hook(p, write(p, "src/models/user.ts"))).kind, "none");
  const edit = {
    tool_name: "Edit",
    tool_input: { file_path: `${p.root}/src/models/user.ts`, old_string: "1", new_string: "2" },
  };
  assert.equal((await hook(p, edit)).kind, "none");
  assert.equal((await hook(p, write(p, "src/web/app.ts"))).kind, "none", "no library files");
  assert.equal((await hook(p, write(p, "README.md"))).kind, "none", "the root was sent at start");
  const results = (await logResults(p)).filter((f) => f.event === "PreToolUse");
  assert.ok(results.every((f) => f.result !== "held"), JSON.stringify(results));
});

Deno.test("LIBRARIAN_HOLD=off: the first Write gets its context with the result, as before", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const off = { LIBRARIAN_HOLD: "off" };
  const first = await hook(p, write(p, "src/models/order.ts"), off);
  assert.equal(first.kind, "context");
  assert.match(first.text, /^\[Librarian\] Memory library context for src\/models\/order\.ts:/);
  assert.match(first.text, /MODELS-MIGRATION/);
  const [line] = await logResults(p);
  assert.equal(line!.result, "injected");
});

Deno.test("Bash: a command that writes a project file (sed -i, >, tee, a here-document, cp, git mv) is held once per folder; one that only reads is not", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  await sessionStart(p);
  const sed = await hook(p, bash("sed -i 's/1/2/' src/models/user.ts"));
  assert.equal(sed.kind, "held");
  assert.match(
    sed.text,
    /^\[Librarian\] Read the library notes for src\/models below, then make this Bash command again/,
  );
  assert.match(sed.text, /MODELS-MIGRATION/);
  assert.equal((await hook(p, bash("sed -i 's/1/2/' src/models/user.ts"))).kind, "none");
  for (
    const [session, command] of wineSample([
      ["heredoc", "cat > src/models/order.ts <<'EOF'\nexport {};\nEOF"],
      ["redirect", "echo 'export {}' >> src/models/user.ts"],
      ["tee", "printf x | tee src/models/order.ts"],
      ["cp", "cp src/api/x.ts src/models/"],
      ["git-mv", "git mv src/api/x.ts src/models/x.ts"],
    ])
  ) {
    await sessionStart(p, session);
    const answer = await hook(p, bash(command!, { session_id: session }));
    assert.equal(answer.kind, "held", command);
    assert.match(answer.text, /MODELS-MIGRATION/, command);
  }
  await sessionStart(p, "reads");
  const cat = await hook(p, bash("cat src/models/user.ts", { session_id: "reads" }));
  assert.equal(cat.kind, "context", "a read is never held");
  const cp = await hook(p, bash("cp src/models/user.ts /tmp/x.ts", { session_id: "reads" }));
  assert.equal(cp.kind, "none", "a copy out of the folder writes nothing in the project");
});

Deno.test("never held when anything fails: no session, a lock held elsewhere, a damaged ledger, a state folder that cannot be written", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const noSession = await hook(p, write(p, "src/models/a.ts", { session_id: undefined }));
  assert.equal(noSession.kind, "context", "no ledger: the call goes through with its context");

  const state = `${p.home}/.claude/librarian`;
  {
    using _lock = takeLock(ledgerLockPath(state, { sessionId: "locked" }), 100)!;
    const locked = await hook(p, write(p, "src/models/a.ts", { session_id: "locked" }), {
      LIBRARIAN_LOCK_TIMEOUT_MS: "100",
    });
    assert.equal(locked.kind, "none", "lock timeout: nothing sent, nothing held");
  }

  const damaged = ledgerPath(state, { sessionId: "damaged" });
  await Deno.mkdir(damaged.slice(0, damaged.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(damaged, "{ not json");
  const bad = await hook(p, write(p, "src/models/a.ts", { session_id: "damaged" }));
  assert.equal(bad.kind, "context", "a damaged ledger: no hold");

  if (Deno.build.os !== "windows" && Deno.uid() !== 0) {
    const readOnly = `${p.dir.path}/read-only-state`;
    await Deno.mkdir(`${readOnly}/ledgers/ro`, { recursive: true });
    await Deno.chmod(`${readOnly}/ledgers/ro`, 0o500);
    const ro = await hook(p, write(p, "src/models/a.ts", { session_id: "ro" }), {
      LIBRARIAN_STATE_DIR: readOnly,
    });
    assert.equal(ro.kind, "context", "a ledger that cannot be written: no hold");
    await Deno.chmod(`${readOnly}/ledgers/ro`, 0o700);
  }
  const results = (await logResults(p)).filter((f) => f.event === "PreToolUse");
  assert.deepEqual(results.map((f) => f.result).slice(0, 3), [
    "injected",
    "lock-timeout",
    "injected",
  ]);
});

Deno.test("subagents and forks follow their own ledgers; librarian sent shows each hold", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  await sessionStart(p);
  assert.equal((await hook(p, write(p, "src/models/a.ts"))).kind, "held");
  const agent = { agent_id: "agent-1", agent_type: "general-purpose" };
  assert.equal((await hook(p, write(p, "src/models/a.ts", agent))).kind, "held", "its own window");
  assert.equal((await hook(p, write(p, "src/models/b.ts", agent))).kind, "none");

  const start = await runLibrarian(["inject"], {
    stdin: JSON.stringify({
      session_id: "hold-session",
      hook_event_name: "SubagentStart",
      agent_id: "fork-1",
      agent_type: "fork",
      cwd: p.root,
    }),
    home: p.home,
    cwd: p.root,
  });
  assert.equal(start.code, 0);
  const fork = { agent_id: "fork-1", agent_type: "fork" };
  assert.equal(
    (await hook(p, write(p, "src/models/c.ts", fork))).kind,
    "none",
    "a fork has what its parent had",
  );
  assert.equal((await hook(p, write(p, "src/api/new.ts", fork))).kind, "held");

  const sent = await runLibrarian(["sent", "hold-session", "--json"], {
    cwd: p.root,
    home: p.home,
  });
  assert.equal(sent.code, 0, sent.stderr);
  const windows = JSON.parse(sent.stdout).windows as { window: string; held: string[] }[];
  assert.deepEqual(
    Object.fromEntries(windows.map((w) => [w.window, w.held])),
    { main: ["src/models"], "agent-agent-1": ["src/models"], "agent-fork-1": ["src/api"] },
  );
  const text = await runLibrarian(["sent", "hold-session"], { cwd: p.root, home: p.home });
  assert.match(text.stdout, /held once \(first write waited for its notes\): src\/models/);
});

Deno.test("a held call's reason stays within the budget, and its closing line names the real budget", async () => {
  const big = "- a long learning line that takes room, again and again and again.\n".repeat(200);
  const p = await tempProject({ ...TREE, "proj/_memory_library/src/models/big.md": big });
  await using _ = p.dir;
  const held = await hook(p, write(p, "src/models/a.ts"), { LIBRARIAN_BUDGET: "2000" });
  assert.equal(held.kind, "held");
  assert.ok(held.text.length <= 2000, `${held.text.length}`);
  assert.match(held.text, /\(context budget 2000 characters\)/);
});

Deno.test("at the minimum budget a blind first write is held with its folder's notes (the tagging hint on, nothing sent before), and only that write, once", async () => {
  const big = "- a long learning line that takes room, again and again and again.\n".repeat(200);
  const deep = "src/models/billing/invoices";
  const p = await tempProject({
    ...TREE,
    "proj/_memory_library/tech.md": big,
    "proj/_memory_library/src/models/big.md": big,
    "proj/_memory_library/src/models/billing/notes.md": big,
    [`proj/_memory_library/${deep}/INVOICES.md`]: "# Invoices\n- INVOICE-NOTE: totals in cents.\n" +
      big,
  });
  await using _ = p.dir;
  const env = { LIBRARIAN_BUDGET: String(MIN_BUDGET), LIBRARIAN_HINT: "on" };
  const first = await hook(p, write(p, `${deep}/order.ts`), env);
  assert.equal(first.kind, "held", "the blind first write is held");
  assert.ok(first.text.length <= MIN_BUDGET, `${first.text.length}`);
  assert.match(first.text, /INVOICE-NOTE/, "with its own folder's notes");
  assert.equal((await hook(p, write(p, `${deep}/order.ts`), env)).kind !== "held", true, "once");
  assert.notEqual(
    (await hook(p, write(p, `${deep}/invoice.ts`), env)).kind,
    "held",
    "never held twice for one folder, even when its context was cut",
  );
  const api = await hook(p, write(p, "src/api/y.ts"), env);
  assert.equal(api.kind, "held", "another folder's first write is its own hold");
  assert.match(api.text, /API-PATTERNS/);
});

Deno.test("a blind first write is held for the root's notes alone when the window never had them (no session start)", async () => {
  const p = await tempProject({
    "proj/_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: deno 2\n",
    "proj/src/lib/util.ts": "export {};\n",
  });
  await using _ = p.dir;
  const first = await hook(p, write(p, "src/lib/new.ts"));
  assert.equal(first.kind, "held", "the root's notes apply to every folder");
  assert.match(first.text, /GLOBAL-TECH/);
  assert.deepEqual(await hook(p, write(p, "src/lib/new.ts")), { kind: "none", text: "" });
  assert.deepEqual(await hook(p, write(p, "src/other.ts")), { kind: "none", text: "" }, "sent");
});
