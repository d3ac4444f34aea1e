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
 * Every call but the `grep` that finds nothing must run (not be refused). Runs with `LIBRARIAN_E2E=1` (`deno task e2e`, `deno task e2e:oldest`). The hold is off
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
  isHeld,
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

/** The steps of the main session, by name. */
type StepName =
  | "read"
  | "cat"
  | "sed"
  | "sed again"
  | "write"
  | "write again"
  | "grep"
  | "grep no match"
  | "edit"
  | "agent";

/**
 * The main session's scripted turns, each named. With the hold on, the two writes (`sed -i`, the
 * Write) are made twice, as a model does after a held call: the second is the call that runs.
 */
function mainSteps(project: E2EProject, plan: Plan, firstLine: string, hold: boolean) {
  const sed = toolUse("Bash", {
    command: `sed -i 's/[[:space:]]*$//' ${plan.sedInPlace}`,
    description: "strip trailing whitespace",
  });
  const write = toolUse("Write", { file_path: project.path(plan.write), content: "// new\n" });
  const steps: [StepName, ReturnType<typeof toolUse>][] = [
    ["read", toolUse("Read", { file_path: project.path(plan.read) })],
    ["cat", toolUse("Bash", { command: `cat ${plan.cat}`, description: "show the file" })],
    ["sed", sed],
    ...(hold ? [["sed again", sed] as [StepName, typeof sed]] : []),
    ["write", write],
    ...(hold ? [["write again", write] as [StepName, typeof write]] : []),
    [
      "grep",
      toolUse("Bash", {
        command: `grep -n '${plan.grep.pattern}' ${plan.grep.file}`,
        description: "find the use",
      }),
    ],
    [
      "grep no match",
      toolUse("Bash", {
        command: `grep -n 'no-such-text-7f3' ${plan.grepNoMatch}`,
        description: "look for a name",
      }),
    ],
    [
      "edit",
      toolUse("Edit", {
        file_path: project.path(plan.read),
        old_string: firstLine,
        new_string: `${firstLine} // touched`,
      }),
    ],
    [
      "agent",
      toolUse("Agent", {
        description: "show a file",
        prompt: SUBAGENT_MARKER,
        subagent_type: "general-purpose",
        run_in_background: false,
      }),
    ],
  ];
  return {
    names: steps.map(([name]) => name),
    turns: [...steps.map(([, use]) => [use]), [text("Done.")]],
  };
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
  /** The index of each named step in the main window; a write made twice is the second. */
  at: Record<"read" | "cat" | "sed" | "write" | "grep" | "grep no match" | "edit", number>;
  /** The steps of the writes made twice (the hold on), to add up in the table. */
  again: number[];
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

/** Runs the scripted session in a prepared project, with the hold on or off. */
async function runSession(project: E2EProject, shape: Shape, hold = false): Promise<Session> {
  const firstLine = shape.files[shape.plan.read]!.split("\n").find((l) => l.trim() !== "")!;
  project.server.route(
    (body) => textsOf(body).some((t) => t.includes(SUBAGENT_MARKER)),
    subagentTurns(shape.plan),
  );
  const { names, turns } = mainSteps(project, shape.plan, firstLine, hold);
  const run = await project.run("Work through the repository.", turns, {
    env: { LIBRARIAN_HOLD: hold ? "on" : "off" },
    timeoutMs: 180_000,
  });
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  const isSub = (body: Record<string, unknown> | null) =>
    textsOf(body).some((t) => t.includes(SUBAGENT_MARKER));
  const mainBody = run.turns.filter((t) => !isSub(t.body)).at(-1)?.body;
  const subBody = run.turns.filter((t) => isSub(t.body)).at(-1)?.body ?? null;
  assert.ok(mainBody, "the model was called");
  const main = windowTexts(mainBody);
  assert.equal(main.steps.length, names.length, main.steps.map((s) => s.tool).join(", "));
  names.forEach((name, k) => {
    const step = main.steps[k]!;
    // a grep that finds nothing exits 1; a first write may be held once by the Librarian
    const mayFail = name === "grep no match" || name === "agent" ||
      (hold && (name === "sed" || name === "write") && isHeld(step));
    assert.ok(mayFail || !step.isError, `${name} ran: ${step.result}`);
  });
  const index = (name: StepName) => names.indexOf(name);
  const last = (name: "sed" | "write") => hold ? index(`${name} again`) : index(name);
  return {
    main,
    sub: subBody ? windowTexts(subBody) : null,
    at: {
      read: index("read"),
      cat: index("cat"),
      sed: last("sed"),
      write: last("write"),
      grep: index("grep"),
      "grep no match": index("grep no match"),
      edit: index("edit"),
    },
    again: hold ? [index("sed"), index("write")] : [],
  };
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
const KNOWN_GAPS: { shapes: string[]; version?: string; case: RegExp; gap: string }[] = [];

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

/** One table row: characters per touch (a write made twice: both) and lines doubled. */
function row(shape: Shape, mode: string, tree: Tree, session: Session): string {
  const chars = charsPerStep(session.main);
  const { at } = session;
  const perTouch = [at.read, at.cat, at.sed, at.write, at.grep, at["grep no match"], at.edit].map(
    (k) => chars[k]! + (session.again.includes(k - 1) ? chars[k - 1]! : 0),
  );
  const sub = session.sub ? charsPerStep(session.sub)[0] ?? 0 : 0;
  const start = session.main.start.reduce((n, t) => n + t.length, 0);
  const doubled = doubledLines(tree, guidanceThrough(session.main, 99))
    .length + (session.sub ? doubledLines(tree, guidanceThrough(session.sub, 99)).length : 0);
  const all = [...perTouch, sub];
  return `| ${shape.id} | ${CLAUDE_VERSION} | ${mode} | ${start} | ${all.join(" / ")} | ${
    all.reduce((a, b) => a + b, 0)
  } | ${doubled} |`;
}

for (const make of SHAPES) {
  const shape = make();
  scenario(
    `${shape.name}: the scripted session sends no guidance line twice, brings every Bash touch its folder's memory, and sends at least what the client alone sends on file tools (the hold off, and on)`,
    async (open, t) => {
      const bin = claudeBinary()!;
      await using alone = await createProject(bin, shape.files, null);
      const tree = await prepare(alone, shape);
      const clientAlone = await runSession(alone, shape);
      console.log(row(shape, "client alone", tree, clientAlone));
      for (const hold of [false, true]) {
        const project = await open(shape.files);
        assert.deepEqual(await prepare(project, shape), tree);
        const session = await runSession(project, shape, hold);
        console.log(row(shape, `client + Librarian, hold ${hold ? "on" : "off"}`, tree, session));
        await check(t, shape, tree, clientAlone, session, hold ? "[hold on] " : "");
      }
    },
  );
}

/** The proof's three checks on one session, each case a step (a known gap's ignored). */
async function check(
  t: Deno.TestContext,
  shape: Shape,
  tree: Tree,
  clientAlone: Session,
  session: Session,
  prefix: string,
): Promise<void> {
  const step = async (caseName: string, fn: () => void) => {
    const gap = gapOf(shape, caseName);
    const name = `${prefix}${caseName}`;
    await t.step({ name: gap ? `ignore (${gap}): ${name}` : name, ignore: !!gap, fn });
  };
  const { main, sub, at } = session;

  // (i) never twice, in each context window
  await step("(i) no guidance line twice in the main context window", () => {
    assert.deepEqual(doubledLines(tree, guidanceThrough(main, main.steps.length)), []);
  });
  await step("(i) no guidance line twice in the subagent's context window", () => {
    assert.ok(sub, "the subagent ran");
    assert.deepEqual(doubledLines(tree, guidanceThrough(sub, sub.steps.length)), []);
  });

  // (ii) every Bash touch brings its folder's memory
  const bashTouches: [string, string, WindowTexts | null, number][] = [
    ["cat", shape.plan.cat, main, at.cat],
    ["sed -i", shape.plan.sedInPlace, main, at.sed],
    ["grep", shape.plan.grep.file, main, at.grep],
    ["grep (no match)", shape.plan.grepNoMatch, main, at["grep no match"]],
    ["subagent cat", shape.plan.subagentCat, sub, 0],
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

  // (iii) at the start and on file tools, at least what the client alone sends
  const fileSteps: [string, "read" | "write" | "edit" | null][] = [
    ["the start", null],
    ["Read", "read"],
    ["Write", "write"],
    ["Edit", "edit"],
  ];
  for (const [touch, name] of fileSteps) {
    await step(`(iii) ${touch}: every guidance line the client alone sends`, () => {
      const theirs = name === null ? -1 : clientAlone.at[name];
      const ours = name === null ? -1 : at[name];
      const native = memoryLinesIn(tree, guidanceThrough(clientAlone.main, theirs));
      const sent = memoryLinesIn(tree, guidanceThrough(main, ours));
      assert.deepEqual([...native].filter((line) => !sent.has(line)), []);
    });
  }
}

scenario(
  "a Bash touch, then a Read in the same folder: the folder's nested CLAUDE.md reaches the model once",
  async (open, t) => {
    const shape = SHAPES[0]!();
    const project = await open(shape.files);
    const tree = await prepare(project, shape);
    const file = "packages/db/src/client.ts";
    const run = await project.run("Look at the client.", [
      [toolUse("Bash", { command: `sed -i 's/[[:space:]]*$//' ${file}`, description: "strip" })],
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
