/**
 * The just-in-time tagging hint and provenance stripping, through the inject hook process
 * (`sh bin/librarian inject`), and `librarian read --provenance`.
 */
import assert from "node:assert/strict";
import { parseHookStdout, runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const PROVENANCE = "<!-- librarian: 2026-11-30 a1b2c3d src/api/handler.ts -->";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- deno 2\n",
  "proj/_memory_library/src/api/edge.md":
    `# edge\n\n## Learnings (2026-11-30)\n\n${PROVENANCE}\n- API-EDGE: retries must be idempotent.\n`,
  "proj/_memory_library/.scratch.md": "",
  "proj/src/api/handler.ts": "export {};\n",
};

let toolIds = 0;
function event(p: TempProject, tool: string, rel: string, extra: Record<string, unknown> = {}) {
  const key = tool === "NotebookEdit" ? "notebook_path" : "file_path";
  return JSON.stringify({
    session_id: "session-hint",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_use_id: `toolu_${++toolIds}`,
    tool_input: { [key]: `${p.root}/${rel}` },
    cwd: p.root,
    ...extra,
  });
}

/**
 * The additionalContext the hook printed (for a held first write, the reason it was held with,
 * which carries the same context), or null when it printed nothing.
 */
async function inject(
  p: TempProject,
  stdin: string,
  env: Record<string, string> = {},
): Promise<string | null> {
  const result = await runLibrarian(["inject"], { stdin, home: p.home, env, cwd: p.root });
  assert.equal(result.code, 0, result.stderr);
  const out = parseHookStdout(result.stdout);
  if (out === null) return null;
  const specific = out.hookSpecificOutput as Record<string, unknown>;
  if (specific.permissionDecision === "deny") return specific.permissionDecisionReason as string;
  assert.deepEqual(Object.keys(specific).sort(), ["additionalContext", "hookEventName"]);
  return specific.additionalContext as string;
}

const hintFor = (p: TempProject, folder: string) =>
  `[Librarian] Learned something non-obvious about ${folder}? Add to ` +
  `${p.root}/_memory_library/.scratch.md:\n## [TAG: ${folder}, type: edge]`;

Deno.test("the first edit in a folder ends its context with that folder's tag; once per folder per context window", async () => {
  const p = await tempProject(TREE);
  await using _dir = p.dir;
  const first = await inject(p, event(p, "Edit", "src/api/handler.ts"));
  assert.ok(first, "no context for the first edit");
  assert.match(first, /API-EDGE/);
  assert.ok(first.endsWith(`\n\n${hintFor(p, "src/api")}`), first);

  assert.equal(await inject(p, event(p, "Write", "src/api/other.ts")), null, "same folder again");
  const sibling = await inject(p, event(p, "Write", "src/web/app.ts"));
  assert.equal(sibling, hintFor(p, "src/web"), "a folder without library files: the hint alone");
  assert.equal(await inject(p, event(p, "Edit", "src/web/app.ts")), null);

  const subagent = await inject(p, event(p, "Edit", "src/api/handler.ts", { agent_id: "agent-1" }));
  assert.ok(subagent?.endsWith(hintFor(p, "src/api")), "a subagent has its own context window");
});

Deno.test("reads never get the hint; a later edit in the folder still does", async () => {
  const p = await tempProject(TREE);
  await using _dir = p.dir;
  const read = await inject(p, event(p, "Read", "src/api/handler.ts"));
  assert.ok(read);
  assert.doesNotMatch(read, /Learned something/);
  assert.equal(await inject(p, event(p, "Read", "src/web/app.ts")), null);
  assert.equal(await inject(p, event(p, "Edit", "src/api/handler.ts")), hintFor(p, "src/api"));
  assert.equal(await inject(p, event(p, "NotebookEdit", "nb/a.ipynb")), hintFor(p, "nb"));
  assert.equal(
    await inject(p, event(p, "Write", "top.ts")),
    hintFor(p, "global").replace("about global?", "about the project root?"),
  );
});

