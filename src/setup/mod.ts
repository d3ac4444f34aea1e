/**
 * The door of `setup/`: what other folders use of it. The install and setup product, as far as the
 * core reads it: the hook wiring and the installation (`doctor`, `status`) and the quoting of hook
 * commands. The commands themselves (`setup-hooks`, `setup-gemini`, `install-cli`) are loaded
 * later.
 *
 * @module
 */

export { shSingleQuote } from "./hook_command.ts";
export { describeWiring, detectHookWiring, type HookWiring } from "./hooks_wiring.ts";
export {
  binaryName,
  currentRuntime,
  findPluginRoot,
  inspectPluginRoot,
  type PluginFiles,
  type Runtime,
} from "./install_check.ts";
export { cliLinkProblem } from "./install_cli.ts";
