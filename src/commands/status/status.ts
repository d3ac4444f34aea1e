/**
 * `librarian status`: where the library is and how it was found, its folders, what waits in
 * scratch, the last hook runs, and whether the hooks are wired.
 *
 * @module
 */

import {
  ageOf,
  basenameOf,
  describeRecord,
  type EnvReader,
  isRegularFile,
  type Library,
  logFile,
  type LogRecord,
  normalizePath,
  plural,
  processEnv,
  readProjectRuns,
  safeText,
  scanLibrary,
  scratchPathOf,
} from "../../core/mod.ts";
import {
  type CommandSpec,
  describeFoundBy,
  EXIT_OK,
  flag,
  formatBytes,
  intOption,
  libraryJson,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
  stringOption,
  type Style,
} from "../../cli/mod.ts";
import { describeWiring, detectHookWiring } from "../../setup/mod.ts";
import { recentPluginDirRun } from "../doctor/doctor_checks.ts";
import { collapseTree, type FolderRow, naturalTreeOrder } from "./tree.ts";
import { VERSION } from "../../version.ts";
import { type BlockReview, reviewScratch } from "../scratch/scratch_review.ts";
import { nestedScratches } from "./nested_scratch.ts";

/** The command line of `librarian status`. */
export const SPEC: CommandSpec = {
  name: "status",
  synopsis: "[--depth <n>] [--runs <n>] [--json]",
  summary: "show the library, its folders, pending scratch blocks, hook runs and wiring",
  details: [
    "Shows where the library is and how it was found, the blocks waiting in scratch (routable,",
    "legacy, rejected and why, held for a likely secret), whether Claude Code runs the hooks,",
    "this project's last hook runs from the log, and each folder with its file count and size",
    "(in natural order: m1, m2, m10; a big tree is collapsed below --depth, deeper folders",
    "counted into their ancestor). Exits 1 when no library is found.",
  ],
  options: {
    runs: { type: "string", valueName: "<n>", description: "hook runs to show (default 10)" },
    depth: {
      type: "string",
      valueName: "<n>",
      description: "folder levels to show (default: as many as fit in 40 lines)",
    },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/** How a pending block is counted. */
export type BlockCategory = "routable" | "legacy" | "rejected" | "secret" | "empty";

/**
 * The category of a reviewed block (pure).
 *
 * @example Usage
 * ```ts
 * import { categoryOf } from "./status.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(categoryOf({ kind: "routable", line: 1, tag: "", target: "x.md" }), "routable");
 * assert.equal(categoryOf({ kind: "kept", line: 1, tag: "", code: "secret", reason: "" }), "secret");
 * assert.equal(categoryOf({ kind: "kept", line: 1, tag: "", code: "legacy", reason: "" }), "legacy");
 * ```
 */
export function categoryOf(review: BlockReview): BlockCategory {
  if (review.kind !== "kept") return review.kind;
  if (review.code === "legacy") return "legacy";
  if (review.code === "secret") return "secret";
  return "rejected";
}

async function readScratch(library: Library): Promise<string | null> {
  const path = scratchPathOf(library);
  if (!isRegularFile(path)) return null; // a FIFO would block the read
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** A log record with its numeric fields (`ms=12.5`, `chars=145`) as JSON numbers. */
function withNumbers(record: LogRecord): Omit<LogRecord, "fields"> & {
  fields: Record<string, string | number>;
} {
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(record.fields)) {
    fields[key] = /^-?\d+(\.\d+)?$/.test(value) && key !== "session" ? Number(value) : value;
  }
  return { ...record, fields };
}

async function gather(library: Library, env: EnvReader, runs: number) {
  const folders = await scanLibrary(library.root);
  const tree: FolderRow[] = naturalTreeOrder(folders.map((f) => {
    const served = f.files.filter((file) => file.served);
    return {
      path: f.relDir,
      depth: f.depth,
      files: served.length,
      bytes: served.reduce((n, file) => n + file.size, 0),
    };
  }));
  const scratchText = await readScratch(library);
  const blocks = (scratchText === null ? [] : reviewScratch(scratchText))
    .map((review) => ({ category: categoryOf(review), ...review }));
  const counts: Record<BlockCategory, number> = {
    routable: 0,
    legacy: 0,
    rejected: 0,
    secret: 0,
    empty: 0,
  };
  for (const block of blocks) counts[block.category]++;
  const log = logFile(env);
  const hooks = await detectHookWiring(env, library.projectRoot);
  return {
    version: VERSION,
    library: libraryJson(library),
    tree,
    scratch: {
      path: scratchPathOf(library),
      exists: scratchText !== null,
      counts,
      blocks,
      nested: nestedScratches(library),
    },
    log: {
      path: log ?? null,
      runs: log
        ? (await readProjectRuns(log, library.projectRoot, runs).catch(() => null)) ?? []
        : [],
    },
    hooks,
    pluginDir: await recentPluginDirRun(env, normalizePath(library.projectRoot), hooks),
  };
}

type Status = Awaited<ReturnType<typeof gather>>;

function printFolders(status: Status, library: Library, style: Style, depth?: number): void {
  const files = status.tree.reduce((n, f) => n + f.files, 0);
  const bytes = status.tree.reduce((n, f) => n + f.bytes, 0);
  const { rows, depth: shownDepth, hidden } = collapseTree(status.tree, depth);
  console.log(`\n${style.bold(`Folders (${plural(files, "file")}, ${formatBytes(bytes)})`)}`);
  const labels = rows.map((f) =>
    `${"  ".repeat(f.depth)}${f.path === "" ? basenameOf(library.root) : basenameOf(f.path)}/`
  );
  const width = Math.max(...labels.map((l) => safeText(l).length)) + 2;
  rows.forEach((f, i) => {
    const size = f.files
      ? `${plural(f.files, "file")}, ${formatBytes(f.bytes)}`
      : style.dim("no files");
    const below = f.below
      ? style.dim(
        ` (+${plural(f.below.folders, "folder")} below: ${plural(f.below.files, "file")}, ` +
          `${formatBytes(f.below.bytes)})`,
      )
      : "";
    console.log(`  ${safeText(labels[i]!).padEnd(width)}${size}${below}`);
  });
  if (hidden > 0) {
    console.log(
      style.dim(
        `  ${plural(hidden, "folder")} deeper than level ${shownDepth} counted above; ` +
          `--depth ${shownDepth + 1} shows more`,
      ),
    );
  }
}

function printScratch(status: Status, style: Style): void {
  const { counts, blocks, exists, nested } = status.scratch;
  console.log(`\n${style.bold("Scratch")}`);
  if (!exists) console.log(`  ${style.dim("no scratch file (run 'librarian init')")}`);
  else if (blocks.length === 0 && nested.paths.length === 0) {
    console.log(`  ${style.dim("empty: nothing waiting")}`);
  } else if (blocks.length === 0) console.log(`  ${style.dim("empty")}`);
  else {
    console.log(
      `  ${counts.routable} routable, ${counts.legacy} legacy, ${counts.rejected} rejected, ` +
        `${counts.secret} held for a likely secret` +
        (counts.empty ? `, ${counts.empty} empty` : ""),
    );
    for (const b of blocks) {
      const category = b.category;
      const colour = category === "routable"
        ? style.green
        : category === "empty"
        ? style.dim
        : style.yellow;
      const detail = b.kind === "routable"
        ? `→ ${b.target}`
        : b.kind === "kept"
        ? b.reason
        : "empty, will be dropped";
      console.log(
        `  line ${String(b.line).padEnd(4)} ${colour(category.padEnd(8))} ${
          safeText(`${b.tag}  ${detail}`)
        }`,
      );
    }
    if (counts.legacy + counts.rejected + counts.secret > 0) {
      console.log(style.dim("  'librarian scratch' shows the fix for each kept block"));
    }
  }
}

/** Nested libraries' scratch files that hold blocks: filed by a Stop of a turn that works there. */
function printNested(status: Status, style: Style): void {
  const { paths, truncated } = status.scratch.nested;
  for (const path of paths) {
    console.log(
      style.yellow(`  waiting in ${safeText(path)}`) +
        style.dim(
          " (a nested library: filed at the end of a turn that works below it, or run " +
            "'librarian route' there)",
        ),
    );
  }
  if (truncated) {
    console.log(style.dim("  (nested libraries looked for in the first 20,000 folders only)"));
  }
}

function printStatus(status: Status, library: Library, style: Style, depth?: number): void {
  console.log(`${style.bold("Library")}  ${library.root} (found ${describeFoundBy(library)})`);
  console.log(`Project  ${library.projectRoot}`);
  printScratch(status, style);
  printNested(status, style);

  console.log(`\n${style.bold("Hooks")}`);
  const pluginDir = status.pluginDir;
  if (!status.hooks.wired && pluginDir !== null) {
    // Hooks ran from a plugin no file lists: a session started with --plugin-dir.
    console.log(
      `  ${style.green("wired")} by --plugin-dir: hooks ran ${ageOf(pluginDir.time)} from ` +
        safeText(pluginDir.root),
    );
  } else {
    const wired = status.hooks.wired ? style.green("wired") : style.red("not wired");
    console.log(`  ${wired}: ${describeWiring(status.hooks)}`);
    if (!status.hooks.wired) console.log(`  ${style.dim("run 'librarian doctor' for the fix")}`);
  }

  console.log(`\n${style.bold("Last hook runs in this project")}`);
  if (!status.log.path) console.log(`  ${style.dim("logging is off (LIBRARIAN_LOG=off)")}`);
  else if (status.log.runs.length === 0) {
    console.log(`  ${style.dim(`none yet (${status.log.path})`)}`);
  } else for (const record of status.log.runs) console.log(`  ${describeRecord(record)}`);

  printFolders(status, library, style, depth);
}

/** Runs `librarian status`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const runs = intOption(parsed, "runs", 10, 0, 1000);
    const depth = stringOption(parsed, "depth") === undefined
      ? undefined
      : intOption(parsed, "depth", 0, 0, 1000);
    const library = await requireLibrary(env);
    const status = await gather(library, env, runs);
    if (flag(parsed, "json")) {
      printJson({ ...status, log: { ...status.log, runs: status.log.runs.map(withNumbers) } });
    } else printStatus(status, library, makeStyle(env), depth);
    return EXIT_OK;
  });
}
