/**
 * The other agents' rules, read where they lie (issue 33): Cursor's `.cursor/rules/**\/*.mdc`,
 * Copilot's `.github/instructions/**\/*.instructions.md` and `.github/copilot-instructions.md`,
 * Windsurf's `.windsurf/rules/*.md`. Claude Code never loads them, so the inject hook sends a
 * glob-scoped one on every touch its globs cover (file tools, Bash, subagents, compaction), once
 * per context window, and never elsewhere; a repo-wide one (alwaysApply, copilot-instructions.md,
 * always_on) goes with the library's root files at session start, under the same budget; an
 * agent-requested or manual one is never sent; the Librarian's own export is never read back.
 */
import assert from "node:assert/strict";
import { generatedText, markerText } from "../src/export/export_formats.ts";
import { hookContextOf, runLibrarian, tempDir, writeTree } from "./helpers.ts";

const EXPORTED = `---\n# ${
  markerText("cursor", "_memory_library", "")
}\ndescription: "x"\nalwaysApply: true\n---\n\n- EXPORTED-LIBRARY-TEXT\n`;

const PROJECT: Record<string, string> = {
  "_memory_library/tech.md": "# Tech\n- GLOBAL-LIBRARY\n",
  ".cursor/rules/trigger.mdc":
    "---\ndescription: Trigger.dev tasks\nglobs: **/trigger/**\nalwaysApply: false\n---\n- CURSOR-TRIGGER-RULE\n",
  ".cursor/rules/style.mdc":
    "---\ndescription: house style\nalwaysApply: true\n---\n- CURSOR-ALWAYS-RULE\n",
  ".cursor/rules/release.mdc":
    "---\ndescription: How to cut a release\nalwaysApply: false\n---\n- CURSOR-AGENT-REQUESTED\n",
  ".cursor/rules/manual.mdc": "---\nalwaysApply: false\n---\n- CURSOR-MANUAL-RULE\n",
  ".cursor/rules/web/forms.mdc":
    "---\nglobs: apps/web/**/*.tsx, apps/web/**/*.ts\n---\n- CURSOR-WEB-FORMS\n",
  ".cursor/rules/librarian.mdc": EXPORTED,
  ".github/copilot-instructions.md": "# Copilot\n- COPILOT-REPO-WIDE\n",
  ".github/instructions/db.instructions.md":
    '---\napplyTo: "internal-packages/database/**"\n---\n- COPILOT-DB-RULE\n',
  ".windsurf/rules/api.md":
    "---\ntrigger: glob\nglobs: internal-packages/api/**\n---\n- WINDSURF-API-RULE\n",
  ".windsurf/rules/always.md": "---\ntrigger: always_on\n---\n- WINDSURF-ALWAYS-RULE\n",
  ".windsurf/rules/deploy.md":
    "---\ntrigger: model_decision\ndescription: deploy steps\n---\n- WINDSURF-MODEL-DECISION\n",
  ".windsurf/rules/manual.md": "---\ntrigger: manual\n---\n- WINDSURF-MANUAL\n",
  "apps/trigger/tasks/run.ts": "export {};\n",
  "packages/jobs/src/trigger/x.ts": "export {};\n",
  "apps/web/form.tsx": "export {};\n",
  "apps/web/README.md": "# web\n",
  "internal-packages/database/schema.prisma": "model A {}\n",
  "internal-packages/api/x.ts": "export {};\n",
  "src/other.ts": "export {};\n",
};

/** Every rule marker that must never reach the model from a touch. */
const NEVER =
  /CURSOR-AGENT-REQUESTED|CURSOR-MANUAL-RULE|WINDSURF-MODEL-DECISION|WINDSURF-MANUAL|EXPORTED-LIBRARY-TEXT/;
/** The repo-wide rules: at session start, never on a touch. */
const REPO_WIDE = /CURSOR-ALWAYS-RULE|COPILOT-REPO-WIDE|WINDSURF-ALWAYS-RULE/;

async function project(extra: Record<string, string> = {}) {
  const dir = await tempDir();
  await writeTree(dir.path, { ...PROJECT, ...extra });
  return { dir, root: dir.path };
}

