/**
 * `librarian import --suggest` / `--apply` (effects): reads the imported root files, shows the
 * proposed moves, and applies them under the library lock (scratch first, then the root file, so
 * a crash in between leaves the text twice, never nowhere; `route` skips a bullet already filed).
 *
 * @module
 */

import { writeTextAtomic } from "../../core/atomic.ts";
import { type Library, scratchPathOf } from "../../core/discover.ts";
import type { EnvReader } from "../../core/env.ts";
import { LibrarianError } from "../../core/errors.ts";
import { readTextIfExists } from "../../core/fs_probe.ts";
import { joinPath } from "../../core/paths.ts";
import { isServedName } from "../../core/walk.ts";
import { lockLibrary } from "../../filing/coordination.ts";
import { VERSION } from "../../version.ts";
import { EXIT_OK, UsageError } from "../../cli/args.ts";
import { makeStyle, printJson } from "../../cli/output.ts";
import { plural } from "../../core/words.ts";
import { safeText } from "../../core/log_tail.ts";
import {
  type PathKind,
  scratchBlockOf,
  type Suggestion,
  suggestMoves,
  withoutUnit,
} from "./suggest.ts";

const IMPORTED = "imported by 'librarian import'";

/** The library's root files that an import wrote into. */
function importedRootFiles(library: Library): { file: string; text: string }[] {
  const files: { file: string; text: string }[] = [];
  for (
    const entry of [...Deno.readDirSync(library.root)].sort((a, b) => a.name < b.name ? -1 : 1)
  ) {
    if (!entry.isFile || !isServedName(entry.name)) continue;
    const text = readTextIfExists(joinPath(library.root, entry.name));
    if (text !== null && text.includes(IMPORTED)) files.push({ file: entry.name, text });
  }
  return files;
}

function kindIn(projectRoot: string, libraryRoot: string): (relPath: string) => PathKind {
  return (relPath) => {
    const path = joinPath(projectRoot, relPath);
    if (path === libraryRoot || path.startsWith(`${libraryRoot}/`)) return null;
    try {
      const info = Deno.statSync(path);
      return info.isDirectory ? "dir" : info.isFile ? "file" : null;
    } catch {
      return null;
    }
  };
}

/**
 * `--only 1,3,5` as numbers.
 *
 * @example Usage
 * ```ts
 * import { parseOnly } from "./moves.ts";
 * import { UsageError } from "../../cli/args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseOnly("1, 3,5"), new Set([1, 3, 5]));
 * assert.equal(parseOnly(undefined), null);
 * assert.throws(() => parseOnly("1,x"), UsageError);
 * assert.throws(() => parseOnly("0"), UsageError);
 * ```
 */
export function parseOnly(raw: string | undefined): Set<number> | null {
  if (raw === undefined) return null;
  const numbers = raw.split(",").map((s) => s.trim());
  if (numbers.some((n) => !/^[1-9][0-9]{0,5}$/.test(n))) {
    throw new UsageError(`--only takes suggestion numbers like 1,3,5, got '${raw}'`);
  }
  return new Set(numbers.map(Number));
}

function excerpt(raw: string): string {
  const flat = raw.replace(/\s+/g, " ").trim();
  return safeText(flat.length > 70 ? `${flat.slice(0, 69)}…` : flat);
}

function printSuggestions(suggestions: Suggestion[], env: EnvReader): void {
  const style = makeStyle(env);
  if (suggestions.length === 0) {
    console.log("No bullet or paragraph of the imported root files names an existing code path.");
    return;
  }
  for (const s of suggestions) {
    console.log(
      `${String(s.n).padStart(3)}. ${s.file}:${s.line}  ${style.green(`→ ${s.folder}/`)}  ` +
        style.dim(excerpt(s.raw)),
    );
  }
  console.log(
    `\n${plural(suggestions.length, "suggestion")}. 'librarian import --apply' moves them all ` +
      "into scratch as tagged blocks (--only 1,3 picks some); 'librarian route' then files them.",
  );
}

/** Runs `import --suggest` or `import --apply [--only <n,...>]`. */
export async function runMoves(
  library: Library,
  env: EnvReader,
  options: { apply: boolean; only: Set<number> | null; json: boolean },
): Promise<number> {
  const kindOf = kindIn(library.projectRoot, library.root);
  if (!options.apply) {
    const suggestions = suggestMoves(importedRootFiles(library), kindOf);
    if (options.json) {
      printJson({
        version: VERSION,
        library: library.root,
        suggestions: suggestions.map(({ raw, ...s }) => ({ ...s, text: raw })),
      });
    } else printSuggestions(suggestions, env);
    return EXIT_OK;
  }
  await using _lock = await lockLibrary(library, env);
  const files = importedRootFiles(library);
  const chosen = suggestMoves(files, kindOf).filter((s) => !options.only || options.only.has(s.n));
  const texts = new Map(files.map((f) => [f.file, f.text]));
  const blocks: string[] = [];
  // Later units first, so earlier line numbers stay right.
  for (const s of [...chosen].sort((a, b) => b.line - a.line)) {
    const next = withoutUnit(texts.get(s.file)!, s);
    if (next === null) continue;
    texts.set(s.file, next);
    blocks.unshift(scratchBlockOf(s));
  }
  if (blocks.length > 0) {
    const scratch = scratchPathOf(library);
    const current = readTextIfExists(scratch) ?? "";
    const sep = current === "" || current.endsWith("\n") ? "" : "\n";
    try {
      Deno.writeTextFileSync(scratch, sep + blocks.join(""), { append: true, create: true });
    } catch (error) {
      throw new LibrarianError(`cannot append to ${scratch}; nothing was moved`, { cause: error });
    }
    for (const [file, text] of texts) {
      if (text !== files.find((f) => f.file === file)!.text) {
        await writeTextAtomic(joinPath(library.root, file), text);
      }
    }
  }
  if (options.json) {
    printJson({
      version: VERSION,
      moved: chosen.map((s) => ({ n: s.n, file: s.file, line: s.line, folder: s.folder })),
    });
  } else {
    console.log(
      blocks.length === 0
        ? "Nothing moved."
        : `Moved ${plural(blocks.length, "block")} into scratch. They are filed at the end of ` +
          "the next turn, or now with 'librarian route'.",
    );
  }
  return EXIT_OK;
}
