/**
 * The library's own settings file, `_memory_library/.librarian.json`: today the export formats
 * the Stop hook keeps current (`librarian init --export <formats>` writes it). Committed with
 * the library, so the whole team exports the same way.
 *
 * @module
 */

import { Boundary } from "../core/boundary.ts";
import { LibrarianError, messageOf } from "../core/errors.ts";
import { readTextIfExists } from "../core/fs_probe.ts";
import { isObject } from "../core/json.ts";
import { joinPath } from "../core/paths.ts";
import { type OwnerCheck, trustedByThisProcess } from "../core/discover.ts";
import { EXPORT_FORMATS, type ExportFormat, isExportFormat } from "./export_formats.ts";

/** The settings file's name, at the library root (a dotfile: never served to the model). */
export const CONFIG_FILE_NAME = ".librarian.json";

/** The settings file's largest sane size; a larger one is not read. */
const MAX_CONFIG_BYTES = 64 * 1024;

/** The library's settings. */
export interface LibraryConfig {
  version: 1;
  /** The formats `librarian export` uses when given none, and the Stop hook keeps current. */
  export: ExportFormat[];
}

/** A settings file that is there but cannot be used, with what to do about it. */
export class ConfigError extends LibrarianError {
  constructor(path: string, problem: string) {
    super(
      `${path}: ${problem}. Fix or delete the file (librarian init --export <formats> writes it).`,
    );
    this.name = "ConfigError";
  }
}

/**
 * Checks a parsed settings value completely: `{"version": 1, "export": [formats...]}`, unknown
 * keys refused (a typo would otherwise be ignored in silence).
 *
 * @example Usage
 * ```ts
 * import { validateConfig } from "./config.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(validateConfig({ version: 1, export: ["cursor"] }), {
 *   version: 1,
 *   export: ["cursor"],
 * });
 * assert.equal(typeof validateConfig({ version: 1, export: ["vim"] }), "string");
 * ```
 */
export function validateConfig(value: unknown): LibraryConfig | string {
  if (!isObject(value)) return "it is not a JSON object";
  const record = value;
  const unknown = Object.keys(record).filter((k) => k !== "version" && k !== "export");
  if (unknown.length > 0) return `unknown setting ${JSON.stringify(unknown[0])}`;
  if (record.version !== 1) return `"version" must be 1`;
  const formats = record.export ?? [];
  if (!Array.isArray(formats)) return `"export" must be a list of formats`;
  const bad = formats.find((f) => typeof f !== "string" || !isExportFormat(f));
  if (bad !== undefined) {
    return `${JSON.stringify(bad)} is not an export format (${EXPORT_FORMATS.join(", ")})`;
  }
  return { version: 1, export: [...new Set(formats as ExportFormat[])] };
}

/**
 * The library's settings; a missing file gives the defaults (no export).
 *
 * A file owned by someone other than the user or root is not used: {@link ConfigError}, whose
 * message names it. `trusts` says whose files are trusted (every owner's for a library named by
 * `LIBRARIAN_PATH`).
 *
 * @throws {ConfigError} when the file is there but is not valid, or is another user's.
 *
 * @example Usage
 * ```ts
 * import { ConfigError, readLibraryConfig } from "./config.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * assert.deepEqual(readLibraryConfig(root), { version: 1, export: [] });
 * Deno.writeTextFileSync(`${root}/.librarian.json`, '{"version":1,"export":["cursor"]}');
 * assert.deepEqual(readLibraryConfig(root), { version: 1, export: ["cursor"] });
 * assert.throws(() => readLibraryConfig(root, () => false), /owned by another user/);
 * Deno.writeTextFileSync(`${root}/.librarian.json`, '{"export":"all"}');
 * assert.throws(() => readLibraryConfig(root), ConfigError);
 * ```
 */
export function readLibraryConfig(
  libraryRoot: string,
  trusts: OwnerCheck = trustedByThisProcess,
): LibraryConfig {
  const path = joinPath(libraryRoot, CONFIG_FILE_NAME);
  let text: string | null;
  let foreign = false;
  try {
    const info = Deno.statSync(path);
    // another user's settings choose nothing here (git's safe.directory rule)
    foreign = !trusts(info.uid);
    if (!foreign && info.isFile && info.size > MAX_CONFIG_BYTES) throw new Error("it is too large");
    text = foreign ? null : readTextIfExists(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { version: 1, export: [] };
    throw new ConfigError(path, `cannot be read (${messageOf(error)})`);
  }
  if (foreign) {
    throw new ConfigError(
      path,
      "it is owned by another user (not you, not root), so it is not used",
    );
  }
  if (text === null) return { version: 1, export: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(path, "it is not valid JSON");
  }
  const config = validateConfig(parsed);
  if (typeof config === "string") throw new ConfigError(path, config);
  return config;
}

/**
 * Writes the library's settings (atomically, sorted, with a final newline).
 *
 * @example Usage
 * ```ts
 * import { readLibraryConfig, writeLibraryConfig } from "./config.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * writeLibraryConfig(root, { version: 1, export: ["cursor", "agents-md"] });
 * assert.equal(
 *   Deno.readTextFileSync(`${root}/.librarian.json`),
 *   '{\n  "version": 1,\n  "export": [\n    "agents-md",\n    "cursor"\n  ]\n}\n',
 * );
 * assert.deepEqual(readLibraryConfig(root).export, ["agents-md", "cursor"]);
 * ```
 */
export function writeLibraryConfig(libraryRoot: string, config: LibraryConfig): void {
  const formats = EXPORT_FORMATS.filter((f) => config.export.includes(f));
  const text = `${JSON.stringify({ version: 1, export: formats }, null, 2)}\n`;
  new Boundary(libraryRoot, "library").writeText(joinPath(libraryRoot, CONFIG_FILE_NAME), text);
}
