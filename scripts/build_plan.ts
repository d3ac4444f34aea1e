/**
 * The compiled-binary build, as data: targets, file names, the exact `deno compile` command lines,
 * the checksum file, and the one-sentence explanation of a failed compile.
 *
 * Pure: nothing here touches the disk or starts a process, so tests can check the plan itself.
 * `scripts/build.ts` carries it out.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { binaryName } from "../src/setup/install_check.ts";
import { PERMISSION_FLAGS, V8_FLAGS } from "../src/permissions.ts";

/** The Deno release the binaries are built with (CI, `.ci/run` and the release workflow agree). */
export const DENO_VERSION = "2.9.6";

/** The program's one entry module, relative to the repository root. */
export const ENTRY_MODULE = "src/main.ts";

/** Where binaries go unless `--out-dir` says otherwise: next to the launcher, which uses them. */
export const DEFAULT_OUT_DIR = "bin";

/** The checksum file written next to the binaries (`sha256sum -c` format). */
export const CHECKSUM_FILE = "librarian-sha256sums.txt";

/** One platform a binary is built for. */
export interface Target {
  /** Deno's `--target` triple. */
  triple: string;
  /** Operating system, in `Deno.build.os` terms. */
  os: "linux" | "darwin" | "windows";
  /** CPU, in `Deno.build.arch` terms. */
  arch: "x86_64" | "aarch64";
  /** A short label for people and release asset names. */
  label: string;
}

/** Every target the release ships, in build order. */
export const TARGETS: readonly Target[] = [
  { triple: "x86_64-unknown-linux-gnu", os: "linux", arch: "x86_64", label: "linux-x64" },
  { triple: "aarch64-unknown-linux-gnu", os: "linux", arch: "aarch64", label: "linux-arm64" },
  { triple: "x86_64-apple-darwin", os: "darwin", arch: "x86_64", label: "macos-x64" },
  { triple: "aarch64-apple-darwin", os: "darwin", arch: "aarch64", label: "macos-arm64" },
  { triple: "x86_64-pc-windows-msvc", os: "windows", arch: "x86_64", label: "windows-x64" },
  { triple: "aarch64-pc-windows-msvc", os: "windows", arch: "aarch64", label: "windows-arm64" },
];

/** The target with this triple, or undefined. */
export function findTarget(triple: string): Target | undefined {
  return TARGETS.find((t) => t.triple === triple);
}

/**
 * The file name the launcher looks for: `librarian-<triple>`, plus `.exe` on Windows (the one
 * definition is `binaryName` in `src/setup/install_check.ts`, which `librarian doctor` uses).
 *
 * @example
 * ```ts
 * binaryFileName("x86_64-pc-windows-msvc"); // "librarian-x86_64-pc-windows-msvc.exe"
 * ```
 */
export function binaryFileName(triple: string): string {
  return binaryName(triple);
}

/**
 * The flags that keep the binary to the program itself: the project's `deno.json` (import map,
 * compiler options) and lockfile, no `node_modules` folder, only the npm packages the entry
 * module reaches (test-only packages such as fast-check stay out), no remote modules. `--include src`
 * embeds the modules `src/core/load_later.ts` imports by a URL built at run time, which the
 * compiler cannot follow (each command, and the hooks' rare branches).
 */
export const EMBED_FLAGS: readonly string[] = [
  "--config",
  "deno.json",
  "--frozen-lockfile",
  "--node-modules-dir=none",
  "--exclude-unused-npm",
  "--no-remote",
  "--no-check",
  "--include",
  "src",
];

/**
 * The `deno compile` arguments (after the `deno` executable) for one target.
 * Type-checking runs once for all targets, as its own step, hence `--no-check` here.
 */
export function compileArgs(target: Target, outDir: string): string[] {
  return [
    "compile",
    ...EMBED_FLAGS,
    ...PERMISSION_FLAGS,
    ...V8_FLAGS,
    "--target",
    target.triple,
    "--output",
    `${outDir}/${binaryFileName(target.triple)}`,
    ENTRY_MODULE,
  ];
}

/** One step of the build: a process to run, with a line for people. */
export interface BuildStep {
  kind: "check" | "compile";
  description: string;
  /** Arguments after the `deno` executable. */
  args: string[];
  /** The target built, for compile steps. */
  target?: Target;
}

/** What the build was asked to do. */
export interface BuildOptions {
  /** Targets to build (all of {@link TARGETS} when empty). */
  targets: readonly Target[];
  outDir: string;
  /** Skip the type-check step (the release workflow has already checked). */
  skipCheck: boolean;
}

/** The steps of a build, in order: one type-check, then one compile per target. */
export function buildPlan(options: BuildOptions): BuildStep[] {
  const targets = options.targets.length ? options.targets : TARGETS;
  const steps: BuildStep[] = [];
  if (!options.skipCheck) {
    steps.push({
      kind: "check",
      description: `type-check ${ENTRY_MODULE}`,
      args: ["check", "--config", "deno.json", "--frozen-lockfile", ENTRY_MODULE],
    });
  }
  for (const target of targets) {
    steps.push({
      kind: "compile",
      description: `compile ${binaryFileName(target.triple)} (${target.label})`,
      args: compileArgs(target, options.outDir),
      target,
    });
  }
  return steps;
}

