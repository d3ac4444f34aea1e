/**
 * The proof of issue 33 on three whole-repository shapes (`shapes.ts`): a monorepo of nested
 * `CLAUDE.md`, an app with a root `AGENTS.md`, `.claude/rules` and Cursor rules, a Codex-style
 * monorepo of nested `AGENTS.md`. Each gets `librarian init && librarian import --yes` as a new user
 * runs it, and two learnings; then one scripted session (a Read, a Bash `cat`, a Bash `sed -i`, a
 * Write, a Bash `grep`, a Bash `grep` that finds nothing, an Edit, and a subagent's Bash `cat`)
 * runs twice on the same tree: with the
 * client alone (no plugin) and with the client and the Librarian. What the model received is
 * compared line by line with the memory files:
 *
 * - (i) no guidance line reaches the model twice in one context window (main, subagent);
 * - (ii) every Bash touch brings the touched folder's memory: its `CLAUDE.md`/`AGENTS.md` files up
 *   to the root, the `.claude/rules` and Cursor rules that cover the file, its library files (from
 *   the client or the Librarian, at that touch or before it in the window);
 * - (iii) on file tools (and at the start) the Librarian's session has every line the client alone
 *   sends.
 *
 * A case that fails only because of a known gap another change closes is registered as an ignored
 * step naming the gap ({@link KNOWN_GAPS}): remove its entry once the gap is closed.
 *
 * Runs with `LIBRARIAN_E2E=1` (`deno task e2e`, `deno task e2e:oldest`). The hold is off
 * (`LIBRARIAN_HOLD=off`): the scripted model does not make a held call again.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runLibrarian } from "../helpers.ts";
import { createProject, type E2EProject } from "./harness.ts";
import { text, toolUse } from "./model_server.ts";
import { textsOf } from "./requests.ts";
import { CLAUDE_VERSION, claudeBinary, scenario } from "./scenario.ts";
import {
  applicable,
  charsPerStep,
  doubledLines,
  guidanceThrough,
  isMemoryFile,
  memoryLinesIn,
  missingLines,
  type Tree,
  type WindowTexts,
  windowTexts,
} from "./guidance.ts";
import { type Plan, type Shape, SHAPES } from "./shapes.ts";

/** The marker in the subagent's prompt: its requests are told by it. */
const SUBAGENT_MARKER = "SHAPES-SUBAGENT-7c2: show one file";

/** Index of each step in the main window. */
const STEP = { read: 0, cat: 1, sed: 2, write: 3, grep: 4, grepNoMatch: 5, edit: 6 } as const;

/** The main session's scripted turns. */
function mainTurns(project: E2EProject, plan: Plan, firstLine: string) {
  return [
    [toolUse("Read", { file_path: project.path(plan.read) })],
    [toolUse("Bash", { command: `cat ${plan.cat}`, description: "show the file" })],
    [toolUse("Bash", {
      command: `sed -i '$a // touched' ${plan.sedInPlace}`,
      description: "mark the file",
    })],
    [toolUse("Write", {
      file_path: project.path(plan.write),
      content: "// a new module\n",
    })],
    [toolUse("Bash", {
      command: `grep -n '${plan.grep.pattern}' ${plan.grep.file}`,
      description: "find the use",
    })],
    [toolUse("Bash", {
      command: `grep -n 'no-such-text-7f3' ${plan.grepNoMatch}`,
      description: "look for a name",
    })],
    [toolUse("Edit", {
      file_path: project.path(plan.read),
      old_string: firstLine,
      new_string: `${firstLine} // touched`,
    })],
    [toolUse("Agent", {
      description: "show a file",
      prompt: SUBAGENT_MARKER,
      subagent_type: "general-purpose",
      run_in_background: false,
    })],
    [text("Done.")],
  ];
}

/** The subagent's scripted turns. */
function subagentTurns(plan: Plan) {
  return [
    [toolUse("Bash", { command: `cat ${plan.subagentCat}`, description: "show the file" })],
    [text("Subagent done.")],
  ];
}

/** What one session sent the model. */
interface Session {
  main: WindowTexts;
  sub: WindowTexts | null;
}

/** `git init`, `librarian init && librarian import --yes`, then the shape's learnings. */
async function prepare(project: E2EProject, shape: Shape): Promise<Tree> {
  await new Deno.Command("git", { args: ["init", "-q", project.root] }).output();
  const shell = { cwd: project.root, home: project.home };
  for (const args of [["init"], ["import", "--yes"]]) {
    const done = await runLibrarian(args, shell);
    assert.equal(done.code, 0, `librarian ${args.join(" ")}: ${done.stderr}${done.stdout}`);
  }
  await project.write(shape.learnings);
  const tree: Tree = {};
  for (const path of await project.files()) {
    if (isMemoryFile(path)) tree[path] = (await project.read(path)) ?? "";
  }
  return tree;
}

