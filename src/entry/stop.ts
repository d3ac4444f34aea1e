/**
 * `librarian stop` started directly (the launcher does this in source mode): the stop hook's
 * modules and nothing else, loaded in one pass. See `hook_process.ts`.
 *
 * @module
 */

import { run } from "../stop/stop_hook.ts";
import { runHookEntry } from "./hook_process.ts";

if (import.meta.main) await runHookEntry("stop", run);
