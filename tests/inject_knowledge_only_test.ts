/**
 * Only knowledge is sent: provenance, imported-by, review and every other `<!-- librarian: … -->`
 * line, and the front matter's `priority:`, never reach the model, whichever way a library file
 * is sent (a touch, session start, subagent start) or shown (`librarian read`, which shows them
 * only with `--provenance`). Through the hook process (`sh bin/librarian inject`).
 */
import assert from "node:assert/strict";
import { parseHookStdout, runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const METADATA = [
  "<!-- imported by 'librarian import' from memory-bank/techContext.md on 2026-11-30 -->",
  "<!-- librarian: 2026-11-30 a1b2c3d src/api/handler.ts -->",
  "<!-- librarian: kept in scratch: auto memory awaiting review: edit it if needed, then file it with `librarian route --accept` -->",
  "<!-- librarian: not-a-secret -->",
  "priority: always",
];

const withMetadata = (name: string) =>
  [
    "---",
    METADATA[4],
    "---",
    METADATA[0],
    `# ${name}`,
    "",
    "## Learnings (2026-11-30)",
    "",
    METADATA[1],
    `- ${name.toUpperCase()}-KNOWLEDGE: a learning.`,
    METADATA[2],
    METADATA[3],
    "",
  ].join("\n");

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": withMetadata("tech"),
  "proj/_memory_library/src/api/edge.md": withMetadata("edge"),
  "proj/src/api/handler.ts": "export {};\n",
};

async function hook(p: TempProject, event: Record<string, unknown>): Promise<string> {
  const stdin = JSON.stringify({ session_id: "knowledge", cwd: p.root, ...event });
  const result = await runLibrarian(["inject"], { stdin, home: p.home, cwd: p.root });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  const context = (out?.hookSpecificOutput as Record<string, unknown> | undefined)
    ?.additionalContext;
  assert.equal(typeof context, "string", `no context: ${result.stdout}`);
  return context as string;
}

function assertKnowledgeOnly(text: string, names: string[], where: string): void {
  for (const name of names) assert.match(text, new RegExp(`${name}-KNOWLEDGE`), where);
  for (const line of METADATA) assert.ok(!text.includes(line), `${where}: sent ${line}`);
  assert.doesNotMatch(text, /<!--|^---$/m, where);
}

Deno.test("a touch, a session start and a subagent start send no metadata line", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const start = await hook(p, { hook_event_name: "SessionStart", source: "startup" });
  assertKnowledgeOnly(start, ["TECH"], "session start");
  const read = await hook(p, {
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_use_id: "toolu_1",
    tool_input: { file_path: `${p.root}/src/api/handler.ts` },
  });
  assertKnowledgeOnly(read, ["EDGE"], "touch");
  const subagent = await hook(p, {
    hook_event_name: "SubagentStart",
    agent_id: "agent-1",
    agent_type: "general-purpose",
  });
  assertKnowledgeOnly(subagent, ["TECH"], "subagent start");
});

Deno.test("librarian read sends no metadata line; --provenance shows every one", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const plain = await runLibrarian(["read", "src/api/handler.ts", "--json"], { cwd: p.root });
  const context = JSON.parse(plain.stdout).additionalContext as string;
  assertKnowledgeOnly(context, ["EDGE", "TECH"], "read");
  const shown = await runLibrarian(["read", "src/api/handler.ts", "--provenance", "--json"], {
    cwd: p.root,
  });
  const full = JSON.parse(shown.stdout).additionalContext as string;
  for (const line of METADATA) assert.ok(full.includes(line), `--provenance: ${line}`);
});