/** Runs the scripted session in a prepared project. */
async function runSession(project: E2EProject, shape: Shape): Promise<Session> {
  const firstLine = shape.files[shape.plan.read]!.split("\n").find((l) => l.trim() !== "")!;
  project.server.route(
    (body) => textsOf(body).some((t) => t.includes(SUBAGENT_MARKER)),
    subagentTurns(shape.plan),
  );
  const run = await project.run(
    "Work through the repository.",
    mainTurns(project, shape.plan, firstLine),
    { env: { LIBRARIAN_HOLD: "off" }, timeoutMs: 180_000 },
  );
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  const isSub = (body: Record<string, unknown> | null) =>
    textsOf(body).some((t) => t.includes(SUBAGENT_MARKER));
  const mainBody = run.turns.filter((t) => !isSub(t.body)).at(-1)?.body;
  const subBody = run.turns.filter((t) => isSub(t.body)).at(-1)?.body ?? null;
  assert.ok(mainBody, "the model was called");
  const main = windowTexts(mainBody);
  assert.deepEqual(
    main.steps.map((s) => s.tool),
    ["Read", "Bash", "Bash", "Write", "Bash", "Bash", "Edit", "Agent"],
  );
  for (const step of [0, 1, 2, 3, 4, 6].map((k) => main.steps[k]!)) {
    assert.doesNotMatch(step.result, /<tool_use_error>|Error:/, `${step.tool}: ${step.result}`);
  }
  return { main, sub: subBody ? windowTexts(subBody) : null };
}

/** The memory files that apply to a file, every kind. */
function allApplicable(tree: Tree, relPath: string): string[] {
  const a = applicable(tree, relPath);
  return [...a.folder, ...a.claudeRules, ...a.cursorRules, ...a.library];
}

/**
 * Cases that fail only because of a gap another change closes: the shapes, the client version
 * (every one when absent) and the cases it fails. The step is registered ignored, named with the
 * gap; remove the entry when the gap is closed.
 */
const KNOWN_GAPS: { shapes: string[]; version?: string; case: RegExp; gap: string }[] = [
  {
    shapes: ["app"],
    case: /^\(ii\) Bash cat \S+\.test\.ts brings \.cursor\/rules\/testing\.mdc$/,
    gap:
      "gap: a Cursor rule whose globs name no one folder (**/*.test.ts) is neither imported nor read in place (helper rules)",
  },
  {
    shapes: ["app", "codex"],
    version: "2.1.197",
    case: /^\(ii\) .* brings AGENTS\.md$/,
    gap:
      "gap: 2.1.197 does not load the root AGENTS.md and the Librarian leaves it to the client (helper client)",
  },
  {
    shapes: ["monorepo", "app"],
    version: "2.1.332",
    case: /^\(ii\) Bash grep \(no match\) \S+ brings (?!_memory_library\/|CLAUDE\.md$|AGENTS\.md$)/,
    gap:
      "gap: a grep that finds nothing is taken for the client's read, which then loads nothing (helper client)",
  },
];

/**
 * Open, no change on it: the client loads a folder's nested `CLAUDE.md` after a Read (and on
 * 2.1.332 a Write) even when the Librarian sent it on an earlier Bash touch; no hook output tells
 * the client it is in the window already.
 */
const OPEN_DOUBLING =
  "open: the client loads a nested CLAUDE.md after a Read although a Bash touch brought it; no hook can tell it";

function gapOf(shape: Shape, caseName: string): string | undefined {
  return KNOWN_GAPS.find((g) =>
    g.shapes.includes(shape.id) && (g.version ?? CLAUDE_VERSION) === CLAUDE_VERSION &&
    g.case.test(caseName)
  )?.gap;
}

/** One table row: characters per touch and lines doubled. */
function row(shape: Shape, mode: string, tree: Tree, session: Session): string {
  const perTouch = charsPerStep(session.main).slice(0, 7);
  const sub = session.sub ? charsPerStep(session.sub)[0] ?? 0 : 0;
  const start = session.main.start.reduce((n, t) => n + t.length, 0);
  const doubled = doubledLines(tree, guidanceThrough(session.main, 99))
    .length + (session.sub ? doubledLines(tree, guidanceThrough(session.sub, 99)).length : 0);
  const all = [...perTouch, sub];
  return `| ${shape.name} | ${CLAUDE_VERSION} | ${mode} | ${start} | ${all.join(" / ")} | ${
    all.reduce((a, b) => a + b, 0)
  } | ${doubled} |`;
}

