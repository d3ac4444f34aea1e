/**
 * `librarian setup-gemini --dir <folder>`: writes the Gemini CLI extension that runs this
 * installation's hooks (`gemini_extension.ts`), to be installed with
 * `gemini extensions install <folder>`.
 *
 * @module
 */

import {
  type EnvReader,
  joinPath,
  LibrarianError,
  normalizePath,
  processEnv,
  readTextIfExists,
  writeTextAtomic,
} from "../core/mod.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  printJson,
  runCommand,
  stringOption,
  UsageError,
} from "../cli/mod.ts";
import { absolute, chooseProgram } from "./hook_program.ts";
import { foreignExtension, geminiExtensionFiles } from "./gemini_extension.ts";

/** The command line of `librarian setup-gemini`. */
export const SPEC: CommandSpec = {
  name: "setup-gemini",
  synopsis: "--dir <folder> [--launcher <path>] [--json]",
  summary: "write a Gemini CLI extension that runs the hooks (then: gemini extensions install)",
  details: [
    "Writes gemini-extension.json and hooks/hooks.json into <folder>: SessionStart (the library",
    "root's files), BeforeAgent (the tagging reminder), AfterTool (a touched folder's library",
    "files, with the tool's result: Gemini drops a before-tool hook's context) and AfterAgent",
    "(filing, and the nudge), running this installation by absolute path. Install it with",
    "'gemini extensions install <folder>'; run again (and reinstall) after moving the Librarian.",
    "A folder holding another extension's files is refused and left as it is.",
  ],
  options: {
    dir: { type: "string", valueName: "<folder>", description: "where to write the extension" },
    launcher: {
      type: "string",
      valueName: "<path>",
      description: "the launcher or binary the hooks run (default: this installation)",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** Runs `librarian setup-gemini`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const option = stringOption(parsed, "dir");
    if (option === undefined) throw new UsageError("--dir <folder> is required");
    const cwd = normalizePath(Deno.cwd());
    const dir = absolute(option, cwd);
    const program = chooseProgram(stringOption(parsed, "launcher"), "sh", env, cwd);
    const foreign = foreignExtension(
      readTextIfExists(joinPath(dir, "gemini-extension.json")),
      readTextIfExists(joinPath(dir, "hooks/hooks.json")),
    );
    if (foreign !== null) {
      throw new LibrarianError(
        `setup-gemini: ${dir} ${foreign.replace(/^it /, "")}; nothing was written there: ` +
          "choose another folder (an empty one, or one setup-gemini wrote)",
      );
    }
    const written: string[] = [];
    for (const file of geminiExtensionFiles(program)) {
      const path = joinPath(dir, file.path);
      if (readTextIfExists(path) === file.text) continue;
      await writeTextAtomic(path, file.text);
      written.push(file.path);
    }
    if (flag(parsed, "json")) printJson({ dir, program: program.path, written });
    else {
      console.log(
        written.length > 0
          ? `Wrote the Gemini CLI extension in ${dir}`
          : `Nothing to change in ${dir}`,
      );
      for (const path of written) console.log(`  ${path}`);
      console.log(`\nInstall it: gemini extensions install ${dir}`);
      console.log("On Gemini CLI the library context arrives with each file tool's result.");
    }
    return EXIT_OK;
  });
}
