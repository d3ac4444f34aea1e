/**
 * Assembles the plugin tree users install: the plugin's files from the repository plus compiled
 * binaries, checked against the build's checksum file.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run scripts/stage_release.ts --binaries dist \
 *   --out stage/all
 * deno run --allow-read --allow-write --allow-run scripts/stage_release.ts --binaries dist \
 *   --out stage/one --target aarch64-apple-darwin
 * ```
 *
 * `--allow-run`: it builds the hook bundles first (`deno bundle` and `deno info`, from this
 * checkout's sources).
 *
 * The `release` branch's tree carries no binary (`--no-binaries`): `bin/release-binaries.txt` names
 * each platform's asset with its size and SHA-256, and the launcher fetches the one for its machine
 * from `--url` (the GitHub release's download folder) on first use. One target's tree is the
 * per-platform zip attached to the GitHub release, its binary inside. Tests, scripts, CI files and
 * `node_modules` never ship; `src/` does, so the launcher can still run from source (with Deno)
 * until a binary is there, or on a platform without one.
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  binaryFileName,
  CHECKSUM_FILE,
  type ChecksumEntry,
  findTarget,
  formatChecksums,
  parseChecksums,
  type Target,
  TARGETS,
} from "./build_plan.ts";
import { BUILT_MODULES, BUNDLE_DIR, writeBundles } from "./bundle_hooks.ts";
import { sha256File } from "./sha256.ts";

/** Repository paths that make up the plugin (folders are copied whole, minus tests). */
export const PLUGIN_PATHS: readonly string[] = [
  ".claude-plugin/plugin.json",
  "bin/librarian",
  "hooks/hooks.json",
  // a checkout's bundles and their chunks (scripts/bundle_hooks.ts), shipped in hooks/ (releasePath)
  ...BUILT_MODULES.map((file) => `${BUNDLE_DIR}/${file}`),
  "skills",
  "src",
  "deno.json",
  "deno.lock",
];

/** Repository paths copied when they exist. */
export const OPTIONAL_PATHS: readonly string[] = [
  "README.md",
  "LICENSE",
  "docs",
  // LF line ends in a clone on Windows too (a CRLF launcher does not run under sh)
  ".gitattributes",
];

/**
 * The file beside the launcher naming this release's binaries (`bin/release-binaries.txt`): its
 * version, the folder to download them from and one `asset <file> <bytes> <sha256>` line per
 * platform. The launcher reads it with shell built-ins.
 */
export const MANIFEST_FILE = "release-binaries.txt";

/** One platform's binary as the manifest names it. */
export interface ManifestAsset extends ChecksumEntry {
  bytes: number;
}

/**
 * The text of {@link MANIFEST_FILE} (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatManifest } from "./stage_release.ts";
 *
 * const text = formatManifest("1.2.3", "https://example.com/v1.2.3", [
 *   { fileName: "librarian-x86_64-unknown-linux-gnu", bytes: 42, sha256: "ab".repeat(32) },
 * ]);
 * assert.match(text, /^version 1\.2\.3$/m);
 * assert.match(text, /^url https:\/\/example\.com\/v1\.2\.3$/m);
 * assert.match(text, /^asset librarian-x86_64-unknown-linux-gnu 42 (ab){32}$/m);
 * ```
 */
export function formatManifest(
  version: string,
  url: string | undefined,
  assets: readonly ManifestAsset[],
): string {
  return [
    "# The Librarian's binaries for this version: bin/librarian fetches the one for this machine",
    "# (or: librarian install-binary <file>) and runs it only when its SHA-256 matches.",
    `version ${version}`,
    ...(url ? [`url ${url.replace(/\/+$/, "")}`] : []),
    ...[...assets]
      .sort((a, b) => a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0)
      .map((a) => `asset ${a.fileName} ${a.bytes} ${a.sha256}`),
    "",
  ].join("\n");
}

/** GitHub refuses pushed files larger than this. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/**
 * The marketplace written into every staged tree, so an unpacked zip installs with
 * `/plugin marketplace add <folder>` then `/plugin install librarian@librarian-local`.
 */
export const LOCAL_MARKETPLACE = {
  name: "librarian-local",
  owner: { name: "The Librarian developers" },
  description: "The Librarian from a downloaded release (this folder)",
  plugins: [{ name: "librarian", source: "./" }],
};

/** One file to copy into the staged tree. */
export interface StageCopy {
  /** Absolute source path. */
  from: string;
  /** Path inside the staged tree, with `/`. */
  to: string;
  executable: boolean;
}

/** A release tree that cannot be staged; the message says what is wrong. */
export class StageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StageError";
  }
}

/**
 * The documents for people who work on the Librarian, not with it: read on the repository, never
 * shipped in the plugin (a user's install stays small).
 */
export const DEVELOPER_DOCS: readonly string[] = [
  "docs/architecture.md",
  "docs/benchmarks.md",
  "docs/claude-code.md",
  "docs/development.md",
  "docs/windows.md",
];

