/**
 * End-to-end scenarios for the project's own memory read where it lies (issue 33): a nested
 * `CLAUDE.md` and a `.claude/rules/*.md` rule with `paths:` reach the model on a Bash touch (the
 * client loads neither there), and never twice: after a Read, Claude Code loads them itself and
 * says so (InstructionsLoaded), and the Bash touch that follows sends neither. The root `CLAUDE.md`
 * is the client's, at session start. On 2.1.332 a Bash read (`cat F`, `grep x F`) loads them too,
 * after the command: the Librarian leaves those to it. Runs with `LIBRARIAN_E2E=1`
 * (`deno task e2e`, `deno task e2e:oldest`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { runLibrarian } from "../helpers.ts";
import type { ClaudeRun, E2EProject } from "./harness.ts";
import { text, toolUse } from "./model_server.ts";
import { contextSections, type HookContext, systemText, textsOf, toolSteps } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "CLAUDE.md": "# Root\n- ROOT-CLAUDE: use pnpm workspaces.\n",
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "internal-packages/database/CLAUDE.md": "# Database\n- DB-CLAUDE: migrations are forward only.\n",
  "internal-packages/database/schema.prisma": "model Invoice { id Int @id }\n",
  ".claude/rules/database.md":
    "---\npaths:\n  - internal-packages/database/**\n---\n# Database rule\n- DB-RULE: run prisma format.\n",
  ".claude/rules/api.md": "---\npaths:\n  - internal-packages/api/**\n---\n- API-RULE: zod.\n",
  "internal-packages/api/x.ts": "export {};\n",
};

const CAT = "cat internal-packages/database/schema.prisma";
const WC = "wc -l internal-packages/database/schema.prisma";

/** The PreToolUse:Bash contexts delivered with the run's Bash steps, in order. */
function bashContexts(run: ClaudeRun): HookContext[] {
  const last = run.turns.at(-1);
  assert.ok(last, `the model was never called; stderr: ${run.stderr}`);
  return toolSteps(last.body).filter((s) => s.name === "Bash").flatMap((s) =>
    s.contexts.filter((c) => c.event === "PreToolUse" && c.tool === "Bash")
  );
}

/** How many times `marker` reached the model in the run's last request (every message). */
function timesSent(run: ClaudeRun, marker: string): number {
  return textsOf(run.turns.at(-1)?.body ?? null).join("\n").split(marker).length - 1;
}

async function runSteps(project: E2EProject, steps: Record<string, unknown>[][]) {
  const run = await project.run("Work on the database package.", [
    ...steps.map((blocks) =>
      blocks.map((b) => toolUse(String(b.tool), b.input as Record<string, unknown>))
    ),
    [text("Done.")],
  ]);
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.result?.is_error, false, run.stdout);
  return run;
}

scenario(
  "a Bash command the client does not take for a read (`wc -l`) brings the folder's nested CLAUDE.md and the paths: rule that covers it, each labelled with its path, once; never the root CLAUDE.md or a rule for elsewhere",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runSteps(project, [
      [{ tool: "Bash", input: { command: WC, description: "count the schema" } }],
    ]);
    const [context] = bashContexts(run);
    assert.ok(context, "the Bash step carried the Librarian's context");
    const labels = contextSections(context.text).map((s) => s.label);
    assert.ok(
      labels.some((l) => l.startsWith("internal-packages/database/CLAUDE.md (the project's own")),
      labels.join(" | "),
    );
    assert.ok(
      labels.some((l) => l.startsWith(".claude/rules/database.md (the project's rule for")),
      labels.join(" | "),
    );
    assert.equal(timesSent(run, "DB-CLAUDE"), 1, "the client loads nothing on this Bash touch");
    assert.equal(timesSent(run, "DB-RULE"), 1);
    assert.equal(
      timesSent(run, "ROOT-CLAUDE"),
      1,
      "the root CLAUDE.md only as the client loads it",
    );
    assert.equal(timesSent(run, "API-RULE"), 0, "a rule keeps its scope on Bash");
  },
);

