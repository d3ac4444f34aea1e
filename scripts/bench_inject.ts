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
  benchRow,
  compare,
  hookEnv,
  launcherPath,
  type TimedCommand,
  timeOnce,
} from "./bench_util.ts";
import { SETTLED_MS } from "../src/inject/walk_memo_format.ts";

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

/**
 * The shape of a generated library: `tree` spreads folders like a repository (each folder has a
 * few subfolders); `wide` hangs every extra folder under the edited file's ancestors, so each
 * ancestor folder lists about 200 entries: the worst case for the walk, which lists ancestors only.
 */
export type LibraryShape = "tree" | "wide";

/** The library folders (`""` = root) for a shape, always including the 10-level chain. */
export function libraryFolders(folders: number, shape: LibraryShape): string[] {
  const chainFolders = CHAIN.map((_, i) => CHAIN.slice(0, i + 1).join("/"));
  if (folders <= 2) return ["", chainFolders[chainFolders.length - 1]!].slice(0, folders);
  const all = ["", ...chainFolders];
  if (shape === "wide") {
    for (let i = 0; all.length < folders; i++) {
      all.push(`${chainFolders[i % chainFolders.length]!}/sibling${i}`);
    }
    return all.slice(0, folders);
  }
  const queue = [...all];
  while (all.length < folders && queue.length > 0) {
    const parent = queue.shift()!;
    for (let k = 0; k < 3 && all.length < folders; k++) {
      const child = parent === "" ? `area${k}` : `${parent}/part${k}`;
      all.push(child);
      queue.push(child);
    }
  }
  return all;
}

/** Builds a project whose library has `folders` folders of `perFolder` files; returns the edited file. */
export async function makeLibrary(
  root: string,
  folders: number,
  perFolder: number,
  shape: LibraryShape = "tree",
): Promise<string> {
  await Promise.all(libraryFolders(folders, shape).map((f) => writeFiles(root, f, perFolder)));
  const deepDir = join(root, ...CHAIN);
  await Deno.mkdir(deepDir, { recursive: true });
  const deepFile = join(deepDir, "edited.ts");
  await Deno.writeTextFile(deepFile, "export {};\n");
  return deepFile;
}

/**
 * A library root's file of about `chars` characters as teams write them: a hand-written top of
 * sections (one with a fenced diagram), then dated learnings with their provenance lines.
 */
