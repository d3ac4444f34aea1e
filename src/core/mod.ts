/**
 * The door of `core/`: what other folders use of it. What every side shares, for the commands and
 * the products: paths, discovery, the environment, bounded reads, atomic writes, the walk, the log,
 * hook I/O and errors. The hooks import the modules inside directly, so that a hook loads only what
 * it runs.
 *
 * @module
 */

export { writeTextAtomic } from "./atomic.ts";
export { Boundary, BoundaryError } from "./boundary.ts";
export {
  findLibraryAbove,
  findLibraryForSession,
  isLibrary,
  type Library,
  LIBRARY_DIR_NAME,
  lookUpLibraryForSession,
  type OwnerCheck,
  refusalWarning,
  type RefusedLibrary,
  SCRATCH_FILE_NAME,
  scratchPathOf,
  trustsOwnersOf,
} from "./discover.ts";
export {
  claudeDir,
  type EnvReader,
  homeDir,
  logFile,
  nowFrom,
  processEnv,
  readBudget,
  refusalMessage,
  refusedSettings,
} from "./env.ts";
export { LibrarianError, messageOf } from "./errors.ts";
export { isDirectory, isFile, readFileBounded, readTextIfExists } from "./fs_probe.ts";
export { type HookEvent, HookInputError, parseHookEvent, provideStdinText } from "./hook_io.ts";
export { isObject, type Json } from "./json.ts";
export { scanLibrary, type ScannedFile, type ScannedFolder, servedFiles } from "./library_scan.ts";
export { loadLater } from "./load_later.ts";
export { type LogRecord, type LogValue } from "./log.ts";
export { ageOf, describeRecord, readProjectRuns, safeText } from "./log_tail.ts";
export {
  basenameOf,
  dirnameOf,
  isAbsolutePath,
  isLocalAbsolutePath,
  joinPath,
  normalizePath,
  type PathOs,
  relativeInside,
  resolveLocalPath,
} from "./paths.ts";
export { readAllSync } from "./read_all.ts";
export { decodeLibraryBytes, isRegularFile, readLibraryText, statStamp } from "./read_text.ts";
export { collectLibraryFiles, compareNames, isServedName, mirrorLevels } from "./walk.ts";
export { plural } from "./words.ts";
