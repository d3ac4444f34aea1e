/**
 * The Gemini CLI extension that runs the Librarian's hooks (pure): `gemini-extension.json` and
 * `hooks/hooks.json`, written by `librarian setup-gemini --dir <folder>` and installed with
 * `gemini extensions install <folder>`.
 *
 * Gemini CLI 0.61.0 drops the context of its before-tool hook, so the tool touch is wired to
 * `AfterTool` (the library files arrive appended to the tool's result); `SessionStart` sends the
 * library root's files, `BeforeAgent` the tagging reminder, `AfterAgent` files learnings and may
 * continue the turn once (the nudge). Timeouts are in milliseconds; matchers are regular
 * expressions over Gemini's tool names.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import { hookCommand, type HookProgram } from "./hook_command.ts";

/** The extension's name (Gemini expects the folder it installs to carry it). */
export const GEMINI_EXTENSION_NAME = "librarian";

/** Gemini's tools that read, write or list project files (the shell has its own entry). */
export const GEMINI_FILE_TOOLS: readonly string[] = [
  "read_file",
  "read_many_files",
  "write_file",
  "replace",
  "glob",
  "grep_search",
  "search_file_content",
  "list_directory",
];

/** One file of the extension: its path inside the folder and its text. */
export interface ExtensionFile {
  path: string;
  text: string;
}

function entry(program: HookProgram, subcommand: string, name: string, timeout: number) {
  return { type: "command", name, command: hookCommand(program, subcommand, "sh"), timeout };
}

/**
 * The extension's files for a program (the launcher or binary the hooks run, by absolute path:
 * Gemini copies the folder on install, so nothing in it may be relative).
 *
 * @example Usage
 * ```ts
 * import { geminiExtensionFiles } from "./gemini_extension.ts";
 * import assert from "node:assert/strict";
 *
 * const files = geminiExtensionFiles({ kind: "launcher", path: "/opt/librarian/bin/librarian" });
 * assert.deepEqual(files.map((f) => f.path), ["gemini-extension.json", "hooks/hooks.json"]);
 * const hooks = JSON.parse(files[1]!.text).hooks;
 * assert.deepEqual(Object.keys(hooks), ["SessionStart", "BeforeAgent", "AfterTool", "AfterAgent"]);
 * assert.equal(hooks.AfterAgent[0].hooks[0].command, "sh '/opt/librarian/bin/librarian' stop");
 * assert.equal(hooks.BeforeTool, undefined);
 * ```
 */
export function geminiExtensionFiles(program: HookProgram): ExtensionFile[] {
  const manifest = {
    name: GEMINI_EXTENSION_NAME,
    version: VERSION,
    description: "The Librarian: path-scoped memory library context with each file tool's " +
      "result, learnings filed at the end of each turn",
  };
  const hooks = {
    hooks: {
      SessionStart: [{ hooks: [entry(program, "inject", "librarian-session-start", 10_000)] }],
      BeforeAgent: [{ hooks: [entry(program, "inject", "librarian-reminder", 10_000)] }],
      AfterTool: [
        {
          matcher: GEMINI_FILE_TOOLS.join("|"),
          hooks: [entry(program, "inject", "librarian-context", 10_000)],
        },
        {
          matcher: "run_shell_command",
          hooks: [entry(program, "inject --shell", "librarian-shell-context", 10_000)],
        },
      ],
      AfterAgent: [{ hooks: [entry(program, "stop", "librarian-file-learnings", 30_000)] }],
    },
  };
  return [
    { path: "gemini-extension.json", text: JSON.stringify(manifest, null, 2) + "\n" },
    { path: "hooks/hooks.json", text: JSON.stringify(hooks, null, 2) + "\n" },
  ];
}

/**
 * Why a folder may not receive the extension, or `null` when it may: it is empty of extension
 * files, or already holds this one. `manifest` and `hooks` are the texts of its
 * `gemini-extension.json` and `hooks/hooks.json` (`null` when absent). Another extension's
 * files, or a manifest that cannot be read as ours, are never overwritten.
 *
 * @example Usage
 * ```ts
 * import { foreignExtension } from "./gemini_extension.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(foreignExtension(null, null), null);
 * assert.equal(foreignExtension('{"name":"librarian"}', "{}"), null);
 * assert.match(foreignExtension('{"name":"other"}', null)!, /extension 'other'/);
 * assert.match(foreignExtension(null, "{}")!, /hooks\/hooks\.json/);
 * ```
 */
export function foreignExtension(manifest: string | null, hooks: string | null): string | null {
  if (manifest === null) {
    return hooks === null
      ? null
      : "it has a hooks/hooks.json that was not written by setup-gemini (no gemini-extension.json)";
  }
  let name: unknown;
  try {
    name = (JSON.parse(manifest) as { name?: unknown } | null)?.name;
  } catch {
    return "its gemini-extension.json is not JSON, so it cannot be told apart from another extension";
  }
  if (name === GEMINI_EXTENSION_NAME) return null;
  return `it holds the Gemini CLI extension '${String(name)}'`;
}