/**
 * Bash commands and whether Claude Code 2.1.332 takes them for a read of the file (and loads its
 * nested memory itself, after the command); 2.1.197 takes none so.
 */
const BASH_TOUCHES = [
  "cat internal-packages/database/schema.prisma",
  "grep -n model internal-packages/database/schema.prisma",
  "head -3 internal-packages/database/schema.prisma",
  "sed -i 's/Invoice/Bill/' internal-packages/database/schema.prisma",
];

scenario(
  "every Bash touch (cat, grep, head, sed -i) brings the nested CLAUDE.md and the paths: rule exactly once, on every version: by the Librarian where the client does not load them, by the client where it does",
  async (open) => {
    for (const command of BASH_TOUCHES) {
      const project = await open(PROJECT);
      const run = await runSteps(project, [
        [{ tool: "Bash", input: { command, description: "look at the schema" } }],
      ]);
      assert.equal(timesSent(run, "DB-CLAUDE"), 1, command);
      assert.equal(timesSent(run, "DB-RULE"), 1, command);
    }
  },
);

scenario(
  "a Write into the folder brings the nested CLAUDE.md and the paths: rule exactly once on every version: by the client where it loads them after a Write (2.1.332), by the Librarian where it does not (2.1.197)",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runSteps(project, [
      [{
        tool: "Write",
        input: {
          file_path: project.path("internal-packages/database/seed.ts"),
          content: "export const seed = 1;\n",
        },
      }],
    ]);
    assert.equal(timesSent(run, "DB-CLAUDE"), 1);
    assert.equal(timesSent(run, "DB-RULE"), 1);
  },
);

scenario(
  "a subagent's Bash `cat` brings the nested CLAUDE.md and the rule into the subagent's context exactly once, on every version",
  async (open) => {
    const project = await open(PROJECT);
    const marker = "SUBAGENT-NATIVE-5d1: show the schema";
    const run = await project.run("Delegate.", [
      [toolUse("Agent", {
        description: "show schema",
        prompt: marker,
        subagent_type: "general-purpose",
        run_in_background: false,
      })],
      [toolUse("Bash", { command: CAT, description: "show the schema" })],
      [text("Subagent done.")],
      [text("Done.")],
    ]);
    assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
    const sub = run.turns.filter((t) => textsOf(t.body).some((x) => x.includes(marker)));
    const last = sub.at(-1)?.body ?? null;
    assert.ok(last, `no subagent request among ${run.turns.length} turns`);
    const seen = textsOf(last).join("\n");
    assert.equal(seen.split("DB-CLAUDE").length - 1, 1, "in the subagent's context");
    assert.equal(seen.split("DB-RULE").length - 1, 1, "in the subagent's context");
  },
);

scenario(
  "after a Read the client loads the nested CLAUDE.md and the rule itself and reports it (InstructionsLoaded): the Bash touch that follows sends neither again",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runSteps(project, [
      [{
        tool: "Read",
        input: { file_path: project.path("internal-packages/database/schema.prisma") },
      }],
      [{ tool: "Bash", input: { command: CAT, description: "show the schema" } }],
    ]);
    assert.equal(timesSent(run, "DB-CLAUDE"), 1, "once: the client's own load");
    assert.equal(timesSent(run, "DB-RULE"), 1, "once: the client's own load");
    // the Read's own PreToolUse may have recorded them first (a Read loads them on every version)
    const recorded = (await project.log()).filter((r) =>
      r.command === "inject" && r.fields.event === "InstructionsLoaded" &&
      (r.fields.result === "recorded" || r.fields.result === "already-recorded")
    ).map((r) => r.fields.file);
    assert.ok(recorded.includes("internal-packages/database/CLAUDE.md"), recorded.join(", "));
    assert.ok(recorded.includes(".claude/rules/database.md"), recorded.join(", "));
  },
);