/**
 * Quotes one word for a POSIX shell, only when it needs it, so a printed command can be pasted.
 *
 * @example
 * ```ts
 * shellQuote("--allow-env=CLAUDE_*"); // "'--allow-env=CLAUDE_*'"
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A whole command line, quoted for a POSIX shell. */
export function formatCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/** One line of a checksum file. */
export interface ChecksumEntry {
  fileName: string;
  /** Lower-case hex SHA-256. */
  sha256: string;
}

/** A checksum file in the `sha256sum` / `shasum -a 256` format, sorted by file name. */
export function formatChecksums(entries: readonly ChecksumEntry[]): string {
  return [...entries]
    .sort((a, b) => a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0)
    .map((e) => `${e.sha256}  ${e.fileName}\n`)
    .join("");
}

/** Parses a checksum file back into entries (blank and malformed lines are skipped). */
export function parseChecksums(text: string): ChecksumEntry[] {
  const entries: ChecksumEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (match) entries.push({ sha256: match[1]!.toLowerCase(), fileName: match[2]! });
  }
  return entries;
}

/** Why a build cannot go on; the message is one sentence a person can act on. */
export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuildError";
  }
}

/**
 * Turns a failed `deno compile`'s stderr into one sentence.
 *
 * `deno compile` downloads its runtime (`denort`) from Deno's server unless `DENORT_BIN` names a
 * local copy; an unreachable server or a wrong `DENORT_BIN` are the usual causes and get their own
 * sentence. Anything else is Deno's own first error line, without colours or backtrace.
 */
export function explainCompileFailure(
  stderr: string,
  target: Target,
  denortBin: string | undefined,
): string {
  const text = stripAnsi(stderr);
  if (denortBin && /Could not find denort|denort/i.test(text) && /os error|not find/i.test(text)) {
    return `Cannot build ${binaryFileName(target.triple)}: DENORT_BIN=${denortBin} is not a ` +
      `usable denort binary; point it at the denort for ${target.triple} from ` +
      `https://dl.deno.land/release/v${DENO_VERSION}/denort-${target.triple}.zip, or unset it.`;
  }
  if (
    /dl\.deno\.land|Setting up base binary|denort-[a-z0-9_-]+\.zip/i.test(text) &&
    /error sending request|dns|connect|timed out|network|certificate|status/i.test(text)
  ) {
    return `Cannot build ${binaryFileName(target.triple)}: Deno's download server ` +
      `(dl.deno.land) is unreachable, so deno compile cannot fetch its runtime ` +
      `(denort-${target.triple}); build where that server is reachable, or set DENORT_BIN ` +
      `to a local denort for ${target.triple} and build that one target with --target.`;
  }
  const first = text.split("\n").map((l) => l.trim()).find((l) => /^error\b/i.test(l)) ??
    text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "no error output";
  return `Cannot build ${binaryFileName(target.triple)}: deno compile failed: ${first}`;
}

function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/** A parsed `scripts/build.ts` command line. */
export interface BuildCommandLine extends BuildOptions {
  dryRun: boolean;
  /** Build with a Deno other than {@link DENO_VERSION} (a warning instead of an error). */
  anyDeno: boolean;
  help: boolean;
}

/** The `--help` text of `deno task build`. */
export const BUILD_USAGE = [
  "deno task build [--target <triple>|host]... [--out-dir <dir>] [--dry-run] [--no-check] [--any-deno]",
  "",
  `Compiles ${ENTRY_MODULE} with deno compile into <out-dir>/librarian-<triple>[.exe]`,
  `(default out-dir: ${DEFAULT_OUT_DIR}/, where the launcher looks) for every target, or only the`,
  `ones given, and writes <out-dir>/${CHECKSUM_FILE}. Needs Deno ${DENO_VERSION}.`,
  "",
  "Targets: " + TARGETS.map((t) => t.triple).join(", "),
  "",
  "  --target <triple>  build one target (repeatable; 'host' is this machine's)",
  "  --out-dir <dir>    where the binaries go",
  "  --dry-run          print the exact commands without running them",
  "  --no-check         skip the type-check step",
  "  --any-deno         allow a Deno other than the pinned version",
  "",
  "deno compile downloads its runtime (denort) from dl.deno.land; offline, set DENORT_BIN to a",
  "local denort for the one target you build.",
].join("\n");

/**
 * Parses the build's command line with `node:util` `parseArgs`. `hostTriple` resolves
 * `--target host`.
 *
 * @throws {BuildError} for an unknown option or target, or a missing value.
 */
export function parseBuildArgs(args: readonly string[], hostTriple: string): BuildCommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: "string", multiple: true },
        "out-dir": { type: "string" },
        "dry-run": { type: "boolean" },
        "no-check": { type: "boolean" },
        "any-deno": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new BuildError(error instanceof Error ? error.message.split("\n")[0]! : String(error));
  }
  const targets: Target[] = [];
  for (const triple of parsed.values.target ?? []) {
    const target = findTarget(triple === "host" ? hostTriple : triple);
    if (!target) {
      throw new BuildError(
        `unknown target '${triple}'; choose one of ${TARGETS.map((t) => t.triple).join(", ")}`,
      );
    }
    if (!targets.includes(target)) targets.push(target);
  }
  const outDir = parsed.values["out-dir"];
  if (outDir === "") throw new BuildError("--out-dir needs a folder");
  return {
    targets,
    outDir: outDir === undefined ? DEFAULT_OUT_DIR : outDir.replace(/[\\/]+$/, "") || "/",
    skipCheck: parsed.values["no-check"] === true,
    dryRun: parsed.values["dry-run"] === true,
    anyDeno: parsed.values["any-deno"] === true,
    help: parsed.values.help === true,
  };
}
