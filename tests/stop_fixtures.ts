/**
 * Shared fixtures of the stop hook's subprocess tests: a throwaway project and a Stop event.
 *
 * @module
 */

import { join } from "node:path";
import { writeTree } from "./helpers.ts";

/** A throwaway project under `base`, with HOME beside it and a folder outside the project. */
export interface Project {
  base: string;
  root: string;
  lib: string;
  home: string;
  scratch: string;
  /** A folder outside the project: nothing may ever be written there. */
  outside: string;
}

/** Makes `<base>/proj/_memory_library/`, `<base>/home` and `<base>/outside`, plus `files`. */
export async function makeProject(
  base: string,
  files: Record<string, string> = {},
): Promise<Project> {
  const root = join(base, "proj");
  const lib = join(root, "_memory_library");
  const home = join(base, "home");
  const outside = join(base, "outside");
  for (const dir of [lib, home, outside]) await Deno.mkdir(dir, { recursive: true });
  await writeTree(root, files);
  await makeTaggedFolders(root, Object.values(files).join("\n"));
  return { base, root, lib, home, scratch: join(lib, ".scratch.md"), outside };
}

/**
 * Creates the code folder each plain tag in `text` names, as a real project has them: filing
 * keeps a block whose folder exists nowhere (src/filing/real_folder.ts). Only plain relative
 * paths: a test of a bad tag keeps its tag as it is.
 */
export async function makeTaggedFolders(root: string, text: string): Promise<void> {
  for (const match of text.matchAll(/\[\s*TAG\s*:\s*([A-Za-z0-9_%][A-Za-z0-9_.%/-]*?)\s*,/gi)) {
    const path = match[1]!;
    if (path === "global" || path.split("/").some((s) => s === "" || s === "." || s === "..")) {
      continue;
    }
    await Deno.mkdir(join(root, path), { recursive: true }).catch(() => {});
  }
}

/** A Stop event as Claude Code sends it, for a session working in `cwd`. */
export function stopEvent(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "sess-1234abcd",
    transcript_path: "/tmp/none.jsonl",
    cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
    ...extra,
  });
}

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await listFiles(join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

/** One transcript line as Claude Code 2.1.197 writes it. */
export function entry(type: string, content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type,
    isSidechain: false,
    message: { role: type, content },
    sessionId: "sess-1234abcd",
    ...extra,
  });
}
/** The turn's prompt line. */
export const prompt = (text: string): string => entry("user", text, { promptId: "p1" });
let ids = 0;
/** A tool call and its result (failed when `error`). */
export function tool(name: string, input: Record<string, unknown>, error = false): string[] {
  const id = `toolu_${++ids}`;
  return [
    entry("assistant", [{ type: "tool_use", id, name, input }]),
    entry("user", [{ type: "tool_result", tool_use_id: id, content: "ok", is_error: error }]),
  ];
}
/** An assistant text line. */
export const say = (text: string): string => entry("assistant", [{ type: "text", text }]);

/** Writes `lines` as the session transcript `<base>/transcript.jsonl`; returns its path. */
export async function writeTranscript(p: Project, lines: string[]): Promise<string> {
  const path = join(p.base, "transcript.jsonl");
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

/** A turn that reads the billing code and writes `files`, ending "Done.". */
export function writeTurn(p: Project, ...files: string[]): string[] {
  return [
    prompt("Change the billing code."),
    ...tool("Read", { file_path: join(p.root, "src/api/billing/invoice.ts") }),
    ...files.flatMap((f) => tool("Write", { file_path: join(p.root, f), content: "x\n" })),
    say("Done."),
  ];
}

/**
 * The nudge in a Stop hook's output for Claude Code: its `hookSpecificOutput.additionalContext`
 * (the model continues with it; received once on 2.1.197 and 2.1.332), or `undefined`.
 */
export function nudgeOf(output: Record<string, unknown>): string | undefined {
  const specific = output.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific?.hookEventName !== "Stop") return undefined;
  return typeof specific.additionalContext === "string" ? specific.additionalContext : undefined;
}