let ids = 0;

async function hook(
  root: string,
  event: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<string> {
  const stdin = JSON.stringify({
    session_id: "s-1",
    hook_event_name: "PreToolUse",
    tool_use_id: `t${++ids}`,
    cwd: root,
    ...event,
  });
  const result = await runLibrarian(["inject"], {
    cwd: root,
    stdin,
    env: { LIBRARIAN_HINT: "off", ...env },
    home: `${root}/home`,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /"(allow|ask|defer)"|updatedInput/);
  return hookContextOf(result);
}

const read = (root: string, rel: string, extra: Record<string, unknown> = {}) =>
  hook(root, { tool_name: "Read", tool_input: { file_path: `${root}/${rel}` }, ...extra });
const bash = (root: string, command: string, env: Record<string, string> = {}) =>
  hook(root, { tool_name: "Bash", tool_input: { command } }, env);
const start = (root: string, source = "startup", env: Record<string, string> = {}) =>
  hook(root, { hook_event_name: "SessionStart", source, tool_use_id: undefined }, env);

/** The hook's environment under Claude Code 2.1.3xx (it loads a Bash read's CLAUDE.md itself). */
const CLIENT_332 = { CLAUDE_PID: "4242" };

Deno.test("a Cursor rule for **/trigger/** is sent on a Read under any trigger/ folder, labelled as read in place, and never elsewhere", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const other = await read(root, "src/other.ts");
  assert.doesNotMatch(other, /CURSOR-TRIGGER-RULE/, "out of its globs");
  const sent = await read(root, "packages/jobs/src/trigger/x.ts");
  assert.match(sent, /CURSOR-TRIGGER-RULE/);
  assert.match(
    sent,
    /--- \[\.cursor\/rules\/trigger\.mdc \(the project's Cursor rule for \*\*\/trigger\/\*\*, read in place\)\] ---/,
  );
  assert.doesNotMatch(sent, NEVER);
  assert.doesNotMatch(sent, REPO_WIDE, "repo-wide rules go with the root files at session start");
  const again = await read(root, "apps/trigger/tasks/run.ts");
  assert.doesNotMatch(again, /CURSOR-TRIGGER-RULE/, "once per context window");
});

Deno.test("a Bash sed -i under a trigger/ folder brings the Cursor rule (on both client versions: no client loads it); a Bash touch elsewhere does not", async () => {
  for (const env of [{}, CLIENT_332]) {
    const { dir, root } = await project();
    await using _ = dir;
    const elsewhere = await bash(root, "sed -i 's/a/b/' src/other.ts", env);
    assert.doesNotMatch(elsewhere, /CURSOR-TRIGGER-RULE/);
    const sent = await bash(root, "sed -i 's/export/export/' apps/trigger/tasks/run.ts", env);
    assert.match(sent, /CURSOR-TRIGGER-RULE/);
    assert.doesNotMatch(sent, NEVER);
    const cat = await bash(root, "cat packages/jobs/src/trigger/x.ts", env);
    assert.doesNotMatch(cat, /CURSOR-TRIGGER-RULE/, "once per context window");
  }
});

Deno.test("a cat the 2.1.3xx client takes for a read still brings another agent's rule (the client loads only its own)", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const sent = await bash(root, "cat internal-packages/api/x.ts", CLIENT_332);
  assert.match(sent, /WINDSURF-API-RULE/);
});

Deno.test("a Cursor rule's comma-separated globs are each a scope; a Windsurf glob rule and a Copilot applyTo rule keep theirs", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const web = await read(root, "apps/web/form.tsx");
  assert.match(web, /CURSOR-WEB-FORMS/);
  assert.doesNotMatch(web, /WINDSURF-API-RULE|COPILOT-DB-RULE/);
  const readme = await read(root, "apps/web/README.md");
  assert.doesNotMatch(readme, /CURSOR-WEB-FORMS/, "sent once; and README.md is out of its globs");
  const api = await bash(root, "ls internal-packages/api");
  assert.match(api, /WINDSURF-API-RULE/);
  assert.doesNotMatch(api, /COPILOT-DB-RULE|CURSOR/);
});

Deno.test("a subagent's Read under a Copilot applyTo rule's folder gets the rule in its own window; the session's window gets it on its own touch", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const sub = { agent_id: "agent-1", agent_type: "general-purpose" };
  const inSub = await read(root, "internal-packages/database/schema.prisma", sub);
  assert.match(inSub, /COPILOT-DB-RULE/);
  assert.match(inSub, /--- \[\.github\/instructions\/db\.instructions\.md \(the project's Copilot/);
  const again = await read(root, "internal-packages/database/schema.prisma", sub);
  assert.doesNotMatch(again, /COPILOT-DB-RULE/, "once per subagent window");
  const main = await bash(root, "sed -i 's/A/B/' internal-packages/database/schema.prisma");
  assert.match(main, /COPILOT-DB-RULE/, "the session's own window did not have it");
  const elsewhere = await read(root, "internal-packages/api/x.ts", { agent_id: "agent-2" });
  assert.doesNotMatch(elsewhere, /COPILOT-DB-RULE/, "out of its applyTo");
});

Deno.test("Windsurf manual and model_decision rules, Cursor manual and agent-requested rules, and the Librarian's own export are never sent", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const startText = await start(root);
  assert.doesNotMatch(startText, NEVER);
  const touches = [
    await bash(root, "wc -l apps/web/form.tsx internal-packages/api/x.ts src/other.ts"),
    await read(root, "apps/trigger/tasks/run.ts"),
    await read(root, "internal-packages/database/schema.prisma"),
  ];
  for (const sent of touches) assert.doesNotMatch(sent, NEVER);
});

Deno.test("repo-wide rules (Cursor alwaysApply, copilot-instructions.md, Windsurf always_on) go with the library's root files at session start, after them, once per window; a subagent's start gets them too", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const sent = await start(root);
  assert.match(sent, /GLOBAL-LIBRARY/);
  assert.match(sent, /CURSOR-ALWAYS-RULE/);
  assert.match(sent, /COPILOT-REPO-WIDE/);
  assert.match(sent, /WINDSURF-ALWAYS-RULE/);
  assert.ok(sent.indexOf("GLOBAL-LIBRARY") < sent.indexOf("CURSOR-ALWAYS-RULE"), "library first");
  assert.match(sent, /--- \[\.github\/copilot-instructions\.md \(the project's Copilot/);
  assert.doesNotMatch(sent, /CURSOR-TRIGGER-RULE|WINDSURF-API-RULE|COPILOT-DB-RULE/);
  assert.doesNotMatch(await start(root, "resume"), REPO_WIDE, "once per window");
  const touch = await read(root, "src/other.ts");
  assert.doesNotMatch(touch, REPO_WIDE);
  const sub = await hook(root, {
    hook_event_name: "SubagentStart",
    agent_id: "agent-9",
    agent_type: "general-purpose",
    tool_use_id: undefined,
  });
  assert.match(sub, /CURSOR-ALWAYS-RULE/);
});

Deno.test("repo-wide rules are under the root files' budget: past it they are cut, and the closing line names where to read them", async () => {
  const big = (tag: string) =>
    Array.from({ length: 200 }, (_, i) => `- ${tag} ${i} ${"x".repeat(40)}`).join("\n");
  const { dir, root } = await project({
    ".cursor/rules/style.mdc": `---\nalwaysApply: true\n---\n${big("CURSOR-ALWAYS-RULE")}\n`,
    ".github/copilot-instructions.md": `${big("COPILOT-REPO-WIDE")}\n`,
  });
  await using _ = dir;
  const sent = await start(root, "startup", { LIBRARIAN_BUDGET: "4000" });
  assert.ok(sent.length <= 4000, `${sent.length} characters`);
  assert.match(sent, /GLOBAL-LIBRARY/);
  assert.match(sent, /Not shown in full[^\n]*\.github\/copilot-instructions\.md/);
});

Deno.test("after a compaction the rules of the folders touched last come back (their globs cover the folder), with the repo-wide ones", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  await start(root);
  assert.match(await bash(root, "sed -i 's/a/b/' apps/trigger/tasks/run.ts"), /CURSOR-TRIGGER/);
  const compacted = await start(root, "compact");
  assert.match(compacted, /CURSOR-TRIGGER-RULE/);
  assert.match(compacted, /CURSOR-ALWAYS-RULE/);
  assert.doesNotMatch(compacted, /WINDSURF-API-RULE|COPILOT-DB-RULE/, "not touched: not sent");
  assert.doesNotMatch(compacted, NEVER);
});

Deno.test("copilot-instructions.md is sent without the section `librarian export --format copilot` keeps in it (the library's own text, sent from the library)", async () => {
  const section = generatedText("copilot", "_memory_library", "", "- EXPORTED-SECTION-TEXT\n");
  const { dir, root } = await project({
    ".github/copilot-instructions.md": `# Copilot\n- COPILOT-REPO-WIDE\n\n${section}`,
  });
  await using _ = dir;
  const sent = await start(root);
  assert.match(sent, /COPILOT-REPO-WIDE/);
  assert.doesNotMatch(sent, /EXPORTED-SECTION-TEXT|librarian:begin/);
});

Deno.test("a copilot-instructions.md that holds only export's section is not sent at all", async () => {
  const section = generatedText("copilot", "_memory_library", "", "- EXPORTED-SECTION-TEXT\n");
  const { dir, root } = await project({ ".github/copilot-instructions.md": section });
  await using _ = dir;
  const sent = await start(root);
  assert.doesNotMatch(sent, /copilot-instructions\.md|EXPORTED-SECTION-TEXT/);
});

Deno.test("under Copilot CLI (which loads its own instructions files) Copilot's rules are not sent; Cursor's and Windsurf's still are", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  const copilot = { COPILOT_CLI: "1" };
  const started = await start(root, "startup", copilot);
  assert.doesNotMatch(started, /COPILOT-REPO-WIDE/);
  assert.match(started, /CURSOR-ALWAYS-RULE/);
  const touch = await bash(
    root,
    "sed -i 's/A/B/' internal-packages/database/schema.prisma",
    copilot,
  );
  assert.doesNotMatch(touch, /COPILOT-DB-RULE/);
  const api = await bash(root, "ls internal-packages/api", copilot);
  assert.match(api, /WINDSURF-API-RULE/);
});

Deno.test("a rule an earlier import copied into the library (its provenance line names the rule) is not sent from where it lies too: its text reaches the window once", async () => {
  const rule =
    "---\nglobs: internal-packages/database/**\n---\n- CURSOR-DB-COPIED: migrate first\n";
  const { dir, root } = await project({
    ".cursor/rules/db.mdc": rule,
    "_memory_library/internal-packages/database/db.md":
      "<!-- imported by 'librarian import' from .cursor/rules/db.mdc on 2026-11-30 (Cursor rule) -->\n" +
      "- CURSOR-DB-COPIED: migrate first\n",
  });
  await using _ = dir;
  const first = await read(root, "internal-packages/database/schema.prisma");
  assert.equal(first.split("CURSOR-DB-COPIED").length - 1, 1, first);
  assert.doesNotMatch(first, /\.cursor\/rules\/db\.mdc \(the project's/);
  const again = await bash(root, "sed -i 's/A/B/' internal-packages/database/schema.prisma");
  assert.doesNotMatch(again, /CURSOR-DB-COPIED/, "in the window already, through the copy");
});

Deno.test("a rule file that is a link is never followed", async () => {
  const { dir, root } = await project();
  await using _ = dir;
  await Deno.writeTextFile(`${root}/secret.md`, "---\nalwaysApply: true\n---\n- LINKED-SECRET\n");
  await Deno.symlink(`${root}/secret.md`, `${root}/.cursor/rules/linked.mdc`, { type: "file" });
  await Deno.symlink(`${root}/secret.md`, `${root}/.windsurf/rules/linked.md`, { type: "file" });
  assert.doesNotMatch(await start(root), /LINKED-SECRET/);
  assert.doesNotMatch(await read(root, "src/other.ts"), /LINKED-SECRET/);
});
