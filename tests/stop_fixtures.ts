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
  return { base, root, lib, home, scratch: join(lib, ".scratch.md"), outside };
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
