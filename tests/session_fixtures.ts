/**
 * Projects for the tests of `librarian sessions` and `librarian explain`: a small library with
 * its state kept inside, and a project whose sessions are already in the inject side's ledgers.
 *
 * @module
 */
import { join } from "node:path";
import { normalizePath } from "../src/core/paths.ts";
import { writeTree } from "./helpers.ts";

/**
 * A project with two library files (`tech.md`, `src/api/patterns.md`) and one code file
 * (`src/api/handler.ts`), its state inside it: where to run and the environment to run with.
 */
export async function apiProject(
  root: string,
): Promise<{ cwd: string; env: Record<string, string> }> {
  await writeTree(root, {
    "_memory_library/tech.md": "- Deno 2\n",
    "_memory_library/src/api/patterns.md": "- validate at the edge\n",
    "src/api/handler.ts": "export {};\n",
  });
  return { cwd: root, env: { LIBRARIAN_STATE_DIR: join(root, ".state") } };
}

/** A ledger (the inject side's format) saying `files` were sent. */
export function ledger(files: string[], reminded = true): string {
  const entries = files.map((path) => {
    const info = Deno.statSync(path);
    // Keyed as the inject side keys them: the path in the program's normal form.
    return [normalizePath(path), `${info.size}:${info.mtime!.getTime()}:0123456789abcdef`];
  });
  return JSON.stringify({ version: 2, files: Object.fromEntries(entries), reminded, events: [] });
}

/** A project of sessions: where to run, the environment that finds its state, its library. */
export interface SessionsProject {
  cwd: string;
  env: Record<string, string>;
  lib: string;
}

/**
 * A project with two sessions of its own (`sess-new-2222`, the latest, with subagent `abc`, and
 * `sess-old-1111`) and one of another project's (`sess-elsewhere`).
 */
export async function projectWithSessions(root: string): Promise<SessionsProject> {
  await writeTree(root, {
    "proj/_memory_library/tech.md": "- Deno 2\n",
    "proj/_memory_library/src/api/patterns.md": "- validate at the edge\n",
    "other/_memory_library/tech.md": "- elsewhere\n",
  });
  const lib = join(root, "proj/_memory_library");
  const state = join(root, "state");
  const write = (session: string, window: string, text: string, mtime: Date) => {
    const dir = join(state, "ledgers", session);
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(join(dir, `${window}.json`), text);
    Deno.utimeSync(join(dir, `${window}.json`), mtime, mtime);
  };
  write("sess-old-1111", "main", ledger([join(lib, "tech.md")]), new Date(Date.now() - 3600_000));
  write(
    "sess-new-2222",
    "main",
    ledger([join(lib, "tech.md"), join(lib, "src/api/patterns.md")]),
    new Date(),
  );
  write("sess-new-2222", "agent-abc", ledger([join(lib, "tech.md")], false), new Date());
  write(
    "sess-elsewhere",
    "main",
    ledger([join(root, "other/_memory_library/tech.md")]),
    new Date(),
  );
  return { cwd: join(root, "proj"), env: { LIBRARIAN_STATE_DIR: state }, lib };
}
