/**
 * `librarian init --export <formats>`: record the formats in the library's settings and export
 * once, so the generated files exist from the start and the Stop hook keeps them current.
 *
 * @module
 */

import { joinPath, LIBRARY_DIR_NAME, type OwnerCheck } from "../core/mod.ts";
import { CONFIG_FILE_NAME, readLibraryConfig, writeLibraryConfig } from "./config.ts";
import type { ExportFormat } from "./export_formats.ts";
import { runExport } from "./export_run.ts";

/** What recording and exporting did to one path (the shape `init` reports). */
export interface RecordAction {
  path: string;
  action: "created" | "updated" | "unchanged";
}

/**
 * Records `formats` (replacing any recorded before) in the settings of the library at
 * `libraryRoot`, writing only when they differ; says what happened to the settings file.
 *
 * @example Usage
 * ```ts
 * import { recordFormats } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * const root = Deno.makeTempDirSync();
 * assert.equal(recordFormats(root, ["cursor"]), "created");
 * assert.equal(recordFormats(root, ["cursor"]), "unchanged");
 * assert.equal(recordFormats(root, ["cursor", "agents-md"]), "updated");
 * ```
 */
export function recordFormats(
  libraryRoot: string,
  formats: readonly ExportFormat[],
  trusts?: OwnerCheck,
): RecordAction["action"] {
  let before: ExportFormat[] | null = null;
  try {
    Deno.statSync(joinPath(libraryRoot, CONFIG_FILE_NAME));
    before = readLibraryConfig(libraryRoot, trusts).export;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const same = before !== null && before.length === formats.length &&
    formats.every((f) => before!.includes(f));
  if (!same) writeLibraryConfig(libraryRoot, { version: 1, export: [...formats] });
  return same ? "unchanged" : before === null ? "created" : "updated";
}

/**
 * Records `formats` (replacing any recorded before) in `<project>/_memory_library/.librarian.json`
 * and exports them; returns what changed, paths relative to the project.
 */
export async function recordExportFormats(
  projectRoot: string,
  formats: readonly ExportFormat[],
): Promise<RecordAction[]> {
  const libraryRoot = joinPath(projectRoot, LIBRARY_DIR_NAME);
  const configPath = `${LIBRARY_DIR_NAME}/${CONFIG_FILE_NAME}`;
  const actions: RecordAction[] = [{
    path: configPath,
    action: recordFormats(libraryRoot, formats),
  }];
  const library = { root: libraryRoot, projectRoot, foundBy: "cwd" as const };
  const report = await runExport(library, { formats });
  for (const a of report.actions) {
    if (a.kind === "create" || a.kind === "update") {
      actions.push({ path: a.path, action: a.kind === "create" ? "created" : "updated" });
    }
  }
  if (report.failures.length > 0) {
    const first = report.failures[0]!;
    throw new Error(`could not write ${first.path}: ${first.error}`);
  }
  return actions;
}