const CURSOR_PROJECT: Record<string, string> = {
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  ".cursor/rules/trigger.mdc":
    "---\ndescription: Trigger.dev tasks\nglobs: **/trigger/**\nalwaysApply: false\n---\n- CURSOR-TRIGGER: tasks are idempotent.\n",
  ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\n- CURSOR-ALWAYS: be brief.\n",
  ".cursor/rules/release.mdc":
    "---\ndescription: How to cut a release\nalwaysApply: false\n---\n- CURSOR-RELEASE: tag it.\n",
  "apps/web/trigger/send.ts": "export const send = 1;\n",
  "packages/jobs/src/trigger/nightly.ts": "export const nightly = 1;\n",
  "apps/web/page.ts": "export const page = 1;\n",
};

scenario(
  "a Cursor rule for **/trigger/** (which Claude Code never loads) reaches the model exactly once, on the first touch under a trigger/ folder (a Read, then a sed -i elsewhere under trigger/); its alwaysApply rule once with the root files; an agent-requested rule never",
  async (open) => {
    const project = await open(CURSOR_PROJECT);
    const run = await runSteps(project, [
      [{ tool: "Read", input: { file_path: project.path("apps/web/page.ts") } }],
      [{ tool: "Read", input: { file_path: project.path("apps/web/trigger/send.ts") } }],
      [{
        tool: "Bash",
        input: {
          command: "sed -i 's/1/2/' packages/jobs/src/trigger/nightly.ts",
          description: "bump the job",
        },
      }],
    ]);
    assert.equal(timesSent(run, "CURSOR-TRIGGER"), 1, "once per context window");
    assert.equal(timesSent(run, "CURSOR-ALWAYS"), 1, "with the root files at session start");
    assert.equal(timesSent(run, "CURSOR-RELEASE"), 0, "an agent-requested rule is not sent");
    const steps = toolSteps(run.turns.at(-1)!.body);
    const first = steps[0]?.contexts.map((c) => c.text).join("\n") ?? "";
    assert.doesNotMatch(first, /CURSOR-TRIGGER/, "a touch outside its globs gets none of it");
  },
);

const MONOREPO: Record<string, string> = {
  "CLAUDE.md": "# Monorepo\n- ROOT-GUIDE: use pnpm workspaces.\n",
  "packages/api/CLAUDE.md": "# API\n- API-GUIDE: handlers validate with zod.\n",
  "packages/api/src/handler.ts": "export const handler = 1;\n",
};

