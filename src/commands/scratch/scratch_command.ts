/**
 * `librarian scratch`: the blocks the Stop hook keeps in scratch, each with why and how to fix
 * it, numbered; `--drop <n>` removes block n after confirmation (`--yes` for scripts), under the
 * filing lock, so a Stop hook running at the same moment loses nothing.
 *
 * @module
 */

import {
  type EnvReader,
  LibrarianError,
  type Library,
  plural,
  processEnv,
  readTextIfExists,
  safeText,
  scratchPathOf,
} from "../../core/mod.ts";
import { classifyBlock, type KeepCode, lockLibrary, rewriteScratch } from "../../filing/mod.ts";
import { NOT_A_SECRET, parseScratch, tagLineFix } from "../../format/mod.ts";
import { VERSION } from "../../version.ts";
import {
  type CommandSpec,
  EXIT_OK,
  flag,
  intOption,
  makeStyle,
  printJson,
  requireLibrary,
  runCommand,
  stringOption,
  UsageError,
} from "../../cli/mod.ts";

/** The command line of `librarian scratch`. */
export const SPEC: CommandSpec = {
  name: "scratch",
  synopsis: "[--drop <n> [--yes]] [--json]",
  summary: "list the blocks kept in scratch, with the reason and the fix; drop one",
  details: [
    "Lists, numbered, the scratch blocks the Stop hook keeps instead of filing (a bad or legacy",
    "tag, a likely secret, an open code fence, an entry awaiting review, ...), each with why and",
    "what to do. --drop <n> removes block n from scratch after asking (--yes: without asking, for",
    "scripts); anything else in scratch is left as it is. Blocks that will be filed are counted.",
  ],
  options: {
    drop: { type: "string", valueName: "<n>", description: "remove kept block <n>" },
    yes: { type: "boolean", short: "y", description: "drop without asking" },
    json: { type: "boolean", description: "print a JSON object instead of text" },
  },
  positionals: [],
};

/**
 * What to do about a block kept for `code` (pure); `reason` gives a near miss its corrected line.
 *
 * @example Usage
 * ```ts
 * import { fixFor } from "./scratch_command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(fixFor("legacy"), /type: <file name>/);
 * ```
 */
export function fixFor(code: KeepCode, reason = ""): string {
  switch (code) {
    case "legacy":
      return "add the file the learning belongs in: ## [TAG: <path>, type: <file name>], e.g. " +
        "type: patterns";
    case "secret":
      return "remove the credential (rotate it if it was real); if it is not a secret, add the " +
        `line ${NOT_A_SECRET} to the block`;
    case "unclosed-fence":
      return "close the code fence (```) in the block";
    case "target":
      return "the library file it names cannot take it: fix that file, or tag another path";
    case "write-failed":
      return "check that the library file can be written, then run 'librarian route'";
    case "review":
      return "edit it if needed, then 'librarian route --accept' files it";
    default:
      return tagLineFix(reason);
  }
}

/** One kept block, numbered from 1 in scratch order. */
export interface KeptBlock {
  n: number;
  line: number;
  tag: string;
  code: KeepCode;
  reason: string;
  fix: string;
  raw: string;
}

/**
 * The kept blocks of scratch text and how many blocks will be filed (pure).
 *
 * @example Usage
 * ```ts
 * import { keptBlocks } from "./scratch_command.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "## [TAG: global, type: tech]\n- a\n## [TAG: ../up, type: x]\n- b\n";
 * const { kept, routable } = keptBlocks(text);
 * assert.equal(routable, 1);
 * assert.deepEqual(kept.map((k) => [k.n, k.line, k.tag]), [[1, 3, "## [TAG: ../up, type: x]"]]);
 * ```
 */
