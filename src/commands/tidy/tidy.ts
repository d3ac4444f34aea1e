/**
 * `librarian tidy [--apply] [--json]`: files that stay small. Proposes a deterministic plan for
 * each library file over its fair share of the budget (`tidy_plan.ts`): learnings whose cited code
 * files all lie under one sub-folder move down into that sub-folder's file, exact duplicates go,
 * stale learnings are listed for a decision. `--apply` carries it out as one transaction under
 * the library lock: every new text is worked out first, then written through the library's
 * boundary; if a write fails, the files already written get their old text back. Nothing is lost
 * and every learning keeps its provenance comment; the change is one diff to review in git.
 *
 * @module
 */

import {
  Boundary,
  type EnvReader,
  isDirectory,
  joinPath,
  LibrarianError,
  type Library,
  normalizePath,
  processEnv,
  readBudget,
  readLibraryText,
  safeText,
  scanLibrary,
  servedFiles,
  statStamp,
} from "../../core/mod.ts";
import { lockLibrary } from "../../filing/mod.ts";
import { DEFAULT_CHANGE_RATIO, scanStaleness, staleReason } from "../../git/mod.ts";
import { VERSION } from "../../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  locateLibrary,
  makeStyle,
  noLibraryError,
  printJson,
  runCommand,
} from "../../cli/mod.ts";
import { applyTidy, planTidy, type TidyFile, type TidyPlan } from "./tidy_plan.ts";

/** The command line of `librarian tidy`. */
export const SPEC: CommandSpec = {
  name: "tidy",
  synopsis: "[--apply] [--json]",
  summary: "propose (or apply) a plan that keeps oversized library files small",
  details: [
    "For each library file over its fair share of the inject budget (what a first touch of its",
    "folder can show whole), proposes: learnings whose cited code files all lie under one",
    "sub-folder move down into that sub-folder's file (with their provenance); exact duplicates",
    "(also of a file above on the path) go; stale learnings are listed for you to decide.",
    "--apply carries the plan out as one transaction under the library lock (all or nothing).",
    "To consolidate one file's learnings into fewer, sharper ones, use /librarian-curate <folder>.",
  ],
  options: {
    apply: { type: "boolean", description: "carry the plan out (one transaction)" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
  requiredPositionals: 0,
};

/** The library's served files as text. */
async function readFiles(library: Library): Promise<TidyFile[]> {
  const files: TidyFile[] = [];
  for (const file of servedFiles(await scanLibrary(library.root))) {
    const stat = statStamp(file.absPath);
    if ("error" in stat) continue;
    const text = readLibraryText(file.absPath, stat.size, 4 * 1024 * 1024);
    if (text.kind === "text" && !text.partial) {
      files.push({ relPath: file.relPath, text: text.text });
    }
  }
  return files;
}

/** The plan for the library as it is now (git asked once, for the stale learnings). */
async function makePlan(library: Library, env: EnvReader, files: TidyFile[]): Promise<TidyPlan> {
  const scan = await scanStaleness(library.projectRoot, files, DEFAULT_CHANGE_RATIO);
  const stale = new Map(
    scan.stale.map((s) => [
      `${s.learning.file}\n${s.learning.line}`,
      staleReason(s.fates, s.commit ?? s.learning.provenance.commit),
    ]),
  );
  return planTidy(files, {
    budget: readBudget(env).budget,
    codeFolderExists: (relDir) => isDirectory(joinPath(library.projectRoot, relDir)),
    stale,
  });
}

/** Writes every new text, or none: a failed write puts back what was already written. */
function writeAll(library: Library, before: Map<string, string>, after: Map<string, string>) {
  const boundary = new Boundary(library.root, "library");
  const written: string[] = [];
  try {
    for (const [relPath, text] of after) {
      boundary.writeText(joinPath(library.root, relPath), text);
      written.push(relPath);
    }
  } catch (error) {
    for (const relPath of written) {
      const old = before.get(relPath);
      try {
        if (old === undefined) boundary.remove(joinPath(library.root, relPath));
        else boundary.writeText(joinPath(library.root, relPath), old);
      } catch {
        // what could not be put back is named by the error below
      }
    }
    throw new LibrarianError(
      `tidy: nothing applied (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** Runs `librarian tidy`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const cwd = normalizePath(Deno.cwd());
    const located = await locateLibrary(env, cwd);
    const { library } = located;
    if (!library) throw noLibraryError(cwd, located);
    const apply = flag(parsed, "apply");
    let plan: TidyPlan;
    let changed: string[] = [];
    if (apply) {
      await using _lock = await lockLibrary(library, env);
      const files = await readFiles(library);
      plan = await makePlan(library, env, files);
      const after = applyTidy(files, plan);
      writeAll(library, new Map(files.map((f) => [f.relPath, f.text])), after);
      changed = [...after.keys()].sort();
    } else {
      plan = await makePlan(library, env, await readFiles(library));
    }
    if (flag(parsed, "json")) {
      printJson({ version: VERSION, library: library.root, applied: apply, changed, ...plan });
      return EXIT_OK;
    }
    const style = makeStyle(env);
    if (plan.oversized.length === 0) {
      console.log("Every library file fits its fair share of the budget: nothing to tidy.");
      return EXIT_OK;
    }
    for (const o of plan.oversized) {
      console.log(
        `${style.bold(safeText(o.file))}: ${o.chars} characters, over its fair share (${o.share})`,
      );
    }
    const verb = apply ? "moved" : "move";
    for (const m of plan.moves) {
      console.log(`  ${verb} ${safeText(m.file)}:${m.line} → ${safeText(m.to)}`);
    }
    for (const d of plan.drops) {
      console.log(
        `  ${apply ? "removed" : "remove"} ${safeText(d.file)}:${d.line} ` +
          `(the same as ${safeText(d.sameAs.file)}:${d.sameAs.line})`,
      );
    }
    for (const s of plan.stale) {
      console.log(
        `  stale ${safeText(s.file)}:${s.line}: ${safeText(s.reason)} (decide: update or delete)`,
      );
    }
    if (apply) {
      console.log(`\n${changed.length} files changed; review with git diff.`);
    } else if (plan.moves.length + plan.drops.length > 0) {
      console.log(`\nRun 'librarian tidy --apply' to carry this out (one transaction).`);
    } else {
      console.log(
        "\nNothing moves mechanically: '/librarian-curate <folder>' consolidates a file's learnings.",
      );
    }
    return EXIT_OK;
  });
}