Deno.test("the hint fits inside the budget, and LIBRARIAN_HINT=off turns it off", async () => {
  const big = "- a long learning line that fills the budget quickly, again and again.\n".repeat(60);
  const p = await tempProject({ ...TREE, "proj/_memory_library/src/api/big.md": big });
  await using _dir = p.dir;
  const budgeted = await inject(p, event(p, "Edit", "src/api/handler.ts"), {
    LIBRARIAN_BUDGET: "1000",
  });
  assert.ok(budgeted);
  assert.ok(budgeted.length <= 1000, `${budgeted.length} characters`);
  assert.ok(budgeted.endsWith(hintFor(p, "src/api")));
  assert.match(
    budgeted,
    /\(context budget 1000 characters\)/,
    "the closing line names the real budget",
  );

  assert.match(budgeted, /--- \[tech\.md \(library root\)\] ---\n# Tech/, "every file has a share");

  const off = await inject(p, event(p, "Edit", "src/web/app.ts"), { LIBRARIAN_HINT: "off" });
  assert.equal(off, null, "nothing new, and no hint");
  assert.equal(await inject(p, event(p, "Edit", "lib/x.ts"), { LIBRARIAN_HINT: "off" }), null);
});

Deno.test("provenance comments never reach the model; librarian read shows them only with --provenance", async () => {
  const p = await tempProject(TREE);
  await using _dir = p.dir;
  const sent = await inject(p, event(p, "Read", "src/api/handler.ts"));
  assert.ok(sent);
  assert.match(sent, /## Learnings \(2026-11-30\)\n\n- API-EDGE/);
  assert.doesNotMatch(sent, /librarian: 2026/);

  const plain = await runLibrarian(["read", "src/api/handler.ts"], { cwd: p.root, home: p.home });
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stdout, /librarian: 2026/);
  const shown = await runLibrarian(["read", "src/api/handler.ts", "--provenance"], {
    cwd: p.root,
    home: p.home,
  });
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes(`${PROVENANCE}\n- API-EDGE`), shown.stdout);
});

Deno.test("the ledger remembers hinted folders: validated on load, merged as a set", async () => {
  const { parseLedger } = await import("../src/inject/ledger_format.ts");
  const { mergeLedger } = await import("../src/inject/ledger.ts");
  const base = '{"version":2,"files":{},"reminded":false,"events":[]';
  assert.deepEqual(parseLedger(`${base},"hinted":["src/api","global"]}`).ledger.hinted, [
    "src/api",
    "global",
  ]);
  assert.equal(parseLedger(`${base}}`).ledger.hinted, undefined, "older ledgers have none");
  assert.equal(parseLedger(`${base},"hinted":[3]}`).problem, "a hinted folder is malformed");
  const empty = { files: {}, reminded: false, events: [] };
  const once = mergeLedger(empty, { hinted: ["src/api"] });
  assert.deepEqual(mergeLedger(once, { hinted: ["src/api", "lib"] }).hinted, ["src/api", "lib"]);
  assert.equal(mergeLedger(empty, {}).hinted, undefined);
});

Deno.test("the hint's tag is at the level where the knowledge belongs: the nearest folder with library files, else the package root, else the file's folder", async () => {
  const p = await tempProject({
    "proj/_memory_library/tech.md": "# Tech\n- deno 2\n",
    "proj/_memory_library/services/billing/edge.md": "# edge\n- BILLING-EDGE: cents only.\n",
    "proj/package.json": "{}",
    "proj/services/core-service/package.json": "{}",
    "proj/services/core-service/src/controllers/user.ts": "export {};\n",
    "proj/services/billing/go.mod": "module billing\n",
    "proj/services/billing/internal/tax/rate.go": "package tax\n",
    "proj/scripts/tools/gen.ts": "export {};\n",
  });
  await using _dir = p.dir;
  const deep = "services/core-service/src/controllers/user.ts";
  const first = await inject(p, event(p, "Edit", deep));
  assert.ok(
    first?.endsWith(`\n\n${hintFor(p, "services/core-service")}`),
    `the package root, not the deepest folder: ${first}`,
  );
  assert.equal(
    await inject(p, event(p, "Write", "services/core-service/src/models/order.ts")),
    null,
    "the same package: its tag was suggested already",
  );
  const billing = await inject(p, event(p, "Edit", "services/billing/internal/tax/rate.go"));
  assert.ok(billing?.endsWith(`\n\n${hintFor(p, "services/billing")}`), billing ?? "");
  assert.equal(
    await inject(p, event(p, "Write", "scripts/tools/gen.ts")),
    hintFor(p, "scripts/tools"),
    "no library folder, no package below the root: the file's folder",
  );
});
