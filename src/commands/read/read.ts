/**
 * `librarian read <path>`: exactly what the inject hook would send before a tool touches that
 * file (the same {@link buildFileContext} call, with no session ledger), then a summary.
 *
 * @module
 */

import {
  dirnameOf,
  type EnvReader,
  isDirectory,
  joinPath,
  normalizePath,
  processEnv,
  readBudget,
  resolveLocalPath,
} from "../../core/mod.ts";
import {
  buildFileContext,
  type FileContext,
  type NoCommandContextReason,
  type NoContextReason,
} from "../../inject/mod.ts";
import {
  type CommandSpec,
  describeFoundBy,
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  librarianPathProblem,
  libraryJson,
  makeStyle,
  noLibraryMessage,
  printJson,
  runCommand,
  stringOption,
  UsageError,
} from "../../cli/mod.ts";
import { VERSION } from "../../version.ts";
import { commandReadContext, NO_COMMAND_CONTEXT } from "./command.ts";

/** The command line of `librarian read`. */
export const SPEC: CommandSpec = {
  name: "read",
  synopsis: "<path> [--json] [--provenance] | --command '<shell command>' [--json]",
  summary: "show exactly what the model is sent before a tool touches <path>",
  details: [
    "Prints the context the inject hook would send for <path> (a code file, relative to the",
    "current folder or absolute; it need not exist yet; for a folder such as src/api/, what a",
    "file directly inside it gets), ignoring what this session was already",
    "sent, then a summary: the files that apply, the characters used of the budget",
    "(LIBRARIAN_BUDGET), and what was cut or left out. Exits 1 when no library is found.",
    "With --command, the same for a Bash tool call running that command line in the current",
    "folder: the files and folders it names (read, written, searched) merged into one context.",
    "With --provenance, each learning's provenance comment (day, commit, code files) is shown too;",
    "the model is never sent those lines.",
  ],
  options: {
    json: { type: "boolean", description: "print a JSON object instead of text" },
    provenance: { type: "boolean", description: "show the provenance comments too" },
    command: {
      type: "string",
      valueName: "<shell command>",
      description: "show what a Bash tool call running this command would be sent",
    },
  },
  positionals: ["<path>"],
  requiredPositionals: 0,
};

/** Why nothing would be sent, in words. */
const NO_CONTEXT: Record<NoContextReason | NoCommandContextReason, string> = {
  ...NO_COMMAND_CONTEXT,
  "not-a-local-path":
    "the path cannot name a file on this machine (a NUL character, or a Windows drive path here)",
  "no-library": "no library applies to this file",
  "library-refused": "the library found is another user's, so it is not used",
  "outside-project": "the file is outside the library's project",
  "in-library": "the file is inside the library itself (library files get no context)",
  "no-library-files": "no library file applies to this folder or its ancestors",
  "all-sent": "every applicable file was already sent",
};

type FileStatus = "shown" | "cut" | "left-out" | "skipped";

function fileStatuses(context: FileContext & { kind: "context" }) {
  const { shown, cut, left, skipped } = context.rendered;
  const statusOf = (label: string): FileStatus =>
    shown.includes(label)
      ? "shown"
      : cut.includes(label)
      ? "cut"
      : left.includes(label)
      ? "left-out"
      : skipped.includes(label)
      ? "skipped"
      : "left-out";
  return context.files.map((f) => ({ path: f.relPath, label: f.label, status: statusOf(f.label) }));
}

/** Runs `librarian read`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const command = stringOption(parsed, "command");
    if ((command === undefined) === (parsed.positionals[0] === undefined)) {
      throw new UsageError("give a <path> or --command '<shell command>' (one of them)");
    }
    const path = parsed.positionals[0] ?? command!;
    const { budget, warning } = readBudget(env);
    const cwd = normalizePath(Deno.cwd());
    const resolved = resolveLocalPath(path, cwd);
    // A folder (`src/api/`, or a path that is a folder on disk): what a file directly in it gets.
    const folder = command === undefined &&
      (/[\\/]$/.test(path) || (resolved !== null && isDirectory(resolved)));
    // For a folder, the path of "any file directly in it" (`src/api/*`), so the library is looked
    // for from the folder itself and the header says what the context is for.
    const target = folder ? joinPath(resolved ?? cwd, "*") : path;
    const context = command === undefined
      ? buildFileContext(target, {
        env,
        budget,
        alreadySent: {},
        cwd,
        keepProvenance: flag(parsed, "provenance"),
      })
      : commandReadContext(command, { env, budget, cwd });
    const noLibrary = context.kind === "none" &&
      (context.reason === "no-library" || context.reason === "library-refused");
    const exit = noLibrary ? EXIT_PROBLEMS : EXIT_OK;
    const envProblem = await librarianPathProblem(env);
    const why = {
      ...(envProblem ? { envProblem } : {}),
      ...(context.kind === "none" && "refused" in context && context.refused
        ? { refused: context.refused }
        : {}),
    };
    const fileDir = dirnameOf(folder ? joinPath(resolved ?? cwd, "*") : (resolved ?? cwd));

    if (flag(parsed, "json")) {
      const base = {
        version: VERSION,
        path,
        folder,
        relPath: context.relPath ?? null,
        library: context.library ? libraryJson(context.library) : null,
        budget,
        ...(warning ? { budgetWarning: warning } : {}),
      };
      if (context.kind === "none") {
        printJson({
          ...base,
          result: context.reason,
          message: noLibrary ? noLibraryMessage(fileDir, why) : NO_CONTEXT[context.reason],
          additionalContext: null,
          chars: 0,
          files: [],
        });
      } else {
        printJson({
          ...base,
          result: "context",
          additionalContext: context.rendered.text,
          chars: context.rendered.text.length,
          files: fileStatuses(context),
        });
      }
      return exit;
    }

    const style = makeStyle(env);
    if (context.kind === "none") {
      if (noLibrary) {
        console.error(`librarian read: ${noLibraryMessage(fileDir, why)}`);
      } else {
        console.log(
          `Nothing would be sent for ${context.relPath ?? path}: ${NO_CONTEXT[context.reason]}.`,
        );
        if (context.library) {
          console.log(
            style.dim(`library: ${context.library.root} (${describeFoundBy(context.library)})`),
          );
        }
      }
      return exit;
    }

    const text = context.rendered.text;
    console.log(text);
    const statuses = fileStatuses(context);
    const count = (s: FileStatus) => statuses.filter((f) => f.status === s).length;
    const percent = Math.round((text.length / budget) * 100);
    const width = Math.max(...statuses.map((f) => f.status.length));
    const colourOf = (s: FileStatus) =>
      s === "shown" ? style.green : s === "cut" ? style.yellow : style.red;
    console.log(
      [
        "",
        style.bold("── librarian read: summary ──"),
        `file:       ${context.relPath}`,
        `library:    ${context.library.root} (${describeFoundBy(context.library)})`,
        `files:      ${statuses.length} apply: ${count("shown")} shown, ${count("cut")} cut, ` +
        `${count("left-out")} left out, ${count("skipped")} skipped`,
        ...statuses.map((f) => `  ${colourOf(f.status)(f.status.padEnd(width))}  ${f.label}`),
        `characters: ${text.length} of a ${budget}-character budget (${percent}%)`,
        ...(warning ? [style.yellow(`warning:    ${warning}`)] : []),
      ].join("\n"),
    );
    return exit;
  });
}