export function keptBlocks(text: string): { kept: KeptBlock[]; routable: number } {
  const kept: KeptBlock[] = [];
  let routable = 0;
  for (const block of parseScratch(text).blocks) {
    if (block.kind === "preamble") continue;
    const verdict = classifyBlock(block);
    if (verdict.kind === "route") routable++;
    if (verdict.kind !== "keep") continue;
    kept.push({
      n: kept.length + 1,
      line: block.startLine,
      tag: block.tagLine.trim(),
      code: verdict.code,
      reason: verdict.reason,
      fix: fixFor(verdict.code, verdict.reason),
      raw: block.raw,
    });
  }
  return { kept, routable };
}

function readScratchText(library: Library): string {
  try {
    return readTextIfExists(scratchPathOf(library)) ?? "";
  } catch (error) {
    throw new LibrarianError(`cannot read ${scratchPathOf(library)}`, { cause: error });
  }
}

function confirm(question: string): boolean {
  const answer = prompt(`${question} [y/N]`);
  return answer !== null && /^y(es)?$/i.test(answer.trim());
}

async function drop(
  library: Library,
  env: EnvReader,
  n: number,
  yes: boolean,
  json: boolean,
): Promise<number> {
  const { kept } = keptBlocks(readScratchText(library));
  const block = kept[n - 1];
  if (!block) {
    throw new LibrarianError(
      kept.length === 0
        ? "scratch keeps no blocks, so there is nothing to drop"
        : `there is no kept block ${n}; 'librarian scratch' numbers them 1 to ${kept.length}`,
    );
  }
  if (!yes) {
    if (!Deno.stdin.isTerminal()) {
      throw new UsageError("--drop asks before removing; add --yes when not on a terminal");
    }
    console.log(safeText(block.raw.trimEnd()));
    if (!confirm(`Drop block ${n} (line ${block.line}) from scratch?`)) {
      console.log("Nothing dropped.");
      return EXIT_OK;
    }
  }
  await using _lock = await lockLibrary(library, env);
  const now = readScratchText(library);
  if (!parseScratch(now).blocks.some((b) => b.raw === block.raw)) {
    throw new LibrarianError(
      `block ${n} changed while you looked at it (the Stop hook or an editor wrote scratch); ` +
        "run 'librarian scratch' again",
    );
  }
  await rewriteScratch(scratchPathOf(library), { remove: [block.raw], replace: [] });
  if (json) printJson({ version: VERSION, dropped: { n, line: block.line, tag: block.tag } });
  else console.log(`Dropped block ${n} (${safeText(block.tag)}) from scratch.`);
  return EXIT_OK;
}

/** Runs `librarian scratch`. */
export async function run(args: string[], env: EnvReader = processEnv()): Promise<number> {
  return await runCommand(SPEC, args, async (parsed) => {
    const library = await requireLibrary(env);
    const json = flag(parsed, "json");
    if (stringOption(parsed, "drop") !== undefined) {
      return await drop(
        library,
        env,
        intOption(parsed, "drop", 0, 1, 1_000_000),
        flag(parsed, "yes"),
        json,
      );
    }
    if (flag(parsed, "yes")) throw new UsageError("--yes goes with --drop <n>");
    const { kept, routable } = keptBlocks(readScratchText(library));
    if (json) {
      printJson({
        version: VERSION,
        scratch: scratchPathOf(library),
        routable,
        kept: kept.map(({ raw: _raw, ...rest }) => rest),
      });
      return EXIT_OK;
    }
    const style = makeStyle(env);
    if (kept.length === 0) console.log("Scratch keeps no blocks: nothing needs you.");
    for (const k of kept) {
      console.log(`${style.bold(`${k.n}.`)} line ${k.line}  ${safeText(k.tag)}`);
      console.log(`   ${style.yellow("kept:")} ${safeText(k.reason)}`);
      console.log(`   ${style.dim("fix:")}  ${k.fix}`);
    }
    if (routable > 0) {
      console.log(
        style.dim(
          `${plural(routable, "block")} will be filed at the end of the next turn ` +
            "(or now: 'librarian route').",
        ),
      );
    }
    if (kept.length > 0) {
      console.log(style.dim("'librarian scratch --drop <n>' removes a block you do not want."));
    }
    return EXIT_OK;
  });
}