/**
 * True for repository files that never ship: tests and test data inside shipped folders, and the
 * {@link DEVELOPER_DOCS}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isExcludedFile } from "./stage_release.ts";
 *
 * assert.ok(isExcludedFile("src/core/paths_test.ts"));
 * assert.ok(isExcludedFile("docs/architecture.md"));
 * assert.ok(!isExcludedFile("docs/daily-use.md"));
 * ```
 */
export function isExcludedFile(relPath: string): boolean {
  return /(^|\/)(tests?|__snapshots__|testdata|node_modules)\//.test(relPath) ||
    /_test\.[cm]?[jt]sx?$/.test(relPath) || /(^|\/)\.DS_Store$/.test(relPath) ||
    DEVELOPER_DOCS.includes(relPath);
}

/**
 * Where a plugin file goes in the release tree: a checkout's hook bundle (`bundles/<hook>.js`) in
 * `hooks/`, where the launcher runs it without a freshness check; anything else where it is.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { releasePath } from "./stage_release.ts";
 *
 * assert.equal(releasePath("bundles/stop.js"), "hooks/stop.js");
 * assert.equal(releasePath("src/main.ts"), "src/main.ts");
 * ```
 */
export function releasePath(relPath: string): string {
  return relPath.startsWith(`${BUNDLE_DIR}/`)
    ? `hooks/${relPath.slice(BUNDLE_DIR.length + 1)}`
    : relPath;
}

/**
 * The copies for a staged tree (pure): the plugin files (relative paths in `files`, found under
 * `repoRoot`), then each target's binary from `binariesDir`.
 *
 * @throws {StageError} when a target's binary is not in the checksum list.
 */
export function stagePlan(
  repoRoot: string,
  files: readonly string[],
  binariesDir: string,
  targets: readonly Target[],
  checksums: readonly ChecksumEntry[],
): { copies: StageCopy[]; checksums: ChecksumEntry[] } {
  const copies: StageCopy[] = files
    .filter((f) => !isExcludedFile(f))
    .map((f) => ({
      from: join(repoRoot, f),
      to: releasePath(f),
      executable: f === "bin/librarian",
    }));
  const shipped: ChecksumEntry[] = [];
  for (const target of targets) {
    const fileName = binaryFileName(target.triple);
    const entry = checksums.find((c) => c.fileName === fileName);
    if (!entry) {
      throw new StageError(
        `${join(binariesDir, CHECKSUM_FILE)} lists no ${fileName}; build it with ` +
          `'deno task build --target ${target.triple} --out-dir ${binariesDir}'`,
      );
    }
    copies.push({ from: join(binariesDir, fileName), to: `bin/${fileName}`, executable: true });
    shipped.push(entry);
  }
  return { copies, checksums: shipped };
}

