/**
 * `deno task build`: compiles the Librarian into one binary per target, where the launcher
 * (`bin/librarian`) looks for them, plus a SHA-256 checksum file.
 *
 * The plan (targets, names, flags, permissions) is `scripts/build_plan.ts`; this file runs it.
 * A failed compile ends with one sentence on stderr and exit code 1, never a stack trace; a bad
 * command line exits 2.
 *
 * @module
 */

import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  binaryFileName,
  BUILD_USAGE,
  type BuildCommandLine,
  BuildError,
  buildPlan,
  type BuildStep,
  CHECKSUM_FILE,
  type ChecksumEntry,
  DENO_VERSION,
  explainCompileFailure,
  formatChecksums,
  formatCommand,
  parseBuildArgs,
  TARGETS,
} from "./build_plan.ts";
import { sha256File } from "./sha256.ts";

/** The repository root (the build runs every command from here). */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

function fail(message: string, code: number): number {
  console.error(`build: ${message}`);
  return code;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function runCheck(step: BuildStep): Promise<boolean> {
  console.log(`build: ${step.description}`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: step.args,
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return out.success;
}

async function runCompile(step: BuildStep, outDir: string): Promise<string | null> {
  const target = step.target!;
  console.log(`build: ${step.description}`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: step.args,
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const stderr = new TextDecoder().decode(out.stderr);
    return explainCompileFailure(stderr, target, Deno.env.get("DENORT_BIN"));
  }
  const size = (await Deno.stat(join(outDir, binaryFileName(target.triple)))).size;
  console.log(`build:   ${binaryFileName(target.triple)}  ${megabytes(size)}`);
  return null;
}

/** Writes the checksum file for every target binary present in `outDir`; returns its entries. */
async function writeChecksums(outDir: string): Promise<ChecksumEntry[]> {
  const entries: ChecksumEntry[] = [];
  for (const target of TARGETS) {
    const fileName = binaryFileName(target.triple);
    try {
      entries.push({ fileName, sha256: await sha256File(join(outDir, fileName)) });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  await Deno.writeTextFile(join(outDir, CHECKSUM_FILE), formatChecksums(entries));
  return entries;
}

function checkDenoVersion(line: BuildCommandLine): string | null {
  if (Deno.version.deno === DENO_VERSION) return null;
  const message = `this is Deno ${Deno.version.deno}, but releases are built with Deno ` +
    `${DENO_VERSION} (pinned in scripts/build_plan.ts); install it with ` +
    `'npm install -g deno@${DENO_VERSION}', or pass --any-deno`;
  if (line.anyDeno || line.dryRun) {
    console.error(`build: warning: ${message}`);
    return null;
  }
  return message;
}

/** Runs the build for a command line; returns the exit code. */
export async function build(args: readonly string[]): Promise<number> {
  let line: BuildCommandLine;
  try {
    line = parseBuildArgs(args, Deno.build.target);
  } catch (error) {
    if (error instanceof BuildError) {
      return fail(`${error.message}\nRun 'deno task build --help' for usage.`, 2);
    }
    throw error;
  }
  if (line.help) {
    console.log(BUILD_USAGE);
    return 0;
  }
  const denortBin = Deno.env.get("DENORT_BIN");
  if (denortBin && line.targets.length !== 1) {
    return fail(
      `DENORT_BIN names the runtime of one platform, so build exactly one target with ` +
        `--target <triple> (it is ${denortBin})`,
      2,
    );
  }
  const versionProblem = checkDenoVersion(line);
  if (versionProblem) return fail(versionProblem, 1);

  const steps = buildPlan(line);
  if (line.dryRun) {
    for (const step of steps) console.log(formatCommand(["deno", ...step.args]));
    console.log(`# then: write ${line.outDir}/${CHECKSUM_FILE} (SHA-256 of each binary)`);
    return 0;
  }

  const outDir = isAbsolute(line.outDir) ? line.outDir : join(REPO_ROOT, line.outDir);
  await Deno.mkdir(outDir, { recursive: true });
  for (const step of steps) {
    if (step.kind === "check") {
      if (!(await runCheck(step))) return fail("type-check failed; fix the errors above", 1);
      continue;
    }
    const problem = await runCompile(step, outDir);
    if (problem) return fail(problem, 1);
  }
  const entries = await writeChecksums(outDir);
  console.log(
    `build: wrote ${join(line.outDir, CHECKSUM_FILE)} (${entries.length} binaries)`,
  );
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exitCode = await build(Deno.args);
  } catch (error) {
    // An unexpected I/O failure: one line, not a trace.
    Deno.exitCode = fail(error instanceof Error ? error.message : String(error), 1);
  }
}