export function largeRootFile(name: string, chars: number): string {
  const lines = [
    `# ${name}`,
    "",
    `What every change in this repository must respect (${name}).`,
    "",
  ];
  let section = 0;
  while (lines.join("\n").length < chars * 0.6) {
    lines.push(`## ${name} topic ${section}`, "");
    for (let i = 0; i < 8; i++) {
      lines.push(
        `- ${name} rule ${section}.${i}: keep handlers pure and return results, not throws`,
      );
    }
    if (section === 1) lines.push("", "```", "client --> gateway --> service", "```");
    lines.push("");
    section++;
  }
  for (let day = 1; lines.join("\n").length < chars; day++) {
    const date = `2026-10-${String(day).padStart(2, "0")}`;
    lines.push(`## Learnings (${date})`, "");
    for (let i = 0; i < 5; i++) {
      lines.push(`<!-- librarian: ${date} a1b2c3d src/api/handler${i}.ts -->`);
      lines.push(`- ${name} learning ${day}.${i}: retries are safe only for idempotent calls`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** A project whose library root holds three files of 20,000 characters; returns the edited file. */
export async function makeLargeRootLibrary(root: string): Promise<string> {
  await Deno.mkdir(join(root, "_memory_library"), { recursive: true });
  for (const name of ["patterns", "product", "tech"]) {
    await Deno.writeTextFile(
      join(root, "_memory_library", `${name}.md`),
      largeRootFile(name, 20_000),
    );
  }
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

/**
 * Waits until libraries just built have settled, as a library a day old has: the walk memo
 * (`src/inject/walk_memo.ts`) keeps nothing changed in the last seconds.
 */
export async function librariesSettled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 1_000));
}

/**
 * What comes before a repeat touch's timed runs: the window's last send some seconds back, as
 * between a user's tool calls (a model's turn at least), so the touch is a quiet repeat
 * (`src/inject/quiet_repeat.ts`): two settled pauses, each followed by two untimed touches (a touch
 * that wrote, such as the walk memo learning, is not kept, and the one after it read that write).
 */
function quietRepeatOf(subject: TimedCommand): () => Promise<void> {
  return async () => {
    for (let pause = 0; pause < 2; pause++) {
      await librariesSettled();
      await timeOnce(subject);
      await timeOnce(subject);
    }
  };
}

/** Issue 35's goals (issue 10's, tightened), as multiples of a bare Deno start (medians of wall time). */
export const INJECT_GOALS = {
  /** A first touch in a session: everything applicable read, rendered and recorded. */
  firstTouch: 1.2,
  /**
   * A repeat touch: everything already in the context window (the per-window lock included),
   * the last send some seconds back (a quiet repeat).
   */
  repeatTouch: 1.1,
} as const;

function injectCommand(file: string, home: string, freshSession = true): TimedCommand {
  let n = 0;
  return {
    cmd: "sh",
    args: [launcherPath(), "inject"],
    // a fresh session each run is the worst case: every applicable file is read and rendered;
    // a repeat in one session is the common case: everything is already in the context window
    stdin: () =>
      JSON.stringify({
        session_id: freshSession ? `bench-${Deno.pid}-${n++}` : `bench-${Deno.pid}-repeat`,
        hook_event_name: "PreToolUse",
        tool_name: "Edit",
        tool_input: { file_path: file, old_string: "a", new_string: "b" },
        cwd: home,
      }),
    env: hookEnv(home),
  };
}

/** Runs the inject benchmark and returns its rows. */
export async function benchInject(runs = 60): Promise<BenchRow[]> {
  const tmp = await Deno.makeTempDir({ prefix: "librarian-bench-" });
  try {
    const rows: BenchRow[] = [];
    const cases: [string, number, LibraryShape | "large-root", boolean][] = [
      ["small", 2, "tree", true],
      ["large", 2000, "tree", true],
      ["large-wide", 2000, "wide", true],
      ["large", 2000, "tree", false],
      ["large-root", 1, "large-root", true],
      ["large-root", 1, "large-root", false],
    ];
    // every library is built before any row is timed, and has settled by then: the walk memo
    // (src/inject/walk_memo.ts) keeps nothing changed in the last 3 s, as a day-old library is
    const files = new Map<string, string>();
    for (const [name, folders, shape] of cases) {
      if (files.has(name)) continue;
      const root = join(tmp, name);
      files.set(
        name,
        shape === "large-root"
          ? await makeLargeRootLibrary(root)
          : await makeLibrary(root, folders, 10, shape),
      );
    }
    const stale = await makeStaleLibrary(tmp);
    await librariesSettled();
    for (const [name, folders, shape, fresh] of cases) {
      const root = join(tmp, name);
      const file = files.get(name)!;
      const when = fresh ? "first touch in a session" : "repeat touch, nothing new";
      if (shape === "large-root") {
        const subject = injectCommand(file, join(tmp, `home-${name}`), fresh);
        const result = await compare(
          subject,
          baselineCommand(subject.stdin),
          runs,
          undefined,
          fresh ? undefined : quietRepeatOf(subject),
        );
        rows.push(benchRow(
          `inject, ${when}: three 20,000-character root files (fair budget), file ${DEPTH} levels deep`,
          result,
          fresh ? INJECT_GOALS.firstTouch : INJECT_GOALS.repeatTouch,
        ));
        continue;
      }
      const count = await countMarkdown(join(root, "_memory_library"));
      const subject = injectCommand(file, join(tmp, `home-${name}`), fresh);
      const baseline = baselineCommand(subject.stdin);
      const prepare = fresh ? undefined : quietRepeatOf(subject);
      const result = await compare(subject, baseline, runs, undefined, prepare);
      const layout = folders <= 2
        ? ""
        : shape === "tree"
        ? ", repository-like tree"
        : ", ~200 entries per ancestor";
      rows.push(benchRow(
        `inject, ${when}: ${count} .md files in ${folders} folders${layout}, file ${DEPTH} levels deep`,
        result,
        fresh ? INJECT_GOALS.firstTouch : INJECT_GOALS.repeatTouch,
      ));
    }
    rows.push(...await benchStaleRecord(stale, runs));
    return rows;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/** A library of the stale-record rows, built: its edited file and the hooks' home. */
export interface StaleLibrary {
  file: string;
  home: string;
}

/**
 * A library whose learnings cite code files, some since deleted, with the stale record the Stop
 * hook keeps present (in `tmp/stale`, its home `tmp/home-stale`).
 */
export async function makeStaleLibrary(tmp: string): Promise<StaleLibrary> {
  const root = join(tmp, "stale");
  const home = join(tmp, "home-stale");
  const file = await makeLibrary(root, 2, 10, "tree");
  const folder = CHAIN.join("/");
  const lines = ["", "## Learnings (2026-11-30)", ""];
  for (let i = 0; i < 40; i++) {
    const cited = `${folder}/code${i}.ts`;
    if (i % 4 !== 0) await Deno.writeTextFile(join(root, cited), `export const c${i} = ${i};\n`);
    lines.push(`<!-- librarian: 2026-11-30 ${cited} -->`, `- learning ${i} about code${i}.ts`);
  }
  await Deno.writeTextFile(
    join(root, "_memory_library", folder, "topic00.md"),
    lines.join("\n") + "\n",
    { append: true },
  );
  const { refreshStaleRecord } = await import("../src/git/stale_refresh.ts");
  const { envFrom } = await import("../src/core/env.ts");
  const library = {
    root: join(root, "_memory_library"),
    projectRoot: root,
    foundBy: "cwd" as const,
  };
  const made = await refreshStaleRecord(library, envFrom({ HOME: home }), { force: true });
  if (made.kind !== "written" || made.stale !== 10) {
    throw new Error(`stale benchmark: the record was not made (${JSON.stringify(made)})`);
  }
  return { file, home };
}

/**
 * The stale record's rows: the first touch marks the stale learnings (the record read, each
 * mark's cited files stat'ed); a repeat touch must cost what it costs without a record (nothing
 * is read).
 */
export async function benchStaleRecord(
  { file, home }: StaleLibrary,
  runs: number,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const fresh of [true, false]) {
    const subject = injectCommand(file, home, fresh);
    const prepare = fresh ? undefined : quietRepeatOf(subject);
    const result = await compare(subject, baselineCommand(subject.stdin), runs, undefined, prepare);
    rows.push(benchRow(
      `inject, ${
        fresh ? "first touch in a session" : "repeat touch, nothing new"
      }: stale record present (10 of 40 learnings marked stale), file ${DEPTH} levels deep`,
      result,
      fresh ? INJECT_GOALS.firstTouch : INJECT_GOALS.repeatTouch,
    ));
  }
  return rows;
}
