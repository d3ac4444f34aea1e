/**
 * The door of `cli/`: what other folders use of it. The command line's plumbing: arguments and
 * usage errors, the command spec and its `--help`, `--json` output and colour, and the library a
 * command works on.
 *
 * @module
 */

export {
  EXIT_OK,
  EXIT_PROBLEMS,
  flag,
  intOption,
  pathArgument,
  runCommand,
  stringOption,
  UsageError,
} from "./args.ts";
export { type CommandSpec } from "./help.ts";
export {
  describeFoundBy,
  librarianPathProblem,
  libraryJson,
  locateLibrary,
  noLibraryError,
  noLibraryMessage,
  requireLibrary,
} from "./locate_library.ts";
export { formatBytes, makeStyle, printJson, type Style } from "./output.ts";
