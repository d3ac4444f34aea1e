/**
 * The project's root `AGENTS.md`: sent by the Librarian exactly when the client did not load it.
 *
 * Observed with the real CLI:
 * - 2.1.197 never loads it.
 * - 2.1.332 loads it through its built-in plugin `cc-plugin-agents-md` where the project has no
 *   `CLAUDE.md` (its default `instructionFiles: "claude-md-or-agents-md"`), beside `CLAUDE.md`
 *   (`"claude-md-and-agents-md"`), or not at all (`"claude-md"`, `"managed-only"`, the plugin
 *   disabled), set in the user's settings (`pluginConfigs["cc-plugin-agents-md@builtin"].options`;
 *   a project's settings were not honoured). It sends no InstructionsLoaded for it. What it loaded
 *   it reports in the session's transcript, before the first tool call: one `attachment` line of
 *   type `instructions` whose `files` name every instruction file it put into the context (the
 *   root `CLAUDE.md` and `AGENTS.md` alike), also for a subagent, whose events carry the parent's
 *   `transcript_path`. It writes none when it loaded none, and 2.1.197 writes none ever.
 *
 * Where the project's own root `CLAUDE.md` imports it (`@AGENTS.md`), every version loads it with
 * that file at the session's start. Otherwise the transcript's head tells: listed there, the
 * client loaded it; a transcript that already holds the model's first answer and no such line, it
 * did not. Before that (a session start, a session without a transcript, or a first touch whose
 * transcript the client has not written yet: seen under load) the client is told by `CLAUDE_PID`
 * (the 2.1.3xx releases set it, 2.1.197 does not): without it nothing was loaded; with it a touch
 * goes by the user's `instructionFiles` setting (the default where it is not set), and a session
 * start waits for the first touch.
 *
 * @module
 */

import { claudeDir, type EnvReader } from "../core/env.ts";
import { readFileHead, readJsonBounded } from "../core/fs_probe.ts";
import { isObject } from "../core/json.ts";
import type { FolderListings } from "../core/folder_listing.ts";
import { joinPath, normalizePath, resolveLocalPath } from "../core/paths.ts";
import type { LibraryFile } from "../core/walk.ts";
import {
  clientLoadsAfterWriteAndShellRead,
  importedAtRoot,
  isGeneratedFile,
  isPlainFile,
} from "./native_sources.ts";

/** The root memory file the client may or may not load, project-relative. */
export const ROOT_AGENTS = "AGENTS.md";

/** How much of the transcript's head is read for the client's report (it is in the first KB). */
export const REPORT_BYTES = 256 * 1024;

/** What the transcript's head says about the instruction files the client loaded. */
export type InstructionsReport =
  /** The client's `instructions` report: the files it loaded (absolute paths). */
  | { kind: "listed"; paths: string[] }
  /** The model answered and no report came: the client loaded no instruction file. */
  | { kind: "none" }
  /** Too early to tell (no transcript, or not yet the model's first answer). */
  | { kind: "unknown" };

/**
 * The client's report of the instruction files it loaded, from the head of a transcript (JSONL).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { instructionsReport } from "./root_agents.ts";
 * const report = JSON.stringify({
 *   type: "attachment",
 *   attachment: { type: "instructions", files: [{ path: "/p/AGENTS.md", type: "Project" }] },
 * });
 * const answer = JSON.stringify({ type: "assistant", message: { content: [] } });
 * assert.deepEqual(instructionsReport(`${report}\n${answer}\n`), { kind: "listed", paths: ["/p/AGENTS.md"] });
 * assert.deepEqual(instructionsReport(`${answer}\n`), { kind: "none" });
 * assert.deepEqual(instructionsReport('{"type":"user"}\n'), { kind: "unknown" });
 * assert.deepEqual(instructionsReport(""), { kind: "unknown" });
 * ```
 */
export function instructionsReport(head: string): InstructionsReport {
  let answered = false;
  for (const line of head.split("\n")) {
    if (line.includes('"instructions"')) {
      const paths = reportedPaths(line);
      if (paths !== null) return { kind: "listed", paths };
    }
    if (!answered && line.includes('"assistant"')) {
      try {
        answered = (JSON.parse(line) as { type?: unknown }).type === "assistant";
      } catch {
        // a line cut by the read's end
      }
    }
  }
  return answered ? { kind: "none" } : { kind: "unknown" };
}

/** The files of an `instructions` attachment line, or `null` when the line is not one. */
function reportedPaths(line: string): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  const record = parsed as { type?: unknown; attachment?: { type?: unknown; files?: unknown } };
  if (record?.type !== "attachment" || record.attachment?.type !== "instructions") return null;
  const files = Array.isArray(record.attachment.files) ? record.attachment.files : [];
  return files.flatMap((f) => {
    const path = (f as { path?: unknown } | null)?.path;
    return typeof path === "string" ? [path] : [];
  });
}

/** The head of a transcript (at most {@link REPORT_BYTES}), or `""` when it cannot be read. */
function transcriptHead(transcriptPath: unknown): string {
  const path = typeof transcriptPath === "string" ? resolveLocalPath(transcriptPath) : null;
  const head = path === null ? null : readFileHead(path, REPORT_BYTES);
  return head === null ? "" : new TextDecoder().decode(head);
}

/** When the decision is made: a session or subagent start, or a touch. */
export type Phase = "start" | "touch";

