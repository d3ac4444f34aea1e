/**
 * `librarian inject` started directly (the launcher does this in source mode): the inject hook's
 * modules and nothing else, loaded in one pass. See `hook_process.ts`.
 *
 * @module
 */

import { run } from "../inject/inject_hook.ts";
import { runHookEntry } from "./hook_process.ts";

if (import.meta.main) await runHookEntry("inject", run);
