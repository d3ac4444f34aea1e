/**
 * Inject-hook benchmark: the whole process through the launcher against a bare Deno start.
 *
 * Two libraries, the same 10-level-deep edited file:
 * - small: 20 `.md` files;
 * - large: 20,000 `.md` files in 2,000 folders.
 * The hook reads only the ancestor folders, so its cost must not grow with the library.
 *
 * @module
 */

import { join } from "node:path";
import {
  baselineCommand,
  type BenchRow,
  compare,
  REPO_ROOT,
  type TimedCommand,
} from "./bench_util.ts";

const DEPTH = 10;
const CHAIN = Array.from({ length: DEPTH }, (_, i) => `level${i + 1}`);

function learning(folder: string, n: number): string {
  return `# Notes for ${folder || "the repository"} (${n})\n` +
    Array.from(
      { length: 5 },
      (_, i) => `- learning ${i} about ${folder || "global"}: keep it short and why-focused`,
    )
      .join("\n") +
    "\n";
}

async function writeFiles(root: string, folder: string, count: number): Promise<void> {
  const dir = join(root, "_memory_library", folder);
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(
      join(dir, `topic${String(i).padStart(2, "0")}.md`),
      learning(folder, i),
    );
  }
}

/** Builds a project whose library has `folders` folders of `perFolder` files, including the deep chain. */
export async function makeLibrary(
  root: string,
  folders: number,
  perFolder: number,
): Promise<string> {
  const chainFolders = CHAIN.map((_, i) => CHAIN.slice(0, i + 1).join("/"));
  const all = ["", ...chainFolders];
  for (let i = 0; all.length < folders; i++) {
    const parent = chainFolders[i % chainFolders.length]!;
    all.push(`${parent}/sibling${i}`);
  }
  await Promise.all(all.slice(0, folders).map((f) => writeFiles(root, f, perFolder)));
  const deepDir = join(root, ...CHAIN);
  await Deno.mkdir(deepDir, { recursive: true });
  const deepFile = join(deepDir, "edited.ts");
  await Deno.writeTextFile(deepFile, "export {};\n");
  return deepFile;
}

/** Counts the `.md` files under a folder. */
export async function countMarkdown(dir: string): Promise<number> {
  let n = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) n += await countMarkdown(join(dir, entry.name));
    else if (entry.name.endsWith(".md")) n++;
  }
  return n;
}

function injectCommand(file: string, home: string): TimedCommand {
  let n = 0;
  return {
    cmd: "sh",
    args: [join(REPO_ROOT, "bin", "librarian"), "inject"],
    // a fresh session each run: the worst case, every applicable file is read and rendered
    stdin: () =>
      JSON.stringify({
        session_id: `bench-${Deno.pid}-${n++}`,
        hook_event_name: "PreToolUse",
        tool_name: "Edit",
        tool_input: { file_path: file, old_string: "a", new_string: "b" },
        cwd: home,
      }),
    env: { ...Deno.env.toObject(), HOME: home, LIBRARIAN_LOG: "off" },
  };
}

/** Runs the inject benchmark and returns its rows. */
export async function benchInject(runs = 25): Promise<BenchRow[]> {
  const tmp = await Deno.makeTempDir({ prefix: "librarian-bench-" });
  try {
    const rows: BenchRow[] = [];
    const small = join(tmp, "small");
    const large = join(tmp, "large");
    // small: 2 folders x 10 files = 20 files (root and the deep folder's parent chain top)
    const smallFile = await makeLibrary(small, 2, 10);
    const largeFile = await makeLibrary(large, 2000, 10);
    const counts = [
      await countMarkdown(join(small, "_memory_library")),
      await countMarkdown(join(large, "_memory_library")),
    ];
    for (
      const [name, file, count] of [["small", smallFile, counts[0]], [
        "large",
        largeFile,
        counts[1],
      ]] as const
    ) {
      const subject = injectCommand(file, join(tmp, `home-${name}`));
      const baseline = baselineCommand(subject.stdin);
      const { ms, baselineMs } = await compare(subject, baseline, runs);
      const ratio = ms / baselineMs;
      rows.push({
        name: `inject, ${count} .md files, file ${DEPTH} levels deep`,
        ms,
        baselineMs,
        ratio,
        goal: "≤ 1.5×",
        ok: ratio <= 1.5,
      });
    }
    return rows;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