/** `librarian init && librarian import --yes <flags>`, then a session without the plugin. */
async function teammateSees(open: Parameters<Parameters<typeof scenario>[1]>[0], flags: string[]) {
  const project = await open(MONOREPO);
  await new Deno.Command("git", { args: ["init", "-q", project.root] }).output();
  const shell = { cwd: project.root, home: project.home };
  assert.equal((await runLibrarian(["init"], shell)).code, 0);
  const imported = await runLibrarian(["import", "--yes", ...flags], shell);
  assert.equal(imported.code, 0, imported.stderr + imported.stdout);
  const run = await project.run("Look at the handler.", [
    [toolUse("Read", { file_path: project.path("packages/api/src/handler.ts") })],
    [text("Done.")],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const last = run.turns.at(-1)!.body;
  return [systemText(last), ...textsOf(last)].join("\n");
}

scenario(
  "after init && import --yes a teammate without the plugin still gets every CLAUDE.md: nothing was moved",
  async (open) => {
    const seen = await teammateSees(open, []);
    assert.match(seen, /ROOT-GUIDE/);
    assert.match(seen, /API-GUIDE/);
  },
  { pluginDir: null },
);

scenario(
  "with --hand-over (the explicit choice) a teammate without the plugin gets only the stubs (the control)",
  async (open) => {
    const seen = await teammateSees(open, ["--hand-over"]);
    assert.doesNotMatch(seen, /ROOT-GUIDE|API-GUIDE/);
    assert.match(seen, /The guidance that was here lives in the memory library/);
  },
  { pluginDir: null },
);

scenario(
  "a lone grep that matches nothing (after which no client version loads the folder's memory) still brings the nested CLAUDE.md and the paths: rule exactly once: on 2.1.332 through the Librarian's PostToolUse, as the PreToolUse left them to the client",
  async (open) => {
    const project = await open(PROJECT);
    const run = await runSteps(project, [
      [{
        tool: "Bash",
        input: {
          command: "grep -n NO-SUCH-TEXT internal-packages/database/schema.prisma",
          description: "search the schema",
        },
      }],
    ]);
    assert.equal(timesSent(run, "DB-CLAUDE"), 1);
    assert.equal(timesSent(run, "DB-RULE"), 1);
    assert.equal(timesSent(run, "API-RULE"), 0, "a rule keeps its scope");
  },
);

const AGENTS_PROJECT: Record<string, string> = {
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "AGENTS.md": "# Agents\n- ROOT-AGENTS: money is integer cents.\n",
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "src/a.ts": "export const a = 1;\n",
};

/** A session that reads a file and runs a Bash command on it: the root AGENTS.md's count. */
async function rootAgentsTimes(
  open: Parameters<Parameters<typeof scenario>[1]>[0],
  files: Record<string, string>,
  userSettings?: Record<string, unknown>,
): Promise<number> {
  const project = await open({ ...AGENTS_PROJECT, ...files });
  if (userSettings) {
    await Deno.mkdir(`${project.home}/.claude`, { recursive: true });
    await Deno.writeTextFile(`${project.home}/.claude/settings.json`, JSON.stringify(userSettings));
  }
  const run = await runSteps(project, [
    [{ tool: "Read", input: { file_path: project.path("src/a.ts") } }],
    [{ tool: "Bash", input: { command: "wc -l src/a.ts", description: "count" } }],
  ]);
  assert.equal(timesSent(run, "GLOBAL-TECH"), 1, "the library's root files, once");
  return timesSent(run, "ROOT-AGENTS");
}

scenario(
  "a project with a root AGENTS.md and no CLAUDE.md: the model gets it exactly once on every version (2.1.332's built-in plugin loads it; on 2.1.197 the Librarian sends it)",
  async (open) => {
    assert.equal(await rootAgentsTimes(open, {}), 1);
  },
);

scenario(
  "a root AGENTS.md beside a CLAUDE.md (which 2.1.332 then does not load by default) reaches the model exactly once, by the Librarian, on every version",
  async (open) => {
    assert.equal(await rootAgentsTimes(open, { "CLAUDE.md": "# Root\n- ROOT-CLAUDE\n" }), 1);
  },
);

scenario(
  "whatever the client's instructionFiles setting (loaded beside CLAUDE.md, or never), the root AGENTS.md reaches the model exactly once",
  async (open) => {
    const setting = (instructionFiles: string) => ({
      pluginConfigs: { "cc-plugin-agents-md@builtin": { options: { instructionFiles } } },
    });
    const claude = { "CLAUDE.md": "# Root\n- ROOT-CLAUDE\n" };
    assert.equal(await rootAgentsTimes(open, claude, setting("claude-md-and-agents-md")), 1);
    assert.equal(await rootAgentsTimes(open, {}, setting("claude-md")), 1);
  },
);

scenario(
  "in a project without a CLAUDE.md (nested AGENTS.md only), a Read brings the folder's AGENTS.md exactly once on every version: by the client's built-in loader on 2.1.332, by the Librarian on 2.1.197; the Bash touch that follows sends it not again",
  async (open) => {
    const project = await open({
      ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
      "AGENTS.md": "# Root\n- ROOT-AGENTS: run just fmt.\n",
      "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
      "sdk/typescript/AGENTS.md": "# SDK\n- SDK-AGENTS: public types from src/index.ts only.\n",
      "sdk/typescript/src/codex.ts": "export class Codex {}\n",
    });
    const run = await runSteps(project, [
      [{ tool: "Read", input: { file_path: project.path("sdk/typescript/src/codex.ts") } }],
      [{
        tool: "Bash",
        input: { command: "sed -i '$a // x' sdk/typescript/src/codex.ts", description: "mark" },
      }],
    ]);
    assert.equal(timesSent(run, "SDK-AGENTS"), 1);
  },
);

scenario(
  "a CLAUDE.md that only imports AGENTS.md (`@AGENTS.md`), at the root and in a package: each AGENTS.md reaches the model exactly once on every version (the client loads it with the CLAUDE.md; the Librarian sends it only where the client did not)",
  async (open) => {
    const project = await open({
      ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
      "CLAUDE.md": "@AGENTS.md\n",
      "AGENTS.md": "# Agents\n- ROOT-AGENTS: money is integer cents.\n",
      "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
      "pkg/CLAUDE.md": "@AGENTS.md\n",
      "pkg/AGENTS.md": "# Pkg\n- PKG-AGENTS: the package exports one class.\n",
      "pkg/a.ts": "export const a = 1;\n",
      "other/CLAUDE.md": "@AGENTS.md\n",
      "other/AGENTS.md": "# Other\n- OTHER-AGENTS: no default exports here.\n",
      "other/b.ts": "export const b = 1;\n",
    });
    const run = await runSteps(project, [
      [{ tool: "Read", input: { file_path: project.path("pkg/a.ts") } }],
      [{ tool: "Bash", input: { command: "wc -l pkg/a.ts", description: "count" } }],
      [{
        tool: "Bash",
        input: { command: "sed -i '$a // x' other/b.ts", description: "mark" },
      }],
    ]);
    assert.equal(timesSent(run, "GLOBAL-TECH"), 1, "the library's root files, once");
    assert.equal(timesSent(run, "ROOT-AGENTS"), 1, "with the root CLAUDE.md, by the client");
    assert.equal(timesSent(run, "PKG-AGENTS"), 1, "with pkg/CLAUDE.md after the Read");
    assert.equal(timesSent(run, "OTHER-AGENTS"), 1, "a sed -i: by the Librarian");
  },
);

const EXPORTED_PROJECT: Record<string, string> = {
  ".claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash"] } }),
  "_memory_library/tech.md": "# tech\n- GLOBAL-TECH: builds run on Deno 2.\n",
  "_memory_library/src/api/patterns.md":
    "# API\n- API-EXPORTED: every handler validates its input with zod before anything else.\n",
  "src/api/a.ts": "export const a = 1;\n",
};