/**
 * Whether the client loaded the project's root `AGENTS.md` into this session's context, or
 * `undefined` when that cannot be told yet (a start under a 2.1.3xx client: its report comes with
 * the first prompt).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { clientLoadedRootAgents } from "./root_agents.ts";
 * const p = Deno.makeTempDirSync();
 * // no report, no CLAUDE_PID (2.1.197): never loaded
 * assert.equal(clientLoadedRootAgents(p, undefined, envFrom({}), "start"), false);
 * // a 2.1.3xx start: told at the first touch
 * assert.equal(clientLoadedRootAgents(p, undefined, envFrom({ CLAUDE_PID: "7" }), "start"), undefined);
 * // a 2.1.3xx touch without a transcript: the default (loaded where there is no CLAUDE.md)
 * assert.equal(clientLoadedRootAgents(p, undefined, envFrom({ CLAUDE_PID: "7" }), "touch"), true);
 * Deno.writeTextFileSync(`${p}/CLAUDE.md`, "- c");
 * assert.equal(clientLoadedRootAgents(p, undefined, envFrom({ CLAUDE_PID: "7" }), "touch"), false);
 * // a CLAUDE.md importing it (`@AGENTS.md`): loaded with it, on every version
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- a");
 * Deno.writeTextFileSync(`${p}/CLAUDE.md`, "@AGENTS.md");
 * assert.equal(clientLoadedRootAgents(p, undefined, envFrom({}), "start"), true);
 * ```
 */
export function clientLoadedRootAgents(
  projectRoot: string,
  transcriptPath: unknown,
  env: EnvReader,
  phase: Phase,
): boolean | undefined {
  // a root CLAUDE.md that imports it (`@AGENTS.md`): every version loads it with that file
  const own = normalizePath(joinPath(projectRoot, ROOT_AGENTS));
  if (importedAtRoot(projectRoot).some((file) => normalizePath(file.absPath) === own)) return true;
  const report = instructionsReport(transcriptHead(transcriptPath));
  if (report.kind === "listed") {
    return report.paths.some((p) => normalizePath(p) === own);
  }
  if (report.kind === "none") return false;
  if (!clientLoadsAfterWriteAndShellRead(env)) return false; // 2.1.197: it never loads it
  if (phase === "start") return undefined;
  switch (instructionFilesSetting(env)) {
    case "claude-md-and-agents-md":
      return true;
    case "claude-md":
    case "managed-only":
    case "off":
      return false;
    default: // "claude-md-or-agents-md", the default
      return !isPlainFile(joinPath(projectRoot, "CLAUDE.md"));
  }
}

/** The built-in plugin that loads the root `AGENTS.md` (2.1.3xx). */
const AGENTS_PLUGIN = "cc-plugin-agents-md@builtin";

/** The user's settings file is read for the plugin's option up to this size. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The user's `instructionFiles` option of the built-in AGENTS.md plugin
 * (`pluginConfigs["cc-plugin-agents-md@builtin"].options.instructionFiles` in
 * `~/.claude/settings.json`, `CLAUDE_CONFIG_DIR` honoured), `"off"` where the settings disable the
 * plugin (`enabledPlugins`), or `undefined` (not set, or the file is missing or not JSON: the
 * client then uses its default).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { envFrom } from "../core/env.ts";
 * import { instructionFilesSetting } from "./root_agents.ts";
 * const home = Deno.makeTempDirSync();
 * assert.equal(instructionFilesSetting(envFrom({ HOME: home })), undefined);
 * Deno.mkdirSync(`${home}/.claude`);
 * const options = { instructionFiles: "claude-md-and-agents-md" };
 * const settings = { pluginConfigs: { "cc-plugin-agents-md@builtin": { options } } };
 * Deno.writeTextFileSync(`${home}/.claude/settings.json`, JSON.stringify(settings));
 * assert.equal(instructionFilesSetting(envFrom({ HOME: home })), "claude-md-and-agents-md");
 * ```
 */
export function instructionFilesSetting(env: EnvReader): string | undefined {
  const dir = claudeDir(env);
  if (dir === undefined) return undefined;
  const settings = readJsonBounded(joinPath(dir, "settings.json"), MAX_SETTINGS_BYTES);
  if (!isObject(settings)) return undefined;
  const enabled = settings.enabledPlugins;
  if (isObject(enabled) && enabled[AGENTS_PLUGIN] === false) return "off";
  const configs = settings.pluginConfigs;
  const plugin = isObject(configs) ? configs[AGENTS_PLUGIN] : undefined;
  const options = isObject(plugin) ? plugin.options : undefined;
  const option = isObject(options) ? options.instructionFiles : undefined;
  return typeof option === "string" ? option : undefined;
}

/**
 * The project's root `AGENTS.md` as a source (a plain file, never a link, not one `librarian
 * export` wrote), or `null`. `listings`: one touch's folder listings (`core/folder_listing.ts`), which
 * spare the probe where the root's listing shows no such file.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { rootAgentsFile } from "./root_agents.ts";
 * const p = Deno.makeTempDirSync();
 * assert.equal(rootAgentsFile(p), null);
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- a");
 * assert.equal(rootAgentsFile(p)?.relPath, "AGENTS.md");
 * ```
 */
export function rootAgentsFile(
  projectRoot: string,
  listings?: FolderListings,
): LibraryFile | null {
  if (listings?.mayHold(projectRoot, ROOT_AGENTS) === false) return null;
  const absPath = joinPath(projectRoot, ROOT_AGENTS);
  // one `librarian export --format agents-md` wrote is the library's own text (loaded_exports.ts)
  if (!isPlainFile(absPath) || isGeneratedFile(absPath)) return null;
  return {
    relPath: ROOT_AGENTS,
    label: `${ROOT_AGENTS} (the project's own root memory file, read in place: this client ` +
      "did not load it)",
    absPath,
  };
}
