/**
 * The inject hook for Bash, Grep and Glob tool calls (the process contract): a command's named
 * project paths get their folders' library files, once per context window, shared with the file
 * tools' ledger; `librarian read --command` shows exactly what is sent; bad input never fails,
 * never approves or asks, never changes the command (a blind first write is held: one deny).
 */
import assert from "node:assert/strict";
import { parseLogLine } from "../src/core/log.ts";
import { parseHookStdout, runLibrarian, type RunResult, tempDir, writeTree } from "./helpers.ts";

const PROJECT = {
  "_memory_library/tech.md": "# Tech\n- GLOBAL",
  "_memory_library/src/api/patterns.md": "# Api\n- API-NOTE",
  "_memory_library/src/ui/patterns.md": "# Ui\n- UI-NOTE",
  "src/api/x.ts": "export {};",
  "src/ui/modal.tsx": "export {};",
};

async function project() {
  const dir = await tempDir();
  const root = dir.path; // already the real, normal-form path
  await writeTree(root, PROJECT);
  return { dir, root, log: `${root}/.librarian.log` };
}

function event(root: string, tool: string, input: Record<string, unknown>, session = "s-1") {
  return JSON.stringify({
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    cwd: root,
  });
}

/** The context sent: `additionalContext`, or what a held call's reason carries after its words. */
function contextOf(result: RunResult): string | null {
  const out = parseHookStdout(result.stdout);
  const specific = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific?.permissionDecision === "deny") {
    const reason = String(specific.permissionDecisionReason);
    return reason.slice(reason.indexOf("\n\n") + 2);
  }
  return typeof specific?.additionalContext === "string" ? specific.additionalContext : null;
}

async function inject(root: string, log: string, stdin: string): Promise<RunResult> {
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin,
    env: { LIBRARIAN_LOG: log },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /"(allow|ask|defer)"|updatedInput/);
  return result;
}

async function logLines(log: string) {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => parseLogLine(l)!);
}

Deno.test("a Bash command gets the library files of every folder it names, and read --command shows the same (held: it writes into src/api)", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const command = "cd src/api && sed -i 's/a/b/' x.ts && grep -rn foo ../ui";
  const sent = contextOf(await inject(root, log, event(root, "Bash", { command })));
  assert.ok(sent !== null);
  assert.match(sent, /^\[Librarian\] Memory library context for src\/api\/x\.ts, src\/ui\/:/);
  assert.ok(sent.indexOf("API-NOTE") < sent.indexOf("UI-NOTE"), "touched order among equals");
  assert.ok(sent.indexOf("UI-NOTE") < sent.indexOf("GLOBAL"), "global last");
  assert.equal(sent.split("GLOBAL").length, 2, "each library file once");
  const read = await runLibrarian(["read", "--command", command, "--json"], { cwd: root });
  assert.equal(read.code, 0, read.stderr);
  assert.equal(JSON.parse(read.stdout).additionalContext, sent);
  const [line] = await logLines(log);
  assert.equal(line?.fields.tool, "Bash");
  assert.equal(line?.fields.result, "held", "sed -i writes into a folder not sent yet");
  assert.equal(line?.fields.held, "src/api");
  assert.equal(line?.fields.file, "src/api/x.ts,src/ui/");
});

Deno.test("Bash and the file tools share one ledger: what one sent, the other does not send again", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  assert.ok(
    contextOf(await inject(root, log, event(root, "Bash", { command: "cat src/api/x.ts" }))),
  );
  const read = await inject(root, log, event(root, "Read", { file_path: `${root}/src/api/x.ts` }));
  assert.equal(contextOf(read), null);
  const again = await inject(root, log, event(root, "Bash", { command: "ls src/api" }));
  assert.equal(contextOf(again), null);
  const results = (await logLines(log)).map((l) => l.fields.result);
  assert.deepEqual(results, ["injected", "all-sent", "all-sent"]);
});

Deno.test("Grep and Glob: a path below the root counts like a folder touch; the root adds nothing", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const grep = await inject(root, log, event(root, "Grep", { pattern: "x", path: "src/ui" }));
  assert.match(contextOf(grep) ?? "", /UI-NOTE/);
  const glob = await inject(root, log, event(root, "Glob", { pattern: "**/*.ts", path: root }));
  assert.equal(contextOf(glob), null);
  const none = await inject(root, log, event(root, "Grep", { pattern: "x" }, "s-2"));
  assert.equal(contextOf(none), null);
});

Deno.test("a command that names nothing in the project sends nothing", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  for (const command of ["ls", 'echo "> src/api/x.ts"', "grep -r foo /etc", "cat /dev/null"]) {
    assert.equal(contextOf(await inject(root, log, event(root, "Bash", { command }))), null);
  }
  const results = (await logLines(log)).map((l) => l.fields.result);
  assert.deepEqual(results, Array(4).fill("no-project-paths"));
});

Deno.test("bad Bash input: exit 0, at most one JSON object, one log line, never allow or ask", async () => {
  const { dir, root, log } = await project();
  await using _ = dir;
  const huge = `cat > src/api/new.ts <<'EOF'\n${"x".repeat(1_000_000)}\nEOF`;
  const many = `cat ${Array.from({ length: 5000 }, (_, i) => `src/ui/f${i}.tsx`).join(" ")}`;
  const inputs = [
    event(root, "Bash", { command: "cat 'src/api/x.ts" }),
    event(root, "Bash", { command: "cat src/api/x.ts\u0000; rm -rf /" }, "s-nul"),
    event(root, "Bash", { command: huge }, "s-huge"),
    event(root, "Bash", { command: many }, "s-many"),
    event(root, "Bash", { command: 42 }),
    event(root, "Bash", {}),
    // invalid UTF-8 reaches the hook as U+FFFD (stdin is decoded leniently); a lone surrogate
    event(root, "Bash", { command: "cat \ufffd\ufffd src/api/x.ts \ud800" }, "s-utf"),
  ];
  for (const stdin of inputs) {
    const result = await inject(root, log, stdin);
    const trimmed = result.stdout.trim();
    assert.ok(trimmed === "" || parseHookStdout(trimmed) !== null, trimmed.slice(0, 200));
    assert.ok(trimmed.split("\n").length <= 1);
  }
  const lines = await logLines(log);
  assert.equal(lines.length, inputs.length, "one log line per event");
  assert.deepEqual(lines.map((l) => l.fields.result).slice(0, 1), ["unparseable"]);
  assert.ok(lines.every((l) => l.fields.result !== "error"), JSON.stringify(lines));
  assert.equal(lines[3]?.fields.truncated, "true");
});
