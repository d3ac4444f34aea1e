/**
 * Measures what reaches the model of a real repository's own memory (nested `CLAUDE.md`,
 * `AGENTS.md`, `.claude/rules/*.md`, `.cursor/rules/*.mdc`, and the library after the import) in one scripted six-touch session (Read, Bash `cat`, Bash
 * `sed -i`, Write, Bash `grep`, Edit), with the real Claude Code CLI and the e2e harness's model
 * server: the client alone, and the client with the Librarian (after `librarian init` and
 * `librarian import --yes`). Prints a Markdown table: characters of guidance per touch (every text
 * the model received with the touch's result beside the result itself: the client's
 * `Contents of …CLAUDE.md` reminders and the hooks' contexts), and the memory lines that reached it
 * more often than the memory files hold them ("lines doubled", `tests/e2e/guidance.ts`, as the
 * e2e proof on the three fixture shapes counts them: `tests/e2e/shapes_test.ts`).
 *
 * Not part of any test run:
 *
 * ```sh
 * deno task bundle --quiet
 * LIBRARIAN_CLAUDE_DIR=/path/to/cli-cache LIBRARIAN_E2E_CLAUDE=current \
 *   deno run --allow-all scripts/measure_native.ts trigger.dev /path/to/trigger.dev-checkout
 * ```
 *
 * The checkout may be a clone without a work tree (`git clone --no-checkout`): files are read from
 * its `HEAD`. The project is a copy of the repository's memory files and the six touched files (not the whole
 * tree), with `.claude/settings.json` allowing Bash; `git init` is run in it.
 *
 * @module
 */

import { createProject } from "../tests/e2e/harness.ts";
import { text, toolUse } from "../tests/e2e/model_server.ts";
import {
  charsPerStep,
  doubledLines,
  guidanceThrough,
  isMemoryFile,
  type Tree,
  windowTexts,
} from "../tests/e2e/guidance.ts";
import { runLibrarian } from "../tests/helpers.ts";
import { e2eClaudeVersion, ensureClaudeCode } from "./install_claude.ts";

/** The six touches of one repository: a file each, in folders with memory of their own. */
interface Plan {
  read: string;
  cat: string;
  sedInPlace: string;
  write: string;
  grep: { pattern: string; file: string };
  /** Edited after the Read (the client requires it): its first line gets a comment. */
  edit: string;
}

const PLANS: Record<string, Plan> = {
  "trigger.dev": {
    read: "internal-packages/database/src/boundedIn.ts",
    cat: "packages/core/src/v3/apiClient/getBranch.ts",
    sedInPlace: "apps/supervisor/src/backpressure/backpressureMetrics.ts",
    write: "internal-packages/run-engine/src/engine/measureNote.ts",
    grep: { pattern: "export", file: "packages/redis-worker/src/fair-queue/retry.ts" },
    edit: "internal-packages/database/src/boundedIn.ts",
  },
  tres: {
    read: "packages/core/src/components/TresCanvas.vue",
    cat: "packages/cientos/src/core/abstractions/Align.vue",
    sedInPlace: "packages/postprocessing/src/core/pmndrs/ASCIIPmndrs.vue",
    write: "packages/nuxt/src/measureNote.ts",
    grep: { pattern: "defineProps", file: "packages/leches/src/components/BooleanControl.vue" },
    edit: "packages/core/src/components/TresCanvas.vue",
  },
};

const TOUCHES = ["Read", "cat", "sed -i", "Write", "grep", "Edit"] as const;