/**
 * A project after `librarian export --format <format>` (which writes the library root's export
 * too), and a session of `steps`: how many times the exported folder's and the root's library text
 * reached the model.
 */
async function exportedTimes(
  open: Parameters<Parameters<typeof scenario>[1]>[0],
  format: string,
  steps: (project: E2EProject) => Record<string, unknown>[][],
): Promise<{ folder: number; root: number }> {
  const project = await open(EXPORTED_PROJECT);
  const exported = await runLibrarian(["export", "--format", format], {
    cwd: project.root,
    home: project.home,
  });
  assert.equal(exported.code, 0, exported.stderr + exported.stdout);
  const run = await runSteps(project, steps(project));
  return { folder: timesSent(run, "API-EXPORTED"), root: timesSent(run, "GLOBAL-TECH") };
}

const READ_THEN_BASH = (project: E2EProject) => [
  [{ tool: "Read", input: { file_path: project.path("src/api/a.ts") } }],
  [{ tool: "Bash", input: { command: "sed -i '$a // x' src/api/a.ts", description: "mark" } }],
];

scenario(
  "the Librarian's own exports (agents-md, claude-rules) never make the library text reach the model twice: a Read and a Bash touch of an exported folder bring its library text and the root's exactly once on every version, by the client where it loads the export, by the Librarian where it does not",
  async (open) => {
    for (const format of ["agents-md", "claude-rules"]) {
      const times = await exportedTimes(open, format, READ_THEN_BASH);
      assert.deepEqual(times, { folder: 1, root: 1 }, format);
    }
  },
);

scenario(
  "a Bash touch alone of an exported folder (the client loads no export there) brings its library text exactly once, from the library, on every version",
  async (open) => {
    for (const format of ["agents-md", "claude-rules"]) {
      const times = await exportedTimes(open, format, () => [
        [{ tool: "Bash", input: { command: "wc -l src/api/a.ts", description: "count" } }],
      ]);
      assert.deepEqual(times, { folder: 1, root: 1 }, format);
    }
  },
);