async function listFiles(root: string, paths: readonly string[], optional: boolean) {
  const files: string[] = [];
  async function walk(rel: string): Promise<void> {
    const info = await Deno.stat(join(root, rel));
    if (info.isFile) {
      files.push(rel);
      return;
    }
    const names: string[] = [];
    for await (const entry of Deno.readDir(join(root, rel))) names.push(entry.name);
    for (const name of names.sort()) await walk(`${rel}/${name}`);
  }
  for (const path of paths) {
    try {
      await walk(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (!optional) throw new StageError(`the plugin file ${path} is missing from ${root}`);
    }
  }
  return files;
}

async function ensureEmptyDir(path: string): Promise<void> {
  try {
    for await (const _ of Deno.readDir(path)) {
      throw new StageError(`${path} is not empty; stage into a new folder`);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    await Deno.mkdir(path, { recursive: true });
  }
}

/** The plugin's files in a checkout (paths relative to `repoRoot`), before exclusions. */
async function pluginFiles(repoRoot: string): Promise<string[]> {
  return [
    ...await listFiles(repoRoot, PLUGIN_PATHS, false),
    ...await listFiles(repoRoot, OPTIONAL_PATHS, true),
  ];
}

/** Makes `copies` under `outDir`, the launcher executable. */
async function copyAll(copies: readonly StageCopy[], outDir: string): Promise<void> {
  for (const copy of copies) {
    if ((await Deno.stat(copy.from)).size >= MAX_FILE_BYTES) {
      throw new StageError(`${copy.from} is over GitHub's 100 MB file limit`);
    }
    const to = join(outDir, copy.to);
    await Deno.mkdir(dirname(to), { recursive: true });
    await Deno.copyFile(copy.from, to);
    if (copy.executable && Deno.build.os !== "windows") await Deno.chmod(to, 0o755);
  }
}

/**
 * Stages the plugin's own files into `outDir` (new or empty) as a release tree holds them, the
 * hook bundles in `hooks/` where the launcher runs them without a freshness check, but with no
 * binary and no release manifest: the tree the launcher runs from source when no binary is
 * there, which `deno task bench` times. Returns the staged files. Build the bundles first.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PLUGIN_PATHS, stagePluginFiles } from "./stage_release.ts";
 * const repo = Deno.makeTempDirSync();
 * const folders = ["skills", "src"];
 * for (const path of [...PLUGIN_PATHS.map((p) => folders.includes(p) ? `${p}/a.md` : p), "src/a_test.ts"]) {
 *   Deno.mkdirSync(`${repo}/${path.slice(0, path.lastIndexOf("/") + 1)}`, { recursive: true });
 *   Deno.writeTextFileSync(`${repo}/${path}`, "");
 * }
 * const staged = await stagePluginFiles(repo, `${repo}/out`);
 * assert.ok(staged.includes("hooks/inject.js") && staged.includes("bin/librarian"));
 * assert.ok(!staged.some((f) => f.startsWith("bundles/") || f.endsWith("_test.ts")));
 * ```
 */
export async function stagePluginFiles(repoRoot: string, outDir: string): Promise<string[]> {
  const plan = stagePlan(repoRoot, await pluginFiles(repoRoot), "", [], []);
  await ensureEmptyDir(outDir);
  await copyAll(plan.copies, outDir);
  return plan.copies.map((c) => c.to).sort();
}

/** What to stage. */
export interface StageRequest {
  repoRoot: string;
  binariesDir: string;
  outDir: string;
  /** Targets whose binaries ship (all of {@link TARGETS} when empty). */
  targets: readonly Target[];
  /** Ship no binary at all (the release branch): the launcher fetches one. */
  noBinaries?: boolean;
  /** The folder the binaries are downloaded from, written into {@link MANIFEST_FILE}. */
  url?: string | undefined;
}

/**
 * Stages a plugin tree into `outDir` (which must be new or empty); returns the staged files.
 *
 * @throws {StageError} for a missing plugin file or binary, a binary whose SHA-256 differs from
 *   the checksum file, or a file GitHub would refuse.
 */
export async function stageRelease(request: StageRequest): Promise<string[]> {
  const targets = request.targets.length ? request.targets : TARGETS;
  let sumsText: string;
  try {
    sumsText = await Deno.readTextFile(join(request.binariesDir, CHECKSUM_FILE));
  } catch {
    throw new StageError(
      `no ${CHECKSUM_FILE} in ${request.binariesDir}; run 'deno task build --out-dir ` +
        `${request.binariesDir}' first`,
    );
  }
  const files = await pluginFiles(request.repoRoot);
  const checksums = parseChecksums(sumsText);
  const plan = stagePlan(
    request.repoRoot,
    files,
    request.binariesDir,
    request.noBinaries ? [] : targets,
    checksums,
  );
  const assets: ManifestAsset[] = [];
  for (const entry of checksums) {
    const path = join(request.binariesDir, entry.fileName);
    try {
      assets.push({ ...entry, bytes: (await Deno.stat(path)).size });
    } catch {
      throw new StageError(`${path} is missing; build it first`);
    }
  }
  for (const entry of plan.checksums) {
    const path = join(request.binariesDir, entry.fileName);
    let actual: string;
    try {
      actual = await sha256File(path);
    } catch {
      throw new StageError(`${path} is missing; build it first`);
    }
    if (actual !== entry.sha256) {
      throw new StageError(`${path} does not match its SHA-256 in ${CHECKSUM_FILE}; rebuild it`);
    }
  }
  await ensureEmptyDir(request.outDir);
  await copyAll(plan.copies, request.outDir);
  await Deno.mkdir(join(request.outDir, "bin"), { recursive: true });
  if (plan.checksums.length) {
    await Deno.writeTextFile(
      join(request.outDir, "bin", CHECKSUM_FILE),
      formatChecksums(plan.checksums),
    );
  }
  const version = JSON.parse(await Deno.readTextFile(join(request.repoRoot, "deno.json"))).version;
  await Deno.writeTextFile(
    join(request.outDir, "bin", MANIFEST_FILE),
    formatManifest(String(version), request.url, assets),
  );
  await Deno.writeTextFile(
    join(request.outDir, ".claude-plugin", "marketplace.json"),
    `${JSON.stringify(LOCAL_MARKETPLACE, null, 2)}\n`,
  );
  return [
    ...plan.copies.map((c) => c.to),
    ...(plan.checksums.length ? [`bin/${CHECKSUM_FILE}`] : []),
    `bin/${MANIFEST_FILE}`,
    ".claude-plugin/marketplace.json",
  ].sort();
}

if (import.meta.main) {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
  try {
    const { values } = parseArgs({
      args: Deno.args,
      options: {
        binaries: { type: "string", default: "dist" },
        out: { type: "string" },
        target: { type: "string", multiple: true },
        "no-binaries": { type: "boolean", default: false },
        url: { type: "string" },
      },
    });
    if (!values.out) throw new StageError("--out <dir> is required");
    // the hook bundles are built here, from this checkout's sources, never taken from git
    await writeBundles();
    const targets = (values.target ?? []).map((triple) => {
      const target = findTarget(triple);
      if (!target) throw new StageError(`unknown target '${triple}'`);
      return target;
    });
    const staged = await stageRelease({
      repoRoot,
      binariesDir: values.binaries,
      outDir: values.out,
      targets,
      noBinaries: values["no-binaries"],
      url: values.url,
    });
    console.log(
      `stage_release: ${staged.length} files in ${relative(Deno.cwd(), values.out) || "."}`,
    );
  } catch (error) {
    console.error(`stage_release: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
