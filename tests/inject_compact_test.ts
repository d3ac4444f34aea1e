/**
 * Compaction keeps the thread (`src/inject/recent.ts`, `start.ts`), through the hook process: on
 * SessionStart `compact` the library files of the folders touched last come back with the root
 * files, most recent first, the root last, within the budget; a repeat touch writes nothing.
 */
import assert from "node:assert/strict";
import { loadLedger } from "../src/inject/ledger.ts";
import { ledgerPath } from "../src/inject/ledger_paths.ts";
import { MAX_RECENT } from "../src/inject/ledger_format.ts";
import { parseLogLine } from "../src/core/log.ts";
import { runLibrarian, type TempProject, tempProject } from "./helpers.ts";

const SESSION = "compact-session";

const TREE: Record<string, string> = {
  "proj/_memory_library/tech.md": "# Tech\n- GLOBAL-TECH: deno 2\n",
  "proj/_memory_library/src/patterns.md": "# src\n- SRC-PATTERNS: small modules.\n",
  "proj/_memory_library/src/api/patterns.md": "# API\n- API-PATTERNS: handlers return results.\n",
  "proj/_memory_library/src/ui/patterns.md": "# UI\n- UI-PATTERNS: no inline styles.\n",
  "proj/_memory_library/docs/style.md": "# Docs\n- DOCS-STYLE: one sentence a line.\n",
  "proj/src/api/x.ts": "export const X = 1;\n",
  "proj/src/ui/modal.tsx": "export const M = 1;\n",
  "proj/docs/guide.md": "# guide\n",
  "proj/README.md": "# readme\n",
};

let ids = 0;

async function hook(p: TempProject, event: Record<string, unknown>): Promise<string> {
  const stdin = JSON.stringify({
    session_id: SESSION,
    hook_event_name: "PreToolUse",
    tool_use_id: `toolu_${++ids}`,
    cwd: p.root,
    ...event,
  });
  const result = await runLibrarian(["inject"], {
    stdin,
    home: p.home,
    cwd: p.root,
    env: { LIBRARIAN_LOG: `${p.dir.path}/librarian.log`, LIBRARIAN_HINT: "off" },
  });
  assert.equal(result.code, 0, result.stderr);
  if (result.stdout.trim() === "") return "";
  const specific = JSON.parse(result.stdout).hookSpecificOutput;
  return specific.additionalContext ?? specific.permissionDecisionReason ?? "";
}

const read = (p: TempProject, rel: string) =>
  hook(p, { tool_name: "Read", tool_input: { file_path: `${p.root}/${rel}` } });

function start(p: TempProject, source: string, env: Record<string, string> = {}) {
  return hook(p, { hook_event_name: "SessionStart", source, tool_use_id: undefined, ...env });
}

/** The section labels of a context, in order. */
function labels(text: string): string[] {
  return [...text.matchAll(/^--- \[([^\]\n]+)\] ---$/gm)].map((m) => m[1]!);
}

async function logFields(p: TempProject): Promise<Record<string, string>[]> {
  const text = await Deno.readTextFile(`${p.dir.path}/librarian.log`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => parseLogLine(l)!.fields);
}

Deno.test("after a compact session start, the files of the folders touched last come back with the root files, most recent first", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  assert.deepEqual(labels(await start(p, "startup")), ["tech.md (library root)"]);
  assert.deepEqual(labels(await read(p, "src/api/x.ts")), [
    "src/api/patterns.md",
    "src/patterns.md",
  ]);
  assert.deepEqual(
    labels(await hook(p, { tool_name: "Bash", tool_input: { command: "cat src/ui/modal.tsx" } })),
    ["src/ui/patterns.md"],
  );
  assert.equal(await read(p, "src/api/x.ts"), "", "a repeat touch sends nothing");
  assert.deepEqual(
    labels(await hook(p, { tool_name: "Bash", tool_input: { command: "cat src/ui/modal.tsx" } })),
    [],
    "src/ui is the folder touched last again",
  );

  const after = await start(p, "compact");
  assert.match(
    after,
    /^\[Librarian\] Memory library context for the folders worked on before the compaction \(src\/ui, src\/api\) and the whole project:/,
  );
  assert.deepEqual(labels(after), [
    "src/ui/patterns.md",
    "src/patterns.md",
    "src/api/patterns.md",
    "tech.md (library root)",
  ]);
  assert.match(after, /UI-PATTERNS[^]*SRC-PATTERNS[^]*API-PATTERNS[^]*GLOBAL-TECH/);
  // the window has them now: the next touch of those folders sends nothing, and is not held
  assert.equal(await read(p, "src/ui/modal.tsx"), "");
  assert.equal(
    await hook(p, {
      tool_name: "Write",
      tool_input: { file_path: `${p.root}/src/api/y.ts`, content: "export const Y = 1;\n" },
    }),
    "",
  );
  const starts = (await logFields(p)).filter((f) => f.event === "SessionStart");
  assert.equal(starts.at(-1)!.recent, "2");
  assert.equal(
    starts.at(-1)!.sent,
    "src/ui/patterns.md,src/patterns.md,src/api/patterns.md,tech.md (library root)",
  );
});