/** A file of the repository's `HEAD` (a clone without a work tree will do), or `null`. */
function showFile(repo: string, path: string): string | null {
  const out = new Deno.Command("git", {
    args: ["-C", repo, "show", `HEAD:${path}`],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return out.success ? new TextDecoder().decode(out.stdout) : null;
}

/** The repository's memory files and the plan's files, as a tree to write. */
function projectFiles(repo: string, plan: Plan): Record<string, string> {
  const list = new Deno.Command("git", {
    args: ["-C", repo, "ls-tree", "-r", "--name-only", "HEAD"],
    stdout: "piped",
  }).outputSync();
  const paths = new TextDecoder().decode(list.stdout).split("\n").filter(isMemoryFile);
  const touched = [plan.read, plan.cat, plan.sedInPlace, plan.grep.file, plan.edit];
  const files: Record<string, string> = {};
  for (const path of [...paths, ...touched]) {
    const body = showFile(repo, path);
    if (body !== null) files[path] = body;
  }
  files[".claude/settings.json"] = JSON.stringify({ permissions: { allow: ["Bash"] } });
  return files;
}

interface Measured {
  start: number;
  perTouch: number[];
  doubled: number;
  doubledExamples: string[];
}

async function measure(
  claudeBin: string,
  files: Record<string, string>,
  plan: Plan,
  withLibrarian: boolean,
  pluginDir?: string,
): Promise<Measured> {
  await using project = await createProject(claudeBin, files, withLibrarian ? pluginDir : null);
  await new Deno.Command("git", { args: ["init", "-q", project.root] }).output();
  if (withLibrarian) {
    const shell = { cwd: project.root, home: project.home };
    for (const args of [["init"], ["import", "--yes"]]) {
      const done = await runLibrarian(args, shell);
      if (done.code !== 0) throw new Error(`librarian ${args[0]}: ${done.stderr}${done.stdout}`);
    }
  }
  // the memory files as the session finds them (the library's too, after the import)
  const tree: Tree = {};
  for (const path of (await project.files()).filter(isMemoryFile)) {
    tree[path] = (await project.read(path)) ?? "";
  }
  // the Edit's old string must occur once in the file
  const lines = files[plan.edit]!.split("\n");
  const firstLine = lines.find((l) =>
    l.trim() !== "" && lines.filter((m) => m === l).length === 1
  )!;
  const run = await project.run("Work through the packages.", [
    [toolUse("Read", { file_path: project.path(plan.read) })],
    [toolUse("Bash", { command: `cat ${plan.cat}`, description: "show" })],
    [toolUse("Bash", {
      command: `sed -i 's/[[:space:]]*$//' ${plan.sedInPlace}`,
      description: "strip trailing whitespace",
    })],
    [toolUse("Write", {
      file_path: project.path(plan.write),
      content: "export const note = 1;\n",
    })],
    [toolUse("Bash", {
      command: `grep -n ${plan.grep.pattern} ${plan.grep.file}`,
      description: "find",
    })],
    [toolUse("Edit", {
      file_path: project.path(plan.edit),
      old_string: firstLine,
      new_string: `${firstLine} // measured`,
    })],
    [text("Done.")],
  ], { env: { LIBRARIAN_HOLD: "off" }, timeoutMs: 180_000 });
  if (run.code !== 0) throw new Error(`claude exited ${run.code}: ${run.stderr}`);
  const window = windowTexts(run.turns.at(-1)!.body!);
  // the client's own sed check asks for approval for some paths (`-p` mode: refused); its
  // PreToolUse hooks ran all the same, and the memory that reaches the model is that of the touch
  const refused = window.steps.filter((step) =>
    step.isError && !/^sed command requires approval/.test(step.result)
  );
  for (const step of window.steps.filter((s) => s.isError && !refused.includes(s))) {
    console.error(`  note: ${step.result.slice(0, 90)}`);
  }
  if (refused.length > 0) {
    throw new Error(`a call did not run: ${refused.map((s) => s.result.slice(0, 200)).join("; ")}`);
  }
  // whole lines, not substrings: one memory line can be part of a longer one
  const doubled = doubledLines(tree, guidanceThrough(window, window.steps.length));
  return {
    start: window.start.reduce((n, t) => n + t.length, 0),
    perTouch: charsPerStep(window),
    doubled: doubled.length,
    doubledExamples: doubled.slice(0, 3),
  };
}

if (import.meta.main) {
  const [name, repo, pluginDir] = Deno.args;
  const plan = PLANS[name ?? ""];
  if (!plan || !repo) {
    console.error(
      `usage: measure_native.ts <${
        Object.keys(PLANS).join("|")
      }> <checkout folder> [another plugin tree, with its bundles built, measured alone]`,
    );
    Deno.exit(2);
  }
  const version = e2eClaudeVersion();
  const claudeBin = await ensureClaudeCode((line) => console.error(line), version);
  const files = projectFiles(repo, plan);
  const commit = new TextDecoder().decode(
    new Deno.Command("git", {
      args: ["-C", repo, "rev-parse", "--short=12", "HEAD"],
      stdout: "piped",
    })
      .outputSync().stdout,
  ).trim();
  for (const withLibrarian of pluginDir ? [true] : [false, true]) {
    const m = await measure(claudeBin, files, plan, withLibrarian, pluginDir);
    const mode = pluginDir
      ? `client + Librarian at ${pluginDir}`
      : withLibrarian
      ? "client + Librarian"
      : "client alone";
    console.log(
      `| ${name}@${commit} | ${version} | ${mode} | ${m.start} | ${m.perTouch.join(" / ")} | ${
        m.perTouch.reduce((a, b) => a + b, 0)
      } | ${m.doubled} |`,
    );
    if (m.doubledExamples.length > 0) {
      console.error(`  doubled, e.g.: ${m.doubledExamples.map((l) => l.slice(0, 60)).join(" · ")}`);
    }
  }
  console.error(`touches: ${TOUCHES.join(", ")}`);
}