for (const make of SHAPES) {
  const shape = make();
  scenario(
    `${shape.name}: the scripted session sends no guidance line twice, brings every Bash touch its folder's memory, and sends at least what the client alone sends on file tools`,
    async (open, t) => {
      const bin = claudeBinary()!;
      const project = await open(shape.files);
      const tree = await prepare(project, shape);
      await using alone = await createProject(bin, shape.files, null);
      assert.deepEqual(await prepare(alone, shape), tree);
      const withLibrarian = await runSession(project, shape);
      const clientAlone = await runSession(alone, shape);
      console.log(row(shape, "client alone", tree, clientAlone));
      console.log(row(shape, "client + Librarian", tree, withLibrarian));

      const step = async (caseName: string, fn: () => void) => {
        const gap = gapOf(shape, caseName);
        await t.step({ name: gap ? `ignore (${gap}): ${caseName}` : caseName, ignore: !!gap, fn });
      };

      // (i) never twice, in each context window
      const main = withLibrarian.main;
      await step("(i) no guidance line twice in the main context window", () => {
        const doubled = doubledLines(tree, guidanceThrough(main, main.steps.length));
        assert.deepEqual(doubled, []);
      });
      await step("(i) no guidance line twice in the subagent's context window", () => {
        assert.ok(withLibrarian.sub, "the subagent ran");
        assert.deepEqual(doubledLines(tree, guidanceThrough(withLibrarian.sub, 9)), []);
      });

      // (ii) every Bash touch brings its folder's memory
      const bashTouches: [string, string, WindowTexts | null, number][] = [
        ["cat", shape.plan.cat, main, STEP.cat],
        ["sed -i", shape.plan.sedInPlace, main, STEP.sed],
        ["grep", shape.plan.grep.file, main, STEP.grep],
        ["grep (no match)", shape.plan.grepNoMatch, main, STEP.grepNoMatch],
        ["subagent cat", shape.plan.subagentCat, withLibrarian.sub, 0],
      ];
      for (const [touch, file, window, k] of bashTouches) {
        const sources = allApplicable(tree, file);
        assert.ok(sources.some((source) => source.includes("/")), `${file}: memory of its own`);
        for (const source of sources) {
          await step(`(ii) Bash ${touch} ${file} brings ${source}`, () => {
            assert.ok(window, "the window was recorded");
            assert.deepEqual(missingLines(tree, [source], guidanceThrough(window, k)), []);
          });
        }
      }

      // (iii) on file tools, at least what the client alone sends
      const fileSteps: [string, number][] = [
        ["the start", -1],
        ["Read", STEP.read],
        ["Write", STEP.write],
        ["Edit", STEP.edit],
      ];
      for (const [touch, k] of fileSteps) {
        await step(`(iii) ${touch}: every guidance line the client alone sends`, () => {
          const native = memoryLinesIn(tree, guidanceThrough(clientAlone.main, k));
          const ours = memoryLinesIn(tree, guidanceThrough(main, k));
          assert.deepEqual([...native].filter((line) => !ours.has(line)), []);
        });
      }
    },
  );
}

scenario(
  "a Bash touch, then a Read in the same folder: the folder's nested CLAUDE.md reaches the model once",
  async (open, t) => {
    const shape = SHAPES[0]!();
    const project = await open(shape.files);
    const tree = await prepare(project, shape);
    const file = "packages/db/src/client.ts";
    const run = await project.run("Look at the client.", [
      [toolUse("Bash", { command: `sed -i '$a // touched' ${file}`, description: "mark" })],
      [toolUse("Read", { file_path: project.path(file) })],
      [text("Done.")],
    ], { env: { LIBRARIAN_HOLD: "off" } });
    assert.equal(run.code, 0, run.stderr);
    const window = windowTexts(run.turns.at(-1)!.body!);
    assert.deepEqual(missingLines(tree, ["packages/db/CLAUDE.md"], guidanceThrough(window, 0)), []);
    await t.step({
      name: `ignore (${OPEN_DOUBLING}): no guidance line twice`,
      ignore: true,
      fn: () => assert.deepEqual(doubledLines(tree, guidanceThrough(window, 1)), []),
    });
  },
);