Deno.test("the ledger keeps the last folders touched; a repeat touch of the folder touched last writes nothing; a clear start brings only the root files", async () => {
  const p = await tempProject(TREE);
  await using _ = p.dir;
  const state = `${p.home}/.claude/librarian`;
  await read(p, "src/api/x.ts");
  await read(p, "docs/guide.md");
  await read(p, "README.md"); // the project root: its files come with every start anyway
  const ledger = () => loadLedger(state, { sessionId: SESSION }).ledger;
  assert.deepEqual(ledger().recent, [`${p.root}/docs`, `${p.root}/src/api`]);
  const ledgerFile = () => Deno.readTextFileSync(ledgerPath(state, { sessionId: SESSION }));
  assert.equal(await read(p, "src/api/x.ts"), "");
  assert.deepEqual(ledger().recent, [`${p.root}/src/api`, `${p.root}/docs`], "moved to the front");
  const file = ledgerFile();
  assert.equal(await read(p, "src/api/x.ts"), "");
  assert.equal(ledgerFile(), file, "a repeat touch of the folder touched last writes nothing");

  const cleared = await start(p, "clear");
  assert.deepEqual(labels(cleared), ["tech.md (library root)"], "clear: a fresh start");
  assert.equal(ledger().recent, undefined, "clear forgets the folders too");
  assert.deepEqual(labels(await start(p, "compact")), ["tech.md (library root)"]);
  assert.ok(MAX_RECENT >= 2);
});

Deno.test("a folder touched again moves to the front: touches a b c d a a a e bring back e a d c", async () => {
  const tree: Record<string, string> = { "proj/_memory_library/tech.md": "# Tech\n- T\n" };
  for (const name of ["a", "b", "c", "d", "e"]) {
    tree[`proj/_memory_library/${name}/notes.md`] = `# ${name}\n- ${name.toUpperCase()}-NOTE\n`;
    tree[`proj/${name}/x.ts`] = "export {};\n";
  }
  const p = await tempProject(tree);
  await using _ = p.dir;
  for (const name of ["a", "b", "c", "d", "a", "a", "a", "e"]) await read(p, `${name}/x.ts`);
  const after = await start(p, "compact");
  assert.match(after, /before the compaction \(e, a, d, c\)/);
  assert.deepEqual(labels(after), [
    "e/notes.md",
    "a/notes.md",
    "d/notes.md",
    "c/notes.md",
    "tech.md (library root)",
  ]);
});

Deno.test("the folder files after a compaction share the budget with the root files; every file is represented", async () => {
  const big = (name: string) => `# ${name}\n` + `- ${name} rule ${"x".repeat(90)}\n`.repeat(120);
  const p = await tempProject({
    ...TREE,
    "proj/_memory_library/tech.md": big("TECH"),
    "proj/_memory_library/src/api/patterns.md": big("API"),
    "proj/_memory_library/src/ui/patterns.md": big("UI"),
  });
  await using _ = p.dir;
  await read(p, "src/api/x.ts");
  await read(p, "src/ui/modal.tsx");
  const after = await start(p, "compact");
  assert.ok(after.length <= 9_000, `${after.length}`);
  assert.deepEqual(labels(after), [
    "src/ui/patterns.md",
    "src/patterns.md",
    "src/api/patterns.md",
    "tech.md (library root)",
  ]);
  assert.match(after, /Not shown in full/);
});
