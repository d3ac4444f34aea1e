/**
 * The door of `export/`: what other folders use of it. The export product: library folders as other
 * agents' rule files (the `export` command, the formats, the record `init --export` keeps, the
 * run), and the re-export after filing that `route` runs (the Stop hook's step loads
 * `after_filing.ts` later, by itself).
 *
 * @module
 */

export { reexportFiled } from "./after_filing.ts";
export { CONFIG_FILE_NAME, ConfigError, readLibraryConfig } from "./config.ts";
export { parseFormats } from "./export.ts";
export {
  EXPORT_FORMATS,
  type ExportFormat,
  FORMAT_LIMITS,
  MARKER_WORDS,
  outputPlace,
} from "./export_formats.ts";
export { type ExportAction } from "./export_plan.ts";
export { type ExportReport, runExport } from "./export_run.ts";
export { type RecordAction, recordExportFormats, recordFormats } from "./record.ts";
